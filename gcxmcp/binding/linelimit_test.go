package binding

import (
	"fmt"
	"strings"
	"testing"
)

// The line limit a server encodes under decides whether total= and
// truncated= join the root header [MCP-7]: at the limit they do, one byte
// past it neither does. The vectors hold a small result, mapped from its
// parsed value; this one is above streamAbove, mapped in two reads.
func TestLineLimitCapsHeaderPairs(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; b.Len() <= streamAbove; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"row %d"}`, i, i)
	}
	b.WriteString("]")
	text := b.String()
	firstLine := func(limit int) string {
		t.Helper()
		s, err := NewServer(ServerOptions{Mode: ModeGCX, MaxLineBytes: limit})
		if err != nil {
			t.Fatal(err)
		}
		r := &Result{Content: []Block{{IsText: true, Text: text}}, Meta: map[string]any{MetaTotal: 99.0, MetaTruncated: true}}
		d := s.Decide("t", []string{"GCX1"}, r)
		if d.Why != "" {
			t.Fatalf("limit %d: not answered in GCX1: %s", limit, d.Why)
		}
		header, _, _ := strings.Cut(d.Answer.Text, "\n")
		return header
	}
	with := firstLine(0)
	if !strings.HasSuffix(with, " total=99 truncated=true") {
		t.Fatalf("under the default limit the header is %q", with)
	}
	if got := firstLine(len(with)); got != with {
		t.Errorf("at the limit: %q, want %q", got, with)
	}
	if got, want := firstLine(len(with)-1), strings.TrimSuffix(with, " total=99 truncated=true"); got != want {
		t.Errorf("one byte past the limit: %q, want %q", got, want)
	}
	if _, err := NewServer(ServerOptions{MaxLineBytes: -1}); err == nil {
		t.Error("NewServer accepts a negative line limit")
	}
}
