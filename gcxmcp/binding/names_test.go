package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// The pairs [MCP-7] stand at the end of a table root's header, written
// with it, whichever way the block is encoded (a parse tree below
// streamAbove, two reads above); where they may stand, and the line limit
// they keep, are jsonmap's TestRootPairs.
func TestCountsInTheRootHeader(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		meta map[string]any
		text string
		want string
	}{
		{"both", map[string]any{MetaTotal: float64(1234), MetaTruncated: true}, `[{"a":1},{"a":2}]`, "GCX1 tool=t fields=a rows=2 total=1234 truncated=true"},
		{"total alone", map[string]any{MetaTotal: float64(7)}, `[{"a":1}]`, "GCX1 tool=t fields=a rows=1 total=7"},
		{"a total of none", map[string]any{MetaTotal: float64(0)}, `[]`, "GCX1 tool=t fields= rows=0 total=0"},
		{"truncated alone", map[string]any{MetaTruncated: false}, `[{"a":1}]`, "GCX1 tool=t fields=a rows=1 truncated=false"},
		{"a root object: the pairs are members", map[string]any{MetaTotal: float64(7)}, `{"a":1}`, "GCX1 tool=t fields= json=object a=1"},
		{"a root list", map[string]any{MetaTotal: float64(7)}, `[1,2]`, "GCX1 tool=t fields= json=array rows=2"},
	} {
		for _, streamed := range []bool{false, true} {
			text := c.text
			if streamed {
				text += strings.Repeat(" ", streamAbove)
			}
			d := s.Decide("t", []string{"GCX1"}, &Result{Content: []Block{{IsText: true, Text: text}}, Meta: c.meta})
			if !d.Answered || d.Answer.Block != 0 {
				t.Fatalf("%s: not answered: %s", c.name, d.Why)
			}
			if first, _, _ := strings.Cut(d.Answer.Text, "\n"); first != c.want {
				t.Errorf("%s, streamed %t: root header %q, want %q", c.name, streamed, first, c.want)
			}
		}
	}
}

