package streaming

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// benchRows is the size of the row-sized benchmark payloads: a large
// search result. Shapes with long values have fewer rows (benchData.rows).
const benchRows = 10000

// benchData is one payload in every form the benchmarks need.
type benchData struct {
	name  string
	rows  int
	model *spec.Payload
	gcx   []byte
	json  []byte // the same rows as a JSON array of objects
}

// maps returns the rows as encoding/json marshals them. They are made
// when a benchmark needs them, not kept with the data: every garbage
// collection during a benchmark marks what is live, and a fixture full of
// pointers would make collections dearer for every contender.
func (data *benchData) maps() []map[string]any {
	s := &data.model.Sections[0]
	maps := make([]map[string]any, len(s.Rows))
	for i, values := range s.Rows {
		m := make(map[string]any, len(s.Fields))
		for k, f := range s.Fields {
			m[f] = values[k]
		}
		maps[i] = m
	}
	return maps
}

func newBenchData(name string, n int, fields []string, row func(i int) []string) *benchData {
	s := spec.Section{Tool: "search_symbols", Fields: fields,
		Meta: []spec.Meta{{Key: "rows", Value: strconv.Itoa(n)}, {Key: "total", Value: strconv.Itoa(n)}, {Key: "truncated", Value: "false"}}}
	for i := range n {
		s.Rows = append(s.Rows, row(i))
	}
	model := &spec.Payload{Sections: []spec.Section{s}}
	gcx, err := reference.Encode(model)
	if err != nil {
		panic(err)
	}
	data := &benchData{name: name, rows: n, model: model, gcx: gcx}
	if data.json, err = json.Marshal(data.maps()); err != nil {
		panic(err)
	}
	return data
}

// benchSet is every shape the benchmarks and the side-by-side comparison
// with the published package run on: the cases issue 23 names, each built
// so that one thing dominates a row's cost. Each is built when it is run,
// so that the fixtures of the others are not live while it runs: every
// garbage collection marks what is live, and a fixture full of pointers
// makes collections dearer for every contender that allocates.
var benchSet = []func() *benchData{symbolRows, wideRows, escapeRows, nonASCIIRows, longValueRows, sourceRows}

var (
	kinds   = []string{"function", "method", "type", "const", "var", "interface"}
	pkgs    = []string{"internal/mcp", "internal/index", "cmd/gortex", "pkg/graph", "internal/lsp/protocol"}
	symbols = []string{"NewServer", "Start", "Shutdown", "registerCoreTools", "HandleRequest", "ParseQuery", "Walk", "Resolve"}
)

// symbolRows are shaped like the announcement's search_symbols example:
// plain ASCII, six fields, about 150 bytes a row.
func symbolRows() *benchData {
	return newBenchData("symbols", benchRows, []string{"id", "kind", "name", "path", "line", "sig"}, func(i int) []string {
		pkg, sym := pkgs[i%len(pkgs)], symbols[i%len(symbols)]
		path := fmt.Sprintf("%s/file_%d.go", pkg, i%97)
		name := fmt.Sprintf("%s%d", sym, i)
		return []string{
			path + "::" + name,
			kinds[i%len(kinds)],
			name,
			path,
			strconv.Itoa(1 + i*7%4000),
			fmt.Sprintf("func %s(ctx context.Context, req *Request%d) (*Response, error)", name, i%13),
		}
	})
}

// wideRows have 40 short plain values each, like a list_pods or
// list_issues table with every column kept: the cost is per value.
func wideRows() *benchData {
	fields := make([]string, 40)
	for k := range fields {
		fields[k] = "c" + strconv.Itoa(k)
	}
	return newBenchData("wide40", benchRows, fields, func(i int) []string {
		row := make([]string, len(fields))
		for k := range row {
			switch k % 4 {
			case 0:
				row[k] = strconv.Itoa(i*40 + k)
			case 1:
				row[k] = kinds[(i+k)%len(kinds)]
			case 2:
				row[k] = ""
			default:
				row[k] = symbols[(i+k)%len(symbols)]
			}
		}
		return row
	})
}

// escapeRows carry code snippets, Windows paths and notes: TABs, LFs,
// backslashes, CR and non-ASCII in every row, and a guard [ROW-4] in some.
func escapeRows() *benchData {
	return newBenchData("escapes", benchRows, []string{"id", "snippet", "path", "note"}, func(i int) []string {
		id := fmt.Sprintf("sym%d", i)
		if i%5 == 0 {
			id = "#" + id
		}
		return []string{
			id,
			fmt.Sprintf("if err := run(%d); err != nil {\n\treturn fmt.Errorf(\"step %%d: %%w\\n\", %d, err)\n}\r\n", i, i),
			fmt.Sprintf(`C:\src\project%d\internal\file_%d.go`, i%9, i),
			fmt.Sprintf("naïve → résumé\tcol %d\\n", i),
		}
	})
}

