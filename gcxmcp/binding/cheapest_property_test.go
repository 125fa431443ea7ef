package binding

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/tokens"
	"pgregory.net/rapid"
)

// Whatever the value, however the tool spelled it and whatever its
// structuredContent, what the model reads through an intermediary in auto
// mode costs no more cl100k_base tokens than the text as sent or its
// compact JSON; the block holds that text's value exactly; the marks say
// what was done; and a client of the binding reads back the value
// [MCP-5] [MCP-6] [MCP-8] [PRX-4].
func TestPropertyNeverCostlierThanCompact(t *testing.T) {
	p, err := NewIntermediary(ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		compact := v.AppendCompact(nil)
		sent := compact
		if rapid.Bool().Draw(t, "pretty") {
			var b bytes.Buffer
			if err := json.Indent(&b, compact, "", "  "); err != nil {
				t.Fatal(err)
			}
			sent = b.Bytes()
		}
		r := &Result{Content: []Block{{IsText: true, Text: string(sent)}}}
		structured := rapid.IntRange(0, 2).Draw(t, "structured")
		switch structured {
		case 1: // the same value
			r.Structured = json.RawMessage(compact)
		case 2: // the text wrapped, as a filesystem server does
			wrapped, _ := json.Marshal(map[string]string{"content": string(sent)})
			r.Structured = json.RawMessage(wrapped)
		}
		call := p.Request(Session{ProtocolVersion: "2025-11-25"}, "result", nil)
		d := p.Decide(call, r)
		if !d.Answered {
			t.Fatalf("a JSON text left unanswered: %q", d.Why)
		}
		read := string(sent)
		if d.Answer.Block >= 0 {
			read = d.Answer.Text
		}
		floor := min(tokens.CL100KCount(string(sent)), tokens.CL100KCount(string(compact)))
		if n := tokens.CL100KCount(read); n > floor {
			t.Fatalf("the model reads %d tokens (%s), more than %d", n, d.Why, floor)
		}
		if d.Answer.Differs != (structured == 2 && d.Answer.Block >= 0) {
			t.Fatalf("differs %t with structuredContent %d", d.Answer.Differs, structured)
		}
		// What a client of the binding reads of the answer.
		answered := *r
		answered.Content = []Block{{IsText: true, Text: read}}
		answered.Meta = map[string]any{}
		d.Answer.EachMeta(func(k string, x any) { answered.Meta[k] = x })
		got, err := ReadResult(&answered)
		if err != nil {
			t.Fatalf("the client refuses the answer (%s): %v", d.Why, err)
		}
		if !bytes.Equal(got.Value, compact) {
			t.Fatalf("the client reads %s, the tool wrote %s", got.Value, compact)
		}
		if d.Answer.Compact {
			if _, err := jsonmap.Parse([]byte(read)); err != nil || read != string(compact) {
				t.Fatalf("marked compact, but the text is %q", read)
			}
		}
	})
}
