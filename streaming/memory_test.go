package streaming

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

var big = flag.Bool("gcx.big", false, "make TestMemoryFlat decode 1 GiB instead of 64 MiB")

// heapBound is the most the heap may grow above where it stood before
// decoding with ReuseRecord, however long the payload. Without ReuseRecord
// every row is garbage a moment later, and how much of it is on the heap at
// once is up to the collector's pacing (GOGC), not the decoder;
// garbageBound allows for that, and after a collection nothing may be left.
const (
	heapBound    = 16 << 20
	garbageBound = 32 << 20
	leftBound    = 1 << 20
)

// generatedPayload is an io.Reader that writes one section of at least size
// bytes on the fly: a header with the exact rows= count [META-4], then a
// block of search_symbols rows — escapes, guards, non-ASCII and a comment
// among them — repeated. Nothing but the block is ever held in memory.
type generatedPayload struct {
	header, block []byte
	blocks        int64 // blocks still to write
	pending       []byte
	heap          *heapSampler
}

var memoryBlock = func() string {
	var b strings.Builder
	for i := range 64 {
		fmt.Fprintf(&b, "internal/pkg%d/file%d.go::Func%d\tfunction\tFunc%d\tinternal/pkg%d/file%d.go\t%d\tfunc Func%d(ctx context.Context, n int) (string, error)\n",
			i%7, i, i, i, i%7, i, 10*i+1, i)
		switch i % 16 {
		case 3:
			b.WriteString("\\#tag\tmethod\tx\\ty\tpath/é/日本.go\t0\tif err != nil {\\n\\treturn err\\n}\n")
		case 9:
			b.WriteString("# a comment between rows\n")
		case 12:
			b.WriteString("\\GCX1 value\t\t\t\t\t\n")
		}
	}
	return b.String()
}()

func newGeneratedPayload(size int64, heap *heapSampler) (*generatedPayload, int64) {
	rowsPerBlock := int64(strings.Count(memoryBlock, "\n") - strings.Count(memoryBlock, "\n#"))
	blocks := (size + int64(len(memoryBlock)) - 1) / int64(len(memoryBlock))
	rows := blocks * rowsPerBlock
	header := fmt.Sprintf("GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=%d truncated=false\n", rows)
	g := &generatedPayload{header: []byte(header), block: []byte(memoryBlock), blocks: blocks, heap: heap}
	g.pending = g.header
	return g, rows
}

func (g *generatedPayload) Read(p []byte) (int, error) {
	g.heap.sample()
	n := 0
	for n < len(p) {
		if len(g.pending) == 0 {
			if g.blocks == 0 {
				break
			}
			g.blocks--
			g.pending = g.block
		}
		k := copy(p[n:], g.pending)
		g.pending = g.pending[k:]
		n += k
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// heapSampler records the largest heap seen. It reads runtime/metrics,
// which, unlike runtime.ReadMemStats, does not stop the world, so it can
// sample on every read the decoder makes (every 64 KiB of input): between
// two samples the decoder handles one buffer of input, and any allocation
// it made would still be on the heap, not yet swept, at the next sample
// unless a collection ran in between — in which case it was garbage.
type heapSampler struct {
	samples []metrics.Sample
	peak    uint64
	count   int
}

func newHeapSampler() *heapSampler {
	return &heapSampler{samples: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
}

// read returns the bytes of live objects and of dead ones not yet swept:
// what runtime.MemStats calls HeapAlloc.
func (h *heapSampler) read() uint64 {
	metrics.Read(h.samples)
	return h.samples[0].Value.Uint64()
}

func (h *heapSampler) sample() {
	h.peak = max(h.peak, h.read())
	h.count++
}

// mallocs counts the objects allocated so far. It stops the world, so it is
// read only before and after decoding.
func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// TestMemoryFlat decodes a payload generated on the fly — 64 MiB by default,
// 1 GiB with -gcx.big — and checks that the heap never grows more than
// heapBound above where it stood with ReuseRecord (garbageBound without),
// that nothing stays behind, and that with ReuseRecord the rows cost no
// allocation at all.
func TestMemoryFlat(t *testing.T) {
	size := int64(64 << 20)
	if *big {
		size = 1 << 30
	}
	for _, reuse := range []bool{true, false} {
		t.Run(fmt.Sprintf("reuse=%v", reuse), func(t *testing.T) {
			heap := newHeapSampler()
			src, rows := newGeneratedPayload(size, heap)
			runtime.GC()
			before := heap.read()
			heap.peak = before
			allocsBefore := mallocs()

			d := NewDecoder(src)
			d.ReuseRecord = reuse
			start := time.Now()
			var got, valueBytes int64
			for {
				kind, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if kind == KindRow {
					got++
					for _, v := range d.Row() {
						valueBytes += int64(len(v))
					}
				}
			}
			elapsed := time.Since(start)
			allocsAfter := mallocs()
			runtime.GC()
			left := int64(heap.read()) - int64(before)
			runtime.KeepAlive(d)

			if got != rows {
				t.Fatalf("decoded %d rows, want %d", got, rows)
			}
			growth := int64(heap.peak) - int64(before)
			allocs := allocsAfter - allocsBefore
			t.Logf("%d MiB, %d rows, %d value bytes in %v (%.2f GB/s); heap %.2f MiB before, peak %.2f MiB (+%.2f MiB) over %d samples, +%.2f MiB after a collection; %d objects allocated (%.4f per row)",
				d.InputOffset()>>20, rows, valueBytes, elapsed.Round(time.Millisecond), float64(d.InputOffset())/elapsed.Seconds()/1e9,
				float64(before)/(1<<20), float64(heap.peak)/(1<<20), float64(growth)/(1<<20), heap.count, float64(left)/(1<<20), allocs, float64(allocs)/float64(rows))
			if d.InputOffset() < size {
				t.Errorf("decoded only %d bytes", d.InputOffset())
			}
			bound := int64(heapBound)
			if !reuse {
				bound = garbageBound
			}
			if growth > bound {
				t.Errorf("heap grew by %d bytes, more than the bound of %d", growth, bound)
			}
			if left > leftBound {
				t.Errorf("%d bytes more on the heap after decoding and a collection", left)
			}
			// The header, its fields and the buffer are allocated once;
			// with ReuseRecord nothing else is.
			if reuse && allocs > 100 {
				t.Errorf("%d objects allocated for %d rows with ReuseRecord", allocs, rows)
			}
		})
	}
}
