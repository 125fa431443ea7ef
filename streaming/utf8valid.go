package streaming

import "encoding/binary"

// validUTF8 reports whether b is entirely valid UTF-8, giving exactly
// utf8.Valid's answer: no surrogate halves (U+D800–U+DFFF), no overlong
// forms, nothing above U+10FFFF, no stray continuation byte, and no
// sequence cut short, at the end or before another character.
//
// On amd64 with SSSE3 it checks 16 bytes a step with table lookups
// (utf8valid_amd64.s), skipping ASCII 32 and 64 bytes at a time; elsewhere,
// and under the purego tag, it is validUTF8Portable.
func validUTF8(b []byte) bool {
	if haveUTF8Vector {
		return validUTF8Vector(b)
	}
	return validUTF8Portable(b)
}

// validUTF8Portable is validUTF8 in Go alone. It skips ASCII 32 or 16 bytes at
// a time while no sequence is open, and runs the rest through a finite
// automaton whose states are bit offsets: utf8Next[c] holds, at the offset
// of each state, the offset of the state byte c leads to, so a byte costs a
// load that does not wait on the state and one shift that does.
// utf8.Valid instead branches on each lead byte's length and range.
func validUTF8Portable(b []byte) bool {
	state := uint64(utf8Accept)
	for len(b) > 0 {
		if state == utf8Accept {
			// Comparing with > rather than >= keeps b from pointing past
			// its end, which would cost the loop a fix-up at each step.
			for len(b) > 32 && (binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[8:])|
				binary.LittleEndian.Uint64(b[16:])|binary.LittleEndian.Uint64(b[24:]))&0x8080808080808080 == 0 {
				b = b[32:]
			}
			if len(b) >= 16 && (binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[8:]))&0x8080808080808080 == 0 {
				b = b[16:]
				continue
			}
		}
		if len(b) >= 16 {
			// Unrolled four bytes a step, so the loop's own counting
			// costs less; the shifts chain through the state either way.
			for chunk := b[:16]; len(chunk) >= 4; chunk = chunk[4:] {
				state = utf8Next[chunk[0]] >> (state & 63)
				state = utf8Next[chunk[1]] >> (state & 63)
				state = utf8Next[chunk[2]] >> (state & 63)
				state = utf8Next[chunk[3]] >> (state & 63)
			}
			b = b[16:]
		} else {
			for _, c := range b {
				state = utf8Next[c] >> (state & 63)
			}
			b = nil
		}
		state &= 63
		if state == utf8Error {
			return false
		}
	}
	return state == utf8Accept
}

// The automaton's states, as bit offsets into a utf8Next entry. The
// partial states say what the next byte must be: any continuation byte
// (80–BF), or the narrower range the lead byte allows.
const (
	utf8Accept  = 6 * iota // between characters
	utf8Error              // invalid; stays so
	utf8Need1              // one more continuation byte
	utf8Need2              // two more
	utf8Need3              // three more
	utf8AfterE0            // A0–BF, then one more: not overlong
	utf8AfterED            // 80–9F, then one more: not a surrogate
	utf8AfterF0            // 90–BF, then two more: not overlong
	utf8AfterF4            // 80–8F, then two more: not above U+10FFFF
)

// utf8Next is the automaton's transition table, built from its rules below.
var utf8Next = func() (next [256]uint64) {
	to := func(from uint64, lo, hi int, state uint64) {
		for c := lo; c <= hi; c++ {
			next[c] &^= 63 << from
			next[c] |= state << from
		}
	}
	for c := range next {
		for from := uint64(utf8Accept); from <= utf8AfterF4; from += 6 {
			next[c] |= utf8Error << from
		}
	}
	to(utf8Accept, 0x00, 0x7f, utf8Accept)
	to(utf8Accept, 0xc2, 0xdf, utf8Need1)
	to(utf8Accept, 0xe0, 0xe0, utf8AfterE0)
	to(utf8Accept, 0xe1, 0xec, utf8Need2)
	to(utf8Accept, 0xed, 0xed, utf8AfterED)
	to(utf8Accept, 0xee, 0xef, utf8Need2)
	to(utf8Accept, 0xf0, 0xf0, utf8AfterF0)
	to(utf8Accept, 0xf1, 0xf3, utf8Need3)
	to(utf8Accept, 0xf4, 0xf4, utf8AfterF4)
	to(utf8Need1, 0x80, 0xbf, utf8Accept)
	to(utf8Need2, 0x80, 0xbf, utf8Need1)
	to(utf8Need3, 0x80, 0xbf, utf8Need2)
	to(utf8AfterE0, 0xa0, 0xbf, utf8Need1)
	to(utf8AfterED, 0x80, 0x9f, utf8Need1)
	to(utf8AfterF0, 0x90, 0xbf, utf8Need2)
	to(utf8AfterF4, 0x80, 0x8f, utf8Need2)
	return next
}()
