package proxy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// A host's tools/call is read token by token and the tag spliced in: its
// cost grows with the call's bytes and no faster, arguments of n and 8n
// values side by side, and it holds no copy of the arguments decoded.
//
//	go test -run '^$' -bench FromHostCall -benchmem ./gcxmcp/proxy
func BenchmarkFromHostCall(b *testing.B) {
	for _, n := range []int{1 << 12, 1 << 15} {
		b.Run(fmt.Sprintf("values=%d", n), func(b *testing.B) {
			p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
			if err != nil {
				b.Fatal(err)
			}
			// The upstream offers GCX1: each call is asked for it, spliced.
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`))
			p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"` + binding.Extension + `":{"offer":["GCX1"]}}}}}`))
			call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"rows":[` + strings.Repeat(`{"id":1,"name":"a b c"},`, n-1) + `{"id":1,"name":"a b c"}]}}}`)
			cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
			b.SetBytes(int64(len(call)))
			b.ReportAllocs()
			for b.Loop() {
				if out := p.FromHost(call); len(out) <= len(call) {
					b.Fatal("the call was not asked for GCX1")
				}
				p.FromHost(cancel)
			}
		})
	}
}
