package gcxmcp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/gcxmcp/vectors"
)

// bindingVectors returns the conformance suite's vectors of the binding,
// category mcp, but those of an intermediary (op mcp-proxy): this package
// is a server's and a client's, and gcx proxy, which package conformance
// runs them on, is the intermediary.
func bindingVectors(t *testing.T) []conformance.Vector {
	t.Helper()
	all, err := conformance.BindingVectors()
	if err != nil {
		t.Fatal(err)
	}
	vs := slices.DeleteFunc(all, func(v conformance.Vector) bool { return v.Op == conformance.OpMCPProxy })
	if len(vs) < 50 {
		t.Fatalf("%d vectors of the binding", len(vs))
	}
	return vs
}

// This package, through its exported middlewares over the MCP SDK (package
// vectors: a real SDK server and client on in-memory transports, at each
// server vector's protocol version), passes every vector of the conformance suite's category mcp
// at the diagnostic level, none skipped: the vectors that gcx conformance
// checks package gcxmcp/binding with, and other languages check their SDK
// wrappers with, cannot drift from what this package does.
func TestConformanceVectors(t *testing.T) {
	if vectors.OpServer != string(conformance.OpMCPServer) || vectors.OpClient != string(conformance.OpMCPClient) {
		t.Fatalf("package vectors has ops %q, %q; the conformance suite %q, %q",
			vectors.OpServer, vectors.OpClient, conformance.OpMCPServer, conformance.OpMCPClient)
	}
	passesEveryVector(t, "gcxmcp", vectors.Run)
}

// passesEveryVector runs the binding's vectors on run, as an implementation
// named name, and fails unless every one passes at the diagnostic level.
func passesEveryVector(t *testing.T, name string, run func(op string, input []byte) (json.RawMessage, error)) {
	t.Helper()
	impl := conformance.Implementation{Name: name, MCP: func(op conformance.Op, input []byte) ([]byte, error) {
		return run(string(op), input)
	}}
	r := conformance.Check(bindingVectors(t), impl, conformance.Options{})
	var b strings.Builder
	r.WriteSummary(&b, false)
	if n := r.Counts(conformance.Diagnostic); n.Failed > 0 || n.Skipped > 0 || n.Passed != len(r.Results) {
		t.Errorf("%s\n%s", n, b.String())
	}
	t.Log(r.Diagnostic)
}
