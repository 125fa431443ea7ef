package binding

import (
	"bytes"
	"slices"
	"strings"
	"testing"

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
