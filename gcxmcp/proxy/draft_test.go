package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// gcx proxy --draft GCX2-draft.3 (Options.Binding.Offer naming the draft)
// writes the draft for the model of a host that did not opt in, with no
// total= or truncated= pairs in its tree-form root, which take exactly
// json=tree and rows=1 [D3-TREE-1] [MCP-7]: the counts stay in _meta.
// Without the flag the same result is GCX1, counts in the header; a host
// that opted in and lists only GCX1 never gets the draft [PRX-2].
func TestDraftForTheModel(t *testing.T) {
	value := `{"success":true,"data":{"statements":[{"sql":"SELECT id, name FROM customers","rows":[` +
		strings.Repeat(`{"id":1,"name":"Amelia Sharma","city":"Chicago"},{"id":2,"name":"Samuel Wang","city":"Chicago"},`, 10) +
		`{"id":3,"name":"Grace Wang","city":"Oslo"}],"count":21}]}}`
	text, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	result := `{"content":[{"type":"text","text":` + string(text) + `}],"_meta":{"` + binding.MetaTotal + `":40,"` + binding.MetaTruncated + `":true}}`
	draft := binding.ServerOptions{Mode: binding.ModeGCX, Offer: []string{codec.Draft3Tag, spec.Version}}
	for _, c := range []struct {
		name      string
		opts      binding.ServerOptions
		hostOptIn bool
		format    string
		header    string
	}{
		{"without --draft", binding.ServerOptions{Mode: binding.ModeGCX}, false, spec.Version, "GCX1 tool=execute_sql fields=success,data json=row rows=1\n"},
		{"with --draft", draft, false, codec.Draft3Tag, codec.Draft3Tag + " tool=execute_sql fields= json=tree rows=1\n"},
		{"with --draft, auto mode", binding.ServerOptions{Offer: draft.Offer}, false, codec.Draft3Tag, codec.Draft3Tag + " tool=execute_sql fields= json=tree rows=1\n"},
		{"with --draft, a host that reads GCX1 only", draft, true, spec.Version, "GCX1 tool=execute_sql fields=success,data json=row rows=1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := New(Options{Binding: c.opts})
			if err != nil {
				t.Fatal(err)
			}
			caps := `{}`
			if c.hostOptIn {
				caps = `{"extensions":{"` + binding.Extension + `":{"accept":["GCX1"]}}}`
			}
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + caps + `,"clientInfo":{"name":"t","version":"1"}}}`))
			p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`))
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_sql","arguments":{}}}`))
			out := p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`))
			var resp struct {
				Result struct {
					Content []struct{ Text string } `json:"content"`
					Meta    map[string]any          `json:"_meta"`
				} `json:"result"`
			}
			if err := json.Unmarshal(out, &resp); err != nil || len(resp.Result.Content) != 1 {
				t.Fatalf("the host got %s (%v)", out, err)
			}
			payload := resp.Result.Content[0].Text
			if got := resp.Result.Meta[binding.MetaFormat]; got != c.format || !strings.HasPrefix(payload, c.header) {
				t.Fatalf("format %v, payload %q; want %s beginning %q", got, payload, c.format, c.header)
			}
			if resp.Result.Meta[binding.MetaTotal] != float64(40) || resp.Result.Meta[binding.MetaTruncated] != true {
				t.Errorf("_meta lost the counts: %v", resp.Result.Meta)
			}
			dec, _ := codec.Lookup(c.format)
			back, err := dec.Decode([]byte(payload))
			want, _ := jsonmap.Parse([]byte(value))
			if err != nil || !jsonmap.Equal(back, want) {
				t.Errorf("the payload reads back as %s (%v)", back.AppendCompact(nil), err)
			}
		})
	}
}
