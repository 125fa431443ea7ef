//go:build unix

package streaming

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// guardedPage maps three pages and leaves only the middle one readable and
// writable, so that a load one byte before or after it faults. The encoder
// reads the caller's strings in place, in vectors; this is where a vector
// that reaches past a string's end would show.
func guardedPage(t *testing.T) []byte {
	t.Helper()
	size := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("cannot map pages for the guard-page test: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[:size], syscall.PROT_NONE); err != nil {
		t.Skipf("cannot protect a page: %v", err)
	}
	if err := syscall.Mprotect(mem[2*size:], syscall.PROT_NONE); err != nil {
		t.Skipf("cannot protect a page: %v", err)
	}
	return mem[size : 2*size : 2*size]
}

// guardTexts are values of every kind the encoder's scanners tell apart:
// plain ASCII, ASCII with each byte it escapes, text in other scripts,
// mixed, and invalid UTF-8 (a stray byte, a sequence cut by the end).
func guardTexts() []string {
	var texts []string
	for _, unit := range []string{"a", "ab\tc", `x\y`, "line\r\n", "é", "naïve ", "日本語", "\xff", "ok\xe6\x97"} {
		for _, n := range []int{0, 1, 2, 3, 5, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 300} {
			texts = append(texts, strings.Repeat(unit, n))
		}
	}
	return texts
}

// Every value, placed so that it ends at the last byte of a readable page
// and so that it begins at the first, encodes and validates exactly as a
// copy of it on the heap does, and without a fault: no scanner loads a
// byte outside the value where that byte could be unmapped.
func TestGuardPagesAroundValues(t *testing.T) {
	page := guardedPage(t)
	for _, text := range guardTexts() {
		if len(text) > len(page) {
			continue
		}
		for _, at := range []int{len(page) - len(text), 0} {
			held := page[at : at+len(text)]
			copy(held, text)
			s := unsafe.String(unsafe.SliceData(held), len(held))
			if got, want := validUTF8(held), utf8.ValidString(text); got != want {
				t.Errorf("validUTF8(%q) at offset %d of the page = %v, want %v", text, at, got, want)
			}
			got, gotOK := appendValue(nil, s)
			want, wantOK := appendValue(nil, strings.Clone(text))
			if gotOK != wantOK || !bytes.Equal(got, want) {
				t.Errorf("appendValue(%q) at offset %d of the page = %q, %v; on the heap %q, %v", text, at, got, gotOK, want, wantOK)
			}
			var buf bytes.Buffer
			enc := NewEncoder(&buf)
			if err := enc.WriteHeader(&Header{Tool: "t", Fields: []string{"v"}}); err != nil {
				t.Fatal(err)
			}
			werr := enc.WriteRow([]string{s})
			if werr == nil {
				werr = enc.Close()
			}
			if (werr == nil) != wantOK {
				t.Errorf("WriteRow(%q) at offset %d of the page: error %v, the value is valid UTF-8: %v", text, at, werr, wantOK)
			}
		}
	}
}

// A payload that NewDecoderString reads in place, ending at the last byte
// of a readable page or a few bytes before it, decodes as the reference
// decodes it, and without a fault: where the room the row scanner may load
// past a line would cross the page's end, the decoder stops short of the
// string's end by that room and reads its last bytes into a buffer of its
// own.
func TestGuardPagesAfterPayloadsInPlace(t *testing.T) {
	page := guardedPage(t)
	var payloads []string
	for _, text := range guardTexts() {
		for _, tail := range []string{"\n", "", "\t\n", "\n#c\n", "\nx\n"} {
			payloads = append(payloads, "GCX1 tool=t fields=v\n"+text+tail)
		}
		payloads = append(payloads, "GCX1 tool=t fields=v,w rows=2\n"+text+"\tw\n"+"a\t"+text+"\n")
	}
	for n := range 40 {
		payloads = append(payloads, ("GCX1 tool=t fields=a\n" + strings.Repeat("x\n", 20))[:n])
	}
	for _, payload := range payloads {
		if len(payload) > len(page) {
			continue
		}
		want, err := expect([]byte(payload), spec.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		// The bytes between the payload and the page's end, if any,
		// are LFs and TABs, which a scan that marked what it loaded
		// past its bytes would take for the payload's.
		for _, gap := range []int{0, 1, bufferSlack - 1, bufferSlack, bufferSlack + 1, 40} {
			if len(payload)+gap > len(page) {
				continue
			}
			held := page[len(page)-gap-len(payload) : len(page)-gap]
			copy(held, payload)
			for i := len(page) - gap; i < len(page); i++ {
				page[i] = "\n\t"[i%2]
			}
			s := unsafe.String(unsafe.SliceData(held), len(held))
			if room := scanRoomAfter(s); len(s) > 0 && room != (gap >= bufferSlack) {
				t.Errorf("%d bytes before the page's end: scanRoomAfter = %v", gap, room)
			}
			for _, reuse := range []bool{false, true} {
				for _, portable := range []bool{false, true} {
					d := NewDecoderString(s)
					d.ReuseRecord, d.portable = reuse, portable
					got, err, problem := drain(d)
					where := fmt.Sprintf("%q, %d bytes before the page's end, reuse %v, portable %v", payload, gap, reuse, portable)
					if problem != "" {
						t.Fatalf("%s: %s", where, problem)
					}
					if diff := diffEvents(got, want.events); diff != "" {
						t.Errorf("%s: items differ (-reference +streaming):\n%s", where, diff)
					}
					if diff := diffError(err, want.err); diff != "" {
						t.Errorf("%s: error differs (-reference +streaming):\n%s", where, diff)
					}
				}
			}
		}
	}
}