// A server offers only the tags it writes: nothing when every tool is in
// mode off [MCP-2].
func TestOffers(t *testing.T) {
	for _, c := range []struct {
		name string
		opts ServerOptions
		want []string
	}{
		{"default", ServerOptions{}, []string{"GCX1"}},
		{"gcx", ServerOptions{Mode: ModeGCX}, []string{"GCX1"}},
		{"off", ServerOptions{Mode: ModeOff}, nil},
		{"off with an off tool", ServerOptions{Mode: ModeOff, Tools: map[string]ToolOptions{"t": {Mode: ModeOff}}}, nil},
		{"off with a named tool", ServerOptions{Mode: ModeOff, Tools: map[string]ToolOptions{"t": {Name: "search_symbols"}}}, nil},
		{"off but one tool in auto", ServerOptions{Mode: ModeOff, Tools: map[string]ToolOptions{"t": {Mode: ModeAuto}}}, []string{"GCX1"}},
	} {
		s, err := NewServer(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Offers(); !slices.Equal(got, c.want) {
			t.Errorf("%s: offers %q, want %q", c.name, got, c.want)
		}
	}
}

// A structuredContent of null counts as none [MCP-5]: the result's only
// text block is then its JSON block, as it is for a client whose MCP
// library decodes null into no value at all.
func TestNullStructuredContentIsNone(t *testing.T) {
	result, err := jsonmap.Parse([]byte(`{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}],"structuredContent":null}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, decoded := range []bool{false, true} {
		r, err := ResultFromJSON(result, decoded)
		if err != nil {
			t.Fatal(err)
		}
		if r.Structured != nil {
			t.Errorf("decoded %t: structuredContent null read as %#v", decoded, r.Structured)
		}
		s, err := NewServer(ServerOptions{Mode: ModeGCX})
		if err != nil {
			t.Fatal(err)
		}
		a, ok := s.Answer("t", []string{"GCX1"}, r)
		if !ok || a.Block != 0 || a.Text != "GCX1 tool=t fields=a rows=2\n1\n2\n" {
			t.Errorf("decoded %t: answer %+v, %t", decoded, a, ok)
		}
	}
}

// Auto mode weighs a streamed value (streamAbove or more) against its
// compact JSON counted as the plan writes it, and decides as weighing the
// written text would [AUTO-1] [MCP-6].
func TestAutoWeighsAStreamedValueAsItsText(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	// A table, where GCX1 wins, and an array of short arrays, where JSON
	// does, each just over streamAbove.
	array := func(element string) string {
		var b strings.Builder
		for i := 0; b.Len() < streamAbove; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, element, i, i*7)
		}
		return "[" + b.String() + "]"
	}
	for _, text := range []string{array(`{"id":%d,"name":"customer %d","city":"Zürich"}`), array(`[%d,"%d"]`)} {
		payload, err := jsonmap.Encode("t", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonmap.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		want, err := auto.ChoosePayload(payload, v)
		if err != nil {
			t.Fatal(err)
		}
		d := s.Decide("t", []string{"GCX1"}, &Result{Content: []Block{{IsText: true, Text: text}}})
		if got := d.Why == ""; got != (want.Format == jsonmap.FormatGCX) {
			t.Errorf("%.20s...: decided %q, weighing the written text chose %s", text, d.Why, want.Format)
		}
		t.Logf("%.20s...: %s", text, want.Format)
	}
}

// TestJSONBlockSameValue: with structuredContent, the JSON block is the
// first text block that holds the same value, however spaced [MCP-5]
// [MAP-2], and not one holding more than a JSON text; below streamAbove
// the values are parsed and compared, above it their compact forms. When
// no block holds that value, it is the first text block holding a JSON
// text, marked as differing; a block beginning with "GCX" before it
// leaves none.
func TestJSONBlockSameValue(t *testing.T) {
	small := `[{"a":1,"b":"x"}]`
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() < streamAbove; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d"}`, i, i)
	}
	b.WriteString("]")
	large := b.String()
	spaced := func(s string) string { return strings.ReplaceAll(s, ",", ", ") }
	other := `[{"a":2,"b":"x"}]`
	for _, c := range []struct {
		name    string
		value   string
		texts   []string
		at      int // -1: no JSON block
		differs bool
	}{
		{"small, as written", small, []string{"note", small}, 1, false},
		{"small, spaced", small, []string{"note", spaced(small)}, 1, false},
		{"small, other value", small, []string{other}, 0, true},
		{"small, two other values", small, []string{other, `{"c":2}`}, 0, true},
		{"small, two other values after a note", small, []string{"note", other, `{"c":2}`}, 1, true},
		{"small, other value before the same", small, []string{other, "note", small}, 2, false},
		{"small, garbage after", small, []string{small + " x"}, -1, false},
		{"small, GCX before", small, []string{"GCX1 x", other}, -1, false},
		{"small, GCX before the same value", small, []string{other, "GCX1 x", small}, -1, false},
		{"small, GCX after the first JSON text", small, []string{other, "GCX1 x"}, 0, true},
		{"none, GCX after the first JSON text", "", []string{other, "GCX1 x"}, 0, false},
		{"large, as written", large, []string{"note", large}, 1, false},
		{"large, spaced", large, []string{"note", spaced(large)}, 1, false},
		{"large, other value", large, []string{strings.Replace(large, `"n0"`, `"n9"`, 1)}, 0, true},
		{"large, garbage after", large, []string{large + " x"}, -1, false},
		{"none, first JSON text", "", []string{"note", other, small}, 1, false},
		{"null, first JSON text", "null", []string{other}, 0, false},
	} {
		r := &Result{}
		if c.value != "" {
			r.Structured = json.RawMessage(c.value)
		}
		for _, text := range c.texts {
			r.Content = append(r.Content, Block{IsText: true, Text: text})
		}
		blk, ok := jsonBlock(r)
		if at := map[bool]int{true: blk.at, false: -1}[ok]; at != c.at || ok && blk.differs != c.differs {
			t.Errorf("%s: JSON block %d (differs %t), want %d (%t)", c.name, at, blk.differs, c.at, c.differs)
		}
	}
}

// TestHeaderCountsRefusesBadHeader: HeaderCounts reports a first line that
// is no GCX1 header as an error, not as a header that says nothing, and
// tells a payload cut short from a header at fault.
func TestHeaderCountsRefusesBadHeader(t *testing.T) {
	for _, payload := range []string{"", "GCX1 tool=t\n", "GCX1 tool=a b fields=a\n", "GCX1 tool=t fields=a,a rows=0 total=3\n"} {
		if total, truncated, has, err := HeaderCounts([]byte(payload)); err == nil {
			t.Errorf("HeaderCounts(%q) = %d, %t, %t, no error", payload, total, truncated, has)
		}
	}
	// A payload at fault is refused for its own fault, with its rule, not
	// as a payload cut short or a clean end.
	for payload, rule := range map[string]string{"": "[PAY-1]", "GCX1 tool=a b fields=a\n": "[HDR-"} {
		if _, _, _, err := HeaderCounts([]byte(payload)); err == nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || !strings.Contains(err.Error(), rule) {
			t.Errorf("HeaderCounts(%q): %v, want its own fault %s", payload, err, rule)
		}
	}
	if total, _, _, err := HeaderCounts([]byte("GCX1 tool=t fields=a rows=0 total=3\n")); err != nil || total != 3 {
		t.Errorf("HeaderCounts of a valid header: total %d, %v; want 3", total, err)
	}
}
