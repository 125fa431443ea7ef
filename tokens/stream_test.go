package tokens_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/tokens"
)

// counterFragments are the texts whose pieces depend most on what follows
// them: runs of spaces and newlines of every kind, contractions cut after
// the apostrophe, letters and digits in runs, non-ASCII letters, spaces
// and numbers, and bytes that are no UTF-8 or only part of a character.
var counterFragments = []string{
	" ", "  ", "      ", "\t\t\t\t\t", "\t", "\n", "\r\n", "\n\n", " \n ", "\u00a0", "\u2003", "\u0085", "'", "'s", "'ll", "'LL", "'re",
	"a", "word", "Word", "x1", "123", "4567", "é", "日本", "٣", "!", "?!", "{\"", "\":", "},", "\\t", "GCX1 ",
	"\xff", "\xe6\x97", "\xe6", "\x97",
}

// TestPropertyCounterIsCount: a Counter fed a text in any parts, counting
// what is settled every few bytes, ends with the count of the whole text,
// in both encodings.
func TestPropertyCounterIsCount(t *testing.T) {
	defer tokens.SetFlushAt(tokens.SetFlushAt(1))
	encs := []*tokens.Encoding{encoding(t, tokens.CL100K), encoding(t, tokens.O200K)}
	gen.Check(t, 2000, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(counterFragments), 0, 60).Draw(t, "fragments")
		text := strings.Join(parts, "")
		tokens.SetFlushAt(rapid.IntRange(1, 40).Draw(t, "flush at"))
		for _, e := range encs {
			c := e.NewCounter()
			rest := text
			for len(rest) > 0 {
				n := rapid.IntRange(1, len(rest)).Draw(t, "part")
				c.WriteString(rest[:n])
				rest = rest[n:]
			}
			if got, want := c.Count(), e.Count(text); got != want {
				t.Fatalf("%s: Counter counted %d tokens in %q, Count %d", e.Name(), got, text, want)
			}
		}
	})
}
