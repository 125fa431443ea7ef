// Command floors measures every path a user of gcx calls against its floor
// — the least any implementation of that path must do — side by side in
// one run, and writes the table that opens docs/performance.md, a chart of
// each path's ratio to its floor, and the raw samples:
//
//	go run ./bench/floors -rounds 6 -out bench/results -docs docs/performance.md
//
// Each row pairs a path with what it is held against. In every round each
// row runs the two one after the other, in alternating order, and the
// row's ratio is the median over rounds of the ratio within a round: on a
// shared machine a change of load between rounds moves both sides of a
// ratio alike. Times are wall clock per operation of testing.Benchmark.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
	"github.com/gcxwire/gcx/tokens"
)

// A side of a row: something timed.
type side struct {
	name string
	run  func() error
}

// A row of the table: a path a user calls, on one input, against what
// bounds it from below.
type row struct {
	path    string  // the path, as the table names it
	input   string  // the input, with its size
	bytes   int     // the input's size, for MB/s
	subject side    // the path itself
	against side    // its floor, or the contender it is held to
	goal    float64 // the ratio the path should stay within; 0: none
	bound   string  // what bounds the ratio, where the goal is out of reach
}

// A sample is one round's measurement of a row.
type sample struct {
	subject, against testing.BenchmarkResult
}

func main() {
	rounds := flag.Int("rounds", 6, "rounds; each row's ratio is the median over them")
	benchtime := flag.Duration("time", 100*time.Millisecond, "time per side per round")
	out := flag.String("out", "bench/results", "directory for floors.txt, floors.md and floors.svg")
	docs := flag.String("docs", "", "a Markdown file whose table between the floors markers is replaced")
	corpus := flag.String("corpus", "bench/wire-format/cases", "the scorecard's corpus")
	only := flag.String("only", "", "run only rows whose path contains this")
	from := flag.String("from", "", "measure nothing: write the table and chart from this floors.txt of an earlier run")
	testing.Init()
	flag.Parse()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		log.Fatal(err)
	}
	cases, err := scorecard.LoadCases(*corpus)
	if err != nil {
		log.Fatal(err)
	}
	byName := map[string]scorecard.Case{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	rows, err := buildRows(byName)
	if err != nil {
		log.Fatal(err)
	}
	defer cli.cleanup()
	if *only != "" {
		rows = slices.DeleteFunc(rows, func(r row) bool { return !strings.Contains(r.path, *only) })
	}

	if *from != "" {
		samples, header, err := readSamples(*from, rows)
		if err != nil {
			log.Fatal(err)
		}
		if err := write(rows, samples, header, nil, *out, *docs); err != nil {
			log.Fatal(err)
		}
		return
	}

	var raw bytes.Buffer
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&raw, "# go run ./bench/floors -rounds %d -time %s\n# %s %s/%s, GOMAXPROCS %d, started %s, load %s",
		*rounds, *benchtime, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0),
		time.Now().UTC().Format(time.RFC3339), load)
	fmt.Fprintf(&raw, "# round\tpath\tinput\tside\tns/op\tB/op\tallocs/op\n")
	// One call of each side first: a path's first call may load tables
	// (the token counter's) that no later call pays for.
	for _, r := range rows {
		for _, s := range []side{r.subject, r.against} {
			if err := s.run(); err != nil {
				log.Fatalf("%s: %s: %v", r.path, s.name, err)
			}
		}
	}
	samples := make([][]sample, len(rows))
	for round := range *rounds {
		for i, r := range rows {
			var s sample
			// Alternate which side runs first, so that neither always
			// follows the other's garbage.
			if (round+i)%2 == 0 {
				s.subject, s.against = measure(r.subject), measure(r.against)
			} else {
				s.against, s.subject = measure(r.against), measure(r.subject)
			}
			samples[i] = append(samples[i], s)
			for _, x := range []struct {
				side side
				res  testing.BenchmarkResult
			}{{r.subject, s.subject}, {r.against, s.against}} {
				fmt.Fprintf(&raw, "%d\t%s\t%s\t%s\t%d\t%d\t%d\n", round+1, r.path, r.input, x.side.name,
					x.res.NsPerOp(), x.res.AllocedBytesPerOp(), x.res.AllocsPerOp())
			}
		}
		log.Printf("round %d of %d done", round+1, *rounds)
	}
	load, _ = os.ReadFile("/proc/loadavg")
	fmt.Fprintf(&raw, "# ended %s, load %s", time.Now().UTC().Format(time.RFC3339), load)

	header := fmt.Sprintf("Medians of %d rounds, %s a side a round", *rounds, *benchtime)
	if err := write(rows, samples, header, raw.Bytes(), *out, *docs); err != nil {
		log.Fatal(err)
	}
}

