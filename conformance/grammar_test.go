package conformance

import (
	"testing"

	"github.com/gcxwire/gcx/grammar"
)

// The vectors agree with the executable grammar of Appendix A, an oracle
// independent of the reference parser:
//
//   - every valid payload is a sentence;
//   - a constraint vector breaks a rule of Appendix B, not the grammar: it is
//     a sentence, or (for the vectors about reporting order [ERR-3]) its
//     grammar error lies beyond the constraint error;
//   - a syntax vector stops being the beginning of a sentence exactly where
//     its error points [ERR-2] — except a malformed version tag, which is
//     found by the tag rule every version shares before the GCX1 grammar is
//     consulted, and is reported where that rule breaks [VER-3].
func TestVectorsAgreeWithGrammar(t *testing.T) {
	rec, err := grammar.LoadRecognizer()
	if err != nil {
		t.Fatal(err)
	}
	vs := loadVectors(t)
	for i := range vs {
		v := &vs[i]
		if v.Op != OpDecode {
			continue
		}
		ok, viable := rec.Recognize(v.Input)
		if v.Accepts() {
			if !ok {
				t.Errorf("%s: valid, but not a sentence of the grammar (viable prefix %d bytes)", v.Name(), viable)
			}
			continue
		}
		want := v.Expected.Error
		at, found := offsetOf(v.Input, want.Line, want.Column)
		if !found {
			t.Errorf("%s: line %d, column %d is not in the payload", v.Name(), want.Line, want.Column)
			continue
		}
		switch want.Class {
		case "constraint":
			if !ok && int64(viable) <= at {
				t.Errorf("%s: constraint error at offset %d, but the grammar fails first, at %d", v.Name(), at, viable)
			}
		case "syntax":
			switch {
			case ok:
				t.Errorf("%s: a syntax error, but a sentence of the grammar", v.Name())
			case want.Rule != "VER-3" && int64(viable) != at:
				t.Errorf("%s: syntax error at offset %d (line %d, column %d), but the grammar's viable prefix is %d bytes",
					v.Name(), at, want.Line, want.Column, viable)
			}
		}
	}
}
