package jsontext

import (
	"testing"

	"github.com/gcxwire/gcx/internal/propcheck"
	"pgregory.net/rapid"
)

// TestPropertyNextTextAgrees: for any bytes, held whole or streamed, a
// reader read with NextText gives the kinds and texts NextToken gives,
// with the same Pos and InputOffset after each, and the same error,
// whether or not Peek comes first.
func TestPropertyNextTextAgrees(t *testing.T) {
	propcheck.Check(t, 1000, func(t *rapid.T) {
		in := jsonish().Draw(t, "in")
		dup := rapid.Bool().Draw(t, "dup")
		chunk := rapid.IntRange(0, 7).Draw(t, "chunk")
		open := func() *Reader {
			r := NewStringReader(in)
			if chunk > 0 {
				r = NewReader(&chunker{s: in, n: chunk})
			}
			r.RejectDuplicateNames = dup
			return r
		}
		tr, nr := open(), open()
		for i := 0; ; i++ {
			if rapid.Bool().Draw(t, "peek") {
				tk, terr := tr.Peek()
				nk, nerr := nr.Peek()
				if tk != nk || !sameErr(terr, nerr) {
					t.Fatalf("token %d: Peek gives %v %v, then %v %v", i, tk, terr, nk, nerr)
				}
			}
			tok, terr := tr.NextToken()
			k, text, nerr := nr.NextText()
			if k != tok.Kind || text != tok.Text || !sameErr(terr, nerr) {
				t.Fatalf("token %d: NextToken %+v %v, NextText %v %q %v", i, tok, terr, k, text, nerr)
			}
			if terr == nil && (nr.Pos() != tok.Pos || tr.Pos() != tok.Pos || nr.InputOffset() != tr.InputOffset()) {
				t.Fatalf("token %d: Pos %+v / %+v, offset %d / %d", i, nr.Pos(), tok.Pos, nr.InputOffset(), tr.InputOffset())
			}
			if terr != nil {
				// Errors are sticky for both.
				if _, _, again := nr.NextText(); !sameErr(again, terr) {
					t.Fatalf("NextText after %v gives %v", terr, again)
				}
				return
			}
		}
	})
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	ea, okA := a.(*Error)
	eb, okB := b.(*Error)
	if okA && okB {
		return *ea == *eb
	}
	return a == b
}
