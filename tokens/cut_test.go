package tokens_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/tokens"
)

// TestPropertyCutSplitsCount: wherever Cut cuts a prefix of a text, the
// text's tokens are tiktoken-go's count of the part before the cut plus
// that of the part after it, in both encodings, however the text goes on.
// The texts are cut into values by tabs and line feeds, as a payload is,
// next to every kind of byte the pre-tokenizer tells apart.
func TestPropertyCutSplitsCount(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.OneOf(textPart(), rapid.SampledFrom([]string{"\t", "\n", "\t\t", "\n\n", " \t", "\t ", "x\t", "1\n", "a\n"})), 1, 12).Draw(t, "parts")
		text := strings.Join(parts, "")
		prefix := rapid.IntRange(0, len(text)).Draw(t, "prefix")
		q := tokens.Cut([]byte(text[:prefix]))
		if q < 0 || q > 0 && q >= prefix {
			t.Fatalf("Cut of %d bytes = %d", prefix, q)
		}
		if q == 0 {
			return
		}
		for _, name := range encodingNames {
			whole, before, after := oracleCount(t, name, text), oracleCount(t, name, text[:q]), oracleCount(t, name, text[q:])
			if before+after != whole {
				t.Fatalf("%s: cut at %d of %s: %d + %d tokens, the whole text %d", name, q, quote(text), before, after, whole)
			}
		}
	})
}

// TestCut: the cuts a payload's lines have, and the places that are none.
func TestCut(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0}, {"\t", 0}, {"a\t", 1}, {"ab\tc", 2}, {"a \t", 0}, {"a\t\t", 1}, {"x\n", 1}, {"7\n", 1},
		{")\n", 0}, {" \n", 0}, {"é\t", 0}, {"a\tb\tc", 3}, {"row\tvalue\nnext", 9}, {"a\t\n", 1},
	} {
		if got := tokens.Cut([]byte(c.text)); got != c.want {
			t.Errorf("Cut(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
