package proxy_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// The proxy's own work per message, in process, without pipes or
// processes: what it adds to a message that passes and to a tools/call
// result it answers. docs/performance.md, "gcx proxy", gives the figures.
//
//	go test -run '^$' -bench . -benchmem ./gcxmcp/proxy

func BenchmarkPassMessage(b *testing.B) {
	p, err := proxy.New(proxy.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// A call in flight, so that every message from the server is parsed
	// to see whether it answers it.
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":"pending","method":"tools/call","params":{"name":"t"}}`))
	request := []byte(`{"jsonrpc":"2.0","id":12,"method":"ping"}`)
	response := []byte(`{"jsonrpc":"2.0","id":12,"result":{}}`)
	b.ReportAllocs()
	for b.Loop() {
		p.FromHost(request)
		p.FromUpstream(response)
	}
}

// memoryGraph is read_graph's result for n people as server-memory
// writes it: the graph pretty-printed in the text block and as
// structuredContent.
func memoryGraph(n int) []byte {
	type entity struct {
		Type         string   `json:"type"`
		Name         string   `json:"name"`
		EntityType   string   `json:"entityType"`
		Observations []string `json:"observations"`
	}
	type relation struct {
		Type         string `json:"type"`
		From         string `json:"from"`
		To           string `json:"to"`
		RelationType string `json:"relationType"`
	}
	var graph struct {
		Entities  []entity   `json:"entities"`
		Relations []relation `json:"relations"`
	}
	for i := range n {
		graph.Entities = append(graph.Entities, entity{"entity", fmt.Sprintf("Person %d", i), "engineer", []string{fmt.Sprintf("joined in %d", 2010+i%12), "works on project A"}})
		graph.Relations = append(graph.Relations, relation{"relation", fmt.Sprintf("Person %d", i), fmt.Sprintf("Person %d", (i+1)%n), "reports to"})
	}
	pretty, _ := json.MarshalIndent(graph, "", "  ")
	compact, _ := json.Marshal(graph)
	result, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": string(pretty)}},
		"structuredContent": json.RawMessage(compact),
	}})
	return result
}

func BenchmarkAnswerToolsCall(b *testing.B) {
	for _, n := range []int{3, 30, 300} {
		for _, mode := range []binding.Mode{binding.ModeAuto, binding.ModeGCX} {
			b.Run(fmt.Sprintf("read_graph-%d/%s", n, mode), func(b *testing.B) {
				p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: mode}})
				if err != nil {
					b.Fatal(err)
				}
				call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}`)
				result := memoryGraph(n)
				b.SetBytes(int64(len(result)))
				b.ReportAllocs()
				for b.Loop() {
					p.FromHost(call)
					if out := p.FromUpstream(result); len(out) == len(result) {
						b.Fatal("not answered")
					}
				}
			})
		}
	}
}
