package tokens

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizer. Before BPE, both encodings cut text into pieces with a
// regular expression, and BPE never merges across a cut. tiktoken's
// expressions are
//
//	cl100k_base: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	             ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
//	o200k_base:  [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	             [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	             \p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// matched leftmost-first with backtracking, over runes: \s is
// unicode.IsSpace, \p{..} Go's unicode tables, (?i) unicode.ToLower, and an
// invalid UTF-8 byte is U+FFFD. The functions below find the same pieces by
// one forward scan each: every alternative is written out as the choice its
// backtracking comes to, in the order the expression tries them.

// Rune classes, as bits. A mark (\p{M}) is in classUpper and classLower
// but is not a letter; Lm and Lo are in both too.
const (
	classLetter  = 1 << iota // \p{L}
	classNumber              // \p{N}
	classSpace               // \s
	classNewline             // \r or \n
	classUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	classLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
)

// notPrefix are the classes [^\r\n\p{L}\p{N}] excludes; notOther those
// [^\s\p{L}\p{N}] excludes.
const (
	notPrefix = classLetter | classNumber | classNewline
	notOther  = classLetter | classNumber | classSpace
)

var asciiClass [utf8.RuneSelf]uint8

func init() {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		asciiClass[r] = classify(r)
	}
}

// classify computes the class bits of r from the unicode tables.
func classify(r rune) uint8 {
	var c uint8
	if unicode.IsLetter(r) {
		c |= classLetter
	}
	if unicode.IsNumber(r) {
		c |= classNumber
	}
	if unicode.IsSpace(r) {
		c |= classSpace
	}
	if r == '\r' || r == '\n' {
		c |= classNewline
	}
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= classUpper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= classLower
	}
	return c
}

// blockClass holds the classes of the Basic Multilingual Plane, 256 runes
// a block, each block computed the first time text uses it: the unicode
// tables are searched once per rune, not once per occurrence.
var blockClass [256]atomic.Pointer[[256]uint8]

func runeClass(r rune) uint8 {
	if r > 0xffff {
		return classify(r)
	}
	b := blockClass[r>>8].Load()
	if b == nil {
		b = new([256]uint8)
		base := r &^ 0xff
		for i := range b {
			b[i] = classify(base + rune(i))
		}
		blockClass[r>>8].Store(b)
	}
	return b[r&0xff]
}

// at returns the class and the byte width of the rune at text[i]. It is
// small enough to inline, so ASCII costs a table lookup.
func at(text []byte, i int) (uint8, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	return atRune(text, i)
}

func atRune(text []byte, i int) (uint8, int) {
	r, w := utf8.DecodeRune(text[i:])
	return runeClass(r), w
}

// classAt is at's class, with 0 past the end of text.
func classAt(text []byte, i int) uint8 {
	if i >= len(text) {
		return 0
	}
	c, _ := at(text, i)
	return c
}

// contraction returns the length of the contraction (?i:'s|'t|'re|'ve|'m|'ll|'d)
// at text[i], or 0. Only ASCII letters lower to these letters, so only they
// are compared (TestContractionLettersAreASCII checks the claim).
func contraction(text []byte, i int) int {
	if i+1 >= len(text) || text[i] != '\'' {
		return 0
	}
	switch text[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if i+2 < len(text) && text[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l':
		if i+2 < len(text) && text[i+2]|0x20 == 'l' {
			return 3
		}
	}
	return 0
}

// run returns the end of the longest run of runes from i whose class has
// a bit of want.
func run(text []byte, i int, want uint8) int {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiClass[c]&want == 0 {
				break
			}
			i++
			continue
		}
		c, w := atRune(text, i)
		if c&want == 0 {
			break
		}
		i += w
	}
	return i
}

// letters returns the end of \p{L}* from i. ASCII goes eight bytes at a
// time: a word is most of the text a tool result holds.
func letters(text []byte, i int) int {
	const high = 0x8080808080808080
	for i+8 <= len(text) {
		x := binary.LittleEndian.Uint64(text[i:])
		// With the case bit set, an ASCII letter is 0x61 to 0x7a: adding
		// 0x1f sets a byte's high bit from 0x61 up, adding 0x05 from 0x7b
		// up. A non-ASCII byte stops the word here (and may carry into
		// the bytes above it, which the lowest stop hides).
		y := x | 0x2020202020202020
		stop := (^(y + 0x1f1f1f1f1f1f1f1f) | (y + 0x0505050505050505) | x) & high
		if stop == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(stop) >> 3
		if text[i] < utf8.RuneSelf {
			return i
		}
		c, w := atRune(text, i)
		if c&classLetter == 0 {
			return i
		}
		i += w
	}
	return run(text, i, classLetter)
}

// others returns the end of the longest run of [^\s\p{L}\p{N}] from i.
func others(text []byte, i int) int {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiClass[c]&notOther != 0 {
				break
			}
			i++
			continue
		}
		c, w := atRune(text, i)
		if c&notOther != 0 {
			break
		}
		i += w
	}
	return i
}

// newlineRun returns the end of a run of CR and LF bytes from i, and of
// '/' as well when slash is set: [\r\n]* or [\r\n/]*.
func newlineRun(text []byte, i int, slash bool) int {
	for i < len(text) && (text[i] == '\r' || text[i] == '\n' || slash && text[i] == '/') {
		i++
	}
	return i
}

// numbers is \p{N}{1,3} at i, which holds a number.
func numbers(text []byte, i int) int {
	for k := 0; k < 3 && i < len(text); k++ {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiClass[c]&classNumber == 0 {
				break
			}
			i++
			continue
		}
		c, w := atRune(text, i)
		if c&classNumber == 0 {
			break
		}
		i += w
	}
	return i
}

