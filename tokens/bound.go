package tokens

import (
	"math/bits"
	"sync"
	"unicode/utf8"
	"unsafe"
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
// It reads four bytes a step, one chain of states: the kinds of the four
// bytes, looked up two bytes at a time apart from the chain, pick a word
// that holds the step from every state, and the state before selects its
// byte by a shift. The chain then costs a shift and a mask every four
// bytes, where a lookup in a table indexed by the state, on two chains
// over the text's two halves, cost a load each (0.77 of the time on
// search_symbols-500's JSON text). On amd64, a 64-byte block of ASCII,
// nearly all of a tool's JSON text, goes faster still, as bits (see
// boundChunk): 0.46 of the instructions of the four-byte steps on that
// text.
func cl100kLowerBound(text []byte, limit int) int {
	pairs := boundPairs()
	n, state := 0, uint8(boundNone)
	for len(text) >= 8 {
		chunk := text[:min(len(text), boundChunkSize)&^7]
		text = text[len(chunk):]
		var add int
		if kindsInAsm && len(chunk) == boundChunkSize {
			add, state = boundChunk(chunk, state, pairs)
		} else {
			add, state = boundRun(chunk, state, pairs, &boundShift4)
		}
		if n += add; n > limit {
			return n
		}
	}
	step := state << 3
	for _, b := range text {
		step = boundStep[(step&0x38|boundKind[b])&63]
		n += int(step >> 6)
	}
	return n + int(boundStep[(step&0x38|kindEnd)&63]>>6)
}

// boundRun runs the automaton over chunk, whose length is a multiple of
// eight, from state, and returns what it adds and the state it ends in.
// The tables come as arguments so that they stay in registers.
func boundRun(chunk []byte, state uint8, pairs *[1 << 16]uint8, steps *[boundShift4Mask + 1]uint64) (int, uint8) {
	n := 0
	s := uint64(state) << 3 // the state's byte in a boundShift4 word
	// The words are read from the chunk's base, unchecked (the loop's
	// condition bounds them): slicing the chunk a word at a time, and its
	// checks, took an eighth of the time.
	base := unsafe.Pointer(unsafe.SliceData(chunk))
	for k := 0; k+8 <= len(chunk); k += 8 {
		w := word8(unsafe.Add(base, k))
		ea := steps[(uint32(pairs[uint16(w)])+25*uint32(pairs[uint16(w>>16)]))&boundShift4Mask]
		eb := steps[(uint32(pairs[uint16(w>>32)])+25*uint32(pairs[uint16(w>>48)]))&boundShift4Mask]
		a := ea >> (s & 63)
		b := eb >> (a & 0x38)
		n += int(a&7) + int(b&7)
		s = b & 0x38
	}
	return n, uint8(s >> 3)
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

// boundPairs returns the table of two bytes' kinds: for the two bytes of
// a little-endian 16-bit index, the first's kind plus 5 times the
// second's. It is made at its first use, not when a process starts: 64
// KiB, of which ASCII text reads 16.
var boundPairs = sync.OnceValue(func() *[1 << 16]uint8 {
	t := new([1 << 16]uint8)
	for second := range 256 {
		row, add := (*[256]uint8)(t[second<<8:]), 5*boundKind[second]
		for first, kind := range &boundKind {
			row[first] = kind + add
		}
	}
	return t
})

// boundShift4Mask masks an index of boundShift4.
const boundShift4Mask = 1<<10 - 1

// boundShift4[kinds of four bytes in base 5, the first lowest] is
// boundStep for the four bytes from every state: its byte 8×state holds
// the next state times 8, plus what the four bytes add, which must stay
// below 8 (TestBoundShift4 holds the table to boundStep). The 625 kinds
// take 625 of its entries; its size, a power of two, lets the index be masked rather
// than checked.
var boundShift4 = func() (t [boundShift4Mask + 1]uint64) {
	for kinds := range 625 {
		for state := range 8 {
			step, add := uint8(state<<3), 0
			for j, k := 0, kinds; j < 4; j, k = j+1, k/5 {
				step = boundStep[(step&0x38|uint8(k%5))&63]
				add += int(step >> 6)
			}
			t[kinds] |= uint64(step&0x38|uint8(add)) << (8 * state)
		}
	}
	return t
}()

// boundChunkSize is the most cl100kLowerBound reads before it compares
// its sum with the limit: a multiple of 64, the blocks of boundChunk.
const boundChunkSize = 256

// boundChunk is boundRun for a chunk of boundChunkSize bytes, where
// asciiKinds is in assembly: a block of 64 bytes that is all ASCII, as
// nearly all of a tool's JSON text is, is bounded from the bits of its
// letters, digits and white space (l, d and s: byte i at bit i; the other
// bytes are kindOther), with a few operations on words for the whole
// block; a block with a byte of 0x80 or more is stepped by boundRun. In
// an ASCII block, where no such byte joins runs, the automaton's rules
// come down to bits (each shifted word below holds, at bit i, what is
// true of byte i-1 or i-2, the bits below the block's start given by
// state):
//   - a letter adds 1 where the byte before is not a letter (nor the state
//     in boundLetters);
//   - an other adds 1 where the byte before is an other and the byte before
//     that is not (boundOtherCounted stands for an other two bytes back, as
//     the run has counted), and a digit or a space adds 1 where the byte
//     before is an other that is not (boundOtherLast);
//   - a digit adds 1 where its offset in its run, the run's digits before
//     the block counted (boundDigits1, 2 or 3), is a multiple of three:
//     from the first digit of each run, every third digit while the run
//     lasts, at most 22 steps of a shift a block.
func boundChunk(chunk []byte, state uint8, pairs *[1 << 16]uint8) (int, uint8) {
	var kinds [boundChunkSize / 64][4]uint64
	asciiKinds(&chunk[0], len(kinds), &kinds[0][0], kindsWide)
	n := 0
	for b := range len(kinds) {
		k := &kinds[b]
		if k[3] != 0 {
			var add int
			add, state = boundRun(chunk[64*b:64*b+64], state, pairs, &boundShift4)
			n += add
			continue
		}
		l, d, s := k[0], k[1], k[2]
		in := &blockEntry[state&7]
		o := ^(l | d | s)
		o1 := o<<1 | in.other
		// The letters, others and digits that add, one bit each: an other
		// adds where it is the second of its run, and a single other
		// where a digit or space follows it (at the block's first byte,
		// the state's boundOtherLast does, added apart).
		adds := l&^(l<<1|in.letter) | o&o1&^(o<<2|in.other<<1|in.counted) | o&^o1&((d|s)>>1)
		// The digits: the first of each run that begins in the block, and
		// the first that adds in the run the block continues; then every
		// third.
		adds |= d &^ (d<<1 | in.digits)
		if lead := uint64(bits.TrailingZeros64(^d)); in.digits != 0 && in.first < lead {
			adds |= 1 << in.first
		}
		three := d & (d << 1) & (d << 2)
		for next := adds & d << 3 & three; next != 0; next = next << 3 & three {
			adds |= next
		}
		n += bits.OnesCount64(adds) + int(in.last&(d|s)&1)
		// The state after byte 63.
		switch top := uint64(1) << 63; {
		case l&top != 0:
			state = boundLetters
		case s&top != 0:
			state = boundNone
		case d&top != 0:
			run := uint64(bits.LeadingZeros64(^d))
			if run == 64 {
				run += 3 - in.first // the run's digits before the block, modulo 3
			}
			state = [3]uint8{boundDigits3, boundDigits1, boundDigits2}[run%3]
		case o1&top != 0:
			state = boundOtherCounted
		default:
			state = boundOtherLast
		}
	}
	return n, state
}

// asciiKindsGo is asciiKinds in Go: for each block of 64 bytes at p, the
// bits of its ASCII letters, its ASCII digits and its ASCII white space,
// byte i of the block at bit i, and a word that is not zero when it holds
// a byte of 0x80 or more (here, their bits).
func asciiKindsGo(p *byte, blocks int, out *uint64) {
	text := unsafe.Slice(p, 64*blocks)
	words := unsafe.Slice(out, 4*blocks)
	for b := range blocks {
		var k [4]uint64
		for i, c := range text[64*b : 64*b+64] {
			switch boundKind[c] {
			case kindLetter:
				k[0] |= 1 << i
			case kindDigit:
				k[1] |= 1 << i
			case kindSpace:
				k[2] |= 1 << i
			case kindHigh:
				k[3] |= 1 << i
			}
		}
		copy(words[4*b:], k[:])
	}
}

// blockEntry[state] is what boundChunk needs of the state a block begins
// in, each 0 or 1 but first: whether the byte before the block is a
// letter, or an other, whether that other's run has counted, whether the
// state is boundOtherLast, whether the block continues a run of digits,
// and then at which of its first three digits the run adds.
var blockEntry = [8]struct{ letter, other, counted, last, digits, first uint64 }{
	boundLetters:      {letter: 1},
	boundDigits1:      {digits: 1, first: 2},
	boundDigits2:      {digits: 1, first: 1},
	boundDigits3:      {digits: 1, first: 0},
	boundOtherLast:    {other: 1, last: 1},
	boundOtherCounted: {other: 1, counted: 1},
}
