package main

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The commands that encode, decode and check run on the one engine:
// nothing the code of gcx reaches, but for gcx conformance and gcx explore,
// links the oracles (packages reference and grammar), which only gcx
// conformance may run as one of the implementations it checks, and which
// gcx explore reaches through the runner it reuses.
func TestProductPathsReachNoOracle(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var imports []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "conformance.go" || name == "explore.go" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(imports, path) {
				imports = append(imports, path)
			}
		}
	}
	out, err := exec.Command(goTool, append([]string{"list", "-deps"}, imports...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, oracle := range []string{"github.com/gcxwire/gcx/reference", "github.com/gcxwire/gcx/grammar", "github.com/gcxwire/gcx/conformance"} {
		if slices.Contains(deps, oracle) {
			t.Errorf("the encode, decode and check code of gcx reaches %s", oracle)
		}
	}
	if !slices.Contains(deps, "github.com/gcxwire/gcx/streaming") {
		t.Error("the commands do not reach streaming: is the test reading the right files?")
	}
}

// gcx conformance checks the MCP binding with the binding's own decisions,
// package gcxmcp/binding, and links no MCP SDK: that stays with package
// gcxmcp, which servers and clients import.
func TestCommandLinksNoMCPSDK(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/gcxwire/gcx/cmd/gcx").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk") || dep == "github.com/gcxwire/gcx/gcxmcp" ||
			strings.HasPrefix(dep, "github.com/gcxwire/gcx/gcxmcp/vectors") {
			t.Errorf("gcx links %s", dep)
		}
	}
	if !slices.Contains(deps, "github.com/gcxwire/gcx/gcxmcp/binding") || !slices.Contains(deps, "github.com/gcxwire/gcx/conformance") {
		t.Errorf("gcx does not link the binding's decisions and the conformance runner: is go list reading the right package?\n%s", out)
	}
}