// whitespace is \s*[\r\n]+|\s+(?!\S)|\s+ at i, which holds a space: the
// run up to its last newline if it has one; else the whole run at the end
// of the text; else the run but its last rune, unless that is its only
// rune.
func whitespace(text []byte, i int) int {
	lastNewline, lastStart, runes := -1, i, 0
	j := i
	for j < len(text) {
		c, w := at(text, j)
		if c&classSpace == 0 {
			break
		}
		if c&classNewline != 0 {
			lastNewline = j + 1
		}
		lastStart, runes = j, runes+1
		j += w
	}
	switch {
	case lastNewline >= 0:
		return lastNewline
	case j == len(text) || runes == 1:
		return j
	}
	return lastStart
}

// cl100kPiece returns the end of the cl100k_base piece that begins at
// text[i].
func cl100kPiece(text []byte, i int) int {
	b := text[i]
	if b >= utf8.RuneSelf {
		return cl100kPieceRune(text, i)
	}
	c := asciiClass[b]
	switch {
	case c&classLetter != 0:
		return letters(text, i+1) // \p{L}+ without its optional prefix
	case c&classNumber != 0:
		return numbers(text, i) // \p{N}{1,3}
	case b == '\'' && contraction(text, i) > 0:
		return i + contraction(text, i) // (?i:'s|'t|'re|'ve|'m|'ll|'d)
	case i+1 == len(text):
		return i + 1
	}
	if next := text[i+1]; next < utf8.RuneSelf {
		d := asciiClass[next]
		switch {
		case d&classLetter != 0 && c&classNewline == 0:
			return letters(text, i+2) // [^\r\n\p{L}\p{N}]\p{L}+
		case b == ' ' && d&notOther == 0:
			return newlineRun(text, others(text, i+2), false) // ' '[^\s\p{L}\p{N}]+[\r\n]*
		case c&notOther == 0:
			return newlineRun(text, others(text, i+1), false) // [^\s\p{L}\p{N}]+[\r\n]*
		case d&classSpace == 0:
			return i + 1 // \s*[\r\n]+ or \s+ of one rune
		}
	}
	return cl100kPieceRune(text, i)
}

// cl100kPieceRune is cl100kPiece for any text: the alternatives in the
// expression's order.
func cl100kPieceRune(text []byte, i int) int {
	if n := contraction(text, i); n > 0 {
		return i + n // (?i:'s|'t|'re|'ve|'m|'ll|'d)
	}
	c, w := at(text, i)
	if c&classLetter != 0 {
		return letters(text, i) // \p{L}+ without its optional prefix
	}
	if c&notPrefix == 0 && classAt(text, i+w)&classLetter != 0 {
		return letters(text, i+w) // [^\r\n\p{L}\p{N}]\p{L}+
	}
	if c&classNumber != 0 {
		return numbers(text, i) // \p{N}{1,3}
	}
	if text[i] == ' ' && i+1 < len(text) && classAt(text, i+1)&notOther == 0 {
		return newlineRun(text, others(text, i+1), false) // ' '[^\s\p{L}\p{N}]+[\r\n]*
	}
	if c&notOther == 0 {
		return newlineRun(text, others(text, i), false) // [^\s\p{L}\p{N}]+[\r\n]*
	}
	return whitespace(text, i)
}

// o200kPiece returns the end of the o200k_base piece that begins at
// text[i].
func o200kPiece(text []byte, i int) int {
	c, w := at(text, i)
	prefix := c&notPrefix == 0 && i+w < len(text)
	// The two word alternatives, each first with the optional prefix
	// rune taken, then without it.
	if prefix {
		if end, ok := caseWordLowerTail(text, i+w); ok {
			return end + contraction(text, end)
		}
	}
	if end, ok := caseWordLowerTail(text, i); ok {
		return end + contraction(text, end)
	}
	if prefix {
		if end, ok := caseWordUpper(text, i+w); ok {
			return end + contraction(text, end)
		}
	}
	if end, ok := caseWordUpper(text, i); ok {
		return end + contraction(text, end)
	}
	if c&classNumber != 0 {
		return numbers(text, i) // \p{N}{1,3}
	}
	if text[i] == ' ' && i+1 < len(text) && classAt(text, i+1)&notOther == 0 {
		return newlineRun(text, others(text, i+1), true) // ' '[^\s\p{L}\p{N}]+[\r\n/]*
	}
	if c&notOther == 0 {
		return newlineRun(text, others(text, i), true) // [^\s\p{L}\p{N}]+[\r\n/]*
	}
	return whitespace(text, i)
}

// caseWordLowerTail matches U*L+ at p, where U is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
// and L is [\p{Ll}\p{Lm}\p{Lo}\p{M}], as backtracking does: U* takes the
// longest run; if an L follows, L+ takes the longest run from there;
// otherwise U* gives back runes until the one after it is an L, which is
// then the whole L+ (the runes after it are in U but not in L).
func caseWordLowerTail(text []byte, p int) (int, bool) {
	q, lastBoth := p, -1
	for q < len(text) {
		c, w := at(text, q)
		if c&classUpper == 0 {
			break
		}
		q += w
		if c&classLower != 0 {
			lastBoth = q
		}
	}
	if classAt(text, q)&classLower != 0 {
		return run(text, q, classLower), true
	}
	return lastBoth, lastBoth >= 0
}

// caseWordUpper matches U+L* at p (see caseWordLowerTail).
func caseWordUpper(text []byte, p int) (int, bool) {
	if p >= len(text) {
		return 0, false
	}
	q := run(text, p, classUpper)
	if q == p {
		return 0, false
	}
	return run(text, q, classLower), true
}
