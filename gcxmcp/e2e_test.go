package gcxmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The protocol versions the binding is tested on: the one whose client
// capabilities travel in every request's _meta, and the last one that has
// them in the session's initialize.
var protocolVersions = []string{"2026-07-28", "2025-11-25"}

// Symbol and the graph types follow the frozen layouts of search_symbols
// and get_callers [LAY-6], member for member.
type Symbol struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	FilePath  string `json:"file_path"`
	StartLine int    `json:"start_line"`
	Signature string `json:"signature,omitempty"`
}

type CallerNode struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	FilePath  string `json:"file_path"`
	StartLine int    `json:"start_line"`
	Depth     *int   `json:"depth,omitempty"`
}

type CallerEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Line *int   `json:"line,omitempty"`
}

type Callers struct {
	Nodes []CallerNode `json:"nodes"`
	Edges []CallerEdge `json:"edges"`
}

type GraphStats struct {
	Nodes     int    `json:"nodes"`
	Edges     int    `json:"edges"`
	Files     int    `json:"files"`
	Symbols   int    `json:"symbols"`
	Packages  int    `json:"packages,omitempty"`
	IndexedAt string `json:"indexed_at,omitempty"`
}

func readExample[T any](t testing.TB, name string) T {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// testServer is an MCP server with one tool of each kind the binding must
// handle, and counters of how often each ran.
type testServer struct {
	server *mcp.Server
	calls  map[string]*atomic.Int32
	want   map[string][]byte // the JSON each tool answers, as its handler wrote it
}

// The tools of testServer, one per kind of result.
const (
	toolTable      = "search_symbols" // a table, declared layout, cut at 20 of 120
	toolGraph      = "get_callers"    // two sections
	toolTiny       = "graph_stats"    // an object auto mode keeps as JSON
	toolError      = "fail"           // isError with JSON in both places
	toolFuture     = "future_search"  // answers GCX2 to clients that opt in; idempotent
	toolFutureOnce = "future_append"  // the same, but neither read-only nor idempotent
	toolProse      = "summarize"      // structuredContent with a prose text block
	tableTotal     = 120              // what search_symbols says it found
	futurePayload  = "GCX2 tool=future fields=a rows=1\nx\n"
)

func newTestServer(t testing.TB, opts gcxmcp.ServerOptions) *testServer {
	t.Helper()
	ts := &testServer{
		server: mcp.NewServer(&mcp.Implementation{Name: "gcx-test", Version: "v0"}, nil),
		calls:  map[string]*atomic.Int32{},
		want:   map[string][]byte{},
	}
	for _, name := range []string{toolTable, toolGraph, toolTiny, toolError, toolFuture, toolFutureOnce, toolProse} {
		ts.calls[name] = new(atomic.Int32)
	}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}

	symbols := readExample[[]Symbol](t, "search_symbols")
	ts.want[toolTable] = mustJSON(t, symbols)
	mcp.AddTool(ts.server, &mcp.Tool{Name: toolTable, Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, []Symbol, error) {
			ts.calls[toolTable].Add(1)
			res := &mcp.CallToolResult{}
			gcxmcp.SetTruncation(res, tableTotal, true)
			return res, symbols, nil
		})

	// A typed handler whose result is an object has its members sorted by
	// the SDK (it re-marshals the output through map[string]any to apply
	// schema defaults), which no longer fits get_callers' layout [LAY-2];
	// a raw handler keeps the order the layout freezes.
	callers := mustJSON(t, readExample[Callers](t, "get_callers"))
	ts.want[toolGraph] = callers
	ts.server.AddTool(&mcp.Tool{Name: toolGraph, InputSchema: objectSchema, Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.calls[toolGraph].Add(1)
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(callers)}},
				StructuredContent: json.RawMessage(callers),
			}, nil
		})

	stats := readExample[GraphStats](t, "graph_stats")
	ts.want[toolTiny] = sortedJSON(t, stats) // a typed handler's object, as the SDK sends it
	mcp.AddTool(ts.server, &mcp.Tool{Name: toolTiny, Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, GraphStats, error) {
			ts.calls[toolTiny].Add(1)
			return nil, stats, nil
		})

	errJSON := []byte(`[{"code":"E_INDEX","message":"index is rebuilding"},{"code":"E_RETRY","message":"try again in 30s"}]`)
	ts.want[toolError] = errJSON
	ts.server.AddTool(&mcp.Tool{Name: toolError, InputSchema: objectSchema, Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.calls[toolError].Add(1)
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(errJSON)}},
				StructuredContent: json.RawMessage(errJSON),
				IsError:           true,
			}, nil
		})

	ts.want[toolProse] = ts.want[toolTable]
	ts.server.AddTool(&mcp.Tool{Name: toolProse, InputSchema: objectSchema, Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.calls[toolProse].Add(1)
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Found %d symbols; the first is %s.", len(symbols), symbols[0].Name)}},
				StructuredContent: json.RawMessage(ts.want[toolTable]),
			}, nil
		})

	futureJSON := []byte(`[{"a":"x"}]`)
	ts.want[toolFuture], ts.want[toolFutureOnce] = futureJSON, futureJSON
	for _, tool := range []*mcp.Tool{
		{Name: toolFuture, InputSchema: objectSchema, Annotations: &mcp.ToolAnnotations{IdempotentHint: true}},
		{Name: toolFutureOnce, InputSchema: objectSchema},
	} {
		name := tool.Name
		ts.server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.calls[name].Add(1)
			return futureAnswer(req, futureJSON), nil
		})
	}

	mw, err := gcxmcp.ServerMiddleware(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.server.AddReceivingMiddleware(mw)
	return ts
}

