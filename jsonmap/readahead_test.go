package jsonmap_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
)

// skipOneCore skips where PlanFile never reads ahead.
func skipOneCore(t testing.TB) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("PlanFile reads ahead only with GOMAXPROCS > 1")
	}
}

// Read ahead in batches of every size, the two passes write what the
// in-memory encoder writes, or fail with its error, on every shape they
// stream and on inputs broken inside an array, at its end, and after it.
func TestReadAheadIsEncode(t *testing.T) {
	skipOneCore(t)
	rows := strings.Repeat(`{"id":"a\tb","n":1,"o":{"x":"é"}},`, 40)
	texts := []struct{ tool, json string }{
		{"t", `[` + rows + `{"id":"z","n":2,"o":{"x":"y"}}]`},
		{"t", `{"total":3,"items":[` + rows + `{"id":"z"}],"more":[1,2,3]}`},
		{"t", `[` + rows + `{"id":"z",]`},   // broken inside an element
		{"t", `[` + rows + `{"id":"z"}`},    // the array never ends
		{"t", `[` + rows + `{"id":"z"}] x`}, // something after it
		{"t", `[` + rows + `{"id":"z","id":1}]`},
	}
	for _, c := range fileShapes {
		texts = append(texts, struct{ tool, json string }{c.tool, c.json})
	}
	for _, c := range shapeCases {
		texts = append(texts, struct{ tool, json string }{c.tool, c.json})
	}
	for _, size := range [][2]int{{1, 1 << 20}, {2, 1 << 20}, {3, 1 << 20}, {256, 16}, {256, 64 << 10}} {
		restore := jsonmap.ReadAheadFor(size[0], size[1])
		for _, c := range texts {
			checkSameAsInMemory(t, c.tool, []byte(c.json), spec.DefaultLimits)
			checkSameAsInMemory(t, c.tool, []byte(c.json), spec.Limits{MaxLineBytes: 40, MaxRows: 3})
		}
		restore()
	}
}

// TestPropertyReadAheadIsEncode is TestPropertyEncodeFileIsEncode with the
// elements read ahead in small batches.
func TestPropertyReadAheadIsEncode(t *testing.T) {
	skipOneCore(t)
	layouts := jsonmap.Layouts()
	gen.Check(t, 1000, func(t *rapid.T) {
		restore := jsonmap.ReadAheadFor(rapid.IntRange(1, 4).Draw(t, "batch"), rapid.IntRange(1, 64).Draw(t, "batch bytes"))
		defer restore()
		var v jsonmap.Value
		tool := tools.Draw(t, "tool")
		switch rapid.IntRange(0, 2).Draw(t, "source") {
		case 0:
			v = jsongen.Value().Draw(t, "value")
		case 1:
			v = jsongen.Table(nil, nil).Draw(t, "table")
		case 2:
			l := rapid.SampledFrom(layouts).Draw(t, "layout")
			tool = l.Tool
			v = jsongen.Fitting(l).Draw(t, "value")
		}
		limits := spec.DefaultLimits
		if rapid.Bool().Draw(t, "tight limits") {
			limits = spec.Limits{MaxLineBytes: rapid.IntRange(8, 200).Draw(t, "line"), MaxRows: rapid.IntRange(1, 5).Draw(t, "rows")}
		}
		checkSameAsInMemory(t, tool, jsongen.Text(t, v), limits)
	})
}

// A write that fails while rows are written (the encoder flushes every
// 64 KiB) stops the reading goroutine, and the plan is left usable: Encode
// again writes the whole payload.
func TestReadAheadStopsOnFailure(t *testing.T) {
	skipOneCore(t)
	defer jsonmap.ReadAheadFor(2, 1<<20)()
	text := []byte(`[` + strings.Repeat(`{"a":"`+strings.Repeat("x", 60)+`","b":2},`, 5000) + `{"a":"y","b":3}]`)
	want, err := jsonmap.Encode("t", text)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := jsonmap.PlanFile("t", bytes.NewReader(text), int64(len(text)))
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for _, after := range []int{0, 1, 100 << 10, 200 << 10} {
		w := &writerFullAfter{left: after}
		if err := plan.Encode(w, spec.DefaultLimits); !errors.Is(err, errFull) {
			t.Fatalf("a writer failing after %d bytes: Encode = %v", after, err)
		}
	}
	// A goroutine that has signalled it is done may take a moment more
	// to end; one that was never stopped does not end at all.
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); n > before && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	if n > before {
		t.Errorf("%d goroutines before the failed writes, %d after", before, n)
	}
	var out bytes.Buffer
	if err := plan.Encode(&out, spec.DefaultLimits); err != nil || !bytes.Equal(out.Bytes(), want) {
		t.Errorf("Encode after the failures: %v, %d bytes, want %d", err, out.Len(), len(want))
	}
}

var errFull = fmt.Errorf("full")

type writerFullAfter struct{ left int }

func (w *writerFullAfter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, errFull
	}
	w.left -= len(p)
	return len(p), nil
}
