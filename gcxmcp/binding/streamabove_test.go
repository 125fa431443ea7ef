package binding

import (
	"fmt"
	"strings"
	"testing"
)

// A JSON value below streamAbove is parsed; one at or above it is never
// held as a tree [PRX-9]: structuredContent's value is kept as its compact
// text and compared with a text block by compact form, and a text block's
// value is checked token by token, both left for the plan's two reads.
// The answers are the same either way.
func TestLargeValuesAreNotParsed(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() < streamAbove; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": %d}`, i)
	}
	b.WriteString("]")
	large := b.String()
	compactLarge := strings.ReplaceAll(large, " ", "")
	for _, c := range []struct {
		name, raw, same, other string
		parsed                 bool
	}{
		{"small", `{"a": [1, 2]}`, `{"a":[1,2]}`, `{"a":[2,1]}`, true},
		{"large", large, compactLarge, strings.Replace(compactLarge, `"id":0`, `"id":1`, 1), false},
	} {
		same, blk := sameValueAs([]byte(c.raw))
		if same == nil || blk.parsed != c.parsed {
			t.Errorf("%s structuredContent: parsed %v, want %v", c.name, blk.parsed, c.parsed)
			continue
		}
		if !same(c.same) || same(c.other) {
			t.Errorf("%s structuredContent: same as its compact text %v, as another value %v", c.name, same(c.same), same(c.other))
		}
		blk, ok := jsonTextOf(c.raw)
		if !ok || blk.parsed != c.parsed {
			t.Errorf("%s text block: ok %v, parsed %v, want parsed %v", c.name, ok, blk.parsed, c.parsed)
		}
	}
}

// A text block's text of exactly streamAbove bytes, whose literal is too
// long for parseLiteral's window, is not parsed by the reader either: the
// bound is "at or above" in both places; one byte shorter, it is.
func TestReadResponseTextAtStreamAbove(t *testing.T) {
	for _, c := range []struct {
		n      int
		parsed bool
	}{{streamAbove - 1, true}, {streamAbove, false}} {
		text := "[" + strings.Repeat(" ", c.n-3) + "1]"
		msg := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + text + `"}]}}`
		resp, ok := ReadResponse([]byte(msg))
		if !ok {
			t.Fatalf("%d bytes: ReadResponse refuses it", c.n)
		}
		known := resp.Result.known
		if parsed := known != nil && known.parsed; parsed != c.parsed {
			t.Errorf("%d bytes: parsed %v, want %v", c.n, parsed, c.parsed)
		}
	}
}
