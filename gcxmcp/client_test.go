package gcxmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
)

// fataler is what testing.TB and *rapid.T share.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// serve runs value through the server middleware in gcx mode for a client
// that opted in, then through JSON, and returns the result as the SDK's
// client receives it.
func serve(t fataler, tool string, value []byte, meta mcp.Meta) *mcp.CallToolResult {
	t.Helper()
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return &mcp.CallToolResult{
			Meta:              meta,
			Content:           []mcp.Content{&mcp.TextContent{Text: string(value)}},
			StructuredContent: json.RawMessage(value),
		}, nil
	}
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool, Meta: mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}}
	res, err := mw(next)(context.Background(), "tools/call", req)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var received mcp.CallToolResult
	if err := json.Unmarshal(wire, &received); err != nil {
		t.Fatal(err)
	}
	return &received
}

// jsonValue generates JSON values as encoding/json builds them, with the
// strings GCX1 and the mapping treat specially.
func jsonValue() *rapid.Generator[any] {
	leaf := rapid.OneOf(
		rapid.Just[any](nil), rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Map(rapid.Int64(), func(n int64) any { return float64(n) }),
		rapid.Map(rapid.Float64(), func(f float64) any { return f }),
		rapid.Map(rapid.SampledFrom([]string{"", "62", "true", "null", "@", "#x", "GCX1 x", `"q"`, "a\tb\nc\rd\\e", "[1, 2]", "é 😀"}), func(s string) any { return s }),
		rapid.Map(rapid.String(), func(s string) any { return s }),
	)
	return rapid.Custom(func(t *rapid.T) any { return drawValue(t, leaf, 0) })
}

func drawValue(t *rapid.T, leaf *rapid.Generator[any], depth int) any {
	kind := rapid.IntRange(0, 3).Draw(t, "kind")
	if depth > 3 {
		kind = 0
	}
	switch kind {
	case 1: // a table: objects that share their keys, some left out
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"id", "name", "path", "line", "a.b", "", "x y"}), 1, 5, rapid.ID[string]).Draw(t, "keys")
		rows := make([]any, rapid.IntRange(0, 6).Draw(t, "rows"))
		for i := range rows {
			row := map[string]any{}
			for _, k := range keys {
				if rapid.IntRange(0, 4).Draw(t, "present") > 0 {
					row[k] = drawValue(t, leaf, depth+1)
				}
			}
			rows[i] = row
		}
		return rows
	case 2:
		a := make([]any, rapid.IntRange(0, 4).Draw(t, "len"))
		for i := range a {
			a[i] = drawValue(t, leaf, depth+1)
		}
		return a
	case 3:
		m := map[string]any{}
		for _, k := range rapid.SliceOfNDistinct(rapid.String(), 0, 4, rapid.ID[string]).Draw(t, "members") {
			m[k] = drawValue(t, leaf, depth+1)
		}
		return m
	}
	return leaf.Draw(t, "leaf")
}

// TestPropertyBindingRoundTrip: whatever JSON a tool returns, a client that
// opted in reads back exactly that value, and it agrees with the
// structuredContent the SDK delivers [MCP-6] [MCP-8] [MAP-4].
func TestPropertyBindingRoundTrip(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		v := jsonValue().Draw(t, "value")
		text, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		tool := rapid.SampledFrom([]string{"t", "search_symbols", "get_callers", "graph_stats", "list"}).Draw(t, "tool")
		received := serve(t, tool, text, nil)
		r, err := gcxmcp.ReadResult(received)
		if err != nil {
			t.Fatalf("ReadResult: %v\nvalue %s\npayload %q", err, text, received.Content[0].(*mcp.TextContent).Text)
		}
		if r.Format != "GCX1" {
			t.Fatalf("format %q", r.Format)
		}
		got, err := jsonmap.Parse(r.Value)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := jsonmap.Parse(text)
		if !jsonmap.Equal(got, want) {
			t.Fatalf("read %s, want %s", r.Value, text)
		}
	})
}

