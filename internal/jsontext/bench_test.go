package jsontext

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchTexts are the inputs of BenchmarkRead: rows of short strings with
// and without escapes (the decoder's common case, where scratch is reused),
// and one long string with escapes (a JSON text inside a tool result's
// text block, as an intermediary reads it), also at eight times the
// length, where a decoding that grew worse than linearly would show.
func benchTexts() []struct{ name, text string } {
	var plain, escaped strings.Builder
	plain.WriteString("[")
	escaped.WriteString("[")
	for i := range 2000 {
		if i > 0 {
			plain.WriteString(",")
			escaped.WriteString(",")
		}
		fmt.Fprintf(&plain, `{"id":%d,"name":"customer %d","email":"c%d@example.com","note":"fine"}`, i, i, i)
		fmt.Fprintf(&escaped, `{"id":%d,"name":"customer \"%d\"","email":"c%d@example.com","note":"line\none\ttab Z\u00fcrich"}`, i, i, i)
	}
	plain.WriteString("]")
	escaped.WriteString("]")
	long := func(n int) string {
		var inner strings.Builder
		inner.WriteString("[\n")
		for i := range n {
			if i > 0 {
				inner.WriteString(",\n")
			}
			fmt.Fprintf(&inner, "  {\n    \"id\": %d,\n    \"name\": \"customer %d\"\n  }", i, i)
		}
		inner.WriteString("\n]")
		text, _ := json.Marshal(map[string]string{"text": inner.String()})
		return string(text)
	}
	return []struct{ name, text string }{
		{"short-plain", plain.String()},
		{"short-escaped", escaped.String()},
		{"long-escaped", long(20000)},
		{"long-escaped-8x", long(160000)},
	}
}

// BenchmarkRead reads every token of each text, held whole and streamed.
func BenchmarkRead(b *testing.B) {
	for _, c := range benchTexts() {
		for _, how := range []string{"whole", "stream"} {
			b.Run(c.name+"/"+how, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.text)))
				for b.Loop() {
					r := NewStringReader(c.text)
					if how == "stream" {
						r = NewReader(strings.NewReader(c.text))
					}
					for {
						_, err := r.NextToken()
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
