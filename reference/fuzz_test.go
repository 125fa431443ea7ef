package reference

import (
	"testing"

	"github.com/google/go-cmp/cmp"

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
// The seed corpus is testdata/fuzz/FuzzDecode plus the inputs of the decode
// tables.
func FuzzDecode(f *testing.F) {
	rules := ruleIDs(f)
	for _, tc := range decodeTests {
		f.Add([]byte(tc.in))
	}
	for _, tc := range decodeErrorTests {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Decode(b)
		if msg := checkPositioned(b, p, err, rules); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, b)
		}
		pl, errl := DecodeLimits(b, fuzzLimits)
		if msg := checkPositioned(b, pl, errl, rules); msg != "" {
			t.Fatalf("limits %+v: %s\ninput: %q", fuzzLimits, msg, b)
		}
		if errl == nil {
			if err != nil {
				t.Fatalf("accepted under small limits, rejected under the defaults: %v\ninput: %q", err, b)
			}
			if diff := cmp.Diff(p, pl); diff != "" {
				t.Fatalf("limits changed the payload (-default +limited):\n%s", diff)
			}
		}
	})
}
