package tokens

import (
	"math/bits"
	"unsafe"
)

// Cutting a block of 64 ASCII bytes at once: where pieceKinds is in AVX2,
// countWords finds the bytes where pieces begin in most blocks of a tool
// result from the bits of their kinds (blockWindow.load), and countBlocks
// counts the pieces between them, each found in a cache in line, where
// countRun tells each byte's kind and scans each piece's end.

// The words of a block in pieceKinds's output.
const (
	kindsLetters = iota
	kindsDigits
	kindsSpaces
	kindsHigh
	kindsLineFeeds
	kindsBlanks // ' '
	kindsOdd    // '\r' and '\''
	blockWords  = 8
)

// window is the most blocks countWords has pieceKinds class at a time
// (with three more): blockRules marks at most 32 bad, and countBlocks
// reads the starts of block k at k+1 masked by window.
const window = 31

// blocksOn: countWords cuts blocks, whose kinds pieceKinds then gives in
// AVX2 steps.
var blocksOn = kindsInAsm && kindsWide

// pieceKindsGo is pieceKinds in Go: asciiKindsGo's four words, whose fourth
// holds the bits of the bytes of 0x80 or more, and the bits of the line
// feeds, the spaces, and the carriage returns and quotes.
func pieceKindsGo(p *byte, blocks int, out *uint64) {
	text := unsafe.Slice(p, 64*blocks)
	words := unsafe.Slice(out, blockWords*blocks)
	for b := range blocks {
		k := words[blockWords*b : blockWords*b+blockWords]
		asciiKindsGo(&text[64*b], 1, &k[0])
		for i, c := range text[64*b : 64*b+64] {
			switch c {
			case '\n':
				k[kindsLineFeeds] |= 1 << i
			case ' ':
				k[kindsBlanks] |= 1 << i
			case '\r', '\'':
				k[kindsOdd] |= 1 << i
			}
		}
	}
}

// A blockWindow holds the kinds of up to window blocks, with the two
// blocks before and the block after them, and what blockRules finds of
// each and of the block before them: its starts, and a bit of bad for a
// block whose pieces the rules do not cut.
type blockWindow struct {
	kinds  [window + 3][blockWords]uint64
	starts [window + 1]uint64 // window+1 is a power of two
	bad    uint32
	limit  int // the count's, for countBlocks
}

// load classes the blocks w-2 to w+nb of the text at base, and finds the
// starts of the blocks w to w+nb-1 (blockRules; the block w-1 is cut only
// for its prefixes, which the block w's rules read).
func (bw *blockWindow) load(base unsafe.Pointer, w, nb int) {
	pieceKinds((*byte)(unsafe.Add(base, 64*(w-2))), nb+3, &bw.kinds[0][0])
	bw.bad = blockRules(&bw.kinds[0][0], nb+1, &bw.starts[0]) >> 1
}

