package proxy

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/bench/realservers"
	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// What a user trialling gcx proxy --draft GCX2-draft.3 gets on the
// recorded real servers today: each result replayed through the proxy in
// its default auto mode, with and without the flag, counted in the
// cl100k_base tokens of the text blocks the host receives. Every result
// the proxy rewrote must read back, by the codec its _meta names, to the
// value of the text it replaced. docs/mcp.md quotes what
//
//	go test ./gcxmcp/proxy -run TestDraftRealCorpusThroughProxy -v
//
// prints.
func TestDraftRealCorpusThroughProxy(t *testing.T) {
	corpus, err := realservers.Load("../../bench/realservers/corpus")
	if err != nil {
		t.Fatal(err)
	}
	count := func(text string) int {
		n, err := tokens.Count(tokens.CL100K, text)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	configs := []struct {
		name  string
		offer []string
		total int
	}{{"gcx proxy", nil, 0}, {"gcx proxy --draft " + codec.Draft3Tag, []string{codec.Draft3Tag, spec.Version}, 0}}
	sent, calls := 0, 0
	for _, s := range corpus.Servers {
		for k := range configs {
			cf := &configs[k]
			p, err := New(Options{Binding: binding.ServerOptions{Offer: cf.offer}})
			if err != nil {
				t.Fatal(err)
			}
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
			p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`))
			for i, call := range s.Calls {
				if call.Result == nil {
					continue
				}
				r, err := call.ParseResult()
				if err != nil {
					t.Fatal(err)
				}
				if k == 0 {
					calls++
					for _, text := range r.Texts() {
						sent += count(text)
					}
				}
				id := strconv.Itoa(i + 1)
				name, _ := json.Marshal(call.Tool)
				p.FromHost([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + string(call.Arguments) + `}}`))
				out := p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + string(call.Result) + `}`))
				var resp struct {
					Result struct {
						Content []realservers.Block `json:"content"`
						Meta    map[string]any      `json:"_meta"`
					} `json:"result"`
				}
				if err := json.Unmarshal(out, &resp); err != nil {
					t.Fatalf("%s %s: %v", s.Server, call.Tool, err)
				}
				format, _ := resp.Result.Meta[binding.MetaFormat].(string)
				for j, b := range resp.Result.Content {
					if b.Text == nil {
						continue
					}
					cf.total += count(*b.Text)
					if !strings.HasPrefix(*b.Text, "GCX") {
						continue
					}
					c, ok := codec.Lookup(format)
					if !ok {
						t.Fatalf("%s %s: a payload under format %q", s.Server, call.Tool, format)
					}
					back, err := c.Decode([]byte(*b.Text))
					want, perr := jsonmap.Parse([]byte(*r.Content[j].Text))
					if err != nil || perr != nil || !jsonmap.Equal(back, want) {
						t.Errorf("%s %s: the %s payload does not give the server's value back (%v, %v)", s.Server, call.Tool, format, err, perr)
					}
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("| through | cl100k_base tokens | saved against as sent |\n| --- | ---: | ---: |\n")
	b.WriteString("| as sent | " + strconv.Itoa(sent) + " | |\n")
	for _, cf := range configs {
		b.WriteString("| " + cf.name + " | " + strconv.Itoa(cf.total) + " | " + strconv.FormatFloat(100*float64(sent-cf.total)/float64(sent), 'f', 1, 64) + "% |\n")
	}
	t.Logf("the %d recorded results with a result of the real servers, replayed in auto mode:\n%s", calls, b.String())
	if configs[1].total > configs[0].total {
		t.Errorf("with --draft the model reads %d tokens, more than the %d without", configs[1].total, configs[0].total)
	}
}