// write writes the table and the chart of the samples, and the raw samples
// unless raw is nil, to out, and the table into docs if it is named.
func write(rows []row, samples [][]sample, header string, raw []byte, out, docs string) error {
	results := summarize(rows, samples)
	table := markdown(results, header)
	chart, err := svg(results)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"floors.md": []byte(table), "floors.svg": chart}
	if raw != nil {
		files["floors.txt"] = raw
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	if docs != "" {
		if err := replaceTable(docs, table); err != nil {
			return err
		}
	}
	_, err = os.Stdout.WriteString(table)
	return err
}

// readSamples reads the samples of floors.txt back: each round holds a
// line for each row's subject and then its against, in the rows' order.
func readSamples(path string, rows []row) ([][]sample, string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var header string
	var lines [][]string
	for _, line := range strings.Split(string(text), "\n") {
		if rest, ok := strings.CutPrefix(line, "# go run ./bench/floors "); ok {
			header = "Medians of the rounds of `go run ./bench/floors " + rest + "`"
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines = append(lines, strings.Split(line, "\t"))
	}
	if len(lines)%(2*len(rows)) != 0 {
		return nil, "", fmt.Errorf("%s: %d samples, not whole rounds of %d rows", path, len(lines), len(rows))
	}
	samples := make([][]sample, len(rows))
	for k := 0; k < len(lines); k += 2 {
		i := k / 2 % len(rows)
		var s sample
		for j, res := range []*testing.BenchmarkResult{&s.subject, &s.against} {
			f := lines[k+j]
			want := []string{rows[i].subject.name, rows[i].against.name}[j]
			if len(f) != 7 || f[1] != rows[i].path || f[3] != want {
				return nil, "", fmt.Errorf("%s: sample %d is %q, want %s: %s", path, k+j+1, f, rows[i].path, want)
			}
			var ns, bytes, allocs int64
			fmt.Sscan(f[4], &ns)
			fmt.Sscan(f[5], &bytes)
			fmt.Sscan(f[6], &allocs)
			*res = testing.BenchmarkResult{N: 1, T: time.Duration(ns), MemBytes: uint64(bytes), MemAllocs: uint64(allocs)}
		}
		samples[i] = append(samples[i], s)
	}
	return samples, header, nil
}

// measure runs one side as a benchmark; a failure stops the program, since
// a path that fails measures nothing.
func measure(s side) testing.BenchmarkResult {
	if timed, ok := timedSides[s.name]; ok {
		budget, err := time.ParseDuration(flag.Lookup("test.benchtime").Value.String())
		if err != nil {
			log.Fatal(err)
		}
		res, err := timed(budget)
		if err != nil {
			log.Fatalf("%s: %v", s.name, err)
		}
		return res
	}
	var failed error
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.run(); err != nil {
				failed = err
				b.FailNow()
			}
		}
	})
	if failed != nil || res.N == 0 {
		log.Fatalf("%s: %v", s.name, failed)
	}
	return res
}

// A result is a row's medians.
type result struct {
	row
	ratio, low, high     float64 // median ratio of subject to against, and the range over rounds
	subjectNs, againstNs float64 // median ns/op
	subjectB, againstB   int64   // median B/op
	subjectAllocs        int64
}

func summarize(rows []row, samples [][]sample) []result {
	var out []result
	for i, r := range rows {
		var ratios, sNs, aNs []float64
		var sB, aB, sA []int64
		for _, s := range samples[i] {
			ratios = append(ratios, float64(s.subject.NsPerOp())/float64(max(s.against.NsPerOp(), 1)))
			sNs = append(sNs, float64(s.subject.T.Nanoseconds())/float64(s.subject.N))
			aNs = append(aNs, float64(s.against.T.Nanoseconds())/float64(s.against.N))
			sB = append(sB, s.subject.AllocedBytesPerOp())
			aB = append(aB, s.against.AllocedBytesPerOp())
			sA = append(sA, s.subject.AllocsPerOp())
		}
		out = append(out, result{row: r, ratio: median(ratios), low: slices.Min(ratios), high: slices.Max(ratios),
			subjectNs: median(sNs), againstNs: median(aNs),
			subjectB: medianInt(sB), againstB: medianInt(aB), subjectAllocs: medianInt(sA)})
	}
	return out
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

func medianInt(v []int64) int64 {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = float64(x)
	}
	return int64(median(f))
}

