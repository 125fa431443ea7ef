package tokens

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
)

// countWords is count for cl100k_base, with the commonest piece of a tool
// result cut in line: a run of ASCII letters with the one-byte prefix
// [^\r\n\p{L}\p{N}] or none, as in " the", "\tname" or "/path". Every
// other piece is cut by cl100kPiece, which gives the same cut for these
// too: the fast path only skips a call and the branches that tell the
// kinds of pieces apart. Every piece of up to eight bytes, whichever way
// it was cut, is then found in the small cache by its word of text, in
// line; one of nine to 16 bytes in the newest slot of its short cache
// set, in line too, before pieceTokens.
func (c *counter) countWords(text []byte, limit int) int {
	const high = 0x8080808080808080
	n := 0
	i := 0
	small := &c.cache.small
	// Up to 24 bytes before the end, the words read at i, at the letters'
	// start j (at most i+2) and after it, and at a piece's last eight
	// bytes lie in text, and so do the bytes read at i, i+1 and end (at
	// most j+16): they are read through base, unchecked. The checks of
	// text's bounds, and the reloads of its length that each call in the
	// loop forces, cost an eighth of the count's time.
	base := unsafe.Pointer(unsafe.SliceData(text))
	for i+24 <= len(text) {
		b := *(*byte)(unsafe.Add(base, i))
		j := i + 1 // where the letters begin
		var end int
		if start := wordStart[b]; start != startLetter {
			// A prefix before an ASCII letter, or another piece.
			next := *(*byte)(unsafe.Add(base, i+1))
			if start != startPrefix || wordStart[next] != startLetter {
				// (A jump to the count, where a flag tested
				// again measured a few per cent slower.)
				end = asciiPiece(text, i, b, next)
				goto count
			}
			j = i + 2
		}
		{
			x := word8(unsafe.Add(base, j))
			y := x | 0x2020202020202020
			stop := (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | x) & high
			end = j + bits.TrailingZeros64(stop)>>3
			if stop == 0 {
				// Eight letters: the next eight, in line too.
				x := word8(unsafe.Add(base, j+8))
				y := x | 0x2020202020202020
				stop = (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | x) & high
				end = j + 8 + bits.TrailingZeros64(stop)>>3
			}
			if stop == 0 || *(*byte)(unsafe.Add(base, end)) >= utf8.RuneSelf {
				// Sixteen letters or more, or a letter that is not
				// ASCII: the piece is its prefix and letters, as far
				// as letters reaches from the first byte that is not
				// an ASCII letter (the letters read are the word's, or
				// end it at a byte that is not ASCII).
				end = letters(text, end)
			}
		}
	count:
		if size := end - i; uint(size) <= 8 {
			// A piece of at most eight bytes is its word of text,
			// masked to its length: one load, one multiply and one
			// compare find it in the small cache, with no call.
			word := word8(unsafe.Add(base, i)) & wordMask[uint(size)]
			slot := &small[(word^uint64(size))*0x9e3779b97f4a7c15>>(64-smallBits)]
			if slot.word != word || slot.size != uint32(size) {
				slot.word, slot.size, slot.count = word, uint32(size), uint32(c.pieceTokens(text[i:end]))
			}
			n += int(slot.count)
		} else if size <= 16 {
			// Nine to 16 bytes: their first and last words are the
			// key pieceTokens packs, and the newest slot of its set
			// in the short cache is looked up in line.
			lo, hi := word8(unsafe.Add(base, i)), word8(unsafe.Add(base, end-8))
			if s := &c.cache.short[shortSet(ranktable.HashKey(lo, hi, size))]; s.holds(lo, hi, size) {
				n += int(s.count)
			} else {
				n += c.pieceTokens(text[i:end])
			}
		} else {
			n += c.longPieceTokens(text[i:end]) // more than 16 bytes: more than maxPacked
		}
		if n > limit {
			return n
		}
		i = end
	}
	for i < len(text) {
		end := cl100kPiece(text, i)
		n += c.tokens(text, i, end)
		if n > limit {
			return n
		}
		i = end
	}
	return n
}

// What a byte can begin in countWords's in-line path.
const (
	startOther  = iota // any other piece, cut by cl100kPiece; every byte that is not ASCII
	startLetter        // an ASCII letter: a word without a prefix
	startPrefix        // a prefix if an ASCII letter follows: ASCII, not a letter, number, CR, LF or the quote that may begin a contraction
)

// wordStart[b] is what byte b can begin: one lookup where the in-line path
// tested the byte's range, its class and the quote (0.96 of the count's
// time).
var wordStart = func() (t [256]uint8) {
	for b := range utf8.RuneSelf {
		switch c := classify(rune(b)); {
		case c&classLetter != 0:
			t[b] = startLetter
		case c&notPrefix == 0 && b != '\'':
			t[b] = startPrefix
		}
	}
	return t
}()

// asciiPiece is cl100kPiece at i, which holds b followed by next, where b
// and next do not begin a word of ASCII letters with or without a prefix
// and i+24 <= len(text). The commonest such pieces of a tool result (up to
// three ASCII digits, a run of ASCII punctuation with the space before it
// and the line feeds after it, one white space before something that is not
// white space) are cut here in a few table lookups; every other one, and
// any that meets a byte that is not ASCII, by cl100kPiece.
func asciiPiece(text []byte, i int, b, next byte) int {
	c, d := byteClass[b], byteClass[next]
	k := i + 1 // where a run of other goes on
	switch {
	case c&classNumber != 0:
		// \p{N}{1,3}: a byte that is not ASCII may be a number.
		end := i + 1
		if d&classNumber != 0 {
			end++
			if e := byteClass[text[end]]; e&classNumber != 0 {
				end++
			} else if e&classRune != 0 {
				return cl100kPiece(text, i)
			}
		} else if d&classRune != 0 {
			return cl100kPiece(text, i)
		}
		return end
	case (c|d)&classRune != 0 || b == '\'':
		// A rune that is not ASCII, or what follows may be a letter or a
		// number that is not ASCII; a quote may begin a contraction.
		return cl100kPiece(text, i)
	case c&notOther == 0:
		// [^\s\p{L}\p{N}]+[\r\n]*: next is not a letter (b would be its
		// prefix), and no quote begins the piece.
	case c&classSpace != 0 && d&classSpace == 0:
		if b != ' ' || d&notOther != 0 {
			return i + 1 // \s+ of one rune before a letter, a number or other
		}
		k = i + 2 // ' '[^\s\p{L}\p{N}]+[\r\n]*
	default:
		return cl100kPiece(text, i)
	}
	// The run of other, and the line feeds after it; a byte that is not
	// ASCII may be other too.
	for k < len(text) && byteClass[text[k]]&(notOther|classRune) == 0 {
		k++
	}
	if k < len(text) && text[k] >= utf8.RuneSelf {
		return cl100kPiece(text, i)
	}
	return newlineRun(text, k, false)
}

// classRune marks, in byteClass, a byte that is not ASCII.
const classRune = 1 << 6

// byteClass is asciiClass for every byte, with classRune for those that are
// not ASCII.
var byteClass = func() (t [256]uint8) {
	for b := range t {
		if b < utf8.RuneSelf {
			t[b] = classify(rune(b))
		} else {
			t[b] = classRune
		}
	}
	return t
}()

// word8 is the little-endian word of the eight bytes at p.
func word8(p unsafe.Pointer) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(p)[:])
}
