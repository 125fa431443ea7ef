package scorecard

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/gcxwire/gcx/bench/realservers"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// realCorpusDir is the committed corpus of real servers' results.
const realCorpusDir = "../realservers/corpus"

// Replayed through gcx proxy, no recorded result of a real server costs
// the model more than the cheaper of the server's text and its compact
// JSON, and the corpus in all costs no more than its compact JSON
// [MCP-6] [PRX-4]. (Before revision 1.5 the proxy weighed GCX1 against the
// text as sent only, and handed the model more than compact JSON on 29
// of the 78 results.)
func TestRealServersNeverCostlierThanCompact(t *testing.T) {
	plan, err := loadRealServers(realCorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var sent, compact, through int
	for _, s := range plan.corpus.Servers {
		var ss, sc, sp int
		for i, c := range s.Calls {
			floor := min(c.Sent, c.Compact)
			if c.Proxy > floor {
				t.Errorf("%s, call %d (%s, %s): %d tokens through the proxy (%s), more than %d (as sent %d, compact JSON %d)",
					s.Server, i+1, c.Tool, c.Kind, c.Proxy, c.ProxyFormat, floor, c.Sent, c.Compact)
			}
			ss, sc, sp = ss+c.Sent, sc+c.Compact, sp+c.Proxy
		}
		t.Logf("%s: as sent %d, compact JSON %d, gcx proxy %d", s.Server, ss, sc, sp)
		sent, compact, through = sent+ss, compact+sc, through+sp
	}
	t.Logf("all: as sent %d, compact JSON %d, gcx proxy %d", sent, compact, through)
	if through > compact {
		t.Errorf("through the proxy the corpus costs %d tokens, more than its compact JSON, %d", through, compact)
	}
}

// An error result of a real server reaches the host byte for byte as the
// server sent it [MCP-5].
func TestRealServersErrorsPassUntouched(t *testing.T) {
	c, err := realservers.Load(realCorpusDir)
	if err != nil {
		t.Fatal(err)
	}
	errors := 0
	for _, s := range c.Servers {
		p, err := proxy.New(proxy.Options{})
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
			if !r.IsError {
				continue
			}
			errors++
			name, _ := json.Marshal(call.Tool)
			id := strconv.Itoa(i + 1)
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + string(call.Arguments) + `}}`))
			msg := []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + string(call.Result) + `}`)
			if out := p.FromUpstream(bytes.Clone(msg)); !bytes.Equal(out, msg) {
				t.Errorf("%s, call %d (%s): the error result changed:\n%s\n%s", s.Server, i+1, call.Tool, msg, out)
			}
		}
	}
	if errors == 0 {
		t.Error("the corpus holds no error result to check")
	}
}
