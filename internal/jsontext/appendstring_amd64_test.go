//go:build !purego && unix

package jsontext

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// TestAppendEscapedAsWords holds the SSE2 appendEscaped to its portable
// Go form, appendEscapedWords: on every length from 0 to 70, with bytes
// drawn from all 256 values (and runs dense in escapes), at every offset
// from a page's end up to 80 bytes before it (the tail the vector code
// takes a byte at a time; the next page is unmapped, so a load past it
// faults), and with room from the least allowed, where an
// escape stops both, to plenty. Both must read and write the same, and
// neither write past its room.
func TestAppendEscapedAsWords(t *testing.T) {
	// Two pages, the second unreadable: the string is placed to end at
	// or near the first one's end.
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("cannot map pages: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skipf("cannot protect a page: %v", err)
	}
	pageEnd := page
	rng := rand.New(rand.NewPCG(38, 1))
	draws := []func() byte{
		func() byte { return byte(rng.IntN(256)) },
		func() byte { return "a\"\\\t\n\x00\x1f\x7f\xff"[rng.IntN(9)] },
		func() byte { return byte('a' + rng.IntN(26)) },
	}
	seen := [256]bool{}
	for n := 0; n <= 70; n++ {
		for try := range 40 {
			draw := draws[try%len(draws)]
			end := pageEnd - rng.IntN(81)
			if try%5 == 0 {
				end = pageEnd
			}
			src := mem[end-n : end]
			for i := range src {
				src[i] = draw()
				seen[src[i]] = true
			}
			for _, room := range []int{n + 16, n + 17, n + 21, n + 40, 6*n + 16} {
				got, want := make([]byte, room+32), make([]byte, room+32)
				for i := range got {
					got[i], want[i] = '#', '#'
				}
				gr, gw := appendEscaped(unsafe.SliceData(got), room, unsafe.SliceData(src), n)
				wr, ww := appendEscapedWords(unsafe.SliceData(want), room, unsafe.SliceData(src), n)
				if gr != wr || gw != ww || !bytes.Equal(got[:gw], want[:ww]) {
					t.Fatalf("appendEscaped(%q) with room %d = %d, %d, %q; appendEscapedWords: %d, %d, %q", src, room, gr, gw, got[:gw], wr, ww, want[:ww])
				}
				if !bytes.Equal(got[room:], bytes.Repeat([]byte("#"), 32)) || !bytes.Equal(want[room:], bytes.Repeat([]byte("#"), 32)) {
					t.Fatalf("appendEscaped(%q) with room %d wrote past it", src, room)
				}
				if room == 6*n+16 && gr != n {
					t.Fatalf("appendEscaped(%q) with room %d read %d bytes, want all", src, room, gr)
				}
			}
		}
	}
	for c, ok := range seen {
		if !ok {
			t.Fatalf("byte %#x never drawn", c)
		}
	}
}
