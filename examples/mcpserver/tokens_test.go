package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/tokens"
)

// realisticCalls are the calls a model working on this repository makes:
// names it looks up, at the default limit and at smaller ones, some cut
// and some whole.
var realisticCalls = []struct {
	tool string
	args map[string]any
}{
	{"search_symbols", map[string]any{"query": "Decode"}},
	{"search_symbols", map[string]any{"query": "Reader", "limit": 20}},
	{"search_symbols", map[string]any{"query": "Negotiate"}},
	{"search_symbols", map[string]any{"query": "scan", "limit": 10}},
	{"search_symbols", map[string]any{"query": "Encode", "limit": 5}},
	{"find_usages", map[string]any{"name": "Errorf"}},
	{"find_usages", map[string]any{"name": "Fatal", "limit": 20}},
	{"find_usages", map[string]any{"name": "NewServer"}},
	{"find_usages", map[string]any{"name": "validUTF8", "limit": 10}},
	{"find_usages", map[string]any{"name": "Count", "limit": 30}},
}

// bareServer is this server as it was before its lists were wrapped
// (before c0f67b1): each tool answers the bare list, as structuredContent
// and as the text block, with the counts only in _meta [MCP-7], through
// the same middleware. Clients of protocol 2025-11-25 reject it; it is
// the baseline of TestWrappedSavesAsMuchAsBare.
func bareServer(t *testing.T, idx *index) *mcp.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "gcx-mcp-example-bare", Version: "v0"}, nil)
	addBareTool(server, "search_symbols", func(a searchArgs) (any, int, int) {
		hits, total := idx.searchSymbols(a.Query, limitOf(a.Limit))
		return hits, len(hits), total
	})
	addBareTool(server, "find_usages", func(a usagesArgs) (any, int, int) {
		hits, total := idx.findUsages(a.Name, limitOf(a.Limit))
		return hits, len(hits), total
	})
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	server.AddReceivingMiddleware(mw)
	return server
}

// addBareTool adds a tool whose arguments are an In and which answers the
// list find returns, with how many it holds and how many there are: the
// list's JSON as structuredContent and as the text block, the counts in
// _meta [MCP-7].
func addBareTool[In any](server *mcp.Server, name string, find func(In) (list any, n, total int)) {
	input := map[string]any{"type": "object"} // any arguments: the test sends only valid ones
	server.AddTool(&mcp.Tool{Name: name, InputSchema: input}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args In
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, err
		}
		list, n, total := find(args)
		b, err := encodeResult(list)
		if err != nil {
			return nil, err
		}
		res := &mcp.CallToolResult{StructuredContent: json.RawMessage(b), Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
		gcxmcp.SetTruncation(res, int64(total), total > n)
		return res, nil
	})
}

