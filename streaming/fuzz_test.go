package streaming

import (
	"testing"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
)

// smallLimits are low enough for short fuzz inputs to reach every limit
// error [LIM-3].
var smallLimits = spec.Limits{MaxLineBytes: 40, MaxFields: 3, MaxSections: 2, MaxRows: 4}

// FuzzDifferential decodes arbitrary bytes, delivered whole, one byte at a
// time, in odd chunks and through a reader that fails half-way, under the
// default and under small limits, and checks every answer against the
// reference parser's.
//
// Its seeds are the inputs of the conformance vectors.
func FuzzDifferential(f *testing.F) {
	fuzzDeliveries(f, deliveriesIn([]int{7, 0, 1, 64}))
}

// fuzzDeliveries fuzzes the decoder with arbitrary bytes, seeded with the
// inputs of the conformance vectors and any more seeds given, delivered in
// each of the ways and through a reader that fails half-way, under the
// default and under small limits, and checks every answer against the
// reference parser's.
func fuzzDeliveries(f *testing.F, ways []delivery, seeds ...[]byte) {
	for _, in := range gen.VectorInputs(f, "../conformance/vectors", maxSeed) {
		f.Add(in)
	}
	for _, in := range seeds {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, lim := range []spec.Limits{spec.DefaultLimits, smallLimits} {
			plan := deliveryPlan{
				reuse:     i == 1,
				portable:  i == 1,
				ways:      ways,
				failAfter: len(b) / 2,
				failSizes: []int{3, 11},
				failWith:  i == 0,
			}
			if err := plan.check(b, lim); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// maxSeed keeps the vectors of a mebibyte and more out of the seeds: the
// fuzzer mutates small inputs better.
const maxSeed = 4 << 10
