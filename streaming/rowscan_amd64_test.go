//go:build !purego

package streaming

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

// scanners are the row scanners this processor can run.
func scanners() map[string]func(p *byte, n int, marks *int32, maxMarks int) (int, int, int) {
	sse2 := func(p *byte, n int, marks *int32, maxMarks int) (int, int, int) {
		return scanRowVector(p, n, marks, maxMarks, false)
	}
	all := map[string]func(p *byte, n int, marks *int32, maxMarks int) (int, int, int){"sse2": sse2}
	if wideScan {
		all["avx2"] = func(p *byte, n int, marks *int32, maxMarks int) (int, int, int) {
			return scanRowVector(p, n, marks, maxMarks, true)
		}
	}
	return all
}

// scanRowByBytes is scanRowVector written the plain way, the yardstick for
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

// TestPropertyScanRow: the SSE2 and AVX2 row scanners agree with a byte loop on
// every length, with the LF, TABs and backslashes anywhere in or across
// its 16- and 32-byte steps, with more marks than room, and with bytes past the end that must
// be ignored [ROW-1] [VAL-3].
func TestPropertyScanRow(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		// Plain bytes and TABs with a few others dropped in, so that each
		// flag and the LF can come from any place of any step.
		size := rapid.IntRange(0, 300).Draw(t, "size")
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

		var want scanResult
		tabs := make([]int32, room)
		want.LF, want.N, want.Flags = scanRowByBytes(data, tabs)
		want.Tabs = tabs[:min(want.N, room)]
		for name, scan := range scanners() {
			if len(data) == 0 {
				break
			}
			var got scanResult
			tabs := make([]int32, room)
			got.LF, got.N, got.Flags = scan(&data[0], len(data), &tabs[0], room)
			got.Tabs = tabs[:min(got.N, room)]
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s(%q) differs (-bytes +%s):\n%s", name, data, name, diff)
			}
		}
	})
}
