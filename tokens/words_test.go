package tokens

import (
	"math/rand/v2"
	"testing"

	"github.com/gcxwire/gcx/internal/gen"
	"pgregory.net/rapid"
)

// plainCount counts text with the general loop of counter.count, which
// cuts every piece with cl100kPiece: what countWords must agree with.
func plainCount(e *Encoding, text []byte, limit int) int {
	cache, slot := e.caches.acquire()
	defer e.caches.release(cache, slot)
	c := counter{tab: e.tab, piece: e.piece, cache: cache}
	return c.count(text, limit)
}

// TestPropertyWordsFastPath: countWords, which cuts and counts short ASCII
// words in line, finds the count of the general loop, on texts made of
// words, prefixes of every kind, contractions, words longer than eight
// bytes (some of nine to 16 that share their first or last eight, which
// the short cache's key in line must tell apart), letters that are not
// ASCII and invalid bytes, of every length around its 24-byte tail;
// stopped at a limit, it stops as that loop does.
func TestPropertyWordsFastPath(t *testing.T) {
	e, err := Get(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"a", "the", "Name", "abcdefg", "abcdefgh", "abcdefghijk", "internalserver", "abcdefghXY", "abcdefghijklmnop", "Xbcdefghijk", " ", "  ", "\t", "\n", "\r\n",
		"'", "'s", "'ll", "'RE", "/", "::", ".", "_", "-", "\"", "0", "123", "4567", "é", "Ω", "日本", "\xff", "\xc3", "x\xcc\x81"}
	gen.Check(t, 2000, func(t *rapid.T) {
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		size := rapid.IntRange(0, 80).Draw(t, "parts")
		var text []byte
		for range size {
			text = append(text, parts[r.IntN(len(parts))]...)
		}
		want := plainCount(e, text, noLimit)
		if got := e.CountBytes(text); got != want {
			t.Fatalf("Count(%q) = %d, the general loop counts %d", text, got, want)
		}
		limit := rapid.IntRange(-1, want+1).Draw(t, "limit")
		if got, plain := e.count(text, limit), plainCount(e, text, limit); got != plain {
			t.Fatalf("count(%q, %d) = %d, the general loop %d", text, limit, got, plain)
		}
	})
}
