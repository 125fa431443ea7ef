//go:build unix

package streaming

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

// appendValue's loop over UTF-8 sequences, which it takes where the rest
// of a value from its first byte that is not ASCII has bytes to escape,
// copies a sequence with one 4-byte store only where four bytes of the
// value are left from it: a value ending in a 2- or 3-byte sequence, or a
// 4-byte one, placed at the last bytes of a readable page, is copied
// without a load past its end, and as its copy on the heap is.
func TestGuardPageAfterAnEscapedValuesLastSequence(t *testing.T) {
	page := guardedPage(t)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for _, before := range []string{"é\t", "\\日", "x\r😀\n", "é\té\\"} {
		for _, last := range []string{"é", "日", "😀", "é!", "日ab"} {
			text := before + last
			held := page[len(page)-len(text):]
			copy(held, text)
			s := unsafe.String(unsafe.SliceData(held), len(held))
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("appendValue(%q) at the page's end: %v", text, r)
					}
				}()
				got, gotOK := appendValue(nil, s)
				want, wantOK := appendValue(nil, strings.Clone(text))
				if !gotOK || !wantOK || !bytes.Equal(got, want) {
					t.Errorf("appendValue(%q) at the page's end = %q, %v; on the heap %q, %v", text, got, gotOK, want, wantOK)
				}
			}()
		}
	}
}
