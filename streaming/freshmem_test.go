package streaming

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// stale is the byte dirtyHeap leaves in the memory it frees.
const stale = 0xA5

// dirtyHeap allocates and drops blocks of the decoder's buffer sizes full
// of stale bytes, then collects them, so that the decoder's next buffers
// are likely to be cut from memory that held them.
func dirtyHeap() {
	for _, size := range []int{initialBuffer + bufferSlack, fullBuffer + bufferSlack, 160 << 10} {
		for range 4 {
			b := make([]byte, size)
			for i := range b {
				b[i] = stale
			}
			dirtySink = b
		}
	}
	dirtySink = nil
	runtime.GC()
}

var dirtySink []byte

// longValuesPayload is rows of values of size bytes, each distinct, with a
// few short rows and a comment between them.
func longValuesPayload(rows, size int) []byte {
	var b strings.Builder
	b.WriteString("GCX1 tool=read_logs fields=path,text\n")
	for i := range rows {
		fmt.Fprintf(&b, "logs/%d.log\t%d%s\n", i, i, strings.Repeat(string(rune('a'+i%26)), size))
		if i%7 == 0 {
			fmt.Fprintf(&b, "#after %d\nshort\\t%d\tv\n", i, i)
		}
	}
	return []byte(b.String())
}

// The sealed buffers of a stream read from a bytes.Reader, strings.Reader
// or bytes.Buffer are not zeroed before the reader fills them. What the
// decoder hands out must still be only what the reader wrote, and stay so:
// rows, comments and headers kept from Next are the reference's however
// much memory is freed and reused while and after they are read.
func TestUnzeroedBuffersKeepTheirRows(t *testing.T) {
	aliased, _ := aliasPayload(3000)
	payloads := [][]byte{fiveRows(), []byte(aliased), longValuesPayload(40, 10<<10), longValuesPayload(3, 100<<10)}
	readers := map[string]func([]byte) io.Reader{
		"bytes.Reader":   func(p []byte) io.Reader { return bytes.NewReader(p) },
		"strings.Reader": func(p []byte) io.Reader { return strings.NewReader(string(p)) },
		"bytes.Buffer":   func(p []byte) io.Reader { return bytes.NewBuffer(bytes.Clone(p)) },
	}
	for name, reader := range readers {
		for _, payload := range payloads {
			want, err := reference.Decode(payload)
			if err != nil {
				t.Fatal(err)
			}
			dirtyHeap()
			d := NewDecoder(reader(payload))
			got := &spec.Payload{}
			for i := 0; ; i++ {
				kind, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch kind {
				case KindHeader:
					h := d.Header()
					got.Sections = append(got.Sections, spec.Section{Tool: h.Tool, Fields: h.Fields, Meta: h.Meta})
				case KindRow:
					s := &got.Sections[len(got.Sections)-1]
					s.Rows = append(s.Rows, d.Row())
				case KindComment:
					s := &got.Sections[len(got.Sections)-1]
					s.Comments = append(s.Comments, d.Comment())
				}
				if i%500 == 0 {
					dirtyHeap()
				}
			}
			dirtyHeap()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %.30q: the rows kept differ from the reference's", name, payload)
			}
		}
	}
}

// zeroChecking is a reader of a type the decoder does not know: it fails
// the test if the room it is handed holds anything it did not write, as a
// reader may look at p (io.Reader lets it use p as scratch space).
type zeroChecking struct {
	r *strings.Reader
	t *testing.T
}

func (z zeroChecking) Read(p []byte) (int, error) {
	if i := bytes.IndexFunc(p, func(r rune) bool { return r != 0 }); i >= 0 {
		z.t.Errorf("a Read was handed room holding %#x at %d of %d: memory nobody wrote for it", p[i], i, len(p))
	}
	return z.r.Read(p)
}

// Only the three readers whose Read copies into p and reads nothing of it
// get unzeroed buffers: any other reader of a fresh stream is handed zeroed
// room, never memory the decoder's process used for something else.
func TestOtherReadersGetZeroedBuffers(t *testing.T) {
	for _, payload := range [][]byte{fiveRows(), longValuesPayload(40, 10<<10)} {
		dirtyHeap()
		d := NewDecoder(zeroChecking{strings.NewReader(string(payload)), t})
		for i := 0; ; i++ {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
			if i%10 == 0 {
				dirtyHeap()
			}
		}
	}
}

// A fresh stream's buffers are never reused, so each is a new allocation:
// past the full size they double up to sealedBuffer, and a reader that
// tells its length gets one of that size at once. 2 MB of 10 KiB values
// then take at most 9 buffers from a sized reader and 12 from another,
// where they took 34 and 36 of 64 KiB.
func TestSealedBuffersAreFewAndLarge(t *testing.T) {
	payload := longValuesPayload(200, 10<<10)
	// Each buffer reads at least sealedBuffer bytes, less the row that
	// straddles the one before.
	most := (len(payload) + sealedBuffer - 11<<10 - 1) / (sealedBuffer - 11<<10)
	for _, c := range []struct {
		name string
		r    io.Reader
		most int
	}{
		{"bytes.Reader", bytes.NewReader(payload), most},
		// 4 KiB, 64 KiB and 128 KiB come first.
		{"unsized", unsized{bytes.NewReader(payload)}, most + 3},
	} {
		d := NewDecoder(c.r)
		buffers := 0
		var last *byte
		for {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
			if &d.buf[0] != last {
				last = &d.buf[0]
				buffers++
			}
		}
		if buffers > c.most {
			t.Errorf("%s: %d buffers for %d bytes, want at most %d", c.name, buffers, len(payload), c.most)
		}
	}
}

// The buffers newBuffer takes without zeroing are the runtime's memory as
// it was. Blocks of their size, held together and filled with stale bytes,
// take the lowest free pages (the runtime's page allocator takes the lowest
// that fit); collected, they leave those pages to the next buffer, whose
// room no Read has written yet shows the stale bytes. Where buffers were
// zeroed, as every buffer was before, it shows none. The docs
// (docs/performance.md) name the least such buffer: 32 KiB, where the
// runtime's large objects begin; a smaller one, which costs less to zero
// than to take through a strings.Builder, is zeroed.
func TestSealedBuffersSkipZeroing(t *testing.T) {
	for _, c := range []struct {
		size   int
		zeroed bool
	}{
		{32<<10 - 1, true},
		{32 << 10, false},
		{sealedBuffer, false},
	} {
		if got := staleRoom(c.size); got == c.zeroed {
			t.Errorf("a sealed buffer of %d bytes from a bytes.Reader: stale bytes in its room = %v, want %v", c.size, got, !c.zeroed)
		}
	}
}

// staleRoom reports whether any of twenty sealed buffers of size bytes that
// newBuffer takes for a bytes.Reader, each after blocks of that size full
// of stale bytes were collected, shows a stale byte. One nearly always
// does where they are not zeroed; more tries cover the runtime's
// scavenger, which may hand freed pages back to the system, to return
// zeroed, between the collection and the allocation.
func staleRoom(size int) bool {
	payload := longValuesPayload(40, 10<<10)
	for range 20 {
		held := make([][]byte, 64)
		for i := range held {
			held[i] = bytes.Repeat([]byte{stale}, size+bufferSlack)
		}
		held = nil
		runtime.GC()
		d := NewDecoder(bytes.NewReader(payload))
		d.sealed = true // as Next sets it without ReuseRecord
		buf := d.newBuffer(size)
		if bytes.IndexByte(buf[:size], stale) >= 0 {
			return true
		}
	}
	return false
}
