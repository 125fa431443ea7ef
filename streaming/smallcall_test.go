package streaming

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// fiveRows is a small tool result, the common MCP case: every client call
// decodes a fresh payload of a few rows, so what a decoder costs before its
// first row matters as much as what a row costs. The benchmark is written
// against the API every version of the decoder has, so that it can be run
// side by side against an older commit.
func fiveRows() []byte {
	var b strings.Builder
	b.WriteString("GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=5 total=5 truncated=false\n")
	kinds := []string{"function", "method", "type", "const", "var"}
	for i := range 5 {
		path := fmt.Sprintf("internal/mcp/file_%d.go", i)
		name := fmt.Sprintf("HandleRequest%d", i)
		fmt.Fprintf(&b, "%s::%s\t%s\t%s\t%s\t%d\tfunc %s(ctx context.Context, req *Request%d) (*Response, error)\n",
			path, name, kinds[i], name, path, 1+i*7, name, i)
	}
	return []byte(b.String())
}

// BenchmarkSmallCall decodes a five-row payload per iteration with a new
// Decoder each time, as an MCP client does per call: fresh rows (the
// caller's to keep) and with ReuseRecord.
func BenchmarkSmallCall(b *testing.B) {
	payload := fiveRows()
	for _, reuse := range []bool{false, true} {
		name := "fresh"
		if reuse {
			name = "reuse"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				d := NewDecoder(bytes.NewReader(payload))
				d.ReuseRecord = reuse
				rows := 0
				for {
					kind, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					if kind == KindRow {
						rows++
					}
				}
				if rows != 5 {
					b.Fatalf("%d rows", rows)
				}
			}
		})
	}
}
