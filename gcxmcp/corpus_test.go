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
	"github.com/gcxwire/gcx/codec"
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
	return corpusServerOffering(t, cases, mode, nil, value)
}

// corpusServerOffering is corpusServerOf offering the tags of offer (nil:
// GCX1).
func corpusServerOffering(t testing.TB, cases []scorecard.Case, mode gcxmcp.Mode, offer []string, value func(scorecard.Case) []byte) *mcp.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "corpus", Version: "v0"}, nil)
	names := map[string]gcxmcp.ToolOptions{}
	for _, c := range cases {
		names[c.Name] = gcxmcp.ToolOptions{Name: c.Tool}
		server.AddTool(&mcp.Tool{Name: c.Name, InputSchema: objectSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			jsonHandler(value(c)))
	}
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: mode, Offer: offer, Tools: names})
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

// TestDraft2CorpusThroughMiddleware measures GCX2-draft.2 (member layouts,
// docs/drafts/GCX2-draft.2.md) where it is meant to help: the corpus
// wrapped as protocol 2025-11-25 needs it, through the middleware in auto
// mode, with the draft negotiated (the server offers it before GCX1, the
// client accepts both), beside GCX1 on the same wrapped values and GCX1 on
// the bare values, in one run. Every answer decodes to its case's value
// [MCP-8] and auto mode never costs more than the JSON block [AUTO-2];
// with -v it prints the table of docs/performance.md ("MCP binding").
func TestDraft2CorpusThroughMiddleware(t *testing.T) {
	cases := loadCorpus(t)
	ctx := context.Background()
	bare := func(c scorecard.Case) []byte { return c.Response }
	type run struct {
		name    string
		session *mcp.ClientSession
		value   func(scorecard.Case) []byte
		accept  []string
		format  string // the tag a GCX answer must carry
	}
	draft := []string{codec.Draft2Tag, spec.Version}
	runs := []run{
		{"GCX1, bare values", connectServerAt(t, corpusServerOf(t, cases, gcxmcp.ModeAuto, bare), ""), bare, nil, spec.Version},
		{"GCX1, wrapped values", connectServerAt(t, corpusServerOf(t, cases, gcxmcp.ModeAuto, wrapped), "2025-11-25"), wrapped, nil, spec.Version},
		{"GCX2-draft.2, wrapped values", connectServerAt(t, corpusServerOffering(t, cases, gcxmcp.ModeAuto, draft, wrapped), "2025-11-25"), wrapped, draft, codec.Draft2Tag},
		{"GCX2-draft.2, wrapped values, gcx mode", connectServerAt(t, corpusServerOffering(t, cases, gcxmcp.ModeGCX, draft, wrapped), "2025-11-25"), wrapped, draft, codec.Draft2Tag},
	}
	encodings := []string{tokens.CL100K, tokens.O200K}
	var b strings.Builder
	b.WriteString("| case | JSON, bare | GCX1 bare, auto | JSON, wrapped | GCX1 wrapped, auto | draft.2 wrapped, auto | draft.2 wrapped, gcx mode |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	// sums[e][k]: the JSON block and the text shown, per run and tokenizer.
	var json, shown [2][4]int
	var retagged [2]int // the draft's payloads with a four-byte tag, as a release would spell them, or the JSON when cheaper
	for _, c := range cases {
		params := &mcp.CallToolParams{Name: c.Name, Arguments: map[string]any{}}
		var row [6]int
		for k, r := range runs {
			plain, err := r.session.CallTool(ctx, params)
			if err != nil {
				t.Fatal(err)
			}
			jsonText := plain.Content[0].(*mcp.TextContent).Text
			got, err := gcxmcp.CallTool(ctx, r.session, params, &gcxmcp.ClientOptions{Accept: r.accept})
			if err != nil {
				t.Fatalf("%s, %s: %v", c.Name, r.name, err)
			}
			if !sameJSON(t, got.Value, r.value(c)) {
				t.Errorf("[MCP-8] %s, %s: the value read is not the case's", c.Name, r.name)
			}
			if got.Format != r.format && got.Format != "json" {
				t.Errorf("[MCP-4] %s, %s: format %q, want %s or json", c.Name, r.name, got.Format, r.format)
			}
			text := got.CallToolResult.Content[0].(*mcp.TextContent).Text
			for e, enc := range encodings {
				nj, ns := count(t, enc, jsonText), count(t, enc, text)
				if e == 0 && k < 3 && ns > nj {
					t.Errorf("[AUTO-2] %s, %s: the model sees %d cl100k_base tokens, the JSON block %d", c.Name, r.name, ns, nj)
				}
				json[e][k] += nj
				shown[e][k] += ns
				if k == 3 {
					// Auto mode's choice [AUTO-1], had the payload the tag's
					// length a release will have.
					retagged[e] += min(nj, count(t, enc, "GCX2"+strings.TrimPrefix(text, codec.Draft2Tag)))
				}
				if e == 0 {
					switch k {
					case 0:
						row[0], row[1] = nj, ns
					case 1:
						row[2], row[3] = nj, ns
					default:
						row[k+2] = ns
					}
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", c.Name, row[0], row[1], row[2], row[3], row[4], row[5])
	}
	fmt.Fprintf(&b, "\n| all %d calls | tokenizer | JSON block | shown | saved | saving |\n|---|---|---:|---:|---:|---:|\n", len(cases))
	for k, r := range runs {
		for e, enc := range encodings {
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.2f%% |\n", r.name, enc, json[e][k], shown[e][k], json[e][k]-shown[e][k], 100*float64(json[e][k]-shown[e][k])/float64(json[e][k]))
		}
	}
	for e, enc := range encodings {
		fmt.Fprintf(&b, "| GCX2-draft.2, wrapped values, tagged GCX2 as a release would be (auto mode's choice) | %s | %d | %d | %d | %.2f%% |\n", enc, json[e][3], retagged[e], json[e][3]-retagged[e], 100*float64(json[e][3]-retagged[e])/float64(json[e][3]))
	}
	t.Logf("tokens of the text block the model sees, per call (cl100k_base), and the totals:\n%s", b.String())
}
