package gcxmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// corpusDir is the scorecard's corpus of MCP tool results.
var corpusDir = filepath.Join("..", "bench", "wire-format", "cases")

func loadCorpus(t testing.TB) []scorecard.Case {
	t.Helper()
	cases, err := scorecard.LoadCases(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// corpusServer serves every case of the corpus as a tool named after the
// case, whose payload carries the case's tool name (so declared tools use
// their layouts), answering with the case's compact JSON in both the text
// block and structuredContent, as a Go SDK server does.
func corpusServer(t testing.TB, cases []scorecard.Case, mode gcxmcp.Mode) *mcp.Server {
	return corpusServerOf(t, cases, mode, func(c scorecard.Case) []byte { return c.Response })
}

// wrapped returns a case's value as a server of protocol 2025-11-25 must
// return it, an object: a value that is not one is wrapped as the member
// "result" of one, as FastMCP wraps a list.
func wrapped(c scorecard.Case) []byte {
	if bytes.HasPrefix(bytes.TrimSpace(c.Response), []byte("{")) {
		return c.Response
	}
	return append(append([]byte(`{"result":`), c.Response...), '}')
}

// corpusServerOf is corpusServer answering each case with value(case).
func corpusServerOf(t testing.TB, cases []scorecard.Case, mode gcxmcp.Mode, value func(scorecard.Case) []byte) *mcp.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "corpus", Version: "v0"}, nil)
	names := map[string]gcxmcp.ToolOptions{}
	for _, c := range cases {
		names[c.Name] = gcxmcp.ToolOptions{Name: c.Tool}
		server.AddTool(&mcp.Tool{Name: c.Name, InputSchema: objectSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			jsonHandler(value(c)))
	}
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: mode, Tools: names})
	if err != nil {
		t.Fatal(err)
	}
	server.AddReceivingMiddleware(mw)
	return server
}

// jsonHandler answers every call with value, in a new result each time.
func jsonHandler(value []byte) mcp.ToolHandler {
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(value)}},
			StructuredContent: json.RawMessage(value),
		}, nil
	}
}

func connectServer(t testing.TB, server *mcp.Server) *mcp.ClientSession {
	return connectServerAt(t, server, "")
}

// connectServerAt connects a client to server at a protocol version ("":
// the SDK's latest).
func connectServerAt(t testing.TB, server *mcp.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "corpus-client", Version: "v0"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// modelText is the text block a call's result shows the model.
type modelText struct {
	json, gcx, auto string
}

// TestCorpusThroughMiddleware sends every case of the scorecard corpus
// through the middleware, as JSON (no opt-in), in gcx mode and in auto
// mode, and counts the tokens of the text block the model sees. Every
// answer decodes to the case's value [MCP-8], auto mode never costs more
// cl100k_base tokens than the JSON block [AUTO-2] [MCP-6], and with -v it
// prints the table of docs/performance.md ("MCP binding"). The results
// are the bare values, as protocol 2026-07-28 allows.
func TestCorpusThroughMiddleware(t *testing.T) {
	throughMiddleware(t, "", func(c scorecard.Case) []byte { return c.Response })
}

// TestWrappedCorpusThroughMiddleware is TestCorpusThroughMiddleware on
// protocol 2025-11-25, whose clients accept only an object as
// structuredContent: every value that is not an object is wrapped, as
// {"result": value} [MCP-6].
func TestWrappedCorpusThroughMiddleware(t *testing.T) {
	throughMiddleware(t, "2025-11-25", wrapped)
}

func throughMiddleware(t *testing.T, version string, value func(scorecard.Case) []byte) {
	cases := loadCorpus(t)
	ctx := context.Background()
	sessions := map[gcxmcp.Mode]*mcp.ClientSession{
		gcxmcp.ModeGCX:  connectServerAt(t, corpusServerOf(t, cases, gcxmcp.ModeGCX, value), version),
		gcxmcp.ModeAuto: connectServerAt(t, corpusServerOf(t, cases, gcxmcp.ModeAuto, value), version),
	}
	texts := make([]modelText, len(cases))
	for i, c := range cases {
		params := &mcp.CallToolParams{Name: c.Name, Arguments: map[string]any{}}
		plain, err := sessions[gcxmcp.ModeAuto].CallTool(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		texts[i].json = plain.Content[0].(*mcp.TextContent).Text
		for mode, cs := range sessions {
			r, err := gcxmcp.CallTool(ctx, cs, params, nil)
			if err != nil {
				t.Fatalf("%s, %s mode: %v", c.Name, mode, err)
			}
			if !sameJSON(t, r.Value, value(c)) {
				t.Errorf("[MCP-8] %s, %s mode: the value read is not the case's", c.Name, mode)
			}
			text := r.CallToolResult.Content[0].(*mcp.TextContent).Text
			if mode == gcxmcp.ModeGCX {
				if r.Format != spec.Version {
					t.Errorf("[MCP-6] %s, gcx mode: format %q", c.Name, r.Format)
				}
				texts[i].gcx = text
			} else {
				texts[i].auto = text
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| case | cl100k: JSON block | GCX1 block (gcx mode) | auto mode | auto saves | o200k: JSON block | GCX1 block (gcx mode) | auto mode | auto saves |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var sums [2][3]int
	var savings [2][]float64
	for i, c := range cases {
		fmt.Fprintf(&b, "| %s ", c.Name)
		for e, enc := range []string{tokens.CL100K, tokens.O200K} {
			n := [3]int{count(t, enc, texts[i].json), count(t, enc, texts[i].gcx), count(t, enc, texts[i].auto)}
			if e == 0 && n[2] > n[0] {
				t.Errorf("[AUTO-2] %s: auto mode shows the model %d cl100k_base tokens, the JSON block %d", c.Name, n[2], n[0])
			}
			for k := range n {
				sums[e][k] += n[k]
			}
			saving := 100 * float64(n[0]-n[2]) / float64(n[0])
			savings[e] = append(savings[e], saving)
			fmt.Fprintf(&b, "| %d | %d | %d | %.1f%% ", n[0], n[1], n[2], saving)
		}
		b.WriteString("|\n")
	}
	fmt.Fprintf(&b, "| **all %d calls** ", len(cases))
	for e := range sums {
		s := sums[e]
		fmt.Fprintf(&b, "| **%d** | **%d** | **%d** | **%.1f%%** ", s[0], s[1], s[2], 100*float64(s[0]-s[2])/float64(s[0]))
	}
	b.WriteString("|\n")
	fmt.Fprintf(&b, "\nMedian saving per call in auto mode: %.1f%% (cl100k_base), %.1f%% (o200k_base).\n", median(savings[0]), median(savings[1]))
	t.Logf("tokens of the text block the model sees, per call:\n%s", b.String())
}

func count(t *testing.T, encoding, text string) int {
	t.Helper()
	n, err := tokens.Count(encoding, text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