var objectSchema = map[string]any{"type": "object"}

// futureAnswer is how a server of a later version answers: in GCX2 to any
// client that opted in, ignoring which tags it reads, and in JSON to a call
// that asks for JSON only. It stands for every way a client can receive a
// tag it cannot read.
func futureAnswer(req *mcp.CallToolRequest, value []byte) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(value)}},
		StructuredContent: json.RawMessage(value),
	}
	if optedIn(req) {
		res.Content = []mcp.Content{&mcp.TextContent{Text: futurePayload}}
		res.Meta = mcp.Meta{gcxmcp.MetaFormat: "GCX2"}
	}
	return res
}

func optedIn(req *mcp.CallToolRequest) bool {
	if v, ok := req.Params.Meta[gcxmcp.MetaAccept]; ok {
		l, _ := v.([]any)
		return len(l) > 0
	}
	caps := req.ClientCapabilities()
	return caps != nil && caps.Extensions[gcxmcp.Extension] != nil
}

// sortedJSON is v's JSON with every object's members sorted by name.
func sortedJSON(t testing.TB, v any) []byte {
	t.Helper()
	var generic any
	if err := json.Unmarshal(mustJSON(t, v), &generic); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, generic)
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// How a client opts in.
const (
	optInNone       = "none"       // it does not
	optInCapability = "capability" // extensions in its capabilities [MCP-2]
	optInMeta       = "meta"       // the call's _meta, through CallTool [MCP-3]
	optInMiddleware = "middleware" // the call's _meta, through ClientMiddleware [MCP-3]
)

var optIns = []string{optInNone, optInCapability, optInMeta, optInMiddleware}

// connect starts a session on in-memory transports, at the given protocol
// version, with a client that opts in as optIn says.
func connect(t testing.TB, ts *testServer, version, optIn string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	ss, err := ts.server.Connect(ctx, serverTransport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	opts := &mcp.ClientOptions{}
	if optIn == optInCapability {
		opts.Capabilities = &mcp.ClientCapabilities{}
		gcxmcp.AdvertiseClient(opts.Capabilities)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "gcx-test-client", Version: "v0"}, opts)
	if optIn == optInMiddleware {
		client.AddSendingMiddleware(gcxmcp.ClientMiddleware(gcxmcp.ClientOptions{}))
	}
	cs, err := client.Connect(ctx, clientTransport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated protocol %s, want %s", got, version)
	}
	return cs
}

// callAs calls a tool the way a client that opts in as optIn would.
func callAs(ctx context.Context, cs *mcp.ClientSession, optIn, tool string) (*gcxmcp.Result, error) {
	params := &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}}
	switch optIn {
	case optInCapability:
		return gcxmcp.CallTool(ctx, cs, params, &gcxmcp.ClientOptions{UseCapability: true})
	case optInMeta:
		return gcxmcp.CallTool(ctx, cs, params, nil)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	return gcxmcp.ReadResult(res)
}