// ReadResult refuses a payload whose value differs from structuredContent
// in any way the SDK's decoded form can show [MCP-8], and accepts one that
// differs only where that form cannot see.
func TestReadResultComparesWithStructured(t *testing.T) {
	value := []byte(`{"a":[1,2.5,"x",null,true],"b":{"c":"d"},"e":""}`)
	received := serve(t, "t", value, nil)
	for _, c := range []struct {
		name       string
		structured string
		same       bool
	}{
		{"equal", `{"a":[1,2.5,"x",null,true],"b":{"c":"d"},"e":""}`, true},
		{"members reordered: maps have no order", `{"e":"","b":{"c":"d"},"a":[1,2.5,"x",null,true]}`, true},
		{"number respelled: same float64", `{"a":[1.0,25e-1,"x",null,true],"b":{"c":"d"},"e":""}`, true},
		{"number", `{"a":[1,2.4,"x",null,true],"b":{"c":"d"},"e":""}`, false},
		{"string for number", `{"a":["1",2.5,"x",null,true],"b":{"c":"d"},"e":""}`, false},
		{"null for empty string", `{"a":[1,2.5,"x",null,true],"b":{"c":"d"},"e":null}`, false},
		{"false for true", `{"a":[1,2.5,"x",null,false],"b":{"c":"d"},"e":""}`, false},
		{"member missing", `{"a":[1,2.5,"x",null,true],"b":{"c":"d"}}`, false},
		{"member added", `{"a":[1,2.5,"x",null,true],"b":{"c":"d","f":1},"e":""}`, false},
		{"element missing", `{"a":[1,2.5,"x",null],"b":{"c":"d"},"e":""}`, false},
		{"array for object", `{"a":[1,2.5,"x",null,true],"b":["c","d"],"e":""}`, false},
		{"another string", `{"a":[1,2.5,"y",null,true],"b":{"c":"d"},"e":""}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := *received
			if err := json.Unmarshal([]byte(c.structured), &res.StructuredContent); err != nil {
				t.Fatal(err)
			}
			_, err := gcxmcp.ReadResult(&res)
			if c.same && err != nil {
				t.Errorf("[MCP-8] %v", err)
			}
			if !c.same && !errors.Is(err, gcxmcp.ErrMismatch) {
				t.Errorf("[MCP-8] error %v, want ErrMismatch", err)
			}
			// With structuredContent's own text, the comparison is of JSON
			// values [MAP-2], so reordering and respelling are differences.
			res.StructuredContent = json.RawMessage(c.structured)
			_, err = gcxmcp.ReadResult(&res)
			if exact := c.structured == string(value); exact != (err == nil) {
				t.Errorf("[MCP-8] as raw JSON: error %v", err)
			}
		})
	}
}

// The handler's result is never modified, whatever the middleware sends:
// a handler may hand the same result to many calls [MCP-6].
func TestServerLeavesHandlerResultAlone(t *testing.T) {
	value := []byte(`[{"id":"a","n":1},{"id":"b","n":2}]`)
	shared := &mcp.CallToolResult{
		Meta:              mcp.Meta{gcxmcp.MetaTotal: 9, gcxmcp.MetaTruncated: true},
		Content:           []mcp.Content{&mcp.TextContent{Text: string(value)}},
		StructuredContent: json.RawMessage(value),
	}
	before, _ := json.Marshal(shared)
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	handler := mw(func(context.Context, string, mcp.Request) (mcp.Result, error) { return shared, nil })
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t", Meta: mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}}
	for range 2 {
		res, err := handler(context.Background(), "tools/call", req)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text; got != "GCX1 tool=t fields=id,n rows=2 total=9 truncated=true\na\t1\nb\t2\n" {
			t.Errorf("[MCP-7] sent %q", got)
		}
	}
	if after, _ := json.Marshal(shared); string(after) != string(before) {
		t.Errorf("[MCP-6] the handler's result changed:\n%s\n%s", before, after)
	}
}

// ServerMiddleware refuses options it cannot follow.
func TestServerOptionsRefused(t *testing.T) {
	for name, opts := range map[string]gcxmcp.ServerOptions{
		"unknown mode":      {Mode: "fast"},
		"tag not written":   {Offer: []string{"GCX2"}},
		"tool mode":         {Tools: map[string]gcxmcp.ToolOptions{"t": {Mode: "json"}}},
		"name GCX1 refuses": {Tools: map[string]gcxmcp.ToolOptions{"t": {Name: "search symbols"}}},
	} {
		if _, err := gcxmcp.ServerMiddleware(opts); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
