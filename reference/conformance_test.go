package reference_test

import (
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/conformancetest"
)

// The reference implementation passes every conformance vector at the
// diagnostic level — class, line, column, offset and rule [ERR-6] — through
// the Go test API, one subtest per vector. The vectors are the decoder's
// table of decode-error truth; only what a vector cannot express (message
// text, the shape of decoded models, limits switched off) is tested here in
// Go.
func TestReferencePassesEveryVector(t *testing.T) {
	conformancetest.Run(t, conformance.Reference())
}
