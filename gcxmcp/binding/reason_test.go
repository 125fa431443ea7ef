package binding

import "testing"

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
