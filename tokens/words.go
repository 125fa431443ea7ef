package tokens

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// countWords is count for cl100k_base, with the commonest piece of a tool
// result found and counted in line: a run of ASCII letters of at most
// eight bytes with the one-byte prefix [^\r\n\p{L}\p{N}] or none, as in
// " the", "\tname" or "/path", which its word of text finds in the small
// cache. Every other piece goes through cl100kPiece and tokens, which
// give the same cut and count for these too: the fast path only skips
// two calls and the branches that tell the kinds of pieces apart.
func (c *counter) countWords(text []byte, limit int) int {
	const high = 0x8080808080808080
	n := 0
	i := 0
	small := &c.cache.small
	// Up to 16 bytes before the end, the words read at i and at the
	// letters' start lie in text.
	for i+16 <= len(text) {
		b := text[i]
		j := i + 1 // where the letters begin
		if b >= utf8.RuneSelf || asciiClass[b]&classLetter == 0 {
			// A prefix: not a letter, number, CR, LF or the quote that
			// may begin a contraction, before an ASCII letter.
			next := text[i+1]
			if b >= utf8.RuneSelf || asciiClass[b]&notPrefix != 0 || b == '\'' ||
				next >= utf8.RuneSelf || asciiClass[next]&classLetter == 0 {
				end := cl100kPiece(text, i)
				n += c.tokens(text, i, end)
				if n > limit {
					return n
				}
				i = end
				continue
			}
			j = i + 2
		}
		x := binary.LittleEndian.Uint64(text[j:])
		y := x | 0x2020202020202020
		stop := (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | x) & high
		end := j + bits.TrailingZeros64(stop)>>3
		if stop == 0 || text[end] >= utf8.RuneSelf || end-i > 8 {
			// Eight letters or more, a letter that is not ASCII, or a
			// piece longer than the small cache's words. The piece is
			// its prefix and letters, as far as letters reaches from
			// the first byte that is not an ASCII letter (the eight
			// letters read are the word's, or end it at a byte that
			// is not ASCII); only a piece longer than eight bytes that
			// ends with an ASCII letter before an ASCII byte is known
			// at once.
			if stop == 0 || text[end] >= utf8.RuneSelf {
				end = letters(text, end)
			}
			n += c.tokens(text, i, end)
		} else {
			size := end - i
			word := binary.LittleEndian.Uint64(text[i:]) & wordMask[size]
			slot := &small[(word^uint64(size))*0x9e3779b97f4a7c15>>(64-smallBits)]
			if slot.word != word || slot.size != uint32(size) {
				slot.word, slot.size, slot.count = word, uint32(size), uint32(c.pieceTokens(text[i:end]))
			}
			n += int(slot.count)
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