// The matrix of the issue: protocol version × opt-in source × kind of
// result, through a real SDK server and client on in-memory transports.
func TestEndToEnd(t *testing.T) {
	ts := newTestServer(t, gcxmcp.ServerOptions{Mode: gcxmcp.ModeAuto})
	ctx := context.Background()
	for _, version := range protocolVersions {
		for _, optIn := range optIns {
			t.Run(version+"/"+optIn, func(t *testing.T) {
				cs := connect(t, ts, version, optIn)
				opted := optIn != optInNone
				before := map[string]int32{}
				for name, n := range ts.calls {
					before[name] = n.Load()
				}
				ran := func(tool string) int32 { return ts.calls[tool].Load() - before[tool] }

				// [MCP-6] [MCP-7] a table: GCX1, with the tool's truncation in the header.
				r := mustCall(t, ctx, cs, optIn, toolTable)
				checkValue(t, r, ts.want[toolTable])
				if opted {
					checkPayload(t, r, "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=20 total=120 truncated=true\n")
				} else {
					checkUntouched(t, r, ts.want[toolTable])
				}
				if r.Total != tableTotal || !r.Truncated {
					t.Errorf("[MCP-7] total %d, truncated %t; want %d, true", r.Total, r.Truncated, tableTotal)
				}

				// [MCP-6] a graph: two sections, one per member.
				r = mustCall(t, ctx, cs, optIn, toolGraph)
				checkValue(t, r, ts.want[toolGraph])
				if opted {
					checkPayload(t, r, "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth rows=")
					if !strings.Contains(textOf(t, r.CallToolResult), "\nGCX1 tool=get_callers.edges fields=from,to,kind,line rows=") {
						t.Error("[MCP-6] the graph's payload has no get_callers.edges section")
					}
				} else {
					checkUntouched(t, r, ts.want[toolGraph])
				}

				// [MCP-6] [AUTO-1] a small object: auto mode keeps the JSON and says so.
				r = mustCall(t, ctx, cs, optIn, toolTiny)
				checkValue(t, r, ts.want[toolTiny])
				checkUntouchedText(t, r, ts.want[toolTiny])
				if opted && r.Format != gcxmcp.FormatJSON {
					t.Errorf("[MCP-6] format %q, want %q", r.Format, gcxmcp.FormatJSON)
				}

				// [MCP-5] an error result is never touched.
				r = mustCall(t, ctx, cs, optIn, toolError)
				checkUntouched(t, r, ts.want[toolError])
				if !r.CallToolResult.IsError {
					t.Error("isError lost")
				}

				// [MCP-5] a text block that is not the JSON of structuredContent is the tool's own words.
				r = mustCall(t, ctx, cs, optIn, toolProse)
				if r.Format != "" || !strings.HasPrefix(textOf(t, r.CallToolResult), "Found 20 symbols") {
					t.Errorf("[MCP-5] a prose block was touched: format %q, text %.40q", r.Format, textOf(t, r.CallToolResult))
				}

				// [MCP-9] GCX2 to an idempotent tool: re-issued once, asking for JSON.
				r = mustCall(t, ctx, cs, optIn, toolFuture)
				checkValue(t, r, ts.want[toolFuture])
				checkUntouched(t, r, ts.want[toolFuture])
				wantRuns := int32(1)
				if opted {
					wantRuns = 2
				}
				if n := ran(toolFuture); n != wantRuns {
					t.Errorf("[MCP-9] %s ran %d times, want %d", toolFuture, n, wantRuns)
				}
				if optIn == optInMeta || optIn == optInCapability {
					if !r.Reissued {
						t.Error("[MCP-9] Reissued is false after a GCX2 answer")
					}
				}

				// [MCP-9] GCX2 to a tool that is neither: not re-issued; the typed error names the tag.
				r, err := callAs(ctx, cs, optIn, toolFutureOnce)
				if opted {
					var e *spec.Error
					if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != "GCX2" {
						t.Errorf("[MCP-9] error %v, want unsupported-version naming GCX2", err)
					}
				} else if err != nil {
					t.Errorf("no opt-in: %v", err)
				} else {
					checkUntouched(t, r, ts.want[toolFutureOnce])
				}
				if n := ran(toolFutureOnce); n != 1 {
					t.Errorf("[MCP-9] %s ran %d times, want 1", toolFutureOnce, n)
				}
			})
		}
	}
}

