package jsonmap_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// symbolRows returns a search_symbols result of n rows, as JSON.
func symbolRows(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"internal/pkg%d/file.go::Func%d","kind":"function","name":"Func%d","file_path":"internal/pkg%d/file.go","start_line":%d,"signature":"func Func%d(ctx context.Context, a, b int) (string, error)"}`, i%17, i, i, i%17, 10+i, i)
	}
	b.WriteString("]")
	return []byte(b.String())
}

func BenchmarkEncode(b *testing.B) {
	for _, tool := range []string{"search_symbols", "generic"} {
		in := symbolRows(500)
		b.Run(tool, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				if _, err := jsonmap.Encode(tool, in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, tool := range []string{"search_symbols", "generic"} {
		payload, err := jsonmap.Encode(tool, symbolRows(500))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tool, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for i := 0; i < b.N; i++ {
				if _, err := jsonmap.Decode(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
