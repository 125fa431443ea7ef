package tokens_test

import (
	"strconv"
	"unicode"

	"github.com/gcxwire/gcx/tokens"
	"github.com/gcxwire/gcx/tokens/tokenstest"
)

// oracleCount is tiktoken-go's count of text.
func oracleCount(t fataler, name, text string) int {
	t.Helper()
	n, err := tokenstest.Count(name, text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var encodingNames = []string{tokens.CL100K, tokens.O200K}

func encoding(t fataler, name string) *tokens.Encoding {
	t.Helper()
	e, err := tokens.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fataler is what the helpers need of *testing.T, *testing.B and *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkAgainstOracle checks that both encodings count text as tiktoken-go
// does.
func checkAgainstOracle(t fataler, text string) {
	t.Helper()
	for _, name := range encodingNames {
		got, want := encoding(t, name).Count(text), oracleCount(t, name, text)
		if got != want {
			t.Fatalf("%s: Count(%s) = %d, tiktoken-go counts %d", name, quote(text), got, want)
		}
	}
}

// quote quotes text for a message, at most 64 bytes of it and its length.
func quote(text string) string {
	if len(text) <= 64 {
		return strconv.Quote(text)
	}
	return strconv.Quote(text[:64]) + "... (" + strconv.Itoa(len(text)) + " bytes)"
}

// toLower lowers a rune as the oracle's expression engine does for (?i).
func toLower(r rune) rune { return unicode.ToLower(r) }