// blockRulesGo writes the starts of blocks blocks, the bits of the bytes
// where a piece begins, each block's kinds following those of the block
// before it at kinds (and followed by those of the block after the last),
// and returns the bits of the blocks whose pieces its rules do not cut. It
// keeps each block's prefixes in its eighth word, where the next block's
// rules read the last.
//
// In a block that holds no byte of 0x80 or more, no carriage return and no
// quote, with none in the block before it either, whose white space comes
// one byte at a time and whose digits at most three in a row, the
// pre-tokenizer comes down to rules on each byte and the bytes next to it
// (bit i of each word below stands for byte i; the words shifted by one
// hold what is true of byte i-1 or i+1, the bits past the block's ends
// from the blocks on either side). With o the bytes that are neither
// letters, digits nor white space ([^\s\p{L}\p{N}]), a piece begins at
//   - a letter after a byte that is not a letter, unless that byte is the
//     letters' prefix ([^\r\n\p{L}\p{N}]\p{L}+): an o alone, not after a
//     space, or white space that is not a line feed;
//   - such a prefix;
//   - a digit after a byte that is not a digit (\p{N}{1,3});
//   - an o after a byte that is neither an o nor a space (a space before o
//     begins its piece, ' '[^\s\p{L}\p{N}]+);
//   - white space, but a line feed after an o, whose piece takes it
//     ([^\s\p{L}\p{N}]+[\r\n]*).
func blockRulesGo(kinds *uint64, blocks int, starts *uint64) uint32 {
	k := unsafe.Slice((*[blockWords]uint64)(unsafe.Pointer(kinds)), blocks+2)
	out := unsafe.Slice(starts, blocks)
	var bad uint32
	for b := range blocks {
		prev, cur, next := &k[b], &k[b+1], &k[b+2]
		l, d, s, lf, sp := cur[kindsLetters], cur[kindsDigits], cur[kindsSpaces], cur[kindsLineFeeds], cur[kindsBlanks]
		pl, pd, ps := prev[kindsLetters], prev[kindsDigits], prev[kindsSpaces]
		dPrev := d<<1 | pd>>63
		if cur[kindsHigh]|cur[kindsOdd]|prev[kindsHigh]|prev[kindsOdd]|next[kindsHigh]&1 != 0 ||
			s&(s<<1|ps>>63|s>>1|next[kindsSpaces]<<63) != 0 || d&dPrev&(d<<2|pd>>62)&(d<<3|pd>>61) != 0 {
			bad |= 1 << b
		}
		o := ^(l | d | s)
		oPrev := o<<1 | ^(pl|pd|ps)>>63
		spPrev := sp<<1 | prev[kindsBlanks]>>63
		lNext := l>>1 | next[kindsLetters]<<63
		prefix := o&lNext&^oPrev&^spPrev | s&^lf&lNext
		cur[blockWords-1] = prefix
		out[b] = l&^(l<<1|pl>>63)&^(prefix<<1|prev[blockWords-1]>>63) | prefix | d&^dPrev | o&^oPrev&^spPrev | s&^(lf&oPrev)
	}
	return bad
}

// blockFrom returns the starts of block b (k of the window) after cur, a
// piece's start, and false if the rules do not cut the block or cur lies
// in it but is not one of its starts.
func (bw *blockWindow) blockFrom(k, b, cur int) (uint64, bool) {
	if bw.bad>>uint(k)&1 != 0 {
		return 0, false
	}
	starts := bw.starts[k+1]
	if off := cur - 64*b; off >= 0 {
		if starts>>uint(off)&1 == 0 {
			return 0, false
		}
		starts &^= 2<<uint(off) - 1
	}
	return starts, true
}

// countBlocks counts the pieces that end at the bits of starts, those of
// block k of bw, at at, and then of its blocks up to nb-1, from the piece
// that begins at cur, with n counted before it. It returns the block where
// it stopped, its starts left, where it stopped, that piece's end, the
// count, and why it stopped: runDone at the window's end (the piece at cur
// goes on past it), runScalar at a block the rules do not cut, runLimit
// when n passes bw.limit, or runCount for a piece whose count is not in
// its cache slot, or of more than 16 bytes. Like countRun, it makes no
// call, and keeps its words in registers.
func countBlocks(cache *pieceCache, base unsafe.Pointer, bw *blockWindow, k, nb, at int, starts uint64, cur, n int) (int, uint64, int, int, int, int) {
	small := &cache.small
	for {
		for starts != 0 {
			end := at + bits.TrailingZeros64(starts)
			starts &= starts - 1
			if size := end - cur; uint(size) <= 8 {
				word := word8(unsafe.Add(base, cur)) & wordMask[uint(size)]
				slot := &small[smallIndex(word, size)]
				if slot.word != word || slot.size != uint32(size) {
					return k, starts, cur, end, n, runCount
				}
				n += int(slot.count)
			} else if size <= 16 {
				s := cache.shortSlot(word8(unsafe.Add(base, cur)), word8(unsafe.Add(base, end-8)), size)
				if s == nil {
					return k, starts, cur, end, n, runCount
				}
				n += int(s.count)
			} else {
				return k, starts, cur, end, n, runCount
			}
			cur = end
			if n > bw.limit {
				return k, starts, cur, cur, n, runLimit
			}
		}
		// The next block: the piece at cur goes on into it.
		if k++; k >= nb {
			return k, 0, cur, 0, n, runDone
		}
		if bw.bad>>uint(k)&1 != 0 {
			return k, 0, cur, 0, n, runScalar
		}
		starts, at = bw.starts[uint(k+1)&window], at+64
	}
}
