package binding

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// Each way an intermediary leaves a result's text alone has its reason,
// and a payload written has none; Answer agrees with Decide.
func TestDecideSaysWhy(t *testing.T) {
	table := `{"rows":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"},{"id":4,"name":"d"}]}`
	text := func(s string) []Block { return []Block{{IsText: true, Text: s}} }
	for _, c := range []struct {
		name    string
		opts    ServerOptions
		meta    map[string]any // the request's _meta
		tool    string
		result  Result
		format  string // "" when the result passes as it is
		written bool
		why     Reason
	}{
		{"written", ServerOptions{Mode: ModeGCX}, nil, "t", Result{Content: text(table)}, "GCX1", true, ""},
		{"mode off", ServerOptions{Mode: ModeOff}, nil, "t", Result{Content: text(table)}, "", false, ReasonModeOff},
		{"tool exempt", ServerOptions{Tools: map[string]ToolOptions{"t": {Mode: ModeOff}}}, nil, "t", Result{Content: text(table)}, "", false, ReasonModeOff},
		{"error result", ServerOptions{Mode: ModeGCX}, nil, "t", Result{Content: text(table), IsError: true}, "", false, ReasonErrorResult},
		{"prose", ServerOptions{Mode: ModeGCX}, nil, "t", Result{Content: text("done.")}, "", false, ReasonNoJSONBlock},
		{"no content", ServerOptions{Mode: ModeGCX}, nil, "t", Result{}, "", false, ReasonNoJSONBlock},
		{"host opted out", ServerOptions{Mode: ModeGCX}, map[string]any{MetaAccept: []any{}}, "t", Result{Content: text(table)}, "", false, ReasonNotAccepted},
		{"upstream answered", ServerOptions{Mode: ModeGCX}, nil, "t", Result{Content: text(table), Meta: map[string]any{MetaFormat: "json"}}, "", false, ReasonUpstreamAnswered},
		{"json cheaper", ServerOptions{Mode: ModeAuto}, nil, "t", Result{Content: text(`{"a":1}`)}, FormatJSON, false, ReasonJSONCheaper},
		{"not mapped", ServerOptions{Mode: ModeGCX}, nil, "bad name", Result{Content: text(table)}, FormatJSON, false, ReasonNotMapped},
		{"compact cheaper", ServerOptions{Mode: ModeAuto}, nil, "t", Result{Content: text("{\n  \"a\": 1\n}")}, FormatJSON, true, ReasonCompactCheaper},
		{"not mapped, compact cheaper", ServerOptions{Mode: ModeAuto}, nil, "bad name", Result{Content: text("{\n  \"a\": 1\n}")}, FormatJSON, true, ReasonCompactCheaper},
		{"not mapped, compact text", ServerOptions{Mode: ModeAuto}, nil, "bad name", Result{Content: text(`{"a":1}`)}, FormatJSON, false, ReasonNotMapped},
		{"error result with pretty JSON", ServerOptions{Mode: ModeAuto}, nil, "t", Result{Content: text("{\n  \"a\": 1\n}"), IsError: true}, "", false, ReasonErrorResult},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewIntermediary(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			call := p.Request(Session{ProtocolVersion: "2025-11-25"}, c.tool, c.meta)
			d := p.Decide(call, &c.result)
			if d.Why != c.why {
				t.Errorf("why = %q, want %q", d.Why, c.why)
			}
			if d.Answer.Format != c.format || d.Answered != (c.format != "") || (d.Answer.Block >= 0 && d.Answered) != c.written {
				t.Errorf("decision %+v, want format %q, written %v", d, c.format, c.written)
			}
			if a, ok := p.Answer(call, &c.result); ok != d.Answered || a != d.Answer {
				t.Errorf("Answer = %+v, %v; Decide = %+v", a, ok, d)
			}
		})
	}
}

// A streamed text (streamAbove or longer) whose compact JSON wins is
// answered with that compact JSON, written by the plan only once chosen,
// marked compact and, against a structuredContent that wraps it, as
// differing [MCP-5] [MCP-6].
func TestDecideCompactOfAStreamedText(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	for i := 0; b.Len() < streamAbove+1024; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  {\n    \"id\": %d,\n    \"name\": \"n%d\"\n  }", i, i)
	}
	b.WriteString("\n]")
	pretty := b.String()
	want, err := jsonmap.Compact([]byte(pretty))
	if err != nil {
		t.Fatal(err)
	}
	wrapped, _ := json.Marshal(map[string]string{"content": pretty})
	s, err := NewServer(ServerOptions{Mode: ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	// "bad name" is no GCX1 tool name [HDR-3]: the payload is out of the
	// choice, which is between the two JSON texts.
	d := s.Decide("bad name", Readable, &Result{Content: []Block{{IsText: true, Text: pretty}}, Structured: json.RawMessage(wrapped)})
	if d.Why != ReasonCompactCheaper || !d.Answer.Compact || !d.Answer.Differs || d.Answer.Block != 0 || d.Answer.Text != string(want) {
		t.Errorf("decision %q, compact %t, differs %t, block %d, text of %d bytes; want compact-cheaper, both marks, block 0, the %d bytes of compact JSON",
			d.Why, d.Answer.Compact, d.Answer.Differs, d.Answer.Block, len(d.Answer.Text), len(want))
	}
}
