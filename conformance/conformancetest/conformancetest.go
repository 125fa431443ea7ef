package conformance

import (
	"testing"
)

// Run checks a Go implementation against every committed vector from its
// own tests, one subtest per vector named CATEGORY/GROUP/ID, so that
// go test -run 'TestX/reject/values/' picks vectors the way the gcx
// command's --run does:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, conformance.Implementation{
//			Decode: func(payload []byte, limits conformance.Limits) (*spec.Payload, error) { ... },
//			Encode: func(view []byte) ([]byte, error) { ... },
//		})
//	}
//
// Errors are compared by class, rule and position; RunWith can relax
// that, or select vectors. Vectors for ops the implementation leaves nil are
// skipped.
func Run(t *testing.T, impl Implementation) {
	t.Helper()
	RunWith(t, impl, Options{})
}

// RunWith is Run with options. Options.Parallel is ignored: the subtests
// run in parallel, as go test -parallel allows.
func RunWith(t *testing.T, impl Implementation, opt Options) {
	t.Helper()
	vectors, err := loadEmbedded()
	if err != nil {
		t.Fatalf("loading the vectors: %v", err)
	}
	ran := 0
	for i := range vectors {
		v := &vectors[i]
		if !opt.selects(v) {
			continue
		}
		ran++
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			res := CheckVector(v, impl, opt)
			switch res.Status {
			case Fail:
				t.Errorf("%s\n%s", v.Description, res.Detail)
			case Skip:
				t.Skip(res.Detail)
			}
		})
	}
	if ran == 0 {
		t.Error("no vector selected")
	}
}
