package binding

import (
	"encoding/json"
	"errors"
	"math"
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

// A count in _meta is an integer from 0 to 2^53 in any of the forms a JSON
// reader hands over; anything else, including a json.Number that is not an
// integer, is no count [MCP-7].
func TestReadCountForms(t *testing.T) {
	cases := []struct {
		v  any
		n  int64
		ok bool
	}{
		{3, 3, true}, {int32(4), 4, true}, {int64(5), 5, true}, {uint32(6), 6, true}, {7.0, 7, true},
		{json.Number("8"), 8, true}, {float64(1 << 53), 1 << 53, true},
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
