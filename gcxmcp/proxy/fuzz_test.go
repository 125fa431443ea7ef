package proxy_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// Any line from either side is passed on or answered, never a panic: the
// one message the proxy changes is the response to the call in flight,
// into one JSON text on one line whose _meta names the format.
func FuzzMessages(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"x\": [1, 2]}"}],"structuredContent":{"x":[1,2]},"_meta":{"io.github.gcxwire/total":3}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.github.gcxwire/accept":["GCX1"]}}}`,
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{}}]`,
		"not json", "", `{"id":1,"result":{"content":"x"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		if bytes.ContainsAny(msg, "\n") {
			return // one line is one message
		}
		p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
		if err != nil {
			t.Fatal(err)
		}
		p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`))
		// The upstream offers nothing, so no request is changed.
		if out := p.FromHost(bytes.Clone(msg)); !bytes.Equal(out, msg) {
			t.Fatalf("a request from the host changed: %q into %q", msg, out)
		}
		out := p.FromUpstream(bytes.Clone(msg))
		if bytes.Equal(out, msg) {
			return
		}
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Meta map[string]any `json:"_meta"`
			} `json:"result"`
		}
		if !json.Valid(out) || bytes.ContainsAny(out, "\n") || json.Unmarshal(out, &resp) != nil ||
			string(resp.ID) != "1" || resp.Result.Meta[binding.MetaFormat] == nil {
			t.Fatalf("changed %q into %q", msg, out)
		}
	})
}
