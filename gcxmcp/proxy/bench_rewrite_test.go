package proxy_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
)

// BenchmarkRewrite is the proxy's answer to a tools/call result in mode
// gcx, a table of search hits pretty-printed in the text block and
// compact as structuredContent, at 5 rows, 60 and 500 (about 8 times as
// many), beside what it cannot avoid: the mapping of the text. The two
// sub-benchmarks of a size run one after the other, so their ns/op
// compare as a ratio; a rewrite that grew faster than its rows would
// show as a ratio that grows with them.
//
//	go test -run '^$' -bench Rewrite -benchmem ./gcxmcp/proxy
func BenchmarkRewrite(b *testing.B) {
	for _, name := range []string{"search_symbols-5", "search_symbols-60", "search_symbols-500"} {
		file, err := os.ReadFile("../../bench/wire-format/cases/" + name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		c, err := scorecard.ParseCase(name, file)
		if err != nil {
			b.Fatal(err)
		}
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
			"content":           []any{map[string]any{"type": "text", "text": string(c.Pretty)}},
			"structuredContent": json.RawMessage(c.Response),
		}})
		b.Run(name+"/proxy", func(b *testing.B) {
			p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
			if err != nil {
				b.Fatal(err)
			}
			call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.Tool + `","arguments":{}}}`)
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				p.FromHost(call)
				if out := p.FromUpstream(msg); !bytes.Contains(out, []byte("GCX1 ")) {
					b.Fatal("not answered in GCX1")
				}
			}
		})
		b.Run(name+"/mapping", func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonmap.Encode(c.Tool, c.Pretty); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
