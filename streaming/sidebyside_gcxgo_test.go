//go:build gcxgo

// This file compares the decoder and the encoder with the published GCX1 Go
// package, github.com/gortexhq/gcx-go, side by side in one run. That
// package's code is not in this repository: `go run ./tools/vsgcxgo`
// lays a checkout of it over internal/gcxgo with `go test -overlay` and
// runs TestSideBySide, so nothing of it is copied or downloaded here.

package streaming

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	gcxgo "github.com/gcxwire/gcx/internal/gcxgo"
	"github.com/gcxwire/gcx/spec"
)

var (
	vsRounds = flag.Int("vs.rounds", 7, "interleaved rounds of every contender")
	vsTime   = flag.Duration("vs.time", 150*time.Millisecond, "time each contender runs per round")
	vsShapes = flag.String("vs.shapes", "", "regexp selecting the shapes (default all)")
	vsClock  = flag.String("vs.clock", "cpu", "what a run costs: cpu, the process's CPU time (user and system, every thread, so the collector's work counts), or wall")
)

// now returns the clock TestSideBySide measures with. CPU time is the
// default because these machines are shared: while other work holds the
// processors, wall time grows for reasons of its own and CPU time far
// less.
func now() time.Duration {
	if *vsClock == "wall" {
		return time.Duration(time.Now().UnixNano())
	}
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// contender is one way to decode or encode a payload: the function
// prepare returns does it once. What prepare builds lives only while the
// contender runs, so that no contender's fixture weighs on another's
// garbage collections.
type contender struct {
	name    string
	prepare func() func(tb testing.TB)
}

// measured is one contender's time per payload and allocations per
// payload in one round.
type measured struct {
	ns, allocs float64
}

// measure runs c until at least d has passed, after one warm-up run, and
// returns its time and allocations per run.
func measure(tb testing.TB, c contender, d time.Duration) measured {
	run := c.prepare()
	run(tb)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	start := now()
	for now()-start < d || n < 3 {
		run(tb)
		n++
	}
	elapsed := now() - start
	runtime.ReadMemStats(&after)
	return measured{ns: float64(elapsed.Nanoseconds()) / float64(n), allocs: float64(after.Mallocs-before.Mallocs) / float64(n)}
}

func gcxgoDecode(data *benchData) func() func(testing.TB) {
	return func() func(testing.TB) {
		return func(tb testing.TB) {
			d := gcxgo.NewDecoder(bytes.NewReader(data.gcx))
			rows := 0
			for {
				_, err := d.NextRow()
				if err == io.EOF {
					break
				}
				if err != nil {
					tb.Fatal(err)
				}
				rows++
			}
			if rows != data.rows {
				tb.Fatalf("gcx-go read %d rows, want %d", rows, data.rows)
			}
		}
	}
}

func streamingDecode(data *benchData, reuse bool) func() func(testing.TB) {
	return func() func(testing.TB) {
		return func(tb testing.TB) {
			d := NewDecoder(bytes.NewReader(data.gcx))
			d.ReuseRecord = reuse
			for {
				if _, err := d.Next(); err != nil {
					if err != io.EOF {
						tb.Fatal(err)
					}
					return
				}
			}
		}
	}
}

func floorCount(data *benchData) func() func(testing.TB) {
	return func() func(testing.TB) {
		return func(tb testing.TB) {
			if bytes.Count(data.gcx, []byte{'\t'})+bytes.Count(data.gcx, []byte{'\n'}) == 0 {
				tb.Fatal("nothing counted")
			}
		}
	}
}

// model decodes the payload again, for an encoder to write: the fixture
// keeps only the payload's bytes.
func model(data *benchData) *spec.Section {
	p, err := Decode(bytes.NewReader(data.gcx), spec.DefaultLimits)
	if err != nil {
		panic(err)
	}
	return &p.Sections[0]
}

func gcxgoEncode(data *benchData) func() func(testing.TB) {
	return func() func(testing.TB) {
		s := model(data)
		rows := make([][]any, len(s.Rows))
		for i, row := range s.Rows {
			rows[i] = make([]any, len(row))
			for k, v := range row {
				rows[i][k] = v
			}
		}
		meta := map[string]string{}
		for _, m := range s.Meta {
			meta[m.Key] = m.Value
		}
		return func(tb testing.TB) {
			e := gcxgo.NewEncoder(io.Discard, gcxgo.Header{Tool: s.Tool, Fields: s.Fields, Meta: meta})
			for _, row := range rows {
				if err := e.WriteRow(row...); err != nil {
					tb.Fatal(err)
				}
			}
			if err := e.Close(); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

func streamingEncode(data *benchData) func() func(testing.TB) {
	return func() func(testing.TB) {
		s := model(data)
		return func(tb testing.TB) {
			e := NewEncoder(io.Discard)
			if err := e.WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields, Meta: s.Meta}); err != nil {
				tb.Fatal(err)
			}
			for _, row := range s.Rows {
				if err := e.WriteRow(row); err != nil {
					tb.Fatal(err)
				}
			}
			if err := e.Close(); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// TestSideBySide measures every contender on every shape in interleaved
// rounds — round r runs each contender of a shape once, in turn — and
// reports per shape the median over rounds of each ratio taken within a
// round, so that load which comes and goes weighs on both sides of a ratio
// alike. One shape's fixture is live at a time.
func TestSideBySide(t *testing.T) {
	selected := regexp.MustCompile(*vsShapes)
	type shape struct {
		data      *benchData
		contender []contender
	}
	var shapes []shape
	for _, build := range benchSet {
		data := build()
		if !selected.MatchString(data.name) {
			continue
		}
		data.model, data.json = nil, nil
		shapes = append(shapes, shape{data: data, contender: []contender{
			{"gcx-go decode", gcxgoDecode(data)},
			{"reuse", streamingDecode(data, true)},
			{"fresh", streamingDecode(data, false)},
			{"floor", floorCount(data)},
			{"gcx-go encode", gcxgoEncode(data)},
			{"encode", streamingEncode(data)},
		}})
	}
	results := make([][][]measured, len(shapes)) // shape, contender, round
	for i := range shapes {
		results[i] = make([][]measured, len(shapes[i].contender))
	}
	for i, s := range shapes {
		for range *vsRounds {
			for k, c := range s.contender {
				results[i][k] = append(results[i][k], measure(t, c, *vsTime))
			}
		}
	}
	median := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		if n := len(xs); n%2 == 1 {
			return xs[n/2]
		} else {
			return (xs[n/2-1] + xs[n/2]) / 2
		}
	}
	// ratio returns the median over rounds of a's time over b's.
	ratio := func(a, b []measured) float64 {
		r := make([]float64, len(a))
		for i := range a {
			r[i] = a[i].ns / b[i].ns
		}
		return median(r)
	}
	perRow := func(m []measured, rows int) (ns, allocs float64) {
		t := make([]float64, len(m))
		for i := range m {
			t[i] = m[i].ns
		}
		return median(t) / float64(rows), m[len(m)-1].allocs / float64(rows)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "shape\trows\tbytes/row\tgcx-go ns/row\treuse ns/row\tfresh ns/row\tfresh allocs/row\treuse vs gcx-go\tfresh vs gcx-go\tfresh/reuse\treuse/floor\tgcx-go enc ns/row\tenc ns/row\tenc vs gcx-go\t\n")
	for i, s := range shapes {
		r := results[i]
		rows := s.data.rows
		g, _ := perRow(r[0], rows)
		reuse, _ := perRow(r[1], rows)
		fresh, freshAllocs := perRow(r[2], rows)
		ge, _ := perRow(r[4], rows)
		enc, _ := perRow(r[5], rows)
		fmt.Fprintf(w, "%s\t%d\t%d\t%.0f\t%.1f\t%.1f\t%.3f\t%.1f×\t%.1f×\t%.2f\t%.1f\t%.0f\t%.1f\t%.1f×\t\n",
			s.data.name, rows, len(s.data.gcx)/rows, g, reuse, fresh, freshAllocs,
			ratio(r[0], r[1]), ratio(r[0], r[2]), ratio(r[2], r[1]), ratio(r[1], r[3]),
			ge, enc, ratio(r[4], r[5]))
	}
	w.Flush()
	fmt.Printf("\n%s time; %d interleaved rounds of %v per contender; a ratio is the median of the per-round ratios, \"X vs gcx-go\" being gcx-go's time over X's; %s, GOMAXPROCS %d\n",
		*vsClock, *vsRounds, *vsTime, runtime.Version(), runtime.GOMAXPROCS(0))
}
