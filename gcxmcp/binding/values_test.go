package binding

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// structuredContent the client cannot read as JSON is an invalid result,
// never a mismatch or a match: whichever form the SDK hands it over in.
func TestSameValueRefusesUnreadableStructuredContent(t *testing.T) {
	v, err := jsonmap.Parse([]byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, structured := range []any{
		json.RawMessage(`{"a":`),         // cut short
		json.RawMessage(`{"a":1,"a":1}`), // outside the mapping [MAP-1]
		func() {},                        // no JSON at all
		math.Inf(1),                      // a number JSON cannot hold
	} {
		same, err := sameValue(v, structured)
		if !errors.Is(err, ErrInvalidResult) || same {
			t.Errorf("sameValue(%T) = %v, %v; want ErrInvalidResult", structured, same, err)
		}
	}
	for _, c := range []struct {
		structured any
		want       bool
	}{
		{json.RawMessage(`{"a":1}`), true},
		{map[string]any{"a": 1.0}, true},
		{struct{ A int }{1}, false}, // encoding/json names the member "A"
	} {
		if same, err := sameValue(v, c.structured); err != nil || same != c.want {
			t.Errorf("sameValue(%#v) = %v, %v; want %v, nil", c.structured, same, err, c.want)
		}
	}
}

// A count in _meta is a number whose value is an integer from 0 to 2^53,
// however it is spelled, in any of the forms a JSON reader hands over;
// anything else, including a json.Number that is not an integer, is no
// count [MCP-1] [MCP-7].
func TestReadCountForms(t *testing.T) {
	cases := []struct {
		v  any
		n  int64
		ok bool
	}{
		{3, 3, true}, {int32(4), 4, true}, {int64(5), 5, true}, {uint32(6), 6, true}, {7.0, 7, true},
		{json.Number("8"), 8, true}, {float64(1 << 53), 1 << 53, true},
		{json.Number("41.0"), 41, true}, {json.Number("4.1e1"), 41, true}, {json.Number("9007199254740993.0"), 0, false},
		{json.Number("1.5"), 0, false}, {json.Number("x"), 0, false}, {json.Number("-1"), 0, false},
		{json.Number("9007199254740993"), 0, false}, {1.5, 0, false}, {-1.0, 0, false},
		{float64(1<<53) * 2, 0, false}, {-2, 0, false}, {"3", 0, false}, {nil, 0, false},
	}
	for _, c := range cases {
		n, ok := readCount(c.v)
		if ok != c.ok || ok && n != c.n {
			t.Errorf("readCount(%#v) = %d, %v; want %d, %v", c.v, n, ok, c.n, c.ok)
		}
	}
}

// A _meta value of the wrong type is named in the error by its JSON text,
// cut to a prefix when long, or by its Go type when it has no JSON.
func TestReadTruncationNamesTheValue(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		meta map[string]any
		want string
	}{
		{map[string]any{MetaTotal: "3"}, `_meta "` + MetaTotal + `" is "3", not an integer`},
		{map[string]any{MetaTotal: long}, `is "` + long[:63] + `... (102 bytes)`},
		{map[string]any{MetaTruncated: func() {}}, `is a func(), not a boolean`},
	}
	for _, c := range cases {
		_, err := readTruncation(c.meta)
		if !errors.Is(err, ErrInvalidResult) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("readTruncation(%v) = %v; want ErrInvalidResult with %q", c.meta, err, c.want)
		}
	}
}

// A server refuses a tool's mode it does not know, as it refuses the
// default mode, and a tool name GCX1 cannot carry [HDR-3].
func TestNewServerRefusesToolOptions(t *testing.T) {
	for _, tools := range []map[string]ToolOptions{
		{"search": {Mode: "sometimes"}},
		{"search": {Name: "has space"}},
	} {
		if _, err := NewServer(ServerOptions{Tools: tools}); err == nil || !strings.Contains(err.Error(), `tool "search"`) {
			t.Errorf("NewServer(%v) = %v; want an error naming the tool", tools, err)
		}
	}
	if _, err := NewServer(ServerOptions{Mode: "sometimes"}); err == nil || !strings.Contains(err.Error(), `unknown mode "sometimes"`) {
		t.Errorf("NewServer with the default mode \"sometimes\" = %v; want an unknown mode", err)
	}
	if _, err := NewServer(ServerOptions{Tools: map[string]ToolOptions{"search": {Mode: ModeAuto, Name: "search_symbols"}}}); err != nil {
		t.Errorf("valid tool options: %v", err)
	}
}

