package tokens

import (
	"math"
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
// every length and mix of byte kinds; stopped at a limit, it returns more
// than the limit and no more than the whole text's bound.
func TestPropertyBoundSteps(t *testing.T) {
	alphabet := []byte("aZq09 \t\n,{\"':-_\xc3\xa9\xe2\x80\x94\xff")
	gen.Check(t, 5000, func(t *rapid.T) {
		picks := rapid.SliceOfN(rapid.IntRange(0, len(alphabet)-1), 0, 700).Draw(t, "picks")
		text := make([]byte, len(picks))
		for i, p := range picks {
			text[i] = alphabet[p]
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