func mustCall(t *testing.T, ctx context.Context, cs *mcp.ClientSession, optIn, tool string) *gcxmcp.Result {
	t.Helper()
	r, err := callAs(ctx, cs, optIn, tool)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

// checkValue checks that the value the client read is the tool's JSON
// value [MAP-2] and, as the client sees it, structuredContent [MCP-8].
func checkValue(t *testing.T, r *gcxmcp.Result, want []byte) {
	t.Helper()
	if !sameJSON(t, r.Value, want) {
		t.Errorf("[MCP-8] value %.200s\nwant %.200s", r.Value, want)
	}
	if sc := r.CallToolResult.StructuredContent; sc != nil {
		var got, fromServer any
		if err := json.Unmarshal(r.Value, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &fromServer); err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(got, sc) || !jsonEqual(fromServer, sc) {
			t.Errorf("[MCP-6] structuredContent %.200v is not the tool's value", sc)
		}
	}
}

func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	va, err := jsonmap.Parse(a)
	if err != nil {
		t.Fatalf("%.80s: %v", a, err)
	}
	vb, err := jsonmap.Parse(b)
	if err != nil {
		t.Fatalf("%.80s: %v", b, err)
	}
	return jsonmap.Equal(va, vb)
}

func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

func textOf(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content[0] is a %T", res.Content[0])
	}
	return tc.Text
}

// checkPayload checks an answered opt-in: the text block holds a GCX1
// payload beginning with head, and _meta names GCX1 [MCP-6].
func checkPayload(t *testing.T, r *gcxmcp.Result, head string) {
	t.Helper()
	if r.Format != spec.Version {
		t.Errorf("[MCP-6] format %q, want GCX1", r.Format)
	}
	if text := textOf(t, r.CallToolResult); !strings.HasPrefix(text, head) {
		t.Errorf("[MCP-6] text block begins %.120q, want %q", text, head)
	}
	if r.CallToolResult.Meta[gcxmcp.MetaFormat] != spec.Version {
		t.Errorf("[MCP-6] _meta %v", r.CallToolResult.Meta)
	}
}

// checkUntouched checks a result the binding left alone [MCP-5]: its text
// block is the tool's JSON and its _meta names no format.
func checkUntouched(t *testing.T, r *gcxmcp.Result, want []byte) {
	t.Helper()
	checkUntouchedText(t, r, want)
	if _, ok := r.CallToolResult.Meta[gcxmcp.MetaFormat]; ok {
		t.Errorf("[MCP-5] _meta names a format: %v", r.CallToolResult.Meta)
	}
}

func checkUntouchedText(t *testing.T, r *gcxmcp.Result, want []byte) {
	t.Helper()
	if text := textOf(t, r.CallToolResult); text != string(want) {
		t.Errorf("[MCP-5] text block %.120q, want the tool's JSON %.120q", text, want)
	}
}

// Advertise declares offer only for a server that writes a tag: a client
// sees GCX1 offered by a server in auto mode, and nothing from one in mode
// off [MCP-2].
func TestAdvertiseOnlyWhatIsWritten(t *testing.T) {
	for _, c := range []struct {
		mode  gcxmcp.Mode
		offer bool
	}{{gcxmcp.ModeAuto, true}, {gcxmcp.ModeOff, false}} {
		caps := &mcp.ServerCapabilities{}
		if err := gcxmcp.Advertise(caps, gcxmcp.ServerOptions{Mode: c.mode}); err != nil {
			t.Fatal(err)
		}
		server := mcp.NewServer(&mcp.Implementation{Name: "advertise", Version: "v0"}, &mcp.ServerOptions{Capabilities: caps})
		cs := connectServerAt(t, server, "2025-11-25")
		ext := cs.InitializeResult().Capabilities.Extensions
		settings, offered := ext[gcxmcp.Extension]
		if offered != c.offer {
			t.Errorf("mode %s: the server's capabilities hold %v", c.mode, ext)
		}
		if c.offer && fmt.Sprint(settings) != "map[offer:[GCX1]]" {
			t.Errorf("mode %s: the binding's settings are %v", c.mode, settings)
		}
	}
	if err := gcxmcp.Advertise(&mcp.ServerCapabilities{}, gcxmcp.ServerOptions{Mode: "fast"}); err == nil {
		t.Error("Advertise took an unknown mode")
	}
}
