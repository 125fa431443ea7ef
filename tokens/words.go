package tokens

import (
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// countWords is count for cl100k_base. Where blocksOn, the blocks of 64
// bytes whose pieces the rules of blockRules find are cut from their bits
// and counted by countBlocks; up to 24 bytes before the end, countRun cuts
// and counts the others' pieces, and the first two blocks', in line, with
// no call. Each piece either leaves (one it cannot cut, one whose count is
// not in its cache slot, one of more than 16 bytes) is cut by cl100kPiece
// or letters and counted by tokens here, and the cut goes on after it. The
// last bytes are cut by cl100kPiece.
func (c *counter) countWords(text []byte, limit int) int {
	n, i, size := 0, 0, len(text)
	base := unsafe.Pointer(unsafe.SliceData(text))
	// countRun cuts up to stop; where blocksOn, countBlocks cuts the
	// blocks from there, those in bw: the blocks w to w+nb-1, w+k the one
	// being cut, starts its starts left.
	stop, inBlocks := size, false
	if blocksOn {
		stop = 128 // the blocks' rules read the two blocks before
	}
	var bw blockWindow
	bw.limit = limit
	var starts uint64 // block k's starts left to count
	w, nb, k := 0, 0, 0
	for {
		var end, why int
		if inBlocks {
			k, starts, i, end, n, why = countBlocks(c.cache, base, &bw, k, nb, 64*(w+k), starts, i, n)
		} else {
			i, end, n, why = countRun(c.cache, base, size, stop, i, n, limit)
		}
		switch why {
		case runLimit:
			return n
		case runScalar:
			// countRun cuts the block, and the blocks go on after it.
			inBlocks, stop = false, 64*(w+k+1)
			continue
		case runDone:
			b := w + k // the next block: after the window, or i's after countRun
			if !inBlocks {
				if i+24 > size {
					return c.countTail(text, i, n, limit)
				}
				b = i >> 6
			}
			if k = b - w; k < 0 || k >= nb {
				// The next blocks, each with a block after it.
				w, nb, k = b, min(window, size>>6-1-b), 0
				if nb <= 0 {
					inBlocks, stop = false, size
					continue
				}
				bw.load(base, w, nb)
			}
			var ok bool
			if starts, ok = bw.blockFrom(k, b, i); !ok {
				inBlocks, stop = false, 64*(b+1)
				continue
			}
			inBlocks = true
			continue
		case runCut:
			end = cl100kPiece(text, i)
		case runLetters:
			end = letters(text, end)
		}
		if end-i > maxPacked {
			n += c.longPieceTokens(text[i:end])
		} else {
			n += c.tokens(text, i, end)
		}
		if n > limit {
			return n
		}
		i = end
	}
}

// countTail counts the pieces of text from i, with n counted before,
// each cut by cl100kPiece.
func (c *counter) countTail(text []byte, i, n, limit int) int {
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

// Why countRun stopped at a piece.
const (
	runDone    = iota // fewer than 24 bytes are left, or the piece begins at stop or after (countBlocks: the window's end)
	runLimit          // the count passed the limit
	runCut            // the piece is to be cut by cl100kPiece
	runLetters        // the piece ends where letters ends from end
	runCount          // the piece ends at end, and is to be counted by tokens
	runScalar         // countBlocks: the block is to be cut by countRun
)

// countRun counts the pieces of the text of size bytes at base from i,
// with n counted before it, until fewer than 24 bytes are left, a piece
// begins at stop or after it, the count passes limit, or a piece it does
// not cut or count in line. It returns
// where it stopped, that piece's end (see runLetters and runCount), the
// count and why it stopped.
//
// It cuts the commonest pieces of a tool result: a run of ASCII letters
// with the one-byte prefix [^\r\n\p{L}\p{N}] or none, as in " the",
// "\tname" or "/path", up to three ASCII digits, a run of ASCII punctuation
// with the space before it and the line feeds after it, and one white space
// before something that is not white space. Every other piece, and any that
// meets a byte that is not ASCII, is left to cl100kPiece, which cuts these
// the same way. A piece of up to eight bytes is then found in the small
// cache by its word of text; one of nine to 16 bytes in the newest slot of
// its short cache set. It makes no call: the loop keeps its words in
// registers, where a loop with calls spilled and reloaded them around every
// piece.
//
// Up to 24 bytes before the end, the words read at i, at the letters'
// start j (at most i+2) and after it, and at a piece's last eight bytes
// lie in the text, and so do the bytes read at i, i+1, i+2 and end (at
// most j+16): they are read through base, unchecked. A run of punctuation
// is read up to size.
func countRun(cache *pieceCache, base unsafe.Pointer, size, stop, i, n, limit int) (int, int, int, int) {
	const high = 0x8080808080808080
	for i+24 <= size && i < stop {
		b := *(*byte)(unsafe.Add(base, i))
		j := i + 1 // where the letters begin
		var end int
		if start := wordStart[b]; start != startLetter {
			// A prefix before an ASCII letter, or another piece.
			next := *(*byte)(unsafe.Add(base, i+1))
			if start != startPrefix || wordStart[next] != startLetter {
				c, d := byteClass[b], byteClass[next]
				k := i + 1 // where a run of other goes on
				switch {
				case c&classNumber != 0:
					// \p{N}{1,3}: a byte that is not ASCII may be a
					// number.
					end = i + 1
					if d&classNumber != 0 {
						end++
						if e := byteClass[*(*byte)(unsafe.Add(base, end))]; e&classNumber != 0 {
							end++
						} else if e&classRune != 0 {
							return i, 0, n, runCut
						}
					} else if d&classRune != 0 {
						return i, 0, n, runCut
					}
					goto count
				case (c|d)&classRune != 0 || b == '\'':
					// A rune that is not ASCII, or what follows may be a
					// letter or a number that is not ASCII; a quote may
					// begin a contraction.
					return i, 0, n, runCut
				case c&notOther == 0:
					// [^\s\p{L}\p{N}]+[\r\n]*: next is not a letter (b
					// would be its prefix), and no quote begins the piece.
				case c&classSpace != 0 && d&classSpace == 0:
					if b != ' ' || d&notOther != 0 {
						end = i + 1 // \s+ of one rune before a letter, a number or other
						goto count
					}
					k = i + 2 // ' '[^\s\p{L}\p{N}]+[\r\n]*
				default:
					return i, 0, n, runCut
				}
				// The run of other, and the line feeds after it; a byte
				// that is not ASCII may be other too.
				for k < size && byteClass[*(*byte)(unsafe.Add(base, k))]&(notOther|classRune) == 0 {
					k++
				}
				if k < size && *(*byte)(unsafe.Add(base, k)) >= utf8.RuneSelf {
					return i, 0, n, runCut
				}
				for k < size {
					if e := *(*byte)(unsafe.Add(base, k)); e != '\r' && e != '\n' {
						break
					}
					k++
				}
				end = k
				goto count
			}
			j = i + 2
		}
		{
			// letters' test of eight bytes, with the case bit set: the
			// high bits of y are the text's, so y stands for x in it.
			y := word8(unsafe.Add(base, j)) | 0x2020202020202020
			stop := (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | y) & high
			end = j + bits.TrailingZeros64(stop)>>3
			if stop == 0 {
				// Eight letters: the next eight, in line too.
				y := word8(unsafe.Add(base, j+8)) | 0x2020202020202020
				stop = (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | y) & high
				end = j + 8 + bits.TrailingZeros64(stop)>>3
			}
			if stop == 0 || *(*byte)(unsafe.Add(base, end)) >= utf8.RuneSelf {
				// Sixteen letters or more, or a letter that is not
				// ASCII: the piece is its prefix and letters, as far
				// as letters reaches from the first byte that is not
				// an ASCII letter (the letters read are the word's, or
				// end it at a byte that is not ASCII).
				return i, end, n, runLetters
			}
		}
	count:
		if size := end - i; uint(size) <= 8 {
			// A piece of at most eight bytes is its word of text,
			// masked to its length: one load, one multiply and one
			// compare find it in the small cache.
			word := word8(unsafe.Add(base, i)) & wordMask[uint(size)]
			slot := &cache.small[smallIndex(word, size)]
			if slot.word != word || slot.size != uint32(size) {
				return i, end, n, runCount
			}
			n += int(slot.count)
		} else if size <= 16 {
			// Nine to 16 bytes: their first and last words are the
			// key pieceTokens packs, and the newest slot of its set
			// in the short cache is looked up.
			s := cache.shortSlot(word8(unsafe.Add(base, i)), word8(unsafe.Add(base, end-8)), size)
			if s == nil {
				return i, end, n, runCount
			}
			n += int(s.count)
		} else {
			return i, end, n, runCount // more than 16 bytes: more than maxPacked
		}
		i = end
		if n > limit {
			return i, i, n, runLimit
		}
	}
	return i, i, n, runDone
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

// word8 is the little-endian word of the eight bytes at p. The compiler
// makes the bytes one load; written out, with no call inside, it leaves
// no inline mark (a no-op instruction) where the count inlines it.
func word8(p unsafe.Pointer) uint64 {
	b := (*[8]byte)(p)
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
