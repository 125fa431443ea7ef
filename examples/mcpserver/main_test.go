package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// repoRoot is the tree the server indexes in these tests: this repository.
const repoRoot = "../.."

// The server binary, built once for every test that starts it: each
// build links the MCP SDK again, which cost seconds per test.
var (
	serverOnce sync.Once
	serverBin  string
	serverErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if serverBin != "" {
		os.RemoveAll(filepath.Dir(serverBin))
	}
	os.Exit(code)
}

// buildServer compiles this command into a temporary directory, once per
// run of the tests.
func buildServer(t *testing.T) string {
	t.Helper()
	serverOnce.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			serverErr = fmt.Errorf("the go command is needed to build the server: %v", err)
			return
		}
		dir, err := os.MkdirTemp("", "mcpserver-bin-")
		if err != nil {
			serverErr = err
			return
		}
		serverBin = filepath.Join(dir, "mcpserver")
		if out, err := exec.Command(goTool, "build", "-o", serverBin, ".").CombinedOutput(); err != nil {
			serverErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if serverErr != nil {
		t.Fatal(serverErr)
	}
	return serverBin
}

// serverCommand is the server as a process of its own, with args after
// -root, and what it will write to stderr.
func serverCommand(bin string, args ...string) (*exec.Cmd, *syncBuffer) {
	cmd := exec.Command(bin, append([]string{"-root", repoRoot}, args...)...)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// connectProcess starts the server as a process of its own and connects
// an SDK client to it over stdio.
func connectProcess(t *testing.T, bin, version string, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd, stderr := serverCommand(bin, args...)
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

// syncBuffer is a bytes.Buffer that a process writes while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// toolCall is a call of each tool that finds more than its limit in this
// repository, and how its answer begins in each format.
type toolCall struct {
	tool, list string
	args       map[string]any
	limit      int
	total      int
	// jsonHead is how the JSON text begins: the list first, and in each
	// row the member the layout puts first.
	jsonHead string
}

func toolCalls(t *testing.T) []toolCall {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	calls := []toolCall{
		{"search_symbols", "symbols", map[string]any{"query": "Decode", "limit": 5}, 5,
			len(mustSymbols(idx, "Decode")), `{"symbols":[{"id":`},
		{"find_usages", "usages", map[string]any{"name": "Errorf", "limit": 8}, 8,
			len(idx.usages["Errorf"]), `{"usages":[{"file_path":`},
	}
	for _, c := range calls {
		if c.total <= c.limit {
			t.Fatalf("%s: the repository has only %d results; the test needs more than the limit", c.tool, c.total)
		}
	}
	return calls
}

// A real server process and a real client, over stdio, in both formats:
// a client that opts in reads GCX1 text blocks that decode to exactly the
// JSON a client that does not opt in reads [MCP-6] [MCP-8], with the
// truncation in the header and in _meta [MCP-7]. On every protocol
// version the result is an object that holds the list and its counts.
func TestServerProcessOverStdio(t *testing.T) {
	bin := buildServer(t)
	ctx := context.Background()
	calls := toolCalls(t)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			plain := connectProcess(t, bin, version, nil)
			opted := connectProcess(t, bin, version, nil)
			for _, c := range calls {
				params := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
				asJSON, err := plain.CallTool(ctx, params)
				if err != nil {
					t.Fatal(err)
				}
				jsonText := asJSON.Content[0].(*mcp.TextContent).Text
				if !strings.HasPrefix(jsonText, c.jsonHead) || asJSON.Meta[gcxmcp.MetaFormat] != nil {
					t.Errorf("[MCP-5] %s: a client that did not opt in got %.60q, _meta %v; want JSON beginning %s", c.tool, jsonText, asJSON.Meta, c.jsonHead)
				}
				checkObject(t, c, asJSON.StructuredContent)

				r, err := gcxmcp.CallTool(ctx, opted, params, nil)
				if err != nil {
					t.Fatal(err)
				}
				text := r.CallToolResult.Content[0].(*mcp.TextContent).Text
				head, _, _ := strings.Cut(text, "\n")
				pairs := strings.Fields(head)
				wantPairs := []string{"tool=" + c.tool, "rows=" + strconv.Itoa(c.limit), "total=" + strconv.Itoa(c.total), "truncated=true"}
				if r.Format != spec.Version || pairs[0] != spec.Version || !containsAll(pairs, wantPairs) {
					t.Errorf("[MCP-6] %s: format %q, header %q; want %s and %q", c.tool, r.Format, head, spec.Version, wantPairs)
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

// checkObject checks a structuredContent as a client decoded it: an
// object with the list, total and truncated, as the tool says it is.
func checkObject(t *testing.T, c toolCall, structured any) {
	t.Helper()
	obj, ok := structured.(map[string]any)
	if !ok {
		t.Errorf("%s: structuredContent is %T, want an object", c.tool, structured)
		return
	}
	list, _ := obj[c.list].([]any)
	if len(list) != c.limit || obj["total"] != float64(c.total) || obj["truncated"] != true || len(obj) != 3 {
		t.Errorf("%s: structuredContent has %d %s, total %v, truncated %v, %d members; want %d, %d, true, 3",
			c.tool, len(list), c.list, obj["total"], obj["truncated"], len(obj), c.limit, c.total)
	}
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// Every tool declares an object outputSchema, as MCP 2025-11-25 requires,
// and arguments an object schema; the server offers GCX1 only in the modes
// that write it [MCP-2].
func TestToolsAndCapabilities(t *testing.T) {
	bin := buildServer(t)
	ctx := context.Background()
	for _, mode := range []gcxmcp.Mode{gcxmcp.ModeAuto, gcxmcp.ModeGCX, gcxmcp.ModeOff} {
		t.Run(string(mode), func(t *testing.T) {
			cs := connectProcess(t, bin, "2025-11-25", nil, "-mode", string(mode))
			init := cs.InitializeResult()
			settings, offered := init.Capabilities.Extensions[gcxmcp.Extension].(map[string]any)
			if offered == (mode == gcxmcp.ModeOff) {
				t.Errorf("[MCP-2] mode %s: capabilities %v", mode, init.Capabilities.Extensions)
			}
			if offered && fmt.Sprint(settings[gcxmcp.SettingOffer]) != "[GCX1]" {
				t.Errorf("[MCP-2] mode %s offers %v", mode, settings)
			}
			if init.ProtocolVersion != "2025-11-25" {
				t.Errorf("negotiated %q", init.ProtocolVersion)
			}
			list, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				for what, schema := range map[string]any{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
					if m, _ := schema.(map[string]any); m["type"] != "object" {
						t.Errorf("%s: %s is %v, want type object", tool.Name, what, schema)
					}
				}
				if !strings.Contains(tool.Description, `"total": N, "truncated": B}`) {
					t.Errorf("%s: the description does not give the result's shape: %q", tool.Name, tool.Description)
				}
			}
			if fmt.Sprint(names) != "[find_usages search_symbols]" {
				t.Errorf("tools %v", names)
			}
			if mode != gcxmcp.ModeOff {
				return
			}
			r, err := gcxmcp.CallTool(ctx, cs, &mcp.CallToolParams{Name: "find_usages", Arguments: map[string]any{"name": "Errorf", "limit": 3}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Format != "" || strings.HasPrefix(r.CallToolResult.Content[0].(*mcp.TextContent).Text, "GCX") {
				t.Errorf("[MCP-5] mode off answered in %q", r.Format)
			}
		})
	}
}

// Bad arguments are the tool's error, which the binding leaves alone.
func TestArgumentErrors(t *testing.T) {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, idx, gcxmcp.ModeGCX)
	ctx := context.Background()
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{"search_symbols", map[string]any{}, "query"},
		{"search_symbols", map[string]any{"query": ""}, "query is empty"},
		{"search_symbols", map[string]any{"query": 7}, "query"},
		{"find_usages", map[string]any{"name": "x", "limit": "ten"}, "limit"},
		{"find_usages", map[string]any{"name": "x", "extra": true}, "extra"},
	} {
		r, err := gcxmcp.CallTool(ctx, cs, &mcp.CallToolParams{Name: c.tool, Arguments: c.args}, nil)
		if err != nil {
			t.Fatalf("%s %v: %v", c.tool, c.args, err)
		}
		text := r.CallToolResult.Content[0].(*mcp.TextContent).Text
		if !r.CallToolResult.IsError || !strings.Contains(text, c.want) || r.Format != "" {
			t.Errorf("%s %v: isError %t format %q text %q; want an error naming %q", c.tool, c.args, r.CallToolResult.IsError, r.Format, text, c.want)
		}
	}
}

// connectInMemory connects an SDK client to a server of this index on
// in-memory transports.
func connectInMemory(t *testing.T, idx *index, mode gcxmcp.Mode) *mcp.ClientSession {
	t.Helper()
	server, err := newServer(idx, mode)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, server, "")
}

// With -http the same server answers over Streamable HTTP: the address it
// logs takes a client, which opts in and reads GCX1.
func TestServerOverHTTP(t *testing.T) {
	bin := buildServer(t)
	cmd, stderr := serverCommand(bin, "-http", "127.0.0.1:0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	url := ""
	for deadline := time.Now().Add(time.Minute); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, after, ok := strings.Cut(stderr.String(), "serving Streamable HTTP at "); ok {
			url, _, _ = strings.Cut(after, "\n")
		}
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, httpPath) {
		t.Fatalf("the server logged no address, or %q", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	caps := &mcp.ClientCapabilities{}
	gcxmcp.AdvertiseClient(caps)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-test", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps}).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	c := toolCalls(t)[0]
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
	if err != nil {
		t.Fatal(err)
	}
	r, err := gcxmcp.ReadResult(res)
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != spec.Version || r.Total != int64(c.total) || !r.Truncated {
		t.Errorf("over HTTP, opted in by capability: format %q total %d truncated %t", r.Format, r.Total, r.Truncated)
	}
	checkObject(t, c, res.StructuredContent)
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

// With -offer the server writes a draft on trial to the clients that
// accept it, and GCX1 to those that accept only GCX1 [MCP-4]: a wrapped
// search_symbols result in GCX2-draft.2 carries the layout's fields
// (docs/drafts/GCX2-draft.2.md), and reads back as structuredContent
// [MCP-8].
func TestOfferDraft(t *testing.T) {
	bin := buildServer(t)
	ctx := context.Background()
	cs := connectProcess(t, bin, "2025-11-25", nil, "-mode", "gcx", "-offer", codec.Draft2Tag+","+spec.Version)
	settings, _ := cs.InitializeResult().Capabilities.Extensions[gcxmcp.Extension].(map[string]any)
	if got := fmt.Sprint(settings[gcxmcp.SettingOffer]); got != "["+codec.Draft2Tag+" GCX1]" {
		t.Errorf("[MCP-2] offers %s", got)
	}
	params := &mcp.CallToolParams{Name: "search_symbols", Arguments: map[string]any{"query": "Decode", "limit": 3}}
	for _, c := range []struct {
		accept []string
		format string
		header string
	}{
		{[]string{codec.Draft2Tag, spec.Version}, codec.Draft2Tag, codec.Draft2Tag + " tool=search_symbols fields=id,kind,name,path,line,sig rows=3 symbols=@ total="},
		{nil, spec.Version, "GCX1 tool=search_symbols fields=id,kind,name,file_path,start_line,signature json=object rows=3 symbols=@ total="},
	} {
		r, err := gcxmcp.CallTool(ctx, cs, params, &gcxmcp.ClientOptions{Accept: c.accept})
		if err != nil {
			t.Fatalf("accepting %v: %v", c.accept, err)
		}
		text := r.CallToolResult.Content[0].(*mcp.TextContent).Text
		if r.Format != c.format || !strings.HasPrefix(text, c.header) {
			t.Errorf("[MCP-4] accepting %v: format %q, payload %q", c.accept, r.Format, text)
		}
	}
	if _, err := newServer(nil, gcxmcp.ModeGCX, "GCX2"); err == nil {
		t.Error("a server offered GCX2, which no codec writes")
	}
}
