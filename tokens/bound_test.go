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

// TestBoundShift4: each word of boundShift4 holds, from every state,
// the state and the sum that boundStep gives the four kinds one at a
// time, the sum below 8 so that it stays in its three bits.
func TestBoundShift4(t *testing.T) {
	most := 0
	for kinds := range 625 {
		for state := range 8 {
			step, add := uint8(state<<3), 0
			for j, k := 0, kinds; j < 4; j, k = j+1, k/5 {
				step = boundStep[(step&0x38|uint8(k%5))&63]
				add += int(step >> 6)
			}
			got := uint8(boundShift4[kinds] >> (8 * state))
			if add > 7 || got != step&0x38|uint8(add) {
				t.Fatalf("kinds %d from state %d: %#x, one kind a step: state %d, adds %d", kinds, state, got, step>>3&7, add)
			}
			most = max(most, add)
		}
	}
	for kinds := 625; kinds <= boundShift4Mask; kinds++ {
		if boundShift4[kinds] != 0 {
			t.Fatalf("unused entry %d is %#x", kinds, boundShift4[kinds])
		}
	}
	t.Logf("four bytes add at most %d", most)
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
