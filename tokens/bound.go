package tokens

import (
	"encoding/binary"
	"unicode/utf8"
)

// cl100kLowerBound returns a number of cl100k_base tokens text takes at
// least, stopping once it passes limit. It reads each byte once through a
// table and looks nothing up, about ten times as fast as counting, and
// comes within a few per cent of the count on tool results, which are
// mostly words, numbers and punctuation: enough to settle most choices
// of auto mode without counting the dearer text.
//
// It counts pieces of the pre-tokenizer (each at least one token) of three
// kinds no piece mixes: pieces with a letter, pieces of numbers, and
// pieces of other runes only. A non-ASCII byte may be any of these, so it
// joins whatever run it is in, which can only merge runs:
//
//   - a maximal run of ASCII letters and non-ASCII bytes with an ASCII
//     letter counts 1: no cl100k_base piece has letters on both sides of
//     an ASCII byte that is not a letter;
//   - a maximal run of ASCII digits and non-ASCII bytes counts 1 for every
//     three ASCII digits or part of three: a piece holds at most three;
//   - a maximal run of other ASCII bytes and non-ASCII bytes counts 1 if
//     two other ASCII bytes stand side by side in it, or it ends with one
//     before an ASCII digit, an ASCII space or the end of text: that byte
//     cannot be the one-rune prefix of a word or the quote of a
//     contraction, so it lies in a piece of other runes. No such piece
//     reaches across an ASCII letter, digit or space into the next run.
//
// The rules run as one automaton: a byte's kind and the state before it
// give the state after it and what to add.
//
// A long text is read as two halves at once, two chains of states that the
// processor runs side by side. The second half begins after a letter or a
// space, whose next state the automaton knows whatever came before it, so
// the halves add up to what one pass over the whole text adds.
func cl100kLowerBound(text []byte, limit int) int {
	if j := boundCut(text); j >= 0 {
		return boundTwo(text[:j+1], text[j+1:], boundStep[boundKind[text[j]]]>>3&7, limit)
	}
	n, state, stopped := boundFrom(text, boundNone, 0, limit)
	if stopped {
		return n
	}
	return n + boundEnd(state)
}

// boundCut is where cl100kLowerBound cuts a long text in two: after the
// first letter or space from the middle on, so that the halves are as even
// as the text allows (the two chains run side by side only while both have
// bytes), or -1 to read it in one pass: a short text, or none there.
func boundCut(text []byte) int {
	if len(text) >= boundSplitFrom {
		for j := len(text) / 2; j < len(text); j++ {
			if kind := boundKind[text[j]]; kind == kindLetter || kind == kindSpace {
				return j
			}
		}
	}
	return -1
}

// boundSplitFrom is the length from which cl100kLowerBound reads a text as
// two halves.
const boundSplitFrom = 1024

// boundTwo is cl100kLowerBound for a text cut in two after a byte that
// sets the automaton in state2 whatever came before: both halves a chunk
// at a time, then what is left of each. The first half's end is not the
// text's, so nothing is added for it.
func boundTwo(first, second []byte, state2 uint8, limit int) int {
	n, state1 := 0, uint8(boundNone)
	for len(first) >= 8 && len(second) >= 8 {
		size := min(len(first), len(second), 256) &^ 7
		var add int
		add, state1, state2 = boundRun2(first[:size], second[:size], state1, state2, &boundKinds4, &boundStep4)
		first, second = first[size:], second[size:]
		if n += add; n > limit {
			return n
		}
	}
	n, _, stopped := boundFrom(first, state1, n, limit)
	if stopped {
		return n
	}
	n, state2, stopped = boundFrom(second, state2, n, limit)
	if stopped {
		return n
	}
	return n + boundEnd(state2)
}

// boundFrom runs the automaton over text from state, adding to n, and
// returns n, the state it ends in, and whether it stopped early because n
// passed limit.
func boundFrom(text []byte, state uint8, n, limit int) (int, uint8, bool) {
	for len(text) >= 8 {
		chunk := text[:min(len(text), 256)&^7]
		text = text[len(chunk):]
		var add int
		add, state = boundRun(chunk, state, &boundKinds4, &boundStep4)
		if n += add; n > limit {
			return n, state, true
		}
	}
	step := state << 3
	for _, b := range text {
		step = boundStep[(step&0x38|boundKind[b])&63]
		n += int(step >> 6)
	}
	return n, step >> 3 & 7, false
}

// boundEnd is what the end of the text adds in state.
func boundEnd(state uint8) int {
	return int(boundStep[(state<<3|kindEnd)&63] >> 6)
}

// boundRun runs the automaton over chunk, whose length is a multiple of
// eight, from state, and returns what it adds and the state it ends in.
// It steps four bytes at a time: the kinds are looked up apart from the
// chain of states, which then costs one lookup every four bytes. The
// tables come as arguments so that they stay in registers.
func boundRun(chunk []byte, state uint8, kinds *[4][256]uint16, steps *[boundStep4Mask + 1]uint8) (int, uint8) {
	n := 0
	for ; len(chunk) >= 8; chunk = chunk[8:] {
		w := binary.LittleEndian.Uint64(chunk)
		a := steps[(kinds[0][byte(w)]+kinds[1][byte(w>>8)]+kinds[2][byte(w>>16)]+kinds[3][byte(w>>24)]|uint16(state))&boundStep4Mask]
		b := steps[(kinds[0][byte(w>>32)]+kinds[1][byte(w>>40)]+kinds[2][byte(w>>48)]+kinds[3][byte(w>>56)]|uint16(a&7))&boundStep4Mask]
		n += int(a>>3) + int(b>>3)
		state = b & 7
	}
	return n, state
}

