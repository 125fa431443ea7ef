package tokens

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/internal/gen"
	"pgregory.net/rapid"
)

// boundByteAtATime is the automaton of cl100kLowerBound run one byte a
// step through boundStep, as its documentation states it.
func boundByteAtATime(text []byte) int {
	n, step := 0, uint8(boundNone<<3)
	for _, b := range text {
		step = boundStep[(step&0x38|boundKind[b])&63]
		n += int(step >> 6)
	}
	return n + int(boundStep[(step&0x38|kindEnd)&63]>>6)
}

// TestPropertyBoundSteps: cl100kLowerBound, which steps four bytes at a
// time, finds what the automaton finds one byte at a time, for texts of
// every length (across the 256-byte chunks it checks the limit between)
// and mix of byte kinds; stopped at a limit, it returns more than the
// limit and no more than the whole text's bound.
func TestPropertyBoundSteps(t *testing.T) {
	alphabets := []string{
		"aZq09 \t\n,{\"':-_\xc3\xa9\xe2\x80\x94\xff",
		"09,{\"':-_\xc3\xa9\xff", // no letter or space
		"a,",
		"aZq09 \t\n,{\"':-_", // ASCII only: whole blocks for blockBound
		"0000000009a ,",      // long runs of digits
		",,,,:a 1",
	}
	gen.Check(t, 3000, func(t *rapid.T) {
		alphabet := rapid.SampledFrom(alphabets).Draw(t, "alphabet")
		// The length drawn outright and the bytes from a seed, so that
		// long texts are as common as short ones.
		size := rapid.SampledFrom([]int{7, 64, 257, 700, 1023, 3072}).Draw(t, "size")
		size -= rapid.IntRange(0, 9).Draw(t, "shorter")
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		text := make([]byte, max(size, 0))
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		// A letter in the first half only, at times.
		if rapid.Bool().Draw(t, "letterFirst") && len(text) > 0 {
			text[rapid.IntRange(0, (len(text)-1)/2).Draw(t, "letterAt")] = 'k'
		}
		want := boundByteAtATime(text)
		if got := cl100kLowerBound(text, math.MaxInt); got != want {
			t.Fatalf("bound of %q = %d, one byte a step %d", text, got, want)
		}
		limit := rapid.IntRange(-1, want+1).Draw(t, "limit")
		if got := cl100kLowerBound(text, limit); got < min(want, limit+1) || got > want {
			t.Fatalf("bound of %q up to %d = %d, whole %d", text, limit, got, want)
		}
	})
}

// TestBoundStepsEveryByte: every byte value, alone, after and before each
// kind, at each offset of a four-byte step.
func TestBoundStepsEveryByte(t *testing.T) {
	for b := range 256 {
		for _, around := range []string{"", "a", "7", " ", ",", "\xc3"} {
			for pad := range 4 {
				text := []byte(strings.Repeat("x", pad) + around + string([]byte{byte(b)}) + around)
				if got, want := cl100kLowerBound(text, math.MaxInt), boundByteAtATime(text); got != want {
					t.Fatalf("bound of %q = %d, one byte a step %d", text, got, want)
				}
			}
		}
	}
}

// TestBoundShift4: every four bytes of every mix of kinds, after four
// bytes that leave the automaton in each of its states, are bounded as the
// automaton bounds them one byte at a time; so each word of boundShift4
// holds the state and the sum that boundStep gives, the sum within its
// three bits.
func TestBoundShift4(t *testing.T) {
	before := map[int]string{
		boundNone: "    ", boundLetters: "   a", boundDigits1: "   1", boundDigits2: "  12",
		boundDigits3: " 123", boundOtherLast: "   ,", boundOtherHigh: "  ,\xc3", boundOtherCounted: "  ,,",
	}
	kindByte := [5]byte{kindLetter: 'q', kindDigit: '5', kindSpace: '\t', kindOther: '"', kindHigh: 0xe2}
	for state, prefix := range before {
		step := uint8(boundNone << 3)
		for _, b := range []byte(prefix) {
			step = boundStep[(step&0x38|boundKind[b])&63]
		}
		if step>>3&7 != uint8(state) {
			t.Fatalf("%q leaves state %d, not %d", prefix, step>>3&7, state)
		}
		for kinds := range 625 {
			text := []byte(prefix)
			for k := kinds; len(text) < 8; k /= 5 {
				text = append(text, kindByte[k%5])
			}
			if got, want := cl100kLowerBound(text, math.MaxInt), boundByteAtATime(text); got != want {
				t.Fatalf("%q (state %d before the four bytes) bounded at %d, one byte a step %d", text, state, got, want)
			}
		}
	}
}

