package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// repoRoot is the tree the server indexes in these tests: this repository.
const repoRoot = "../.."

// buildServer compiles this command into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the server: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "mcpserver")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// connectProcess starts the server as a process of its own and connects
// an SDK client to it over stdio.
func connectProcess(t *testing.T, bin, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "-root", repoRoot)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-test", Version: "v0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return cs
}

// A real server process and a real client, over stdio, in both formats:
// a client that opts in reads GCX1 text blocks that decode to exactly the
// JSON a client that does not opt in reads [MCP-6] [MCP-8], with the
// truncation in the header and in _meta [MCP-7].
func TestServerProcessOverStdio(t *testing.T) {
	bin := buildServer(t)
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	calls := []struct {
		tool, head string
		args       map[string]any
		total      int
	}{
		{"search_symbols", "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=5 total=",
			map[string]any{"query": "Decode", "limit": 5}, len(mustSymbols(idx, "Decode"))},
		{"find_usages", "GCX1 tool=find_usages fields=path,line,col,kind,caller,snippet rows=8 total=",
			map[string]any{"name": "Errorf", "limit": 8}, len(idx.usages["Errorf"])},
	}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			plain := connectProcess(t, bin, version, nil)
			opted := connectProcess(t, bin, version, nil)
			for _, c := range calls {
				if c.total <= 8 {
					t.Fatalf("%s: the repository has only %d results; the test needs more than the limit", c.tool, c.total)
				}
				params := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
				asJSON, err := plain.CallTool(ctx, params)
				if err != nil {
					t.Fatal(err)
				}
				jsonText := asJSON.Content[0].(*mcp.TextContent).Text
				if strings.HasPrefix(jsonText, "GCX") || asJSON.Meta[gcxmcp.MetaFormat] != nil {
					t.Errorf("[MCP-5] %s: a client that did not opt in got %.60q, _meta %v", c.tool, jsonText, asJSON.Meta)
				}

				r, err := gcxmcp.CallTool(ctx, opted, params, nil)
				if err != nil {
					t.Fatal(err)
				}
				text := r.CallToolResult.Content[0].(*mcp.TextContent).Text
				wantHead := c.head + strconv.Itoa(c.total) + " truncated=true\n"
				if r.Format != spec.Version || !strings.HasPrefix(text, wantHead) {
					t.Errorf("[MCP-6] %s: format %q, text %.120q; want it to begin %q", c.tool, r.Format, text, wantHead)
				}
				if !sameValue(t, r.Value, []byte(jsonText)) {
					t.Errorf("[MCP-8] %s: GCX1 decodes to %.200s\nJSON is %.200s", c.tool, r.Value, jsonText)
				}
				if r.Total != int64(c.total) || !r.Truncated {
					t.Errorf("[MCP-7] %s: total %d truncated %t, want %d true", c.tool, r.Total, r.Truncated, c.total)
				}
				if len(text) >= len(jsonText) {
					t.Errorf("%s: the GCX1 block (%d bytes) is no smaller than the JSON (%d)", c.tool, len(text), len(jsonText))
				}
			}
		})
	}
}

// The answers come from the source tree: every symbol found is declared
// where the server says, and every usage names the identifier there.
func TestIndexAnswersFromSource(t *testing.T) {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	syms := mustSymbols(idx, "Decode")
	if len(syms) < 10 {
		t.Fatalf("only %d symbols named like Decode in the repository", len(syms))
	}
	for _, s := range syms {
		line := sourceLine(t, s.FilePath, s.StartLine)
		if !strings.Contains(line, s.Name) || !strings.Contains(strings.ToLower(s.Name), "decode") {
			t.Errorf("%s: line %d is %q", s.ID, s.StartLine, line)
		}
	}
	for _, u := range idx.usages["EncodeValue"] {
		line := sourceLine(t, u.FilePath, u.Line)
		if u.Column < 1 || !strings.HasPrefix(line[min(u.Column-1, len(line)):], "EncodeValue") {
			t.Errorf("%s:%d:%d is %q", u.FilePath, u.Line, u.Column, line)
		}
	}
	first, _ := idx.searchSymbols("decode", 3)
	if len(first) != 3 || !strings.EqualFold(first[0].Name, "decode") {
		t.Errorf("exact names come first: %+v", first)
	}
}

func mustSymbols(idx *index, q string) []Symbol {
	all, _ := idx.searchSymbols(q, len(idx.symbols))
	return all
}

func sourceLine(t *testing.T, path string, line int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		t.Fatalf("%s has no line %d", path, line)
	}
	return lines[line-1]
}

func sameValue(t *testing.T, a, b []byte) bool {
	t.Helper()
	va, err := jsonmap.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := jsonmap.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return jsonmap.Equal(va, vb)
}

// The results fit their tools' frozen layouts, so the payloads use them.
func TestResultsFitLayouts(t *testing.T) {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := idx.searchSymbols("Encode", 30)
	uses, _ := idx.findUsages("Parse", 30)
	for tool, v := range map[string]any{"search_symbols": syms, "find_usages": uses} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		value, err := jsonmap.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		layout, _ := jsonmap.Lookup(tool)
		if err := layout.Fit(value); err != nil {
			t.Errorf("%s: %v", tool, err)
		}
	}
}
