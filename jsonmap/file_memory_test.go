package jsonmap_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// generatedArray is a JSON text made on the fly, never held: prefix, n
// copies of a 24-byte object {"a":N,"b":"x"} (N of ten digits, so every
// element has the same width) separated by commas, and suffix. It samples
// the heap on every read.
type generatedArray struct {
	prefix, suffix string
	n              int64
	heap           *heapPeak
	elem           []byte // the text of element elemAt
	elemAt         int64
}

const elemWidth = 24 // {"a":1000000000,"b":"x"}

func (g *generatedArray) size() int64 {
	return int64(len(g.prefix)) + 2 + g.n*(elemWidth+1) - 1 + int64(len(g.suffix))
}

func (g *generatedArray) ReadAt(p []byte, off int64) (int, error) {
	g.heap.sample()
	size := g.size()
	n := 0
	for n < len(p) && off < size {
		q := off - int64(len(g.prefix))
		switch {
		case q < 0:
			p[n] = g.prefix[off]
		case q == 0:
			p[n] = '['
		case off >= size-int64(len(g.suffix)):
			p[n] = g.suffix[off-(size-int64(len(g.suffix)))]
		case off == size-int64(len(g.suffix))-1:
			p[n] = ']'
		default:
			i, r := (q-1)/(elemWidth+1), (q-1)%(elemWidth+1)
			if r == elemWidth {
				p[n] = ','
				break
			}
			if i != g.elemAt || g.elem == nil {
				g.elemAt = i
				g.elem = append(append(append(g.elem[:0], `{"a":`...), strconv.FormatInt(1_000_000_000+i, 10)...), `,"b":"x"}`...)
			}
			k := copy(p[n:], g.elem[r:])
			n += k - 1
			off += int64(k - 1)
		}
		n++
		off++
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// heapPeak records the largest heap seen, from runtime/metrics, which does
// not stop the world (as streaming's TestMemoryFlat does).
type heapPeak struct {
	samples []metrics.Sample
	peak    uint64
	count   int
}

func newHeapPeak() *heapPeak {
	return &heapPeak{samples: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
}

func (h *heapPeak) read() uint64 {
	metrics.Read(h.samples)
	return h.samples[0].Value.Uint64()
}

func (h *heapPeak) sample() {
	h.peak = max(h.peak, h.read())
	h.count++
}

// lineCounter counts the lines written to it and keeps the first.
type lineCounter struct {
	lines, bytes int64
	first        []byte
}

func (c *lineCounter) Write(p []byte) (int, error) {
	if c.lines == 0 {
		end := bytes.IndexByte(p, '\n')
		if end < 0 {
			end = len(p) - 1
		}
		c.first = append(c.first, p[:end+1]...)
	}
	c.lines += int64(bytes.Count(p, []byte{'\n'}))
	c.bytes += int64(len(p))
	return len(p), nil
}

// encodeFileHeapBound is the most the heap may grow while a table of tiny
// objects is planned and written, however many rows it has: the arenas
// of one element, the reader's and encoder's buffers, and the garbage of
// a few elements that the collector has not yet taken.
const encodeFileHeapBound = 16 << 20

// TestEncodeFileMemoryBounded: a table of tiny objects, as the root array
// and as a member of a root object, is planned and written with a heap
// that grows by no more than encodeFileHeapBound, 30 MB of JSON by
// default and 200 MB with GCX_ENCODE_BIG=1 (where the in-memory encoder
// held 35 times the input).
func TestEncodeFileMemoryBounded(t *testing.T) {
	size := int64(30_000_000)
	if os.Getenv("GCX_ENCODE_BIG") == "1" {
		size = 200_000_000
	}
	for _, shape := range []struct{ name, prefix, suffix, header string }{
		{"array", "", "", "GCX1 tool=t fields=a,b rows=%d\n"},
		{"member", `{"total":1,"items":`, "}", "GCX1 tool=t fields=a,b json=object rows=%d total=1 items=@\n"},
	} {
		t.Run(shape.name, func(t *testing.T) {
			heap := newHeapPeak()
			g := &generatedArray{prefix: shape.prefix, suffix: shape.suffix, heap: heap}
			g.n = (size - int64(len(shape.prefix)+len(shape.suffix)) - 1) / (elemWidth + 1)
			runtime.GC()
			before := heap.read()
			heap.peak = before
			start := time.Now()
			plan, err := jsonmap.PlanFile("t", g, g.size())
			if err != nil {
				t.Fatal(err)
			}
			out := &lineCounter{}
			if err := plan.Encode(out, spec.DefaultLimits); err != nil {
				t.Fatal(err)
			}
			elapsed := time.Since(start)
			growth := int64(heap.peak) - int64(before)
			t.Logf("%d MB of JSON, %d rows, %d MB of GCX1 in %v; heap %.1f MiB before, peak +%.1f MiB over %d samples",
				g.size()/1e6, g.n, out.bytes/1e6, elapsed.Round(time.Millisecond), float64(before)/(1<<20), float64(growth)/(1<<20), heap.count)
			if out.lines != g.n+1 {
				t.Errorf("wrote %d lines, want %d rows and a header", out.lines, g.n+1)
			}
			if want := fmt.Sprintf(shape.header, g.n); string(out.first) != want {
				t.Errorf("header %q, want %q", out.first, want)
			}
			if growth > encodeFileHeapBound {
				t.Errorf("heap grew by %.1f MiB, more than the bound of %d MiB", float64(growth)/(1<<20), encodeFileHeapBound>>20)
			}
		})
	}
}

// TestGeneratedArrayIsJSON: the generated text is the array it says, so
// the memory test measures what it claims to.
func TestGeneratedArrayIsJSON(t *testing.T) {
	g := &generatedArray{prefix: `{"x":`, suffix: "}", n: 3, heap: newHeapPeak()}
	text, err := io.ReadAll(io.NewSectionReader(g, 0, g.size()))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"x":[{"a":1000000000,"b":"x"},{"a":1000000001,"b":"x"},{"a":1000000002,"b":"x"}]}`
	if string(text) != want {
		t.Fatalf("generated %q, want %q", text, want)
	}
}