// nonASCIIRows hold text in several scripts and no escapes: every value
// needs UTF-8 validation and nothing else.
func nonASCIIRows() *benchData {
	words := []string{"résumé", "Привет", "мир", "東京都", "渋谷区", "naïve", "Ελληνικά", "日本語のテキスト", "çalışma", "🙂", "κόσμε", "données"}
	pick := func(i, n int) string {
		var b strings.Builder
		for k := range n {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[(i*7+k*3)%len(words)])
		}
		return b.String()
	}
	return newBenchData("nonascii", benchRows, []string{"id", "title", "author", "summary"}, func(i int) []string {
		return []string{strconv.Itoa(i), pick(i, 3), pick(i+1, 2), pick(i+2, 12)}
	})
}

// longValueRows hold one 10 KB ASCII value each, like a file's contents
// or a long log excerpt on one line: the cost is per byte.
func longValueRows() *benchData {
	const size = 10 << 10
	return newBenchData("value10k", 500, []string{"path", "size", "text"}, func(i int) []string {
		var b strings.Builder
		for b.Len() < size {
			fmt.Fprintf(&b, "[%06d] %s handled %s in %d ms; ", i, symbols[(i+b.Len())%len(symbols)], pkgs[b.Len()%len(pkgs)], b.Len()%977)
		}
		return []string{fmt.Sprintf("logs/run_%d.log", i), strconv.Itoa(size), b.String()[:size]}
	})
}

// sourceRows hold a function's source each, as get_symbol_source returns
// it: about 1.5 KB with a LF escaped at every line and TABs indenting most.
func sourceRows() *benchData {
	return newBenchData("source", 1000, []string{"id", "path", "start", "end", "source"}, func(i int) []string {
		var b strings.Builder
		name := symbols[i%len(symbols)] + strconv.Itoa(i)
		fmt.Fprintf(&b, "// %s handles one request of kind %d.\nfunc %s(ctx context.Context, req *Request) (*Response, error) {\n", name, i%13, name)
		for k := range 24 {
			switch k % 4 {
			case 0:
				fmt.Fprintf(&b, "\tif err := step%d(ctx, req); err != nil {\n\t\treturn nil, fmt.Errorf(\"step %d: %%w\", err)\n\t}\n", k, k)
			case 1:
				fmt.Fprintf(&b, "\tv%d := req.Items[%d] // the %d-th item\n", k, k, k)
			case 2:
				fmt.Fprintf(&b, "\tlog.Printf(\"%%s: %%d\", req.Name, v%d)\n", k-1)
			default:
				b.WriteString("\n")
			}
		}
		b.WriteString("\treturn &Response{OK: true}, nil\n}\n")
		path := fmt.Sprintf("%s/file_%d.go", pkgs[i%len(pkgs)], i%97)
		return []string{path + "::" + name, path, strconv.Itoa(10 + i), strconv.Itoa(40 + i), b.String()}
	})
}

// reportPerRow adds ns/row and allocs/row to a benchmark's results.
func reportPerRow(b *testing.B, rowsOf int, run func()) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	rows := float64(b.N) * float64(rowsOf)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/rows, "ns/row")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/rows, "allocs/row")
}

