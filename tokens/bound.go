package tokens

import "unicode/utf8"

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
func cl100kLowerBound(text []byte, limit int) int {
	n, state := 0, uint16(boundNone)<<6
	for len(text) > 1 {
		chunk := text[:min(len(text), 256)&^1]
		text = text[len(chunk):]
		// Two bytes a step: the chain from one state to the next is
		// a table lookup, whose latency bounds the loop.
		for i := 0; i+1 < len(chunk); i += 2 {
			step := boundStep2[(state|uint16(boundKind[chunk[i]])|uint16(boundKind[chunk[i+1]])<<3)&511]
			n += int(step & 7)
			state = step &^ 7
		}
		if n > limit {
			return n
		}
	}
	last := boundStep[(state>>3|uint16(kindEnd))&63]
	if len(text) == 1 {
		last = boundStep[(state>>3|uint16(boundKind[text[0]]))&63]
		last = boundStep[(uint16(last)&0x38|kindEnd)&63] + last&0xc0
	}
	return n + int(last>>6)
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

// boundStep2[state<<6|second<<3|first] is boundStep for two bytes: the
// next state shifted left 6, plus what to add.
var boundStep2 = func() (t [512]uint16) {
	for state := range 8 {
		for first := range kindEnd {
			for second := range kindEnd {
				a := boundStep[state<<3|first]
				b := boundStep[int(a)&0x38|second]
				t[state<<6|second<<3|first] = uint16(b&0x38)<<3 | uint16(a>>6+b>>6)
			}
		}
	}
	return t
}()
