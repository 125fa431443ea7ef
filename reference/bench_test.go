package reference

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// benchRows is the size of the benchmark payload: a large search_symbols
// answer, the shape GCX1 was made for.
const benchRows = 10000

// searchSymbols returns a search_symbols-shaped model of n rows: id, kind,
// name, path, line and signature, the signature holding commas and
// parentheses as code does.
func searchSymbols(n int) *spec.Payload {
	kinds := []string{"function", "method", "type", "const", "var"}
	s := spec.Section{
		Tool:   "search_symbols",
		Fields: fields("id", "kind", "name", "path", "line", "sig"),
		Meta:   meta("rows", strconv.Itoa(n), "total", strconv.Itoa(n), "truncated", "false"),
	}
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("internal/pkg%d/file%d.go", i%37, i%101)
		name := fmt.Sprintf("Symbol%d", i)
		s.Rows = append(s.Rows, row(
			path+"::"+name,
			kinds[i%len(kinds)],
			name,
			path,
			strconv.Itoa(1+i%2000),
			fmt.Sprintf("func (s *Server) %s(ctx context.Context, id int, opts ...Option) (*Result, error)", name),
		))
	}
	return payload(s)
}

func BenchmarkDecode(b *testing.B) {
	in, err := Encode(searchSymbols(benchRows))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkEncode(b *testing.B) {
	p := searchSymbols(benchRows)
	out, err := Encode(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Encode(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCountSeparators counts the TABs and LFs of the same payload: the
// least work any decoder must do, as a floor to compare the others with.
func BenchmarkCountSeparators(b *testing.B) {
	in, err := Encode(searchSymbols(benchRows))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if bytes.Count(in, []byte("\t"))+bytes.Count(in, []byte("\n")) != 6*benchRows+1 {
			b.Fatal("unexpected separator count")
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
