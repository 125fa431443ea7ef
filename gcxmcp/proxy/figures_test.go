package proxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/tokens"
)

// The figures of docs/performance.md, "gcx proxy": what the model reads
// per call from real servers with and without the proxy, and the time the
// proxy adds, measured side by side in one run. They take a minute or two
// and need Node, so they run only when asked:
//
//	GCX_PROXY_FIGURES=1 go test ./gcxmcp/proxy -run TestProxyFigures -v -timeout 20m

// bigGraph is a knowledge graph of n people, each with two observations
// and a relation to the next.
func bigGraph(n int) []toolCall {
	var entities, relations []any
	for i := range n {
		entities = append(entities, map[string]any{"name": fmt.Sprintf("Person %d", i), "entityType": []string{"engineer", "designer", "manager"}[i%3],
			"observations": []any{fmt.Sprintf("joined in %d", 2010+i%12), fmt.Sprintf("works on project %c", 'A'+i%5)}})
		relations = append(relations, map[string]any{"from": fmt.Sprintf("Person %d", i), "to": fmt.Sprintf("Person %d", (i+1)%n), "relationType": "reports to"})
	}
	return []toolCall{
		{Name: "create_entities", Arguments: map[string]any{"entities": entities}},
		{Name: "create_relations", Arguments: map[string]any{"relations": relations}},
	}
}

// modelText returns the text blocks of a result, the part the model reads.
func modelText(t *testing.T, raw json.RawMessage) string {
	var r callResult
	mustUnmarshal(t, raw, &r)
	var b strings.Builder
	for _, c := range r.Content {
		if s, ok := c["text"].(string); ok {
			b.WriteString(s)
		}
	}
	return b.String()
}

type tokenRow struct {
	server, call    string
	format          string
	direct, proxied [2]int // cl100k, o200k
}

func countBoth(t *testing.T, text string) [2]int {
	var n [2]int
	for i, enc := range []string{tokens.CL100K, tokens.O200K} {
		c, err := tokens.Count(enc, text)
		if err != nil {
			t.Fatal(err)
		}
		n[i] = c
	}
	return n
}

