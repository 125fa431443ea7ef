package conformancetest

import (
	"sync"
	"testing"
	"time"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/spec"
)

// (The reference runs every vector through Run in its own package's tests.)

// RunWith bounds how many vectors run at once: with Parallel 1 no two
// decodes overlap, though every subtest is parallel and each decode waits
// a moment to give another the chance.
func TestRunWithParallel(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	impl := conformance.Reference()
	decode := impl.Decode
	impl.Decode = func(payload []byte, limits conformance.Limits) (*spec.Payload, error) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(time.Millisecond)
		defer func() {
			mu.Lock()
			running--
			mu.Unlock()
		}()
		return decode(payload, limits)
	}
	match := func(name string) bool { return len(name) > 0 && name[len(name)-1]%4 == 0 }
	t.Run("run", func(t *testing.T) {
		RunWith(t, impl, conformance.Options{Categories: []string{conformance.CategoryReject}, Match: match, Parallel: 1})
	})
	if most != 1 {
		t.Errorf("%d decodes at once with Parallel 1", most)
	}
}

// RunFor runs a draft's vectors: the template draft passes every one it
// inherits, respelled with its tag.
func TestRunForADraft(t *testing.T) {
	RunFor(t, "GCX2-draft.90", conformance.CodecImplementation(codec.NewTemplate("GCX2-draft.90")), conformance.Options{})
}
