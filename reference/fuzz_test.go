package reference

import (
	"testing"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
)

// fuzzLimits are small enough for fuzzed inputs to reach every limit.
var fuzzLimits = spec.Limits{MaxLineBytes: 40, MaxFields: 3, MaxSections: 2, MaxRows: 3}

// FuzzDecode feeds arbitrary bytes to the decoder. It must not panic; every
// input it accepts must re-encode to the same bytes [CAN-1]; every error must
// be a positioned *spec.Error of a decoder class citing a rule [ERR-1]
// [ERR-2]. Under small limits the decoder may only refuse more, never return
// something else [LIM-1].
//
// The seed corpus is testdata/fuzz/FuzzDecode plus the inputs of the
// conformance vectors, which hold the decode cases.
func FuzzDecode(f *testing.F) {
	rules := ruleIDs(f)
	for _, in := range gen.VectorInputs(f, "../conformance/vectors", 4<<10) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, _, msg := checkUnderLimits(b, fuzzLimits, rules); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, b)
		}
	})
}
