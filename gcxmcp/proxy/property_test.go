package proxy_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// genMessage draws one line that the proxy must pass untouched in either
// direction: JSON-RPC requests, notifications and responses of any method
// (tools/call requests included, for a server that offers nothing), with
// ids that no call in flight has, spelled with odd whitespace and escapes;
// batches; and lines that are not JSON.
func genMessage(t *rapid.T) string {
	id := rapid.SampledFrom([]string{`"r-1"`, `17`, `-3`, `1.5`, `"\u0041"`, `null`, `"x y"`}).Draw(t, "id")
	method := rapid.SampledFrom([]string{
		"tools/call", "tools/list", "ping", "sampling/createMessage", "elicitation/create", "roots/list",
		"resources/read", "resources/subscribe", "prompts/get", "notifications/progress",
		"notifications/cancelled", "notifications/message", "completion/complete", "logging/setLevel", `tools\/call`,
	}).Draw(t, "method")
	str := rapid.StringMatching(`[a-zA-Z0-9 éß😀\\"\t]{0,20}`).Draw(t, "text")
	quoted := fmt.Sprintf("%q", str)
	space := rapid.SampledFrom([]string{"", " ", "\t", "  "}).Draw(t, "space")
	switch rapid.IntRange(0, 7).Draw(t, "shape") {
	case 0:
		return fmt.Sprintf(`{"jsonrpc":"2.0",%s"id":%s,"method":"%s","params":{"name":%s,"arguments":{"q":%s}}}`, space, id, method, quoted, quoted)
	case 1:
		return fmt.Sprintf(`{%s"method":"%s","jsonrpc":"2.0","params":{"progressToken":%s,"progress":%d}}`, space, method, id, rapid.Int().Draw(t, "n"))
	case 2:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}],"structuredContent":{"a":[1,2]}}%s}`, id, quoted, space)
	case 3:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, rapid.IntRange(-32768, 0).Draw(t, "code"), quoted)
	case 4:
		return fmt.Sprintf(`[{"jsonrpc":"2.0","id":%s,"method":"%s"},%s{"jsonrpc":"2.0","method":"x"}]`, id, method, space)
	case 5:
		return rapid.StringMatching(`[^\n]{0,60}`).Draw(t, "garbage")
	case 6:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]},"id":%s}`, id, id)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}`, id)
}

// Every message other than the result of a tools/call in flight comes out
// of the proxy identical to what went in, in order, in both directions,
// while a call is in flight and the initialize exchange is under way, so
// that the proxy parses them all.
func TestPropertyTransparentMessages(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		var in bytes.Buffer
		for _, m := range rapid.SliceOfN(rapid.Custom(genMessage), 1, 30).Draw(t, "messages") {
			in.WriteString(m)
			in.WriteString(rapid.SampledFrom([]string{"\n", "\r\n"}).Draw(t, "eol"))
		}
		if rapid.Bool().Draw(t, "unterminated") {
			in.WriteString(genMessage(t))
		}
		for _, d := range []proxy.Direction{proxy.HostToUpstream, proxy.UpstreamToHost} {
			// A proxy of its own for each direction, with a call in
			// flight whose id the drawn messages never use.
			p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
			if err != nil {
				t.Fatal(err)
			}
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":"in-flight","method":"tools/call","params":{"name":"t"}}`))
			var out bytes.Buffer
			if err := p.Pump(d, &out, bytes.NewReader(in.Bytes()), "in", "out"); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), in.Bytes()) {
				t.Fatalf("direction %d changed the messages:\n in %q\nout %q", d, in.Bytes(), out.Bytes())
			}
		}
	})
}

// The result of a call in flight is the one message the proxy answers,
// and only once.
func TestAnswersOnlyTheCallInFlight(t *testing.T) {
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	result := `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`
	for _, tc := range []struct {
		request, id string
		answered    bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`, `1`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`, `"2"`, false}, // another id
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, `3`, false},
		{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}`, `null`, false}, // a notification
	} {
		p.FromHost([]byte(tc.request))
		msg := fmt.Sprintf(result, tc.id)
		out := string(p.FromUpstream([]byte(msg)))
		if answered := strings.Contains(out, "GCX1 tool=t"); answered != tc.answered {
			t.Errorf("%s then %s: answered %v\n%s", tc.request, msg, answered, out)
		}
		if again := string(p.FromUpstream([]byte(msg))); again != msg {
			t.Errorf("a second result for id %s was changed: %s", tc.id, again)
		}
	}
}
