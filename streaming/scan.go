package streaming

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// Word-at-a-time tests: eight bytes per step with integer arithmetic.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// validPrefix returns the length of the longest prefix of b made of whole,
// valid UTF-8 characters: the index of the first byte that begins an
// invalid or unfinished one, or len(b).
func validPrefix(b []byte) int {
	for i := 0; i < len(b); {
		if i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&highBits == 0 {
			i += 8
			continue
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// plainASCII reports whether s can be written as it stands: ASCII only,
// so valid UTF-8 [ENC-1], and no byte a value escapes [VAL-1]. Controls
// below CR count as not plain too, which sends them the slow way. It tests
// eight bytes a step and covers a short tail with overlapping loads, so a
// short value costs one or two tests and no per-byte branch.
func plainASCII(s string) bool {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	var flagged uint64
	switch n := len(b); {
	case n >= 8:
		for i := 0; i < n-8; i += 8 {
			flagged |= notPlain(binary.LittleEndian.Uint64(b[i:]))
		}
		flagged |= notPlain(binary.LittleEndian.Uint64(b[n-8:]))
	case n >= 4:
		flagged = notPlain(uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32)
	case n > 0:
		const filler = 'a' * (lowBits &^ 0xFFFFFF) // plain bytes in the top five
		flagged = notPlain(filler | uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16)
	}
	return flagged == 0
}

// notPlain returns w with the top bit set in the lowest byte of w that is
// below 0x0E, a backslash or not ASCII, and possibly in some above it; it
// is 0 when w has none.
func notPlain(w uint64) uint64 {
	below := (w - 0x0E*lowBits) &^ w
	x := w ^ ('\\' * lowBits)
	backslash := (x - lowBits) &^ x
	return (below | backslash | w) & highBits
}