func BenchmarkDecode(b *testing.B) {
	for _, build := range benchSet {
		data := build()
		data.model = nil // the decoders do not need it, and it is full of pointers
		streaming := func(reuse bool) func() {
			return func() {
				d := NewDecoder(bytes.NewReader(data.gcx))
				d.ReuseRecord = reuse
				for {
					if _, err := d.Next(); err != nil {
						if err != io.EOF {
							b.Fatal(err)
						}
						return
					}
				}
			}
		}
		cases := []struct {
			name  string
			input []byte
			run   func()
		}{
			{"streaming-reuse", data.gcx, streaming(true)},
			{"streaming", data.gcx, streaming(false)},
			{"streaming-whole", data.gcx, func() {
				if _, err := Decode(bytes.NewReader(data.gcx), spec.DefaultLimits); err != nil {
					b.Fatal(err)
				}
			}},
			{"reference", data.gcx, func() {
				if _, err := reference.Decode(data.gcx); err != nil {
					b.Fatal(err)
				}
			}},
			{"baseline", data.gcx, func() {
				if _, err := baselineDecode(bytes.NewReader(data.gcx)); err != nil {
					b.Fatal(err)
				}
			}},
			{"json", data.json, func() {
				var rows []map[string]any
				if err := json.Unmarshal(data.json, &rows); err != nil {
					b.Fatal(err)
				}
			}},
			{"floor", data.gcx, func() {
				if bytes.Count(data.gcx, []byte{'\t'})+bytes.Count(data.gcx, []byte{'\n'}) == 0 {
					b.Fatal("nothing counted")
				}
			}},
		}
		for _, c := range cases {
			b.Run(data.name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(c.input)))
				reportPerRow(b, data.rows, c.run)
			})
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, build := range benchSet {
		data := build()
		s := &data.model.Sections[0]
		maps := data.maps()
		cases := []struct {
			name   string
			output int
			run    func()
		}{
			{"streaming", len(data.gcx), func() {
				e := NewEncoder(io.Discard)
				if err := e.WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields, Meta: s.Meta}); err != nil {
					b.Fatal(err)
				}
				for _, row := range s.Rows {
					if err := e.WriteRow(row); err != nil {
						b.Fatal(err)
					}
				}
				if err := e.Close(); err != nil {
					b.Fatal(err)
				}
			}},
			{"reference", len(data.gcx), func() {
				if _, err := reference.Encode(data.model); err != nil {
					b.Fatal(err)
				}
			}},
			{"baseline", len(data.gcx), func() {
				if err := baselineEncode(io.Discard, s); err != nil {
					b.Fatal(err)
				}
			}},
			{"json", len(data.json), func() {
				if _, err := json.Marshal(maps); err != nil {
					b.Fatal(err)
				}
			}},
		}
		for _, c := range cases {
			b.Run(data.name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(c.output))
				reportPerRow(b, data.rows, c.run)
			})
		}
	}
}

// baselineDecode decodes GCX1 the way the Go package published with the
// draft does: its Decoder is built on bufio.Scanner, with a 4 MiB line
// ceiling, and returns a map from field name to value per row; here the
// values come from strings.Split on TAB. It is a yardstick, not a decoder:
// it checks almost nothing.
func baselineDecode(r io.Reader) ([]map[string]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var fields []string
	var rows []map[string]string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "GCX1 "):
			fields = nil
			for _, part := range strings.Split(line[len("GCX1 "):], " ") {
				if names, ok := strings.CutPrefix(part, "fields="); ok {
					for _, f := range strings.Split(names, ",") {
						fields = append(fields, baselineUnescape(f))
					}
				}
			}
		case strings.HasPrefix(line, "#"), line == "":
			continue
		default:
			values := strings.Split(line, "\t")
			row := make(map[string]string, len(fields))
			for i, f := range fields {
				if i < len(values) {
					row[f] = baselineUnescape(values[i])
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, sc.Err()
}

func baselineUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// baselineEscaper and baselineEncode write GCX1 the plain way: a
// strings.Replacer per value and strings.Join per row, through a
// bufio.Writer.
var baselineEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func baselineEncode(w io.Writer, s *spec.Section) error {
	bw := bufio.NewWriter(w)
	meta := make([]string, len(s.Meta))
	for i, m := range s.Meta {
		meta[i] = m.Key + "=" + m.Value
	}
	fmt.Fprintf(bw, "GCX1 tool=%s fields=%s %s\n", s.Tool, strings.Join(s.Fields, ","), strings.Join(meta, " "))
	values := make([]string, 0, len(s.Fields))
	for _, row := range s.Rows {
		values = values[:0]
		for i, v := range row {
			v = baselineEscaper.Replace(v)
			if i == 0 && (strings.HasPrefix(v, "#") || strings.HasPrefix(v, "GCX")) {
				v = `\` + v
			}
			values = append(values, v)
		}
		bw.WriteString(strings.Join(values, "\t"))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// The baselines are yardsticks, but they must at least read and write the
// benchmark payloads right, or the comparison means nothing.
func TestBaselinesAgree(t *testing.T) {
	for _, build := range benchSet {
		data := build()
		s := &data.model.Sections[0]
		rows, err := baselineDecode(bytes.NewReader(data.gcx))
		if err != nil || len(rows) != data.rows {
			t.Fatalf("%s: baseline decoded %d rows, %v", data.name, len(rows), err)
		}
		for i, row := range rows {
			for k, f := range s.Fields {
				if want := s.Rows[i][k]; row[f] != want {
					t.Fatalf("%s: baseline row %d %s = %q, want %q", data.name, i, f, row[f], want)
				}
			}
		}
		var out bytes.Buffer
		if err := baselineEncode(&out, s); err != nil || !bytes.Equal(out.Bytes(), data.gcx) {
			t.Errorf("%s: baseline encoder output differs from the reference", data.name)
		}
	}
}