// mayBeJSON lets through every JSON text, whatever its first value's kind
// and leading whitespace, and stops prose [AUTO-3].
func TestMayBeJSON(t *testing.T) {
	for _, s := range []string{`{}`, `[1]`, `"s"`, `-1`, `0`, `9`, `true`, `false`, `null`, " \t\r\n{}"} {
		if !mayBeJSON(s) {
			t.Errorf("mayBeJSON(%q) = false", s)
		}
	}
	for _, s := range []string{``, " \n", `Found 3 results`, `GCX1 tool=t`, `/`, `:`, `'a'`, "\u00a0{}"} {
		if mayBeJSON(s) {
			t.Errorf("mayBeJSON(%q) = true", s)
		}
	}
}

// The total a result reports [MCP-7]: the payload's root header and _meta
// must agree when both say it, zero included; either alone says it; with
// neither it is -1.
func TestReadResultTotal(t *testing.T) {
	payload := func(pairs string) string { return "GCX1 tool=t fields=a rows=1" + pairs + "\n1\n" }
	for _, c := range []struct {
		name     string
		text     string
		meta     map[string]any
		total    int64
		mismatch bool
	}{
		{"header 0, _meta 3", payload(" total=0"), map[string]any{MetaTotal: float64(3)}, 0, true},
		{"header 3, _meta 0", payload(" total=3"), map[string]any{MetaTotal: float64(0)}, 0, true},
		{"header 0 alone", payload(" total=0"), nil, 0, false},
		{"header 0, _meta 0", payload(" total=0"), map[string]any{MetaTotal: float64(0)}, 0, false},
		{"_meta 0 alone", payload(""), map[string]any{MetaTotal: float64(0)}, 0, false},
		{"_meta 5 alone", payload(""), map[string]any{MetaTotal: float64(5)}, 5, false},
		{"neither", payload(""), nil, -1, false},
	} {
		meta := map[string]any{MetaFormat: "GCX1"}
		for k, v := range c.meta {
			meta[k] = v
		}
		r, err := ReadResult(&Result{Content: []Block{{IsText: true, Text: c.text}}, Meta: meta})
		switch {
		case c.mismatch:
			if !errors.Is(err, ErrMismatch) {
				t.Errorf("%s: %+v, %v; want ErrMismatch", c.name, r, err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case r.Total != c.total:
			t.Errorf("%s: total %d, want %d", c.name, r.Total, c.total)
		}
	}
}

// sameAsDecoded compares a value with what encoding/json decodes into an
// any, kind by kind: each kind equal, unequal in its content, and against
// another kind; an array or object of another length; nested values.
func TestSameAsDecodedEveryKind(t *testing.T) {
	for _, c := range []struct {
		value   string
		decoded any
		want    bool
	}{
		{`null`, nil, true},
		{`null`, false, false},
		{`true`, true, true},
		{`true`, false, false},
		{`false`, false, true},
		{`false`, nil, false},
		{`"s"`, "s", true},
		{`"s"`, "S", false},
		{`"1"`, 1.0, false},
		{`1.5`, 1.5, true},
		{`15e-1`, 1.5, true},
		{`1.5`, 2.5, false},
		{`1`, "1", false},
		{`[]`, []any{}, true},
		{`[1,"a"]`, []any{1.0, "a"}, true},
		{`[1,"a"]`, []any{1.0, "b"}, false},
		{`[1,"a"]`, []any{1.0}, false},
		{`[1]`, []any{1.0, "a"}, false},
		{`[1]`, map[string]any{"0": 1.0}, false},
		{`{}`, map[string]any{}, true},
		{`{"a":[1,{"b":null}]}`, map[string]any{"a": []any{1.0, map[string]any{"b": nil}}}, true},
		{`{"a":[1,{"b":null}]}`, map[string]any{"a": []any{1.0, map[string]any{"b": false}}}, false},
		{`{"a":1}`, map[string]any{"A": 1.0}, false},
		{`{"a":1}`, map[string]any{"a": 1.0, "b": 2.0}, false},
		{`{"a":1,"b":2}`, map[string]any{"a": 1.0}, false},
		{`{"a":1}`, []any{1.0}, false},
	} {
		v, err := jsonmap.Parse([]byte(c.value))
		if err != nil {
			t.Fatal(err)
		}
		if got := sameAsDecoded(v, c.decoded); got != c.want {
			t.Errorf("sameAsDecoded(%s, %#v) = %v, want %v", c.value, c.decoded, got, c.want)
		}
	}
}

// A structuredContent that is no JSON is an invalid result, not a value
// that differs from the payload's [MCP-8].
func TestReadResultInvalidStructured(t *testing.T) {
	res := &Result{
		Content:    []Block{{IsText: true, Text: "GCX1 tool=t fields=a rows=1\n1\n"}},
		Structured: json.RawMessage(`[{"a":`),
		Meta:       map[string]any{MetaFormat: "GCX1"},
	}
	r, err := ReadResult(res)
	if !errors.Is(err, ErrInvalidResult) || errors.Is(err, ErrMismatch) {
		t.Fatalf("%+v, %v; want ErrInvalidResult", r, err)
	}
}