// TestBoundPairs: each entry of boundPairs is the kinds of its two bytes,
// the first (the low byte of the little-endian index) lowest.
func TestBoundPairs(t *testing.T) {
	pairs := boundPairs()
	for i := range pairs {
		if want := boundKind[i&0xff] + 5*boundKind[i>>8]; pairs[i] != want {
			t.Fatalf("pairs[%#04x] = %d, want %d", i, pairs[i], want)
		}
	}
}

// TestAsciiKinds: asciiKinds (in assembly where there is one) sets each
// byte's bit in the word of its boundKind, for every byte value at every
// place of a block, over several blocks, and the fourth word of a block
// just when it holds a byte of 0x80 or more: with its SSE2 steps, and its
// AVX2 steps where the processor has them.
func TestAsciiKinds(t *testing.T) {
	for _, wide := range []bool{false, kindsWide} {
		asciiKindsSteps(t, wide)
	}
}

func asciiKindsSteps(t *testing.T, wide bool) {
	const blocks = 3
	text := make([]byte, 64*blocks)
	for shift := range 256 {
		for i := range text {
			text[i] = byte(i*7 + shift)
		}
		var got [blocks][4]uint64
		asciiKinds(&text[0], blocks, &got[0][0], wide)
		var high [blocks]bool
		for i, c := range text {
			for w, kind := range []uint8{kindLetter, kindDigit, kindSpace} {
				if set := got[i/64][w]>>(i%64)&1 != 0; set != (boundKind[c] == kind) {
					t.Fatalf("byte %#02x at %d: bit in word %d is %v, its kind is %d", c, i, w, set, boundKind[c])
				}
			}
			high[i/64] = high[i/64] || c >= 0x80
		}
		for b := range blocks {
			if (got[b][3] != 0) != high[b] {
				t.Fatalf("block %d of %x: fourth word %#x", b, text[64*b:64*b+64], got[b][3])
			}
		}
		// One byte of 0x80 or more in a block of ASCII.
		for i := range text {
			text[i] = 'a'
		}
		text[64+shift%64] = byte(0x80 + shift%128)
		asciiKinds(&text[0], blocks, &got[0][0], wide)
		if got[0][3] != 0 || got[1][3] == 0 || got[2][3] != 0 {
			t.Fatalf("%#02x at %d: fourth words %#x", text[64+shift%64], 64+shift%64, [3]uint64{got[0][3], got[1][3], got[2][3]})
		}
	}
}

// TestPropertyBoundChunk: boundChunk finds, from each state, what the
// automaton's four-byte steps (boundRun) find in a chunk of ASCII bytes
// drawn from runs of each kind, long and short, its 64-byte blocks
// bounded from their bits; and so it does when some block holds a byte of
// 0x80 or more, which boundRun steps.
func TestPropertyBoundChunk(t *testing.T) {
	runs := []string{"a", "Zq", "abcdefghijklmnopqrst", "1", "12", "123", "1234", "0123456789012345678901234567890123",
		" ", "\t\n", ",", ",,", "\":{", "'", "\v\f\r"}
	pairs := boundPairs()
	gen.Check(t, 3000, func(t *rapid.T) {
		state := uint8(rapid.IntRange(0, boundOtherCounted).Draw(t, "state"))
		var text []byte
		for len(text) < boundChunkSize {
			text = append(text, rapid.SampledFrom(runs).Draw(t, "run")...)
		}
		text = text[:boundChunkSize]
		if rapid.IntRange(0, 3).Draw(t, "high") == 0 {
			text[rapid.IntRange(0, len(text)-1).Draw(t, "highAt")] = rapid.SampledFrom([]byte{0x80, 0xc3, 0xff}).Draw(t, "highByte")
		}
		gotN, gotState := boundChunk(text, state, pairs)
		wantN, wantState := boundRun(text, state, pairs, &boundShift4)
		if gotN != wantN || gotState != wantState {
			t.Fatalf("%q from state %d: boundChunk %d, state %d; boundRun %d, state %d", text, state, gotN, gotState, wantN, wantState)
		}
	})
}
