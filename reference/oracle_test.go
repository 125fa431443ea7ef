package reference_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/grammar"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// oracleCases is how many rapid cases TestPropertyGrammarOracle runs; each
// checks two payloads, one valid encoding and one mutation of it.
const oracleCases = 10000

// oracleOutcome names what happened to one payload, for the counts the test
// logs.
type oracleOutcome int

const (
	outcomeValid          oracleOutcome = iota // both accept
	outcomeSyntax                              // both reject: syntax error
	outcomeNotGCX                              // both reject: not-gcx
	outcomeVersion                             // both reject: unsupported-version
	outcomeConstraint                          // grammar accepts, a rule of Appendix B does not
	outcomeConstraintThen                      // a rule of Appendix B fails, and later the grammar too
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"valid", "syntax", "not-gcx", "unsupported-version", "constraint", "constraint-then-syntax"}

// TestPropertyGrammarOracle runs the reference parser and the grammar of
// Appendix A side by side on valid payloads and on mutations of them
// [ERR-1] [ERR-2] [ERR-3]:
//
//   - the parser accepts ⇒ the grammar accepts;
//   - the parser reports syntax, not-gcx or unsupported-version ⇒ the grammar
//     rejects [PAY-1] [VER-2] [VER-4];
//   - the parser reports a constraint (Appendix B) ⇒ the grammar accepts, or
//     matches at least up to where the parser checked that constraint and
//     fails later (the parser stops at its first error);
//   - for a syntax error not about the version tag [VER-3], the parser's
//     offset is the longest prefix of the payload that the grammar can
//     still continue [ERR-2].
func TestPropertyGrammarOracle(t *testing.T) {
	rec, err := grammar.LoadRecognizer()
	if err != nil {
		t.Fatal(err)
	}
	// counts[0] is for the encodings, which must all be valid, counts[1]
	// for the mutations, which should reach every outcome.
	var counts [2][numOutcomes]int
	gen.Check(t, oracleCases, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		valid, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("gen.Payload drew a model with no spelling: %v", err)
		}
		for i, b := range [][]byte{valid, gen.Mutate(t, valid)} {
			outcome, err := compareWithGrammar(rec, b)
			if err != nil {
				t.Fatalf("%v\npayload: %s", err, gen.Describe(b))
			}
			if i == 0 && outcome != outcomeValid {
				t.Fatalf("an encoded payload is %s, not valid [CAN-3]: %s", outcomeNames[outcome], gen.Describe(b))
			}
			counts[i][outcome]++
		}
	})
	t.Logf("%-22s %9s %9s", "outcome", "encoded", "mutated")
	var total int
	for o := range numOutcomes {
		t.Logf("%-22s %9d %9d", outcomeNames[o], counts[0][o], counts[1][o])
		total += counts[0][o] + counts[1][o]
	}
	t.Logf("%d payloads compared", total)
	for _, o := range []oracleOutcome{outcomeValid, outcomeSyntax, outcomeConstraint} {
		if counts[1][o] == 0 {
			t.Errorf("gen.Mutate reached no %s payload; the oracle compared less than it claims", outcomeNames[o])
		}
	}
}

// compareWithGrammar compares the reference parser with the grammar on b and returns
// what happened, or an error describing how they disagree.
func compareWithGrammar(rec *grammar.Recognizer, b []byte) (oracleOutcome, error) {
	_, decodeErr := reference.DecodeLimits(b, spec.Unlimited)
	ok, viable := rec.Recognize(b)
	answers := fmt.Sprintf("reference: %v; grammar: accepted=%v, viable prefix %d bytes", decodeErr, ok, viable)
	if decodeErr == nil {
		if !ok {
			return 0, errors.New("the reference accepts what the grammar rejects; " + answers)
		}
		return outcomeValid, nil
	}
	var e *spec.Error
	if !errors.As(decodeErr, &e) {
		return 0, errors.New("the reference returned an error that is not a *spec.Error; " + answers)
	}
	switch class := spec.ClassName(e); class {
	case "syntax", "not-gcx", "unsupported-version":
		if ok {
			return 0, fmt.Errorf("the reference reports %s where the grammar accepts; %s", class, answers)
		}
		switch class {
		case "not-gcx":
			// The input does not begin with "GCX", so the grammar
			// gives up within those three bytes [PAY-1].
			if viable >= len(spec.TagPrefix) {
				return 0, errors.New("the reference reports not-gcx, but the grammar matches past the first three bytes; " + answers)
			}
			return outcomeNotGCX, nil
		case "unsupported-version":
			// The grammar matches the header up to where the tag
			// stops spelling "GCX1 " [VER-2] [VER-4].
			if want := int(e.Offset) + commonPrefixLen(b[e.Offset:], spec.Version+" "); viable != want {
				return 0, fmt.Errorf("the reference reports another version at %d, so the grammar should match through byte %d, not %d; %s", e.Offset, want, viable, answers)
			}
			return outcomeVersion, nil
		}
		// A malformed version tag is classified before the grammar runs
		// and points at the byte that breaks the tag rule [VER-3].
		if e.Rule != "VER-3" && int64(viable) != e.Offset {
			return 0, fmt.Errorf("syntax error offsets differ: reference %d, grammar %d; %s", e.Offset, viable, answers)
		}
		return outcomeSyntax, nil
	case "constraint":
		if ok {
			return outcomeConstraint, nil
		}
		if checked := checkedThrough(b, e); viable < checked {
			return 0, fmt.Errorf("the reference reports a constraint checked after byte %d, but the grammar fails before, at %d; %s", checked, viable, answers)
		}
		return outcomeConstraintThen, nil
	}
	return 0, errors.New("unexpected error class with spec.Unlimited; " + answers)
}

// checkedThrough returns how far the reference parser had matched the
// grammar when it checked the constraint that e reports [ERR-3]: the end of
// the line e points at, or for a rows= count [META-4] the end of its
// section (the next line that begins with "GCX", or the end of the input).
func checkedThrough(b []byte, e *spec.Error) int {
	at := int(e.Offset)
	lineEnd := len(b)
	if i := bytes.IndexByte(b[at:], '\n'); i >= 0 {
		lineEnd = at + i + 1
	}
	if e.Rule != "META-4" {
		return lineEnd
	}
	if bytes.HasPrefix(b[lineEnd:], []byte(spec.TagPrefix)) {
		return lineEnd
	}
	if i := bytes.Index(b[lineEnd:], []byte("\n"+spec.TagPrefix)); i >= 0 {
		return lineEnd + i + 1
	}
	return len(b)
}

// commonPrefixLen returns the length of the longest common prefix of b and s.
func commonPrefixLen(b []byte, s string) int {
	n := 0
	for n < len(b) && n < len(s) && b[n] == s[n] {
		n++
	}
	return n
}
