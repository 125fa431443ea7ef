// Package propcheck runs a rapid property with a promised number of cases.
// It imports nothing of the module, so that the ground-floor packages that
// package gen's generators stand on (gen imports spec, which imports them)
// can promise their counts too.
package propcheck

import (
	"flag"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// Check runs prop with at least min cases. The count is the larger of min and
// -rapid.checks, so `go test -rapid.checks=100000` runs more and the default
// run never runs fewer than the property promises (go test -short runs a
// fifth: rapid divides every count by 5 there).
func Check(t *testing.T, min int, prop func(*rapid.T)) {
	t.Helper()
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	if n, err := strconv.Atoi(old); err == nil && n < min {
		if err := f.Value.Set(strconv.Itoa(min)); err != nil {
			t.Fatal(err)
		}
		defer f.Value.Set(old)
	}
	rapid.Check(t, prop)
}