// boundRun2 is boundRun over two chunks of one length at once, each from
// its own state.
func boundRun2(one, two []byte, state1, state2 uint8, kinds *[4][256]uint16, steps *[boundStep4Mask + 1]uint8) (int, uint8, uint8) {
	n := 0
	for len(one) >= 8 && len(two) >= 8 {
		w, v := binary.LittleEndian.Uint64(one), binary.LittleEndian.Uint64(two)
		a := steps[(kinds[0][byte(w)]+kinds[1][byte(w>>8)]+kinds[2][byte(w>>16)]+kinds[3][byte(w>>24)]|uint16(state1))&boundStep4Mask]
		c := steps[(kinds[0][byte(v)]+kinds[1][byte(v>>8)]+kinds[2][byte(v>>16)]+kinds[3][byte(v>>24)]|uint16(state2))&boundStep4Mask]
		b := steps[(kinds[0][byte(w>>32)]+kinds[1][byte(w>>40)]+kinds[2][byte(w>>48)]+kinds[3][byte(w>>56)]|uint16(a&7))&boundStep4Mask]
		d := steps[(kinds[0][byte(v>>32)]+kinds[1][byte(v>>40)]+kinds[2][byte(v>>48)]+kinds[3][byte(v>>56)]|uint16(c&7))&boundStep4Mask]
		n += int(a>>3) + int(b>>3) + int(c>>3) + int(d>>3)
		state1, state2 = b&7, d&7
		one, two = one[8:], two[8:]
	}
	return n, state1, state2
}

// Byte kinds of the automaton.
const (
	kindLetter = iota // an ASCII letter
	kindDigit         // an ASCII digit
	kindSpace         // ASCII white space
	kindOther         // any other ASCII byte
	kindHigh          // a byte of a non-ASCII rune
	kindEnd           // the end of the text
)

// States of the automaton: where the bytes read so far end.
const (
	boundNone         = iota // after a space, or at the start
	boundLetters             // in a run of letters, which has counted
	boundDigits1             // in a run of digits, 1 mod 3 of them
	boundDigits2             // 2 mod 3
	boundDigits3             // 0 mod 3
	boundOtherLast           // in a run of others not yet counted, after an ASCII other
	boundOtherHigh           // in a run of others not yet counted, after a non-ASCII byte
	boundOtherCounted        // in a run of others that has counted
)

var boundKind = func() (k [256]uint8) {
	for b := range k {
		switch c := classify(rune(b)); {
		case b >= utf8.RuneSelf:
			k[b] = kindHigh
		case c&classLetter != 0:
			k[b] = kindLetter
		case c&classNumber != 0:
			k[b] = kindDigit
		case c&classSpace != 0:
			k[b] = kindSpace
		default:
			k[b] = kindOther
		}
	}
	return k
}()

// boundStep[state<<3|kind] is the next state shifted left 3, plus 64
// times what to add: one table lookup and no bounds check a byte.
var boundStep = func() (flat [64]uint8) {
	var t [8][6]uint8
	step := func(next, add int) uint8 { return uint8(next<<3 | add<<6) }
	for state := range t {
		// What a run of others that ends here adds: its last ASCII other
		// is not a word's prefix unless a letter follows.
		endOther := 0
		if state == boundOtherLast {
			endOther = 1
		}
		t[state][kindLetter] = step(boundLetters, 1)
		t[state][kindDigit] = step(boundDigits1, 1+endOther)
		t[state][kindSpace] = step(boundNone, endOther)
		t[state][kindOther] = step(boundOtherLast, 0)
		t[state][kindHigh] = step(state, 0)
		t[state][kindEnd] = step(boundNone, endOther)
	}
	t[boundLetters][kindLetter] = step(boundLetters, 0)
	t[boundDigits1][kindDigit] = step(boundDigits2, 0)
	t[boundDigits2][kindDigit] = step(boundDigits3, 0)
	t[boundOtherLast][kindOther] = step(boundOtherCounted, 1)
	t[boundOtherLast][kindHigh] = step(boundOtherHigh, 0)
	t[boundOtherCounted][kindOther] = step(boundOtherCounted, 0)
	for state := range t {
		for kind := range t[state] {
			flat[state<<3|kind] = t[state][kind]
		}
	}
	return flat
}()

// boundKinds4[k][b] is the part of a boundStep4 index that the kind of
// byte b adds as the k-th of four: 8 times the kind in base 5.
var boundKinds4 = func() (t [4][256]uint16) {
	for k, scale := range [4]uint16{8, 8 * 5, 8 * 25, 8 * 125} {
		for b := range t[k] {
			t[k][b] = uint16(boundKind[b]) * scale
		}
	}
	return t
}()

// boundStep4Mask masks an index of boundStep4.
const boundStep4Mask = 1<<13 - 1

// boundStep4[state + boundKinds4 of four bytes] is boundStep for the four
// bytes: the next state, plus 8 times what to add. 8 states times 5⁴
// kinds take 5000 of its entries; its size, a power of two, lets the
// index be masked rather than checked.
var boundStep4 = func() (t [boundStep4Mask + 1]uint8) {
	for state := range 8 {
		for kinds := range 625 {
			step, add := uint8(state<<3), 0
			for j, k := 0, kinds; j < 4; j, k = j+1, k/5 {
				step = boundStep[(step&0x38|uint8(k%5))&63]
				add += int(step >> 6)
			}
			t[state+8*kinds] = step>>3&7 | uint8(add)<<3
		}
	}
	return t
}()