func TestProxyFigures(t *testing.T) {
	if os.Getenv("GCX_PROXY_FIGURES") == "" {
		t.Skip("set GCX_PROXY_FIGURES=1 to measure the figures of docs/performance.md (needs Node and the pinned packages)")
	}
	node := needNode(t)
	var rows []tokenRow
	add := func(server string, calls []toolCall, direct, through *report) {
		for i, c := range calls {
			if direct.Calls[i].Result == nil || strings.HasPrefix(c.Name, "create_") {
				continue
			}
			rows = append(rows, tokenRow{server: server, call: c.Name + argsNote(c),
				format:  resultFormat(t, through.Calls[i].Result),
				direct:  countBoth(t, modelText(t, direct.Calls[i].Result)),
				proxied: countBoth(t, modelText(t, through.Calls[i].Result))})
		}
	}
	memoryCalls := append(bigGraph(30),
		toolCall{Name: "read_graph"},
		toolCall{Name: "search_nodes", Arguments: map[string]any{"query": "engineer"}},
		toolCall{Name: "search_nodes", Arguments: map[string]any{"query": "Person 7"}},
		toolCall{Name: "open_nodes", Arguments: map[string]any{"names": []any{"Person 1", "Person 2", "Person 3"}}},
	)
	direct := runSession(t, node, script{Stdio: ptr(memoryServer(t)), Calls: memoryCalls})
	through := runSession(t, node, script{Stdio: ptr(proxied(t, memoryServer(t))), Calls: memoryCalls})
	add("server-memory", memoryCalls, direct, through)
	everything := []toolCall{{Name: "get-env"}, {Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}}}
	direct = runSession(t, node, script{Stdio: ptr(everythingServer()), Calls: everything})
	through = runSession(t, node, script{Stdio: ptr(proxied(t, everythingServer())), Calls: everything})
	add("server-everything", everything, direct, through)
	rows = append(rows, exampleServerRows(t)...)

	var b strings.Builder
	b.WriteString("| server | call | through the proxy | cl100k: direct | proxied | saved | o200k: direct | proxied | saved |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n")
	var sum [2][2]int
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %s | %d | %d | %s |\n", r.server, r.call, r.format,
			r.direct[0], r.proxied[0], saved(r.direct[0], r.proxied[0]), r.direct[1], r.proxied[1], saved(r.direct[1], r.proxied[1]))
		for i := range 2 {
			sum[i][0] += r.direct[i]
			sum[i][1] += r.proxied[i]
			if r.proxied[i] > r.direct[i] {
				t.Errorf("%s %s: the proxy made the model read more (%d > %d)", r.server, r.call, r.proxied[i], r.direct[i])
			}
		}
	}
	fmt.Fprintf(&b, "| **all** | | | **%d** | **%d** | **%s** | **%d** | **%d** | **%s** |\n", sum[0][0], sum[0][1], saved(sum[0][0], sum[0][1]), sum[1][0], sum[1][1], saved(sum[1][0], sum[1][1]))
	t.Logf("tokens the model reads per call:\n%s", b.String())

	// Time: one process holds a session to server-memory directly and one
	// through the proxy, and alternates single messages between them.
	memory := memoryServer(t)
	path := filepath.Join(t.TempDir(), "latency.json")
	spec, err := json.Marshal(map[string]any{
		"direct": memory, "proxied": proxied(t, memoryServer(t)), "setup": bigGraph(30), "rounds": 1000,
		"calls": []map[string]any{
			{"name": "read_graph", "label": "read_graph (30 people, GCX1)"},
			{"name": "search_nodes", "arguments": map[string]any{"query": "Person 7"}, "label": `search_nodes "Person 7" (GCX1)`},
			{"name": "search_nodes", "arguments": map[string]any{"query": "nobody"}, "label": `search_nodes "nobody" (JSON kept)`},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "latency.mjs", path)
	cmd.Dir = nodeDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("latency.mjs: %v", err)
	}
	var latency map[string]map[string]struct{ Median, P90 float64 }
	mustUnmarshal(t, out, &latency)
	b.Reset()
	b.WriteString("| message | direct: median µs | p90 | through the proxy: median µs | p90 | added (median) µs |\n|---|---:|---:|---:|---:|---:|\n")
	names := make([]string, 0, len(latency))
	for name := range latency {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d, p := latency[name]["direct"], latency[name]["proxied"]
		fmt.Fprintf(&b, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", name, d.Median, d.P90, p.Median, p.P90, p.Median-d.Median)
	}
	t.Logf("time per message, 1000 of each, alternating between the two sessions:\n%s", b.String())
}

func argsNote(c toolCall) string {
	if q, ok := c.Arguments["query"]; ok {
		return fmt.Sprintf(" %q", q)
	}
	if n, ok := c.Arguments["names"].([]any); ok {
		return fmt.Sprintf(" (%d names)", len(n))
	}
	return ""
}

func saved(direct, proxied int) string {
	if direct == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(direct-proxied)/float64(direct))
}

// exampleServerRows measures the example Go server through the Go SDK's
// client.
func exampleServerRows(t *testing.T) []tokenRow {
	root, err := filepath.Abs("../../jsonmap")
	if err != nil {
		t.Fatal(err)
	}
	server := built(t, "mcpserver")
	calls := []*mcp.CallToolParams{
		{Name: "search_symbols", Arguments: map[string]any{"query": "Decode", "limit": 20}},
		{Name: "find_usages", Arguments: map[string]any{"name": "Value", "limit": 30}},
	}
	results := func(cmd *exec.Cmd) []*mcp.CallToolResult {
		ctx := context.Background()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "figures", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		var out []*mcp.CallToolResult
		for _, c := range calls {
			r, err := cs.CallTool(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	direct := results(exec.Command(server, "-root", root))
	through := results(exec.Command(built(t, "gcx"), "proxy", "--", server, "-root", root))
	var rows []tokenRow
	for i, c := range calls {
		f, _ := through[i].Meta[binding.MetaFormat].(string)
		rows = append(rows, tokenRow{server: "examples/mcpserver", call: c.Name + fmt.Sprintf(" (limit %v)", c.Arguments.(map[string]any)["limit"]), format: f,
			direct:  countBoth(t, direct[i].Content[0].(*mcp.TextContent).Text),
			proxied: countBoth(t, through[i].Content[0].(*mcp.TextContent).Text)})
	}
	return rows
}
