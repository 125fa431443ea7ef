package binding

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// BenchmarkResponseParts takes an intermediary's answer to a tools/call
// result apart — ReadResponse, the decision in mode gcx, Apply — beside
// the mapping of the result's text, for a table of search hits at 60 rows
// and at 500 (about 8 times as many): a part that grew faster than the
// rows would show as a ratio to the mapping that grows with them.
//
//	go test -run '^$' -bench ResponseParts -benchmem ./gcxmcp/binding
func BenchmarkResponseParts(b *testing.B) {
	for _, name := range []string{"search_symbols-60", "search_symbols-500"} {
		file, err := os.ReadFile("../../bench/wire-format/cases/" + name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		var c struct {
			Tool     string
			Response json.RawMessage
		}
		if err := json.Unmarshal(file, &c); err != nil {
			b.Fatal(err)
		}
		var pretty bytes.Buffer
		json.Indent(&pretty, c.Response, "", "  ")
		var compact bytes.Buffer
		json.Compact(&compact, c.Response)
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
			"content":           []any{map[string]any{"type": "text", "text": pretty.String()}},
			"structuredContent": json.RawMessage(compact.Bytes()),
		}})
		s, err := NewServer(ServerOptions{Mode: ModeGCX})
		if err != nil {
			b.Fatal(err)
		}
		resp, ok := ReadResponse(msg)
		if !ok || resp.Result.known == nil {
			b.Fatal("not read")
		}
		d := s.Decide(c.Tool, []string{"GCX1"}, resp.Result)
		if !d.Answered {
			b.Fatal("not answered")
		}
		b.Run(name+"/read", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ReadResponse(msg)
			}
		})
		b.Run(name+"/decide", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.Decide(c.Tool, []string{"GCX1"}, resp.Result)
			}
		})
		b.Run(name+"/apply", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp.Apply(d.Answer)
			}
		})
		b.Run(name+"/mapping", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				jsonmap.Encode(c.Tool, pretty.Bytes())
			}
		})
	}
}