// buildRows makes every row from the corpus and a generated long-value
// payload.
func buildRows(corpus map[string]scorecard.Case) ([]row, error) {
	need := func(name string) (scorecard.Case, error) {
		c, ok := corpus[name]
		if !ok {
			return c, fmt.Errorf("the corpus has no case %s", name)
		}
		return c, nil
	}
	small, err := need("search_symbols-5")
	if err != nil {
		return nil, err
	}
	large, err := need("search_symbols-500")
	if err != nil {
		return nil, err
	}
	mid, err := need("search_symbols-60")
	if err != nil {
		return nil, err
	}
	object, err := need("get_config")
	if err != nil {
		return nil, err
	}
	smallGCX, err := jsonmap.Encode(small.Tool, small.Response)
	if err != nil {
		return nil, err
	}
	largeGCX, err := jsonmap.Encode(large.Tool, large.Response)
	if err != nil {
		return nil, err
	}
	// The five-row payload's header, declaring no rows: what a call costs
	// before its first row.
	headerOnly := bytes.Replace(smallGCX[:bytes.IndexByte(smallGCX, '\n')+1], []byte(" rows=5"), []byte(" rows=0"), 1)
	longGCX := longValues(200, 10<<10)
	buf := make([]byte, 64<<10)
	var cells []string

	kb := func(n int) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }
	var rows []row
	decodeRows := func(name, input string, payload []byte, perCall bool) {
		floor := side{"read and count TABs and LFs", func() error { return readCount(payload, buf) }}
		split := side{"read and split lines at TABs", func() error { return readSplit(payload, buf, &cells) }}
		kept := side{"read, count, copy to new memory", func() error { return readCopy(payload, buf) }}
		reuse := side{"decode, reuse", func() error { return decode(payload, true) }}
		fresh := side{"decode, fresh", func() error { return decode(payload, false) }}
		// The payload as a string the caller holds, read in place.
		text := string(payload)
		reuseInPlace := side{"decode from a string, reuse", func() error { return decodeString(text, true) }}
		freshInPlace := side{"decode from a string, fresh", func() error { return decodeString(text, false) }}
		bound := "handing out each row's values (next rows)"
		if perCall {
			bound = "the decoder's fixed cost: its header's parse and its buffers (next rows)"
		}
		rows = append(rows,
			row{path: name + ", reuse", input: input, bytes: len(payload), subject: reuse, against: floor, goal: 1.5, bound: bound},
			row{path: name + ", reuse", input: input, bytes: len(payload), subject: reuse, against: split},
			row{path: name + ", fresh", input: input, bytes: len(payload), subject: fresh, against: floor, goal: 1.5, bound: bound},
			row{path: name + ", fresh", input: input, bytes: len(payload), subject: fresh, against: kept},
			row{path: name + ", fresh", input: input, bytes: len(payload), subject: fresh, against: reuse, goal: 1.5,
				bound: "allocating and copying the text the caller keeps (the row before)"},
			row{path: name + " from a string, fresh", input: input, bytes: len(payload), subject: freshInPlace, against: reuseInPlace, goal: 1.5,
				bound: "the rows' slices, which the caller keeps"},
			row{path: name + " from a string, fresh", input: input, bytes: len(payload), subject: freshInPlace, against: reuse})
	}
	decodeRows("decode per call", "search_symbols-5, "+kb(len(smallGCX)), smallGCX, true)
	rows = append(rows, row{path: "decode per call, reuse", input: "search_symbols-5, " + kb(len(smallGCX)), bytes: len(smallGCX),
		subject: side{"decode, reuse", func() error { return decode(smallGCX, true) }},
		against: side{"decode its header alone", func() error { return decode(headerOnly, true) }}})
	decodeRows("decode", "search_symbols-500, "+kb(len(largeGCX)), largeGCX, false)
	decodeRows("decode", "200 rows of a 10 KiB value, "+kb(len(longGCX)), longGCX, false)

	// Encoding: the rows of the large payload, written through an Encoder,
	// against writing the payload's lines.
	model, err := streaming.Decode(bytes.NewReader(largeGCX), spec.DefaultLimits)
	if err != nil {
		return nil, err
	}
	section := &model.Sections[0]
	lines := bytes.SplitAfter(largeGCX, []byte{'\n'})
	var sink bytes.Buffer
	rows = append(rows, row{path: "encode", input: "search_symbols-500, " + kb(len(largeGCX)), bytes: len(largeGCX),
		subject: side{"streaming.Encoder", func() error {
			sink.Reset()
			e := streaming.NewEncoder(&sink)
			if err := e.WriteHeader(&streaming.Header{Tool: section.Tool, Fields: section.Fields, Meta: section.Meta}); err != nil {
				return err
			}
			for _, r := range section.Rows {
				if err := e.WriteRow(r); err != nil {
					return err
				}
			}
			return e.Close()
		}},
		against: side{"write the payload's lines", func() error {
			sink.Reset()
			for _, l := range lines {
				sink.Write(l)
			}
			return nil
		}}, goal: 4,
		bound: "checking and escaping each value, which writing the lines skips"})

	// The JSON mapping, both ways, against encoding/json and against
	// scanning the JSON alone.
	unmarshal := side{"encoding/json Unmarshal into any", func() error { var v any; return json.Unmarshal(large.Response, &v) }}
	valid := side{"json.Valid: scan the JSON", func() error {
		if !json.Valid(large.Response) {
			return fmt.Errorf("invalid")
		}
		return nil
	}}
	toGCX := side{"jsonmap.Encode", func() error { _, err := jsonmap.Encode(large.Tool, large.Response); return err }}
	toJSON := side{"jsonmap.Decode", func() error { _, err := jsonmap.Decode(largeGCX); return err }}
	jsonInput := "search_symbols-500, " + kb(len(large.Response)) + " of JSON"
	rows = append(rows,
		row{path: "JSON → GCX1", input: jsonInput, bytes: len(large.Response), subject: toGCX, against: unmarshal},
		row{path: "JSON → GCX1", input: jsonInput, bytes: len(large.Response), subject: toGCX, against: valid},
		row{path: "GCX1 → JSON", input: jsonInput, bytes: len(large.Response), subject: toJSON, against: unmarshal},
		row{path: "GCX1 → JSON", input: jsonInput, bytes: len(large.Response), subject: toJSON, against: valid})

	// Auto mode against mode gcx, and against mode gcx plus counting the
	// payload's tokens, which auto mode cannot skip.
	for _, c := range []scorecard.Case{mid, large} {
		input := c.Name + ", " + kb(len(c.Response)) + " of JSON"
		gcx := side{"mode gcx (jsonmap.Encode)", func() error { _, err := jsonmap.Encode(c.Tool, c.Response); return err }}
		autoSide := side{"auto.Encode", func() error { _, _, err := auto.Encode(c.Tool, c.Response); return err }}
		rows = append(rows,
			row{path: "auto", input: input, bytes: len(c.Response), subject: autoSide, against: gcx, goal: 1.25,
				bound: "counting the payload's tokens (next row)"},
			row{path: "auto", input: input, bytes: len(c.Response), subject: autoSide,
				against: side{"mode gcx, then count the payload's tokens", func() error {
					payload, err := jsonmap.Encode(c.Tool, c.Response)
					if err != nil {
						return err
					}
					if tokens.CL100KCount(string(payload)) == 0 {
						return fmt.Errorf("no tokens")
					}
					return nil
				}}})
	}

	// The MCP server middleware against the mapping it cannot avoid.
	for _, c := range []scorecard.Case{object, small, large} {
		mw, err := middleware(c)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{path: "MCP middleware, gcx", input: c.Name + ", " + kb(len(c.Response)) + " of JSON",
			bytes: len(c.Response), subject: side{"the middleware", mw},
			against: side{"the mapping: jsonmap.Encode", func() error {
				_, err := jsonmap.Encode(c.Tool, c.Response)
				return err
			}}})
	}

	// The proxy answering a tools/call result, against the mapping of the
	// result's text.
	for _, c := range []scorecard.Case{small, large} {
		answer, err := proxyAnswer(c)
		if err != nil {
			return nil, err
		}
		msg := toolResult(c)
		rows = append(rows, row{path: "proxy, gcx", input: c.Name + ", " + kb(len(msg)) + " message",
			bytes: len(msg), subject: side{"the proxy's answer", answer},
			against: side{"the mapping: jsonmap.Encode of the text", func() error {
				_, err := jsonmap.Encode(c.Tool, c.Pretty)
				return err
			}}, goal: 1.5,
			bound: "reading the message and comparing structuredContent (the proxy, part rows)"},
			row{path: "proxy, gcx", input: c.Name + ", " + kb(len(msg)) + " message",
				bytes: len(msg), subject: side{"the proxy's answer", answer},
				against: side{"encoding/json Unmarshal of the message into any", func() error {
					var v any
					return json.Unmarshal(msg, &v)
				}}})
	}
	parts, err := proxyParts([]scorecard.Case{small, large}) // proxy.go
	if err != nil {
		return nil, err
	}
	rows = append(rows, parts...)
	cliRows, err := cliRows(corpus) // cli.go
	if err != nil {
		return nil, err
	}
	return append(rows, cliRows...), nil
}

