package proxy_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
)

// The proxy answers a compact result whose text it reads the value of
// from the text's literal where it lies (binding.ReadResponse) exactly as
// it answers the same result out of compact form, which it parses whole
// and whose text it decodes: the same answer, byte for byte, and the same
// stats line, whatever the escapes of the literal and of the text.
func TestPropertyLiteralTextAnswersAsDecoded(t *testing.T) {
	gen.Check(t, 500, func(t *rapid.T) {
		text := jsongen.LiteralText(t)
		lit := jsongen.Literal(t, text)
		members := []string{`"content":[{"type":"text","text":` + lit + `}]`}
		if v, _, err := jsonmap.ParseShared([]byte(text)); err == nil && rapid.Bool().Draw(t, "structured") {
			members = append(members, `"structuredContent":`+string(v.AppendCompact(nil)))
		}
		msg := `{"jsonrpc":"2.0","id":7,"result":{` + strings.Join(members, ",") + `}}`
		// A space compact form has not: the proxy reads the message whole.
		loose := strings.Replace(msg, `"id":7`, `"id": 7`, 1)
		mode := rapid.SampledFrom([]binding.Mode{binding.ModeGCX, binding.ModeAuto}).Draw(t, "mode")
		tool := rapid.SampledFrom([]string{"t", "bad name"}).Draw(t, "tool")
		answer := func(msg string) (out, stats string) {
			var lines bytes.Buffer
			rec, err := proxy.NewRecorder(&lines, nil)
			if err != nil {
				t.Fatal(err)
			}
			p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: mode}, Stats: rec})
			if err != nil {
				t.Fatal(err)
			}
			p.FromHost([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tool + `"}}`))
			out = string(p.FromUpstream([]byte(msg)))
			rec.Close()
			var l proxy.StatsLine
			if err := json.Unmarshal(lines.Bytes(), &l); err != nil {
				t.Fatalf("stats line %q: %v", lines.Bytes(), err)
			}
			l.Time, l.MsAdded = "", nil
			b, _ := json.Marshal(l)
			return out, string(b)
		}
		got, gotStats := answer(msg)
		want, wantStats := answer(loose)
		if want == loose {
			want = msg // untouched, as it came
		}
		if got != want {
			t.Fatalf("answered\n%.400s\nand out of compact form\n%.400s\nmessage %.400s", got, want, msg)
		}
		if gotStats != wantStats {
			t.Fatalf("stats %s, out of compact form %s\nmessage %.400s", gotStats, wantStats, msg)
		}
	})
}
