package streaming

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Word-at-a-time scanning. A row is mostly plain bytes; what matters are the
// few bytes that end a value or need a closer look. Testing eight bytes per
// step with integer arithmetic finds them without a per-byte branch.
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

// needsEscape marks the bytes a value cannot hold raw: TAB, LF, CR and the
// backslash [VAL-1]. A field name or meta value also escapes SP, and a field
// name ','; those are rare enough to take the slow path.
var needsEscape = func() (t [256]bool) {
	t['\t'], t['\n'], t['\r'], t['\\'] = true, true, true, true
	return t
}()

// scanUnescaped returns the index of the first byte of s at or after i that
// needsEscape marks, or len(s) if there is none.
func scanUnescaped(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		below := (w - 0x0E*lowBits) &^ w
		x := w ^ ('\\' * lowBits)
		backslash := (x - lowBits) &^ x
		if m := (below | backslash) & highBits; m != 0 {
			// Controls below 0x0E other than TAB, LF and CR are data:
			// step past them and keep scanning.
			j := i + bits.TrailingZeros64(m)>>3
			if needsEscape[s[j]] {
				return j
			}
			for j++; j < i+8; j++ {
				if needsEscape[s[j]] {
					return j
				}
			}
		}
	}
	for ; i < len(s); i++ {
		if needsEscape[s[i]] {
			return i
		}
	}
	return len(s)
}
