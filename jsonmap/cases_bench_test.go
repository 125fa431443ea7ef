package jsonmap_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gcxwire/gcx/jsonmap"
)

// benchCase is one scorecard result: its tool, its value as compact JSON
// and its row count, for the per-row figures.
type benchCase struct {
	name string
	tool string
	json []byte
	rows int
}

// scorecardCases returns the scorecard's search_symbols-500 and
// list_issues-30 results (bench/wire-format/cases) and their first 20
// rows, each as compact JSON.
func scorecardCases(tb testing.TB) []benchCase {
	tb.Helper()
	var out []benchCase
	for _, c := range []struct{ file, short string }{
		{"search_symbols-500.json", "search_symbols-20"},
		{"list_issues-30.json", "list_issues-20"},
	} {
		b, err := os.ReadFile(filepath.Join("..", "bench", "wire-format", "cases", c.file))
		if err != nil {
			tb.Fatal(err)
		}
		var file struct {
			Tool     string          `json:"tool"`
			Response json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal(b, &file); err != nil {
			tb.Fatal(err)
		}
		v, err := jsonmap.Parse(file.Response)
		if err != nil {
			tb.Fatal(err)
		}
		name := c.file[:len(c.file)-len(".json")]
		out = append(out, benchCase{name, file.Tool, v.AppendCompact(nil), len(v.Elems)})
		v.Elems = v.Elems[:20]
		out = append(out, benchCase{c.short, file.Tool, v.AppendCompact(nil), 20})
	}
	return out
}

// BenchmarkCasesEncode: JSON to GCX1 with jsonmap.Encode, beside
// encoding/json unmarshalling the same bytes into any — the yard
// stick — on the scorecard's results. allocs/row is the allocations of one
// whole value divided by its rows.
func BenchmarkCasesEncode(b *testing.B) {
	for _, c := range scorecardCases(b) {
		b.Run(c.name+"/gcx", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			perRow(b, c.rows, func() {
				if _, err := jsonmap.Encode(c.tool, c.json); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(c.name+"/json-unmarshal", func(b *testing.B) { benchUnmarshal(b, c.json, c.rows) })
	}
}

// BenchmarkCasesDecode: GCX1 to compact JSON bytes with jsonmap.Decode,
// beside encoding/json unmarshalling the value's compact JSON into any.
func BenchmarkCasesDecode(b *testing.B) {
	for _, c := range scorecardCases(b) {
		payload, err := jsonmap.Encode(c.tool, c.json)
		if err != nil {
			b.Fatal(err)
		}
		if back, err := jsonmap.Decode(payload); err != nil || !bytes.Equal(back, c.json) {
			b.Fatalf("%s does not round-trip: %v", c.name, err)
		}
		b.Run(c.name+"/gcx", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			perRow(b, c.rows, func() {
				if _, err := jsonmap.Decode(payload); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(c.name+"/json-unmarshal", func(b *testing.B) { benchUnmarshal(b, c.json, c.rows) })
	}
}

// BenchmarkCasesRatio runs each direction and encoding/json in turns,
// one operation each per iteration, and reports the time of each and
// their ratio: on a shared machine whose load drifts, contenders measured
// in turns see the same load, where sub-benchmarks run one after the
// other may not. gcx/json below 1 means jsonmap is faster.
func BenchmarkCasesRatio(b *testing.B) {
	for _, c := range scorecardCases(b) {
		payload, err := jsonmap.Encode(c.tool, c.json)
		if err != nil {
			b.Fatal(err)
		}
		for _, dir := range []struct {
			name string
			op   func() error
		}{
			{"encode", func() error { _, err := jsonmap.Encode(c.tool, c.json); return err }},
			{"decode", func() error { _, err := jsonmap.Decode(payload); return err }},
		} {
			b.Run(c.name+"/"+dir.name, func(b *testing.B) {
				var gcx, std time.Duration
				for b.Loop() {
					t0 := time.Now()
					if err := dir.op(); err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					var v any
					if err := json.Unmarshal(c.json, &v); err != nil {
						b.Fatal(err)
					}
					gcx, std = gcx+t1.Sub(t0), std+time.Since(t1)
				}
				b.ReportMetric(float64(gcx.Nanoseconds())/float64(b.N), "gcx-ns/op")
				b.ReportMetric(float64(std.Nanoseconds())/float64(b.N), "json-ns/op")
				b.ReportMetric(float64(gcx)/float64(std), "gcx/json")
			})
		}
	}
}

// perRow measures one benchmark's loop and reports ns/row and allocs/row
// beside the usual figures.
func perRow(b *testing.B, rows int, loop func()) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		loop()
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/float64(rows), "ns/row")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n)/float64(rows), "allocs/row")
}

// benchUnmarshal is the contender of both directions: encoding/json
// unmarshalling the value's compact JSON into any, per row of rows.
func benchUnmarshal(b *testing.B, text []byte, rows int) {
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	perRow(b, rows, func() {
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			b.Fatal(err)
		}
	})
}
