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