// readCount is the floor of decoding: the payload read from an io.Reader
// into a reused buffer, and its TABs and LFs counted.
func readCount(payload, buf []byte) error {
	r := bytes.NewReader(payload)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\t'}) + bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			break
		}
	}
	if n == 0 {
		return fmt.Errorf("nothing counted")
	}
	return nil
}

// readSplit is the least a decoder handing out rows must do: the
// payload read into a reused buffer and each line cut at its TABs into a
// reused slice of strings that share the buffer.
func readSplit(payload, buf []byte, cells *[]string) error {
	r := bytes.NewReader(payload)
	lines := 0
	for {
		k, err := r.Read(buf)
		rest := buf[:k]
		for len(rest) > 0 {
			lf := bytes.IndexByte(rest, '\n')
			if lf < 0 {
				lf = len(rest)
			}
			line := unsafe.String(unsafe.SliceData(rest), lf)
			row := (*cells)[:0]
			for {
				tab := strings.IndexByte(line, '\t')
				if tab < 0 {
					row = append(row, line)
					break
				}
				row = append(row, line[:tab])
				line = line[tab+1:]
			}
			*cells = row
			lines++
			rest = rest[min(lf+1, len(rest)):]
		}
		if err == io.EOF {
			break
		}
	}
	if lines == 0 {
		return fmt.Errorf("no lines")
	}
	return nil
}

