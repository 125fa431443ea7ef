package tokens_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/tokens"
	"github.com/gcxwire/gcx/tokens/tokenstest"
	"pgregory.net/rapid"
)

// checkPieces holds each encoding's splitter to its pre-tokenizer
// expression, piece by piece: a wrong cut can leave the count right (the
// tokens of two pieces may add up to those of their join), so the count
// oracle alone does not see it.
func checkPieces(t fataler, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		return // the expression engine reads runes; its cut of a bad byte is not the rule's
	}
	for _, name := range encodingNames {
		want, err := tokenstest.Pieces(name, text)
		if err != nil {
			t.Fatal(err)
		}
		got := tokens.Pieces(name, []byte(text))
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("%s: %s cut as %q, the expression cuts %q", name, quote(text), got, want)
		}
	}
}

// TestPiecesFollowTheExpression: the cases of TestPieceRules and a few
// where a wrong cut costs the same tokens (a digit or a line feed before
// a word, a space and a mark at the end of the text).
func TestPiecesFollowTheExpression(t *testing.T) {
	for _, text := range append(pieceRuleTexts,
		"1hello", "\nhello", "\rWorld", "a .", " ?", "x !\n", " \u20ac\u20ac", "5\u01c4x", "9th") {
		checkPieces(t, text)
	}
}

// TestPropertyPiecesFollowTheExpression: on generated text, both
// encodings' splitters cut where their expressions do.
func TestPropertyPiecesFollowTheExpression(t *testing.T) {
	gen.Check(t, 3000, func(t *rapid.T) {
		checkPieces(t, testText().Draw(t, "text"))
	})
}
