//go:build !purego

package streaming

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

// scanRow calls scanRowSSE2 on a slice.
func scanRow(b []byte, marks []int32) (lf, n int, flags int) {
	if len(b) == 0 {
		return -1, 0, 0
	}
	return scanRowSSE2(&b[0], len(b), &marks[0], len(marks))
}

// scanRowByBytes is scanRowSSE2 written the plain way, the yardstick for
// the assembly.
func scanRowByBytes(b []byte, marks []int32) (lf, n int, flags int) {
	for i, c := range b {
		if c == '\t' || c == '\\' {
			if n < len(marks) {
				marks[n] = int32(i)
			}
			n++
		}
		switch {
		case c == '\n':
			return i, n, flags
		case c == '\\' || c == '\r':
			flags |= rowEscape
		case c >= 0x80:
			flags |= rowHigh
		}
	}
	return -1, n, flags
}

type scanResult struct {
	LF, N, Flags int
	Tabs         []int32
}

// TestPropertyScanRow: the SSE2 row scanner agrees with a byte loop on
// every length, with the LF, TABs and backslashes anywhere in or across
// its 16- and 32-byte steps, with more marks than room, and with bytes past the end that must
// be ignored [ROW-1] [VAL-3].
func TestPropertyScanRow(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		// Plain bytes and TABs with a few others dropped in, so that each
		// flag and the LF can come from any place of any step.
		size := rapid.IntRange(0, 200).Draw(t, "size")
		b := rapid.SliceOfN(rapid.SampledFrom([]byte("aaaaaa\t\t\\")), size, size).Draw(t, "b")
		for range rapid.IntRange(0, 3).Draw(t, "others") {
			if len(b) > 0 {
				at := rapid.IntRange(0, len(b)-1).Draw(t, "at")
				b[at] = rapid.SampledFrom([]byte("\n\\\r\xc3\x80#")).Draw(t, "other")
			}
		}
		room := rapid.IntRange(1, 8).Draw(t, "room")
		// Garbage after the data, which a 16-byte load may see.
		buf := append(append([]byte(nil), b...), []byte("\n\t\\\r\xff\n\t\\\r\xff\n\t\\\r\xff\n")...)
		data := buf[:len(b)]

		var got, want scanResult
		tabs := make([]int32, room)
		got.LF, got.N, got.Flags = scanRow(data, tabs)
		got.Tabs = tabs[:min(got.N, room)]
		tabs = make([]int32, room)
		want.LF, want.N, want.Flags = scanRowByBytes(data, tabs)
		want.Tabs = tabs[:min(want.N, room)]
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("scanRow(%q) differs (-bytes +sse2):\n%s", data, diff)
		}
	})
}