// readCopy is the least a decoder handing out text the caller keeps must
// do: the payload read, counted, and copied into newly allocated memory.
func readCopy(payload, buf []byte) error {
	if err := readCount(payload, buf); err != nil {
		return err
	}
	kept := make([]byte, len(payload))
	copy(kept, payload)
	sinkBytes = kept
	return nil
}

// sinkBytes keeps readCopy's copy from being optimised away.
var sinkBytes []byte

// decode reads a payload with a new Decoder, as a client does per call.
func decode(payload []byte, reuse bool) error {
	return drain(streaming.NewDecoder(bytes.NewReader(payload)), reuse)
}

// decodeString reads a payload with a new Decoder from
// streaming.NewDecoderString, as a client holding a call's text does.
func decodeString(payload string, reuse bool) error {
	return drain(streaming.NewDecoderString(payload), reuse)
}

// drain reads all of a payload with d.
func drain(d *streaming.Decoder, reuse bool) error {
	d.ReuseRecord = reuse
	for {
		if _, err := d.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// longValues is a payload of n rows whose third value is size bytes of
// log text, like a file's contents on one line.
func longValues(n, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "GCX1 tool=read_logs fields=path,size,text rows=%d\n", n)
	for i := range n {
		var text strings.Builder
		for text.Len() < size {
			fmt.Fprintf(&text, "[%06d] request %d handled in %d ms; ", i, text.Len(), text.Len()%977)
		}
		fmt.Fprintf(&b, "logs/run_%d.log\t%d\t%s\n", i, size, text.String()[:size])
	}
	return b.Bytes()
}

// middleware returns a call of the server middleware in mode gcx around a
// handler that returns the case's result ready made.
func middleware(c scorecard.Case) (func() error, error) {
	next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(c.Response)}},
			StructuredContent: json.RawMessage(c.Response),
		}, nil
	}
	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeGCX,
		Tools: map[string]gcxmcp.ToolOptions{c.Name: {Name: c.Tool}}})
	if err != nil {
		return nil, err
	}
	handler := mw(next)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: c.Name, Meta: mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}}
	ctx := context.Background()
	return func() error {
		res, err := handler(ctx, "tools/call", req)
		if err != nil {
			return err
		}
		if r, ok := res.(*mcp.CallToolResult); !ok || len(r.Content) == 0 {
			return fmt.Errorf("no result")
		}
		return nil
	}, nil
}

// toolResult is a tools/call result as a server writes it: the value
// pretty-printed in the text block and compact as structuredContent.
func toolResult(c scorecard.Case) []byte {
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": string(c.Pretty)}},
		"structuredContent": json.RawMessage(c.Response),
	}})
	return msg
}

// proxyAnswer returns one tools/call through a proxy in mode gcx: the
// host's request, then the server's result, which the proxy rewrites.
func proxyAnswer(c scorecard.Case) (func() error, error) {
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		return nil, err
	}
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + c.Tool + `","arguments":{}}}`)
	result := toolResult(c)
	return func() error {
		p.FromHost(call)
		if out := p.FromUpstream(result); !bytes.Contains(out, []byte("GCX1 ")) {
			return fmt.Errorf("the proxy did not answer in GCX1")
		}
		return nil
	}, nil
}
