package conformance

import (
	"strings"
	"testing"
)

// loadVectors loads the committed vectors once per test.
func loadVectors(t *testing.T) []Vector {
	t.Helper()
	vs, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// reportFailures fails t with the report's failures and summary.
func reportFailures(t *testing.T, r *Report) {
	t.Helper()
	if r.Failed == 0 {
		return
	}
	var b strings.Builder
	r.WriteSummary(&b, false)
	t.Errorf("%s", b.String())
}

// The reference decoder and encoder pass every vector, positions included
// [ERR-2] [ERR-3] [CAN-1] [CAN-3].
func TestReferencePassesEveryVector(t *testing.T) {
	vs := loadVectors(t)
	r := Run(vs, Reference(), Options{Positions: true})
	reportFailures(t, r)
	if r.Skipped != 0 {
		t.Errorf("%d vectors skipped", r.Skipped)
	}
	t.Logf("%d passed, %d failed", r.Passed, r.Failed)
}
