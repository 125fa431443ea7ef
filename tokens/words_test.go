package tokens

import (
	"math/rand/v2"
	"testing"
	"unsafe"

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
// ASCII and invalid bytes, the digits, punctuation and white space that
// asciiPiece cuts next to numbers, other and spaces that are not ASCII, of every length around its 24-byte tail;
// stopped at a limit, it stops as that loop does.
func TestPropertyWordsFastPath(t *testing.T) {
	e, err := Get(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"a", "the", "Name", "abcdefg", "abcdefgh", "abcdefghijk", "internalserver", "abcdefghXY", "abcdefghijklmnop", "Xbcdefghijk", " ", "  ", "\t", "\n", "\r\n",
		"'", "'s", "'ll", "'RE", "/", "::", ".", "_", "-", "\"", "0", "123", "4567", "é", "Ω", "日本", "\xff", "\xc3", "x\xcc\x81",
		// asciiPiece's kinds: digits before a number that is not ASCII
		// (², ٣), punctuation runs before other that is not ASCII (→),
		// white space before each kind, controls.
		"12", "()", " (", ")", ",", "=>", "->", "\v", "\x00", "\n\n", "9", "²", "٣", "→", "\u00a0", "\u2028"}
	gen.Check(t, 2000, func(t *rapid.T) {
		text := partsText(t, parts, 80)
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

// TestPropertyCountRunCut: countRun cuts where cl100kPiece does, at every
// place it can begin a piece (24 bytes or more before the end), whether it
// counts the piece in line (its cache slot holds it: the text was counted
// once before), leaves it to tokens or to letters, on texts of words with
// and without prefixes, digits, punctuation, white space, quotes and what
// is not ASCII next to them. A piece it leaves to cl100kPiece is cut there.
func TestPropertyCountRunCut(t *testing.T) {
	e, err := Get(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	parts := []string{"a", "Name", "abcdefgh", "abcdefghijklmnopq", " ", "  ", "\t", "\n", "\r\n", "\v", "\x00", "'", "'s", "'ll", "/", "::", ".", "-", "\"",
		"()", " (", ")", ",", "=>", "0", "9", "12", "123", "4567", "²", "٣", "→", "é", "\u00a0", "\u2028", "\xff"}
	gen.Check(t, 2000, func(t *rapid.T) {
		text := append(partsText(t, parts, 60), "x abcdefghijklmnopqrstuvwx"...)
		c := counter{tab: e.tab, piece: e.piece, cache: new(pieceCache), words: true}
		if rapid.Bool().Draw(t, "warm") {
			c.count(text, noLimit) // fills the cache slots countRun reads
		}
		base := unsafe.Pointer(unsafe.SliceData(text))
		for i := 0; i+24 <= len(text); i++ {
			next, end, _, why := countRun(c.cache, base, len(text), len(text), i, 0, 0)
			switch why {
			case runLimit: // counted in line, past the limit 0
				end = next
			case runLetters:
				end = letters(text, end)
			case runCut:
				end = cl100kPiece(text, i)
			}
			if want := cl100kPiece(text, i); end != want {
				t.Fatalf("countRun(%q, %d) cuts at %d (why %d), cl100kPiece at %d", text, i, end, why, want)
			}
		}
	})
}

// partsText draws a text of up to most parts.
func partsText(t *rapid.T, parts []string, most int) []byte {
	r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
	size := rapid.IntRange(0, most).Draw(t, "parts")
	var text []byte
	for range size {
		text = append(text, parts[r.IntN(len(parts))]...)
	}
	return text
}
