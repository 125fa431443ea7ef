package binding

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkAnswerCounts is a server's decision per call for a table result
// whose tool said it cut its list, so that the payload's root header
// carries total= and truncated= [MCP-7]: five rows, the common call; 500;
// and 20,000 rows, above streamAbove, which the binding maps in two reads.
func BenchmarkAnswerCounts(b *testing.B) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []int{5, 500, 20000} {
		var text strings.Builder
		text.WriteString("[")
		for i := range rows {
			if i > 0 {
				text.WriteString(",")
			}
			fmt.Fprintf(&text, `{"id":%d,"name":"customer %d","email":"c%d@example.com","city":"Zürich","balance":"%d.50"}`, i, i, i, i*7)
		}
		text.WriteString("]")
		r := &Result{
			Content: []Block{{IsText: true, Text: text.String()}},
			Meta:    map[string]any{MetaTotal: float64(10 * rows), MetaTruncated: true},
		}
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(text.Len()))
			for b.Loop() {
				d := s.Decide("query", []string{"GCX1"}, r)
				if !d.Answered || !strings.Contains(d.Answer.Text[:strings.IndexByte(d.Answer.Text, '\n')], " total=") {
					b.Fatalf("no counts in the answer: %+v", d.Why)
				}
			}
		})
	}
}
