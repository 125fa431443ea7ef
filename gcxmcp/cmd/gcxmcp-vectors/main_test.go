package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/conformance"
)

// The command passes every vector of the conformance suite's category mcp
// as an external program, the way gcx conformance drives it: input on
// stdin, outcome on stdout (docs/conformance.md).
func TestCommandPassesVectors(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the adapter: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "gcxmcp-vectors")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	all, err := conformance.BindingVectors()
	if err != nil || len(all) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	// gcxmcp is a server's and a client's; the intermediary's vectors
	// are gcx proxy's, and this command declines their op.
	vs := slices.DeleteFunc(all, func(v conformance.Vector) bool { return v.Op == conformance.OpMCPProxy })
	r := conformance.Check(vs, conformance.Command(time.Minute, bin), conformance.Options{})
	if n := r.Counts(conformance.Diagnostic); n.Failed > 0 || n.Skipped > 0 || n.Passed != len(vs) {
		var b strings.Builder
		r.WriteSummary(&b, false)
		t.Errorf("%s\n%s", n, b.String())
	}
	var exit *exec.ExitError
	for _, op := range []string{"decode", string(conformance.OpMCPProxy)} {
		if err := exec.Command(bin, op).Run(); !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("op %s: %v, want exit status 2", op, err)
		}
	}
}
