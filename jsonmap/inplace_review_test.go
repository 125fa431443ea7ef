//go:build unix

package jsonmap_test

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// TestDecodeStringAtAPageEnd: DecodeString of a payload that ends at the
// last byte of a read-only page, or a few bytes before it, where the
// decoder reads all but the payload's tail in place and copies the tail,
// gives what Decode gives, byte for byte and error for error; and neither
// a load past the page nor a write into the payload (both would fault)
// happens. A payload on the heap takes that way once in 256, so the
// mapping's other tests seldom see it.
func TestDecodeStringAtAPageEnd(t *testing.T) {
	size := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("cannot map pages: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Skipf("cannot protect a page: %v", err)
	}
	page := mem[:size:size]
	var payloads []string
	for _, c := range shapeCases {
		payloads = append(payloads, c.gcx)
		// Cut short at a few places near the end.
		for _, cut := range []int{1, 2, 5, 17, 40} {
			if cut < len(c.gcx) {
				payloads = append(payloads, c.gcx[:len(c.gcx)-cut])
			}
		}
	}
	for _, payload := range payloads {
		if len(payload)+40 > len(page) {
			continue
		}
		for _, gap := range []int{0, 1, 15, 16, 17, 40} {
			if err := syscall.Mprotect(page, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
				t.Fatal(err)
			}
			held := page[len(page)-gap-len(payload) : len(page)-gap]
			copy(held, payload)
			if err := syscall.Mprotect(page, syscall.PROT_READ); err != nil {
				t.Fatal(err)
			}
			wantOut, wantErr := jsonmap.Decode([]byte(payload))
			got, err := jsonmap.DecodeString(unsafe.String(unsafe.SliceData(held), len(held)))
			if string(got) != string(wantOut) || fmt.Sprint(err) != fmt.Sprint(wantErr) || spec.ClassName(err) != spec.ClassName(wantErr) {
				t.Errorf("%q, %d bytes before the page's end: DecodeString gives %q, %v; Decode gives %q, %v",
					payload, gap, got, err, wantOut, wantErr)
			}
		}
	}
	if err := syscall.Mprotect(page, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
		t.Fatal(err)
	}
}