// connect connects an SDK client to server at a protocol version ("": the
// SDK's latest).
func connect(t *testing.T, server *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpserver-tokens", Version: "v0"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// TestWrappedSavesAsMuchAsBare makes realisticCalls against this
// repository twice in one run: to this server, whose lists are wrapped in
// objects as clients of protocol 2025-11-25 require, on a 2025-11-25
// session, and to bareServer, the same tools answering bare lists, as
// this server did before. Each call is made once without opting in (the
// JSON text block the model would read) and once opted in, in auto mode
// (the block it reads). Wrapped, opted-in calls must save at least as
// many cl100k_base tokens as bare ones did, in sum and as a share of the
// JSON they replace (issue 19). With -v it prints the table of
// docs/performance.md ("The example server, wrapped and bare").
func TestWrappedSavesAsMuchAsBare(t *testing.T) {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	wrappedServer, err := newServer(idx, gcxmcp.ModeAuto)
	if err != nil {
		t.Fatal(err)
	}
	sessions := []*mcp.ClientSession{connect(t, bareServer(t, idx), ""), connect(t, wrappedServer, "2025-11-25")}
	encodings := []string{tokens.CL100K, tokens.O200K}
	ctx := context.Background()
	// jsonN[s][e], shownN[s][e]: tokens of the JSON block and of what the
	// opted-in client is shown, summed, per shape s (bare, wrapped) and
	// tokenizer e.
	var jsonN, shownN [2][2]int
	var b strings.Builder
	b.WriteString("| call | rows | total | bare: JSON | bare: shown | bare saves | wrapped: JSON | wrapped: shown | wrapped saves |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, c := range realisticCalls {
		params := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
		var row [2][2]int // row[s]: cl100k tokens of the JSON block and of what is shown
		rows, total := -1, -1
		for s, cs := range sessions {
			plain, err := cs.CallTool(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			jsonText := plain.Content[0].(*mcp.TextContent).Text
			got, err := gcxmcp.CallTool(ctx, cs, params, nil)
			if err != nil {
				t.Fatalf("%s %v: %v", c.tool, c.args, err)
			}
			if !sameValue(t, got.Value, []byte(jsonText)) {
				t.Errorf("[MCP-8] %s %v: the opted-in client reads another value than the JSON block", c.tool, c.args)
			}
			if s == 0 {
				var list []any
				if err := json.Unmarshal([]byte(jsonText), &list); err != nil {
					t.Fatalf("%s %v: the bare answer is not a list: %v", c.tool, c.args, err)
				}
				rows, total = len(list), int(got.Total)
			}
			shown := got.CallToolResult.Content[0].(*mcp.TextContent).Text
			for e, enc := range encodings {
				nj, ns := countTokens(t, enc, jsonText), countTokens(t, enc, shown)
				if e == 0 && ns > nj {
					t.Errorf("[AUTO-2] %s %v: the model is shown %d cl100k_base tokens, the JSON block is %d", c.tool, c.args, ns, nj)
				}
				jsonN[s][e] += nj
				shownN[s][e] += ns
				if e == 0 {
					row[s] = [2]int{nj, ns}
				}
			}
		}
		fmt.Fprintf(&b, "| %s %s | %d | %d ", c.tool, argsText(c.args), rows, total)
		for _, r := range row {
			fmt.Fprintf(&b, "| %d | %d | %d ", r[0], r[1], r[0]-r[1])
		}
		b.WriteString("|\n")
	}
	b.WriteString("\n| all calls | tokenizer | JSON block | shown | saved | saving |\n|---|---|---:|---:|---:|---:|\n")
	for s, name := range []string{"bare lists (before)", "wrapped lists, 2025-11-25"} {
		for e, enc := range encodings {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.2f%% |\n", name, enc, jsonN[s][e], shownN[s][e],
				jsonN[s][e]-shownN[s][e], 100*float64(jsonN[s][e]-shownN[s][e])/float64(jsonN[s][e]))
		}
	}
	t.Logf("tokens of the text block the model sees (per call: cl100k_base), %d calls against this repository:\n%s", len(realisticCalls), b.String())
	for e, enc := range encodings {
		savedBare, savedWrapped := jsonN[0][e]-shownN[0][e], jsonN[1][e]-shownN[1][e]
		if savedWrapped < savedBare {
			t.Errorf("%s: wrapped calls save %d tokens, bare ones %d", enc, savedWrapped, savedBare)
		}
		if savedWrapped*jsonN[0][e] < savedBare*jsonN[1][e] {
			t.Errorf("%s: wrapped calls save %.2f%% of the JSON, bare ones %.2f%%", enc,
				100*float64(savedWrapped)/float64(jsonN[1][e]), 100*float64(savedBare)/float64(jsonN[0][e]))
		}
	}
}

// countTokens is text's count in the tokenizer enc.
func countTokens(t *testing.T, enc, text string) int {
	t.Helper()
	n, err := tokens.Count(enc, text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// argsText is a call's arguments as the table shows them.
func argsText(args map[string]any) string {
	b, _ := json.Marshal(args)
	return strings.ReplaceAll(string(b), "|", `\|`)
}
