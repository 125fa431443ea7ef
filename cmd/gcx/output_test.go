package main

import (
	"bytes"
	"runtime"
	"testing"
)

// The result holds what is written to it, in order, whatever the sizes of
// the writes, until Commit or until it holds more than holdLimit.
func TestResultHoldsThenPasses(t *testing.T) {
	for _, size := range []int{1, 1000, holdChunk - 1, holdChunk, holdChunk + 7, 3 * holdChunk, holdLimit + 1} {
		var w bytes.Buffer
		r := newResult(&w)
		var want []byte
		for i := 0; len(want) < holdLimit+3*holdChunk; i++ {
			p := bytes.Repeat([]byte{byte('a' + i%26)}, size)
			if n, err := r.Write(p); n != len(p) || err != nil {
				t.Fatalf("writes of %d: Write = %d, %v", size, n, err)
			}
			if held := len(want) + len(p); held <= holdLimit && w.Len() != 0 {
				t.Fatalf("writes of %d: %d bytes out while %d are held", size, w.Len(), held)
			}
			want = append(want, p...)
			if len(want) > holdLimit && w.Len() != len(want) {
				t.Fatalf("writes of %d: %d bytes out past the hold limit, want %d", size, w.Len(), len(want))
			}
		}
		if err := r.Commit(); err != nil || !bytes.Equal(w.Bytes(), want) {
			t.Fatalf("writes of %d: Commit = %v, %d bytes out, want %d equal", size, err, w.Len(), len(want))
		}
	}
	var w bytes.Buffer
	r := newResult(&w)
	r.Write(bytes.Repeat([]byte("x"), 3*holdChunk+5))
	r.Abandon(abandonedGCX)
	if err := r.Commit(); err != nil || w.Len() != 0 {
		t.Errorf("abandoned within the hold limit: %d bytes out, %v", w.Len(), err)
	}
}

// Holding 4 MiB allocates about 4 MiB: a slice grown by append to the hold
// limit allocated 5 times that, in fresh memory gcx encode paid for with a
// page fault a page, nearly 40% of its time on a large input.
func TestResultHoldsWithoutRegrowing(t *testing.T) {
	p := make([]byte, 64<<10) // a streaming.Encoder's flush
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := newResult(discard{})
	for range holdLimit / len(p) {
		r.Write(p)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > holdLimit+holdLimit/8 {
		t.Errorf("holding %d bytes allocated %d", holdLimit, got)
	}
	if err := r.Commit(); err != nil {
		t.Fatal(err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
