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
// time and reads a long text as two halves, finds what the automaton finds
// one byte at a time, for texts of every length (across boundSplitFrom)
// and mix of byte kinds, with or without a letter or space to cut at;
// stopped at a limit, it returns more than the limit and no more than the
// whole text's bound.
func TestPropertyBoundSteps(t *testing.T) {
	alphabets := []string{
		"aZq09 \t\n,{\"':-_\xc3\xa9\xe2\x80\x94\xff",
		"09,{\"':-_\xc3\xa9\xff", // no letter or space: one pass
		"a,",
	}
	gen.Check(t, 3000, func(t *rapid.T) {
		alphabet := rapid.SampledFrom(alphabets).Draw(t, "alphabet")
		// The length drawn outright and the bytes from a seed, so that
		// long texts are as common as short ones.
		size := rapid.SampledFrom([]int{7, 64, 700, boundSplitFrom - 1, boundSplitFrom, 3 * boundSplitFrom}).Draw(t, "size")
		size -= rapid.IntRange(0, 9).Draw(t, "shorter")
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		text := make([]byte, max(size, 0))
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		// A letter in the first half only, at times: the cut is then
		// late or missing.
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

// TestBoundCutEven: a long text is cut after the first letter or space
// from its middle on, so its halves are as even as the text allows; a text
// with none there, or short, is read in one pass.
func TestBoundCutEven(t *testing.T) {
	for _, n := range []int{boundSplitFrom, boundSplitFrom + 1, 3000, 4096} {
		text := []byte(strings.Repeat("a", n))
		j := boundCut(text)
		if first, second := j+1, n-j-1; j < 0 || first-second > 2 || second-first > 2 {
			t.Errorf("%d letters cut after byte %d: halves of %d and %d bytes", n, j, first, second)
		}
	}
	for _, text := range []string{
		strings.Repeat("a", boundSplitFrom-1),
		strings.Repeat("a", boundSplitFrom/2-1) + strings.Repeat(".", boundSplitFrom/2+1), // none from the middle on
	} {
		if j := boundCut([]byte(text)); j != -1 {
			t.Errorf("%q cut after byte %d, want one pass", text[:20], j)
		}
	}
}
