package binding

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The pairs [MCP-7] appends never make the root header longer than the line
// limit the payload was written under, so that a client reading under that
// limit still reads it [LIM-4].
func TestWithCountsKeepsTheLineLimit(t *testing.T) {
	cut := truncation{total: 1234, truncated: true, hasTruncated: true}
	header := func(n int) []byte {
		prefix := "GCX1 tool=t fields=a k="
		return []byte(prefix + strings.Repeat("v", n-len(prefix)) + "\nx\n")
	}
	limit := spec.DefaultLimits.MaxLineBytes
	for _, c := range []struct {
		name   string
		line   int
		append bool
	}{
		{"short header", 40, true},
		{"room left for the pairs", limit - len(" total=1234 truncated=true"), true},
		{"one byte short of room", limit - len(" total=1234 truncated=true") + 1, false},
		{"header at the limit", limit, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			payload := header(c.line)
			got := withCounts(payload, cut)
			first := got[:bytes.IndexByte(got, '\n')]
			if len(first) > limit {
				t.Fatalf("root header of %d bytes, over the limit of %d", len(first), limit)
			}
			appended := bytes.HasSuffix(first, []byte(" total=1234 truncated=true"))
			if appended != c.append {
				t.Fatalf("pairs appended: %v, want %v", appended, c.append)
			}
			if !appended && !bytes.Equal(got, payload) {
				t.Fatal("payload changed without the pairs")
			}
		})
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
