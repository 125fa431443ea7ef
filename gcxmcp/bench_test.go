package gcxmcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// benchCases are the corpus cases the benchmarks run: tables of 60 and 500
// rows (n and 8n, to show the cost is linear), a graph, a large table of
// usages, and an object auto mode keeps as JSON.
var benchCases = []string{"search_symbols-60", "search_symbols-500", "get_callers-150", "find_usages-300", "get_config"}

func benchCorpus(b *testing.B) map[string]scorecard.Case {
	b.Helper()
	m := map[string]scorecard.Case{}
	for _, c := range loadCorpus(b) {
		m[c.Name] = c
	}
	return m
}

// BenchmarkServerMiddleware measures the server middleware alone, around a
// handler that returns a ready result: "handler" is that handler called
// directly, "optout" the middleware for a client that did not opt in,
// "gcx" and "auto" the middleware writing the payload in each mode (auto
// also counts tokens). The middleware's cost per call is the difference
// from "handler".
func BenchmarkServerMiddleware(b *testing.B) {
	corpus := benchCorpus(b)
	ctx := context.Background()
	for _, name := range benchCases {
		c := corpus[name]
		next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(c.Response)}},
				StructuredContent: json.RawMessage(c.Response),
			}, nil
		}
		optedIn := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: c.Name, Meta: mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}}
		plain := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: c.Name}}
		tools := map[string]gcxmcp.ToolOptions{c.Name: {Name: c.Tool}}
		for _, run := range []struct {
			name string
			mode gcxmcp.Mode
			req  *mcp.CallToolRequest
		}{
			{"handler", "", optedIn},
			{"optout", gcxmcp.ModeAuto, plain},
			{"gcx", gcxmcp.ModeGCX, optedIn},
			{"auto", gcxmcp.ModeAuto, optedIn},
		} {
			handler := mcp.MethodHandler(next)
			if run.mode != "" {
				mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: run.mode, Tools: tools})
				if err != nil {
					b.Fatal(err)
				}
				handler = mw(next)
			}
			b.Run(name+"/"+run.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.Response)))
				for b.Loop() {
					if _, err := handler(ctx, "tools/call", run.req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// The mapping's own work, which the middleware cannot avoid:
		// parsing the JSON and writing the payload, or choosing.
		for mode, encode := range map[string]func(string, jsonmap.Value) error{
			"gcx":  func(tool string, v jsonmap.Value) error { _, err := jsonmap.EncodeValue(tool, v); return err },
			"auto": func(tool string, v jsonmap.Value) error { _, err := auto.ChooseValue(tool, v); return err },
		} {
			b.Run(name+"/mapping-"+mode, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.Response)))
				for b.Loop() {
					v, err := jsonmap.Parse(c.Response)
					if err != nil {
						b.Fatal(err)
					}
					if err := encode(c.Tool, v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkClientRead measures ReadResult on what the SDK's client hands
// over: "json" a result the server left as JSON, "gcx" one with a payload,
// decoded and checked against structuredContent.
func BenchmarkClientRead(b *testing.B) {
	corpus := benchCorpus(b)
	for _, name := range benchCases {
		c := corpus[name]
		mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeGCX, Tools: map[string]gcxmcp.ToolOptions{c.Name: {Name: c.Tool}}})
		if err != nil {
			b.Fatal(err)
		}
		next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(c.Response)}},
				StructuredContent: json.RawMessage(c.Response),
			}, nil
		}
		for _, run := range []struct {
			name string
			meta mcp.Meta
		}{{"json", nil}, {"gcx", mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}} {
			res, err := mw(next)(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: c.Name, Meta: run.meta}})
			if err != nil {
				b.Fatal(err)
			}
			// Through JSON, as the client receives it.
			wire, err := json.Marshal(res)
			if err != nil {
				b.Fatal(err)
			}
			var received mcp.CallToolResult
			if err := json.Unmarshal(wire, &received); err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/"+run.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.Response)))
				for b.Loop() {
					if _, err := gcxmcp.ReadResult(&received); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCall measures whole tools/call round trips between an SDK
// client and server on in-memory transports: "json" without the opt-in
// (the middleware passes the result on), "gcx" and "auto" with it, read by
// CallTool.
func BenchmarkCall(b *testing.B) {
	corpus := benchCorpus(b)
	ctx := context.Background()
	for _, name := range benchCases {
		c := corpus[name]
		for _, run := range []struct {
			name   string
			mode   gcxmcp.Mode
			optsIn bool
		}{{"json", gcxmcp.ModeAuto, false}, {"gcx", gcxmcp.ModeGCX, true}, {"auto", gcxmcp.ModeAuto, true}} {
			cs := connectServer(b, corpusServer(b, []scorecard.Case{c}, run.mode))
			params := &mcp.CallToolParams{Name: c.Name, Arguments: map[string]any{}}
			b.Run(name+"/"+run.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.Response)))
				for b.Loop() {
					var err error
					if run.optsIn {
						_, err = gcxmcp.CallTool(ctx, cs, params, nil)
					} else {
						_, err = cs.CallTool(ctx, params)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
