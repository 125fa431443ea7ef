package streaming

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// valueLetter is spec.ValueEscapes as a flat table, the letter written
// after a backslash for each byte or 0, so that the encoder's inner loops
// read one array with no call. It is copied from spec at init, which stays
// the one place the rule is written [VAL-1]; a test holds the two equal,
// and holds the scanners to stop at every byte with a letter.
var valueLetter [256]byte

// letterBytes are the bytes that have a letter in valueLetter.
var letterBytes []byte

// hasLetter reports whether s holds a byte that is written escaped.
// strings.IndexByte goes a vector at a time, so a few of them beat a loop
// over the bytes.
func hasLetter(s string) bool {
	for _, c := range letterBytes {
		if strings.IndexByte(s, c) >= 0 {
			return true
		}
	}
	return false
}

// utf8Lead describes, for each byte that may begin a UTF-8 sequence of two
// to four bytes, how long the sequence is and the range its second byte
// must lie in, which is narrower than 0x80–0xBF after E0, ED, F0 and F4 so
// that overlong forms, surrogates and code points past U+10FFFF are
// refused [ENC-1]. A size of 0 marks a byte that begins no sequence.
type utf8Lead struct{ size, lo, hi byte }

var utf8Leads [256]utf8Lead

func init() {
	for c := range 256 {
		valueLetter[c] = spec.ValueEscapes.Letter(byte(c))
		if valueLetter[c] != 0 {
			letterBytes = append(letterBytes, byte(c))
		}
	}
	set := func(from, to int, lead utf8Lead) {
		for c := from; c <= to; c++ {
			utf8Leads[c] = lead
		}
	}
	set(0xC2, 0xDF, utf8Lead{2, 0x80, 0xBF})
	set(0xE0, 0xE0, utf8Lead{3, 0xA0, 0xBF})
	set(0xE1, 0xEC, utf8Lead{3, 0x80, 0xBF})
	set(0xED, 0xED, utf8Lead{3, 0x80, 0x9F})
	set(0xEE, 0xEF, utf8Lead{3, 0x80, 0xBF})
	set(0xF0, 0xF0, utf8Lead{4, 0x90, 0xBF})
	set(0xF1, 0xF3, utf8Lead{4, 0x80, 0xBF})
	set(0xF4, 0xF4, utf8Lead{4, 0x80, 0x8F})
}

// valueSlack is the room appendValue keeps in b past the bytes it has still
// to write, so that the scanners can store whole words and vectors and let
// the next store overwrite what lies past the end of the value.
const valueSlack = 16

// appendValue appends s to b spelled as a value: TAB, LF, CR and backslash
// escaped [VAL-1], everything else as it stands. It reports false if s is
// not valid UTF-8 [ENC-1], and then what it appended is to be dropped.
//
// It is one pass over s. escapeASCII copies and escapes ASCII a vector or
// a word at a time and stops at the first byte that is not ASCII; from
// there appendValue checks and copies UTF-8 sequences, and the ASCII bytes
// between them one by one, until two ASCII bytes in a row make the
// scanner worth calling again. The capacity of b is grown once for s as it
// stands, and again only when escapes have used up the slack.
func appendValue(b []byte, s string) ([]byte, bool) {
	n := len(s)
	if n == 0 {
		return b, true
	}
	if cap(b)-len(b) < n+valueSlack {
		b = slices.Grow(b, n+valueSlack)
	}
	src := unsafe.StringData(s)
	dst := unsafe.SliceData(b)
	i, j, room := 0, len(b), cap(b)
	for {
		read, written := escapeASCII(at(dst, j), room-j, at(src, i), n-i)
		i, j = i+read, j+written
		if i == n {
			return b[:j], true
		}
		if s[i] < utf8.RuneSelf {
			// An escape the scanner had no room for.
			b = slices.Grow(b[:j], n-i+1+valueSlack+(n-i)/4)
			dst, room = unsafe.SliceData(b), cap(b)
			continue
		}
		if rest := s[i:]; !hasLetter(rest) {
			// Text in another script, as most non-ASCII values are:
			// nothing in the rest to escape, so it only needs checking,
			// which validUTF8 does a vector at a time, and copying.
			if !validUTF8(unsafe.Slice(unsafe.StringData(rest), len(rest))) {
				return b[:j], false
			}
			copy(unsafe.Slice(at(dst, j), len(rest)), rest)
			return b[:j+len(rest)], true
		}
		for {
			if c := s[i]; c >= utf8.RuneSelf {
				lead := utf8Leads[c]
				size := int(lead.size)
				if size == 0 || i+size > n {
					return b[:j], false
				}
				if c := s[i+1]; c < lead.lo || c > lead.hi {
					return b[:j], false
				}
				if size > 2 && (s[i+2]&0xC0 != 0x80 || size > 3 && s[i+3]&0xC0 != 0x80) {
					return b[:j], false
				}
				if i+4 <= n {
					store32(dst, j, load32(src, i)) // the slack takes what lies past the sequence
				} else {
					copy(unsafe.Slice(at(dst, j), size), s[i:i+size])
				}
				i, j = i+size, j+size
			} else if l := valueLetter[c]; l != 0 {
				if room-j < n-i+1+valueSlack {
					b = slices.Grow(b[:j], n-i+1+valueSlack+(n-i)/4)
					dst, room = unsafe.SliceData(b), cap(b)
				}
				*at(dst, j) = '\\'
				*at(dst, j+1) = l
				i, j = i+1, j+2
			} else {
				*at(dst, j) = c
				i, j = i+1, j+1
			}
			if i == n {
				return b[:j], true
			}
			if s[i] < utf8.RuneSelf && (i+1 == n || s[i+1] < utf8.RuneSelf) {
				break
			}
		}
	}
}

