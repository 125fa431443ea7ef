package auto

import (
	"bytes"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// ChooseCheapest hands back the form of fewest tokens, ties going to the
// earlier of sent, compact and payload [MCP-6]; the winner's count is
// exact.
func TestChooseCheapest(t *testing.T) {
	pretty := "{\n  \"id\": 7,\n  \"status\": \"ok\"\n}"
	compact := `{"id":7,"status":"ok"}`
	rows := "[\n  {\"id\": 1, \"name\": \"a\"},\n  {\"id\": 2, \"name\": \"b\"},\n  {\"id\": 3, \"name\": \"c\"},\n  {\"id\": 4, \"name\": \"d\"}\n]"
	rowsCompact, _ := jsonmap.Compact([]byte(rows))
	rowsPayload, _ := jsonmap.Encode("t", []byte(rows))
	for _, c := range []struct {
		name                   string
		sent, compact, payload string
		want                   Form
	}{
		{"pretty: compact cheapest", pretty, compact, "GCX1 tool=t fields= json=object id=7 status=ok\n", FormCompact},
		{"compact already, payload dearer", compact, "", "GCX1 tool=t fields= json=object id=7 status=ok\n", FormSent},
		{"a tie goes to the text as sent", compact, "", compact, FormSent},
		{"a tie of compact and payload goes to compact", pretty, compact, compact, FormCompact},
		{"no payload", pretty, compact, "", FormCompact},
		{"a table: the payload", rows, string(rowsCompact), string(rowsPayload), FormGCX},
	} {
		var cb, pb []byte
		if c.compact != "" {
			cb = []byte(c.compact)
		}
		if c.payload != "" {
			pb = []byte(c.payload)
		}
		got, err := ChooseCheapest([]byte(c.sent), cb, pb)
		if err != nil {
			t.Fatal(err)
		}
		if got.Form != c.want {
			t.Errorf("%s: %v (sent %d, compact %d, payload %d), want %v", c.name, got.Form, got.SentTokens, got.CompactTokens, got.GCXTokens, c.want)
			continue
		}
		texts := map[Form]string{FormSent: c.sent, FormCompact: c.compact, FormGCX: c.payload}
		if string(got.Output) != texts[c.want] {
			t.Errorf("%s: output %q, want %q", c.name, got.Output, texts[c.want])
		}
		win := tokens.CL100KCount(texts[c.want])
		for f, text := range texts {
			if text != "" && tokens.CL100KCount(text) < win {
				t.Errorf("%s: chose %v at %d tokens, but %v costs %d", c.name, c.want, win, f, tokens.CL100KCount(text))
			}
		}
	}
}

// ChooseCheapestPlan, which counts a planned value's compact text as the
// plan writes it, chooses as ChooseCheapest does given that text, with
// the same winning count; its Output is nil for the compact form, which
// the caller writes with the plan.
func TestChooseCheapestPlanIsChooseCheapest(t *testing.T) {
	rows := "[\n  {\"id\": 1, \"name\": \"a\"},\n  {\"id\": 2, \"name\": \"b\"},\n  {\"id\": 3, \"name\": \"c\"},\n  {\"id\": 4, \"name\": \"d\"}\n]"
	for _, sent := range []string{"{\n  \"id\": 7,\n  \"status\": \"ok\"\n}", `{"id":7,"status":"ok"}`, rows, `[1,2,3]`} {
		compact, err := jsonmap.Compact([]byte(sent))
		if err != nil {
			t.Fatal(err)
		}
		payload, _ := jsonmap.Encode("t", []byte(sent))
		var cb []byte
		if !bytes.Equal(compact, []byte(sent)) {
			cb = compact
		}
		want, err := ChooseCheapest([]byte(sent), cb, payload)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := jsonmap.PlanFile("t", bytes.NewReader([]byte(sent)), int64(len(sent)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ChooseCheapestPlan([]byte(sent), plan, payload)
		if err != nil {
			t.Fatal(err)
		}
		winner := func(c Cheapest) int {
			return map[Form]int{FormSent: c.SentTokens, FormCompact: c.CompactTokens, FormGCX: c.GCXTokens}[c.Form]
		}
		if got.Form != want.Form || winner(got) != winner(want) {
			t.Errorf("%q: plan chose %v at %d tokens, ChooseCheapest %v at %d", sent, got.Form, winner(got), want.Form, winner(want))
		}
		if wantOut := want.Output; got.Form == FormCompact && got.Output != nil || got.Form != FormCompact && !bytes.Equal(got.Output, wantOut) {
			t.Errorf("%q: plan's output %q, want %q (nil for the compact form)", sent, got.Output, wantOut)
		}
	}
}
