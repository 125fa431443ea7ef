package proxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// The interop tests drive real MCP software through gcx proxy: the
// official TypeScript SDK's client (testdata/node/session.mjs), with its
// stock schemas and no opt-in, against reference servers from npm and the
// example Go server, all pinned in testdata/node/package-lock.json and
// installed by .ci/run with npm ci. Each session runs twice, directly and
// through the proxy, and the two reports are compared.

const nodeDir = "testdata/node"

// needNode skips the test when Node or the pinned packages are absent.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the interop tests of gcx proxy need Node.js and `npm ci --prefix gcxmcp/proxy/testdata/node`")
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("gcxmcp/proxy/testdata/node/node_modules is absent: run `npm ci --prefix gcxmcp/proxy/testdata/node --no-audit --no-fund` (.ci/run does)")
	}
	return node
}

var (
	buildOnce sync.Once
	builtDir  string
	buildErr  error
)

// built returns the path of a binary of this module built once per test
// run: "gcx" or "mcpserver".
func built(t *testing.T, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		builtDir, buildErr = os.MkdirTemp("", "gcx-proxy-test")
		if buildErr != nil {
			return
		}
		for _, pkg := range []string{"../../cmd/gcx", "../../examples/mcpserver"} {
			cmd := exec.Command("go", "build", "-o", builtDir, pkg)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = &buildError{pkg, out, err}
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(builtDir, name)
}

type buildError struct {
	pkg string
	out []byte
	err error
}

func (e *buildError) Error() string {
	return "go build " + e.pkg + ": " + e.err.Error() + "\n" + string(e.out)
}

// report is what session.mjs prints.
type report struct {
	Server       json.RawMessage `json:"server"`
	Capabilities json.RawMessage `json:"capabilities"`
	Instructions json.RawMessage `json:"instructions"`
	Tools        json.RawMessage `json:"tools"`
	Calls        []struct {
		Name   string          `json:"name"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	} `json:"calls"`
	Timing *struct {
		ToolsCall map[string]float64 `json:"toolsCall"`
		ToolsList float64            `json:"toolsList"`
		Ping      float64            `json:"ping"`
	} `json:"timing"`
}

// script is session.mjs's input.
type script struct {
	Stdio  *stdioServer `json:"stdio,omitempty"`
	HTTP   string       `json:"http,omitempty"`
	Calls  []toolCall   `json:"calls"`
	Repeat int          `json:"repeat,omitempty"`
}

type stdioServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

// runSession runs session.mjs on s and returns its report.
func runSession(t *testing.T, node string, s script) *report {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "session.mjs", path)
	cmd.Dir = nodeDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node session.mjs: %v\n%s", err, stderr.Bytes())
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("session report: %v\n%s", err, out)
	}
	return &r
}

// proxied returns the stdio server s run through gcx proxy with flags.
func proxied(t *testing.T, s stdioServer, flags ...string) stdioServer {
	args := append([]string{"proxy"}, flags...)
	args = append(args, "--", s.Command)
	return stdioServer{Command: built(t, "gcx"), Args: append(args, s.Args...), Env: s.Env}
}

// memoryServer is @modelcontextprotocol/server-memory with its graph in a
// file of its own.
func memoryServer(t *testing.T) stdioServer {
	return stdioServer{
		Command: "node",
		Args:    []string{"node_modules/@modelcontextprotocol/server-memory/dist/index.js"},
		Env:     map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")},
	}
}

// memoryCalls fill a small knowledge graph and read it, and make two
// mistakes: a tool that does not exist and arguments of the wrong type.
var memoryCalls = []toolCall{
	{Name: "create_entities", Arguments: map[string]any{"entities": []any{
		map[string]any{"name": "Ada Lovelace", "entityType": "person", "observations": []any{"wrote the first published program", "worked with Babbage"}},
		map[string]any{"name": "Charles Babbage", "entityType": "person", "observations": []any{"designed the Analytical Engine"}},
		map[string]any{"name": "Analytical Engine", "entityType": "machine", "observations": []any{"never finished", "programmed with punched cards"}},
		map[string]any{"name": "Luigi Menabrea", "entityType": "person", "observations": []any{"wrote the paper Ada translated"}},
	}}},
	{Name: "create_relations", Arguments: map[string]any{"relations": []any{
		map[string]any{"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked with"},
		map[string]any{"from": "Charles Babbage", "to": "Analytical Engine", "relationType": "designed"},
		map[string]any{"from": "Ada Lovelace", "to": "Luigi Menabrea", "relationType": "translated"},
	}}},
	{Name: "read_graph"},
	{Name: "search_nodes", Arguments: map[string]any{"query": "person"}},
	{Name: "open_nodes", Arguments: map[string]any{"names": []any{"Ada Lovelace"}}},
	{Name: "no_such_tool"},
	{Name: "create_entities", Arguments: map[string]any{"entities": "not a list"}},
}

// The TypeScript SDK's client, knowing nothing of GCX1, sees the same
// server, the same tools and the same errors through the proxy as
// without it, and GCX1 in read_graph's and search_nodes' text blocks that
// gcx decode turns back into the tool's value.
func TestInteropMemoryServer(t *testing.T) {
	node := needNode(t)
	direct := runSession(t, node, script{Stdio: ptr(memoryServer(t)), Calls: memoryCalls})
	through := runSession(t, node, script{Stdio: ptr(proxied(t, memoryServer(t))), Calls: memoryCalls})
	sameSession(t, direct, through)
	gcx := compareCalls(t, direct, through)
	for _, name := range []string{"read_graph", "search_nodes"} {
		if gcx[name] != "GCX1" {
			t.Errorf("%s: the model did not read GCX1 through the proxy", name)
		}
	}
	// In mode off the proxy is a pipe.
	off := runSession(t, node, script{Stdio: ptr(proxied(t, memoryServer(t), "--mode", "off")), Calls: memoryCalls})
	sameSession(t, direct, off)
	for i := range direct.Calls {
		if !sameJSON(direct.Calls[i].Result, off.Calls[i].Result) || !sameJSON(direct.Calls[i].Error, off.Calls[i].Error) {
			t.Errorf("--mode off: call %d (%s) differs:\n%s\n%s", i, direct.Calls[i].Name, direct.Calls[i].Result, off.Calls[i].Result)
		}
	}
}

// compareCalls checks each call through the proxy against the same call
// made directly and returns, per tool, the form its result last came in
// ("GCX1" or "compact"): errors and untouched results are identical; a
// rewritten result differs only in its JSON block, which holds the value of
// the text the server wrote — the payload as gcx decode reads it, or its
// compact JSON — and in _meta's marks.
func compareCalls(t *testing.T, direct, through *report) map[string]string {
	t.Helper()
	forms := map[string]string{}
	if len(direct.Calls) != len(through.Calls) {
		t.Fatalf("%d calls directly, %d through the proxy", len(direct.Calls), len(through.Calls))
	}
	for i, d := range direct.Calls {
		p := through.Calls[i]
		if !sameJSON(d.Error, p.Error) {
			t.Errorf("call %d (%s): error %s directly, %s through the proxy", i, d.Name, d.Error, p.Error)
		}
		if d.Result == nil {
			continue
		}
		var r callResult
		mustUnmarshal(t, p.Result, &r)
		format, _ := r.Meta[binding.MetaFormat].(string)
		compact := r.Meta[binding.MetaCompact] == true
		if format != "GCX1" && !compact {
			if !sameJSON(d.Result, withoutFormat(t, p.Result)) {
				t.Errorf("call %d (%s): result differs:\ndirect:  %s\nproxied: %s", i, d.Name, d.Result, p.Result)
			}
			continue
		}
		forms[d.Name] = format
		if compact {
			forms[d.Name] = "compact"
		}
		checkRewritten(t, d.Name, d.Result, p.Result, compact)
	}
	return forms
}

// checkRewritten checks a result whose JSON block the proxy rewrote against
// the direct one: the block holds the value of the text the server wrote,
// as GCX1 or as its compact form, and that is structuredContent's value
// unless _meta marks it as differing [MCP-8].
func checkRewritten(t *testing.T, name string, direct, proxied json.RawMessage, compact bool) {
	t.Helper()
	var d, p callResult
	mustUnmarshal(t, direct, &d)
	mustUnmarshal(t, proxied, &p)
	if !sameJSON(d.StructuredContent, p.StructuredContent) {
		t.Errorf("%s: structuredContent changed:\n%s\n%s", name, d.StructuredContent, p.StructuredContent)
	}
	if len(d.Content) != len(p.Content) {
		t.Fatalf("%s: %d content blocks directly, %d through the proxy", name, len(d.Content), len(p.Content))
	}
	replaced := 0
	for i := range d.Content {
		if reflect.DeepEqual(d.Content[i], p.Content[i]) {
			continue
		}
		replaced++
		text, _ := p.Content[i]["text"].(string)
		original, _ := d.Content[i]["text"].(string)
		value := []byte(text)
		if !compact {
			value = gcxDecode(t, text)
		}
		want, err := jsonmap.Compact([]byte(original))
		if err != nil {
			t.Fatalf("%s: the server's text is not JSON: %v", name, err)
		}
		if !bytes.Equal(value, want) {
			t.Errorf("%s: the model reads\n%s\nthe server wrote\n%s", name, value, want)
		}
		if d.StructuredContent != nil {
			sc, _ := jsonmap.Compact(d.StructuredContent)
			if differs := p.Meta[binding.MetaDiffers] == true; differs == bytes.Equal(value, sc) {
				t.Errorf("%s: the block holds\n%s\nstructuredContent is\n%s\nmarked as differing: %t", name, value, sc, differs)
			}
		}
	}
	if replaced != 1 {
		t.Errorf("%s: %d content blocks changed, want the JSON block alone", name, replaced)
	}
}

type callResult struct {
	Content           []map[string]any `json:"content"`
	StructuredContent json.RawMessage  `json:"structuredContent"`
	Meta              map[string]any   `json:"_meta"`
}

// gcxDecode runs gcx decode on a payload and returns the value it prints.
func gcxDecode(t *testing.T, payload string) []byte {
	t.Helper()
	cmd := exec.Command(built(t, "gcx"), "decode")
	cmd.Stdin = strings.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gcx decode: %v: %s\npayload:\n%s", err, stderr.Bytes(), payload)
	}
	return bytes.TrimSpace(out)
}

func resultFormat(t *testing.T, raw json.RawMessage) string {
	var r callResult
	mustUnmarshal(t, raw, &r)
	f, _ := r.Meta[binding.MetaFormat].(string)
	return f
}

// withoutFormat returns a result without the _meta format key, which the
// proxy adds when auto mode keeps the JSON [MCP-6], and without _meta when
// that was all it held.
func withoutFormat(t *testing.T, raw json.RawMessage) json.RawMessage {
	var r map[string]any
	mustUnmarshal(t, raw, &r)
	if meta, ok := r["_meta"].(map[string]any); ok {
		delete(meta, binding.MetaFormat)
		if len(meta) == 0 {
			delete(r, "_meta")
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameSession checks what the client learns of the server outside tool
// calls: identity, capabilities, instructions and tools.
func sameSession(t *testing.T, direct, through *report) {
	t.Helper()
	for _, f := range []struct {
		what string
		a, b json.RawMessage
	}{
		{"server identity", direct.Server, through.Server},
		{"capabilities", direct.Capabilities, through.Capabilities},
		{"instructions", direct.Instructions, through.Instructions},
		{"tools/list", direct.Tools, through.Tools},
	} {
		if !sameJSON(f.a, f.b) {
			t.Errorf("%s differs through the proxy:\ndirect:  %s\nproxied: %s", f.what, f.a, f.b)
		}
	}
}

func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

func ptr[T any](v T) *T { return &v }

// everythingServer is @modelcontextprotocol/server-everything over stdio.
func everythingServer() stdioServer {
	return stdioServer{Command: "node", Args: []string{"node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}}
}

// The reference server that exercises all of MCP: get-env's text is a
// pretty-printed JSON object, answered in GCX1; get-structured-content's
// small object stays JSON where GCX1 is no cheaper; echo's prose, the
// annotated message and the tiny image pass untouched; and tools/list,
// with its many tools, is the same as without the proxy.
func TestInteropEverythingServer(t *testing.T) {
	node := needNode(t)
	calls := []toolCall{
		{Name: "get-env"},
		{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}},
		{Name: "echo", Arguments: map[string]any{"message": `{"looks":"like JSON"}`}},
		{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}},
		{Name: "get-annotated-message", Arguments: map[string]any{"messageType": "error", "includeImage": true}},
		{Name: "get-tiny-image"},
		{Name: "get-sum", Arguments: map[string]any{"a": "two"}},
	}
	direct := runSession(t, node, script{Stdio: ptr(everythingServer()), Calls: calls})
	through := runSession(t, node, script{Stdio: ptr(proxied(t, everythingServer())), Calls: calls})
	sameSession(t, direct, through)
	if gcx := compareCalls(t, direct, through); gcx["get-env"] != "GCX1" {
		t.Error("get-env: the model did not read GCX1 through the proxy")
	}
}

// The reference filesystem server wraps its listings in structuredContent
// as {"content": text}: the text's JSON is not structuredContent's value,
// so the JSON block is the first text block holding a JSON text, and the
// answer marks it as differing [MCP-5]; prose and errors pass untouched.
func TestInteropFilesystemServer(t *testing.T) {
	node := needNode(t)
	root := t.TempDir()
	for _, f := range []string{"a.txt", "b.json", "sub/c.go", "sub/deeper/d.md"} {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{\"x\": 1}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	server := stdioServer{Command: "node", Args: []string{"node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", root}}
	calls := []toolCall{
		{Name: "directory_tree", Arguments: map[string]any{"path": root}},
		{Name: "list_directory", Arguments: map[string]any{"path": root}},
		{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(root, "b.json")}},
		{Name: "read_text_file", Arguments: map[string]any{"path": "/etc/passwd"}},
	}
	direct := runSession(t, node, script{Stdio: ptr(server), Calls: calls})
	through := runSession(t, node, script{Stdio: ptr(proxied(t, server, "--mode", "gcx")), Calls: calls})
	sameSession(t, direct, through)
	gcx := compareCalls(t, direct, through)
	if want := map[string]string{"directory_tree": "GCX1", "read_text_file": "GCX1"}; !reflect.DeepEqual(gcx, want) {
		t.Errorf("answered in mode gcx: %v, want %v", gcx, want)
	}
}

// The example Go server speaks the binding itself: the proxy asks it for
// GCX1 on behalf of a client that did not opt in, and passes its payload
// on. The client here is the official Go SDK's, with no opt-in either, so
// that a second SDK's client sees the proxy.
func TestInteropExampleGoServer(t *testing.T) {
	root, err := filepath.Abs("../../jsonmap")
	if err != nil {
		t.Fatal(err)
	}
	server := built(t, "mcpserver")
	args := map[string]any{"query": "Decode", "limit": 20}
	ctx := context.Background()
	session := func(cmd *exec.Cmd) (*mcp.ListToolsResult, *mcp.CallToolResult, *mcp.CallToolResult) {
		client := mcp.NewClient(&mcp.Implementation{Name: "gcx-proxy-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		search, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_symbols", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		usages, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_usages", Arguments: map[string]any{"name": "Value", "limit": 30}})
		if err != nil {
			t.Fatal(err)
		}
		return tools, search, usages
	}
	directTools, directSearch, directUsages := session(exec.Command(server, "-root", root))
	tools, search, usages := session(exec.Command(built(t, "gcx"), "proxy", "--", server, "-root", root))
	if !reflect.DeepEqual(directTools, tools) {
		t.Errorf("tools/list differs through the proxy")
	}
	for _, c := range []struct {
		name            string
		direct, proxied *mcp.CallToolResult
	}{{"search_symbols", directSearch, search}, {"find_usages", directUsages, usages}} {
		if c.direct.Meta[binding.MetaFormat] != nil {
			t.Errorf("%s: the server answered a client that did not opt in with %v", c.name, c.direct.Meta[binding.MetaFormat])
		}
		if c.proxied.Meta[binding.MetaFormat] != "GCX1" {
			t.Errorf("%s: format %v through the proxy, want GCX1", c.name, c.proxied.Meta[binding.MetaFormat])
			continue
		}
		text := c.proxied.Content[0].(*mcp.TextContent).Text
		want := c.direct.Content[0].(*mcp.TextContent).Text
		value := gcxDecode(t, text)
		if compact, _ := jsonmap.Compact([]byte(want)); !bytes.Equal(value, compact) {
			t.Errorf("%s: gcx decode gives\n%s\nthe server's JSON is\n%s", c.name, value, compact)
		}
		if c.proxied.Meta[binding.MetaTotal] != c.direct.Meta[binding.MetaTotal] || !reflect.DeepEqual(c.proxied.StructuredContent, c.direct.StructuredContent) {
			t.Errorf("%s: _meta or structuredContent changed", c.name)
		}
	}
}
