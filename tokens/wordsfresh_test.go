package tokens

import "testing"

// TestCountWordsFreshCache: countWords counts a piece of at most eight
// bytes whose word of text is 0, a run of NULs, as the general loop does,
// with a cache no count has used: its empty small slots hold the word 0
// too (and the size 0), which must not be taken for that piece's entry.
// Each case gets a new cache, so no count before it can have filled the
// slot.
func TestCountWordsFreshCache(t *testing.T) {
	e, err := Get(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	tail := " and the rest of a text long enough for the loop"
	for _, tc := range []struct {
		name string
		text string
	}{
		{"one NUL first", "\x00" + tail},
		{"two NULs first", "\x00\x00" + tail},
		{"NUL after a word", "word\x00" + tail},
		{"eight NULs", "\x00\x00\x00\x00\x00\x00\x00\x00" + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			words := counter{tab: e.tab, piece: e.piece, cache: new(pieceCache), words: true}
			plain := counter{tab: e.tab, piece: e.piece, cache: new(pieceCache)}
			text := []byte(tc.text)
			if got, want := words.count(text, noLimit), plain.count(text, noLimit); got != want {
				t.Fatalf("countWords(%q) = %d with a new cache, the general loop counts %d", text, got, want)
			}
		})
	}
}