// escapeASCIIWords is escapeASCII eight bytes a step in portable Go; see
// escapeASCII for what it does.
func escapeASCIIWords(dst *byte, room int, src *byte, n int) (read, written int) {
	i, j := 0, 0
	for i < n {
		var w, flagged uint64
		if left := n - i; left >= 8 {
			w = load64(src, i)
			flagged = notPlain(w)
		} else {
			w = loadTail(src, i, n)
			flagged = notPlain(w) & (1<<(8*left) - 1)
		}
		store64(dst, j, w)
		if flagged == 0 {
			k := min(8, n-i)
			i, j = i+k, j+k
			continue
		}
		k := bits.TrailingZeros64(flagged) >> 3
		i, j = i+k, j+k
		c := *at(src, i)
		if c >= utf8.RuneSelf {
			break
		}
		if l := valueLetter[c]; l != 0 {
			if room-j < n-i+1+valueSlack {
				break
			}
			*at(dst, j) = '\\'
			*at(dst, j+1) = l
			i, j = i+1, j+2
		} else {
			*at(dst, j) = c
			i, j = i+1, j+1
		}
	}
	return i, j
}

// loadTail returns the n-i < 8 bytes from src+i as the low bytes of a
// word, the rest zero. It reads only the n bytes at src, with overlapping
// loads.
func loadTail(src *byte, i, n int) uint64 {
	left := n - i
	switch {
	case n >= 8:
		return load64(src, n-8) >> (64 - 8*left)
	case left >= 4:
		return uint64(load32(src, i)) | uint64(load32(src, n-4))<<(8*(left-4))
	default:
		return uint64(*at(src, i)) | uint64(*at(src, i+left/2))<<(8*(left/2)) | uint64(*at(src, n-1))<<(8*(left-1))
	}
}

// The byte at p+i, and words there in little-endian order, which the
// compiler makes single loads and stores where the processor allows them.
// Callers keep i within the allocation: the string for loads, the
// capacity of the buffer for stores.

func at(p *byte, i int) *byte { return (*byte)(unsafe.Add(unsafe.Pointer(p), i)) }

func load64(p *byte, i int) uint64 { return binary.LittleEndian.Uint64(unsafe.Slice(at(p, i), 8)) }

func load32(p *byte, i int) uint32 { return binary.LittleEndian.Uint32(unsafe.Slice(at(p, i), 4)) }

func store64(p *byte, i int, w uint64) { binary.LittleEndian.PutUint64(unsafe.Slice(at(p, i), 8), w) }

func store32(p *byte, i int, w uint32) { binary.LittleEndian.PutUint32(unsafe.Slice(at(p, i), 4), w) }
