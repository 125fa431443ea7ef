// Package deep says whether a run of the tests includes the long proofs:
// the runs that plant bugs and show the properties or the explorer find
// them, the long explores and the large inputs. `go test ./...` leaves
// them out, to stay within minutes on a two-core machine; GCX_DEEP=1 puts
// them back, and .ci/run sets it. It is test equipment: no command links
// it.
package deep

import (
	"os"
	"testing"
)

// Env is the variable that asks for the long proofs.
const Env = "GCX_DEEP"

// On reports whether this run includes the long proofs.
func On() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless this run includes the long proofs, naming the proof
// and how to run it.
func Skip(t testing.TB, proof string) {
	t.Helper()
	if !On() {
		t.Skipf("%s: a long proof, run with %s=1 (as .ci/run does)", proof, Env)
	}
}
