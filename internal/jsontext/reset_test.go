package jsontext

import (
	"fmt"
	"testing"

	"github.com/gcxwire/gcx/internal/propcheck"
	"pgregory.net/rapid"
)

// resetTexts are texts that leave a reader in every kind of state: deep
// and with names held (RejectDuplicateNames), with strings decoded in
// its scratch, failed midway, peeked, and read to the end.
var resetTexts = []string{
	`{"a":{"b":[1,{"c":"x\ty"}]},"d":"\u00e9\"","e":[[[[[[[[[[1]]]]]]]]]]}`,
	`{"a":1,"a":2}`,
	`[1,2,`,
	`"\ud800"`,
	`{"k":"` + string(make([]byte, 40)) + `"}`,
	"\ufeff[]",
	` [ true , false , null ] `,
	"[\n 1,\n \"a\"\n]",
	`{}`,
	``,
}

// readAll reads every token of r, with its error, as a line to compare.
func readAll(r *Reader) string {
	var out string
	for {
		k, err := r.Peek()
		if err == nil {
			var tok Token
			tok, err = r.NextToken()
			out += fmt.Sprintf("%v %q %v %d; ", k, tok.Text, tok.Pos, r.Depth())
		}
		if err != nil {
			return out + fmt.Sprintf("%v compact %v", err, r.Compact())
		}
	}
}

// TestPropertyResetString: a reader reset to a text reads it as a new one
// does, with the same options set, whatever text it read before and
// however far; and the strings it returned of that text stay as they were.
func TestPropertyResetString(t *testing.T) {
	propcheck.Check(t, 500, func(t *rapid.T) {
		before := rapid.SampledFrom(resetTexts).Draw(t, "before")
		text := rapid.SampledFrom(resetTexts).Draw(t, "text")
		stop := rapid.IntRange(0, 20).Draw(t, "stop")
		set := func(r *Reader) {
			r.RejectDuplicateNames, r.CheckCompact = true, true
		}
		r := NewStringReader(before)
		set(r)
		var kept []string
		for range stop {
			tok, err := r.NextToken()
			if err != nil {
				break
			}
			kept = append(kept, tok.Text)
		}
		var want []string
		{
			w := NewStringReader(before)
			set(w)
			for range len(kept) {
				tok, _ := w.NextToken()
				want = append(want, tok.Text)
			}
		}
		r.ResetString(text)
		set(r)
		fresh := NewStringReader(text)
		set(fresh)
		if got, exp := readAll(r), readAll(fresh); got != exp {
			t.Fatalf("after %q, a reset reader read %q as\n%s\nand a new one as\n%s", before, text, got, exp)
		}
		for i := range kept {
			if kept[i] != want[i] {
				t.Fatalf("a token of %q read before the reset changed: %q, was %q", before, kept[i], want[i])
			}
		}
	})
}
