package tokens

import (
	"testing"

	"github.com/gcxwire/gcx/internal/gen"
	"pgregory.net/rapid"
)

// TestPieceKinds: pieceKinds (in AVX2 where the processor has it) sets
// each byte's bit in the words of its kinds, as pieceKindsGo does, for
// every byte value at every place of a block, over several blocks.
func TestPieceKinds(t *testing.T) {
	if !blocksOn {
		t.Skip("pieceKinds has no assembly here")
	}
	const blocks = 3
	text := make([]byte, 64*blocks)
	for shift := range 256 {
		for i := range text {
			text[i] = byte(i*7 + shift)
		}
		var got, want [blocks][blockWords]uint64
		pieceKinds(&text[0], blocks, &got[0][0])
		pieceKindsGo(&text[0], blocks, &want[0][0])
		if got != want {
			t.Fatalf("%x: pieceKinds %x, pieceKindsGo %x", text, got, want)
		}
	}
}

// blockParts are what the texts of the block tests are made of: words
// with and without prefixes, digits of every run length, punctuation runs,
// single and double white space, line feeds after punctuation, and now and
// then what the rules leave to countRun (quotes, contractions, carriage
// returns, bytes of 0x80 or more).
var blockParts = []string{"a", "Name", "abcdefgh", "abcdefghijklmnopqrstu", "internal/indexer/typescript", "_graph.go::",
	"0", "12", "123", "1234", "1234567", " ", "\t", "\n", "\t\n", "  ", "\v", "\x00", "\x7f",
	".", "::", "(", "()", " (", ") ", ".\n", "\")\n", "=>", "-", "/",
	"'", "'s", "\r\n", "é", "→"}

// blockText draws a text of up to most blocks, mostly of the rules' kinds,
// and at rare's odds of the others.
func blockText(t *rapid.T, most int) []byte {
	common, rare := blockParts[:len(blockParts)-5], blockParts[len(blockParts)-5:]
	odds := rapid.IntRange(0, 200).Draw(t, "odds")
	size := rapid.IntRange(0, 64*most).Draw(t, "size")
	var text []byte
	for len(text) < size {
		if rapid.IntRange(0, 999).Draw(t, "roll") < odds {
			text = append(text, rapid.SampledFrom(rare).Draw(t, "rare")...)
		} else {
			text = append(text, rapid.SampledFrom(common).Draw(t, "part")...)
		}
	}
	return text
}

// TestPropertyBlockStarts: in every block the rules cut (blockRules, and
// blockRulesGo), the bits they set are the bytes where cl100kPiece begins
// a piece, on texts of the rules' kinds and of those they leave; and
// blockRules writes what blockRulesGo writes.
func TestPropertyBlockStarts(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		text := blockText(t, 32)   // blockRules marks at most 32 blocks bad
		blocks := len(text)/64 - 2 // each with a block before and after
		if blocks < 1 {
			return
		}
		begins := make([]bool, len(text)+1)
		for i := 0; i < len(text); i = cl100kPiece(text, i) {
			begins[i] = true
		}
		kinds := make([][blockWords]uint64, blocks+2)
		pieceKindsGo(&text[0], blocks+2, &kinds[0][0])
		again := append([][blockWords]uint64(nil), kinds...)
		starts := make([]uint64, blocks)
		bad := blockRulesGo(&kinds[0][0], blocks, &starts[0])
		if blocksOn {
			asm := make([]uint64, blocks)
			if got := blockRules(&again[0][0], blocks, &asm[0]); got != bad || !equalWords(asm, starts) || !equalKinds(again, kinds) {
				t.Fatalf("%q: blockRules bad %b, starts %x; blockRulesGo bad %b, starts %x", text, got, asm, bad, starts)
			}
		}
		// The first block's rules read the prefixes of the block before,
		// which no rules wrote (load cuts such a block only for them).
		for b := 1; b < blocks; b++ {
			if bad>>b&1 != 0 {
				continue
			}
			for i := range 64 {
				at := 64*(b+1) + i
				if got := starts[b]>>i&1 != 0; got != begins[at] {
					t.Fatalf("%q: byte %d (%q): the rules say a piece begins there: %v; cl100kPiece: %v", text, at, text[at-2:at+2], got, begins[at])
				}
			}
		}
	})
}

func equalWords(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

func equalKinds(a, b [][blockWords]uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestPropertyBlocksCount: countWords, which cuts the blocks its rules can
// (where blocksOn) and leaves the others to countRun, counts what the
// general loop counts, on texts of several windows, with a cache that
// holds their pieces or not; stopped at a limit, it stops as that loop
// does.
func TestPropertyBlocksCount(t *testing.T) {
	e, err := Get(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	gen.Check(t, 1000, func(t *rapid.T) {
		text := blockText(t, 3*window+6)
		c := counter{tab: e.tab, piece: e.piece, cache: new(pieceCache), words: true}
		if rapid.Bool().Draw(t, "warm") {
			c.count(text, noLimit)
		}
		want := plainCount(e, text, noLimit)
		if got := c.count(text, noLimit); got != want {
			t.Fatalf("count(%q) = %d, the general loop counts %d", text, got, want)
		}
		limit := rapid.IntRange(-1, want+1).Draw(t, "limit")
		if got, plain := c.count(text, limit), plainCount(e, text, limit); got != plain {
			t.Fatalf("count(%q, %d) = %d, the general loop %d", text, limit, got, plain)
		}
	})
}
