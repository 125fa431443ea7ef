package auto_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/tokens/tokenstest"
)

// caseRows returns the rows of a scorecard case whose response is an array.
func caseRows(b testing.TB, name string) []json.RawMessage {
	text, err := os.ReadFile(filepath.Join("..", "..", "bench", "wire-format", "cases", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	var c struct{ Response []json.RawMessage }
	if err := json.Unmarshal(text, &c); err != nil {
		b.Fatal(err)
	}
	return c.Response
}

var issueNumber = regexp.MustCompile(`"number":\s*\d+`)

// results returns the tool results a benchmark encodes in turn: windows of
// n rows over the case's rows, so successive calls see different values,
// as a server's do. Rows are repeated, with fresh issue numbers, to reach
// n when the case has fewer.
func results(b testing.TB, name string, n int) [][]byte {
	rows := caseRows(b, name)
	for k := 0; len(rows) < n; k++ {
		row := issueNumber.ReplaceAll(rows[k], fmt.Appendf(nil, `"number":%d`, 1000+k))
		rows = append(rows, row)
	}
	var out [][]byte
	for start := 0; start+n <= len(rows) && len(out) < 25; start += max(n, 1) {
		var sb strings.Builder
		sb.WriteByte('[')
		for i, row := range rows[start : start+n] {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.Write(row)
		}
		sb.WriteByte(']')
		compact, err := jsonmap.Compact([]byte(sb.String()))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, compact)
	}
	return out
}

// BenchmarkAuto compares, per call on the same results, mode gcx
// (jsonmap.Encode), auto mode (auto.Encode), auto mode with both counts
// in full (auto.ChooseFull, what --stats runs) and auto mode as it was
// with tiktoken-go counting both texts in full.
func BenchmarkAuto(b *testing.B) {
	for _, in := range autoInputs {
		values := results(b, in.file, in.rows)
		contenders := []struct {
			name   string
			encode func(tool string, value []byte) error
		}{
			{"gcx", func(tool string, value []byte) error {
				_, err := jsonmap.Encode(tool, value)
				return err
			}},
			{"auto", func(tool string, value []byte) error {
				_, _, err := auto.Encode(tool, value)
				return err
			}},
			{"auto-full", func(tool string, value []byte) error {
				_, err := auto.ChooseFull(tool, value)
				return err
			}},
			{"auto-tiktoken", func(tool string, value []byte) error {
				v, err := jsonmap.Parse(value)
				if err != nil {
					return err
				}
				payload, err := jsonmap.EncodeValue(tool, v)
				if err != nil {
					return err
				}
				if _, err := tokenstest.Count(auto.Encoding, string(payload)); err != nil {
					return err
				}
				_, err = tokenstest.Count(auto.Encoding, string(v.AppendCompact(nil)))
				return err
			}},
		}
		for _, c := range contenders {
			b.Run(fmt.Sprintf("%s-%d/%s", in.tool, in.rows, c.name), func(b *testing.B) {
				if c.name == "auto-tiktoken" && testing.Short() {
					b.Skip("tiktoken-go is slow; run without -short")
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(values[0])))
				i := 0
				for b.Loop() {
					if err := c.encode(in.tool, values[i%len(values)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkAutoPaired times mode gcx and auto mode call by call on the
// same results, one after the other in each iteration, and reports each
// one's time per call and their ratio: a machine whose load changes
// during the run slows both alike, which separate benchmarks run minutes
// apart do not.
func BenchmarkAutoPaired(b *testing.B) {
	for _, in := range autoInputs {
		values := results(b, in.file, in.rows)
		b.Run(fmt.Sprintf("%s-%d", in.tool, in.rows), func(b *testing.B) {
			var gcx, au time.Duration
			i := 0
			for b.Loop() {
				v := values[i%len(values)]
				start := time.Now()
				if _, err := jsonmap.Encode(in.tool, v); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				if _, _, err := auto.Encode(in.tool, v); err != nil {
					b.Fatal(err)
				}
				gcx, au = gcx+mid.Sub(start), au+time.Since(mid)
				i++
			}
			b.ReportMetric(float64(gcx.Nanoseconds())/float64(i), "gcx-ns/call")
			b.ReportMetric(float64(au.Nanoseconds())/float64(i), "auto-ns/call")
			b.ReportMetric(float64(au)/float64(gcx), "auto/gcx")
		})
	}
}

// autoInputs are the inputs of BenchmarkAuto and BenchmarkAutoPaired.
var autoInputs = []struct {
	tool, file string
	rows       int
}{
	{"search_symbols", "search_symbols-500", 20},
	{"search_symbols", "search_symbols-500", 500},
	{"list_issues", "list_issues-30", 20},
	{"list_issues", "list_issues-30", 500},
}

// BenchmarkAutoLinear encodes the long values at n and 8n bytes in auto
// mode: the time per byte stays flat.
func BenchmarkAutoLinear(b *testing.B) {
	for _, v := range longValues {
		for _, n := range []int{64 << 10, 512 << 10} {
			text := v.make(n)
			b.Run(fmt.Sprintf("%s/%dKiB", v.name, n>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, _, err := auto.Encode("get_symbol_source", text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
