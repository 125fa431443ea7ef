// Package explore checks an implementation of GCX1 against the reference
// on generated cases, the way the conformance vectors check it on written
// ones: each case is made into a vector whose expected outcome is the
// reference's, and judged by the conformance runner's own comparison
// (conformance.CheckVector) at the level asked for. On the first
// disagreement it shrinks the case to a small one that still disagrees
// and hands it back as a vector, ready to be added to the suite.
//
// The generators are small and seeded (math/rand/v2), so a run is
// repeatable from its seed, and programs built on this package (gcx
// explore) link no test gear.
package explore

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/spec"
)

// Options bound and steer a run.
type Options struct {
	Seed uint64
	// Cases bounds the cases run; Time the wall time spent generating and
	// running them (shrinking comes after). Zero means no bound of that
	// kind; Run needs at least one.
	Cases int
	Time  time.Duration
	// Categories selects the generators by the category of vectors they
	// make (conformance.Categories); empty means every category.
	Categories []string
	// Level decides what counts as a disagreement; zero means Diagnostic.
	Level conformance.Level
	// Parallel bounds the cases run at once; zero means GOMAXPROCS.
	Parallel int
	// Shrink bounds the candidates tried while shrinking; zero means
	// DefaultShrink, a negative number no shrinking.
	Shrink int
	// Reference computes the expected outcomes; zero means GCX1().
	Reference Reference
}

// DefaultShrink is the number of candidates a shrink tries by default:
// each runs the program, so it bounds the time a finding takes.
const DefaultShrink = 400

// Report is what a run did.
type Report struct {
	Seed    uint64
	Cases   int            // cases run
	Agreed  int            // cases on which the implementation agreed with the reference
	Skipped map[string]int // cases not run in full, by reason
	// Declined lists the ops the program declined on a trivial input
	// (exit status 2, as gcx conformance probes): no case of them is
	// generated, and a category all of whose ops are declined is left out.
	Declined []conformance.Op
	ByOp     map[conformance.Op]int
	Elapsed  time.Duration
	// Finding is the first disagreement, shrunk; nil when every case agreed.
	Finding *Finding
}

// Finding is a disagreement: the case as generated, and shrunk.
type Finding struct {
	Index    int // the case's number in the run, from 0
	Original *conformance.File
	// File holds the shrunk case as a one-vector file of the vectors
	// format, and Result how the implementation fared on it.
	File   *conformance.File
	Result conformance.Result
	// Tries and Shrinks count the candidates tried and kept.
	Tries, Shrinks int
}

// Vector returns the shrunk case's vector.
func (f *Finding) Vector() *conformance.Vector { return &f.File.Vectors[0] }

// generators maps a category to the generator of its cases.
var generators = map[string]func(*gen, Reference) Case{
	conformance.CategoryDecode:  (*gen).decodeCase,
	conformance.CategoryReject:  (*gen).rejectCase,
	conformance.CategoryEncode:  (*gen).encodeCase,
	conformance.CategoryJSON:    (*gen).jsonCase,
	conformance.CategoryVersion: (*gen).versionCase,
	conformance.CategoryMCP:     (*gen).mcpCase,
}

// Generate returns case number i of a run with the seed: the same case
// for the same seed, categories and reference, whatever ran before it.
// It fails when the reference can judge none of a thousand draws (a
// reference without the ops of the categories).
func Generate(seed uint64, i int, categories []string, ref Reference) (Case, *conformance.File, error) {
	return generate(seed, i, categories, ref, nil)
}

// generate is Generate drawing only cases of ops not declined.
func generate(seed uint64, i int, categories []string, ref Reference, declined map[conformance.Op]bool) (Case, *conformance.File, error) {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i))), tag: ref.Tag}
	if slices.Contains(categories, conformance.CategoryMCP) {
		g.seed, _ = conformance.BindingVectors()
	}
	for range 1000 {
		c := generators[pick(g, categories)](g, ref)
		if c.Op == "" || declined[c.Op] {
			continue
		}
		if f, err := ref.Expect(c); err == nil {
			return c, f, nil
		}
	}
	return Case{}, nil, fmt.Errorf("explore: the reference of %s judges no case of %v", ref.Tag, categories)
}

// Run generates cases, checks impl on each and, on the first
// disagreement, shrinks it. The run is deterministic for a seed when
// bounded by Cases: cases are numbered, and the finding is the
// lowest-numbered disagreement, whichever finished first.
func Run(impl conformance.Implementation, opt Options) (*Report, error) {
	if opt.Cases <= 0 && opt.Time <= 0 {
		return nil, errors.New("explore: bound the run by cases or time")
	}
	ref := opt.Reference
	if ref.Impl.Decode == nil && ref.Impl.EncodeJSON == nil {
		ref = GCX1()
	}
	categories := opt.Categories
	if len(categories) == 0 {
		categories = conformance.Categories
	}
	if ref.Tag != spec.Version {
		// the binding and the version category are GCX1's own
		categories = slices.DeleteFunc(slices.Clone(categories), func(c string) bool {
			return c == conformance.CategoryMCP || c == conformance.CategoryVersion
		})
	}
	for _, c := range categories {
		if generators[c] == nil {
			return nil, fmt.Errorf("explore: no category %q", c)
		}
	}
	level := opt.Level
	if level == 0 {
		level = conformance.Diagnostic
	}
	workers := opt.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	rep := &Report{Seed: opt.Seed, Skipped: map[string]int{}, ByOp: map[conformance.Op]int{}}
	declined := map[conformance.Op]bool{}
	for _, op := range opsIn(categories) {
		if declines(impl, ref, op) {
			declined[op] = true
			rep.Declined = append(rep.Declined, op)
		}
	}
	categories = slices.DeleteFunc(slices.Clone(categories), func(c string) bool {
		return !slices.ContainsFunc(opsOf[c], func(op conformance.Op) bool { return !declined[op] })
	})
	if len(categories) == 0 {
		rep.Elapsed = time.Since(start)
		return rep, nil
	}

	type outcome struct {
		index  int
		kase   Case
		file   *conformance.File
		result conformance.Result
	}
	var (
		mu     sync.Mutex
		failed []outcome
	)
	runIndexed(workers, opt.Cases, opt.Time, start, func(i int) (stop bool) {
		c, f, err := generate(opt.Seed, i, categories, ref, declined)
		if err != nil {
			mu.Lock()
			rep.Skipped[err.Error()]++
			mu.Unlock()
			return true
		}
		res := conformance.CheckVector(&f.Vectors[0], impl)
		mu.Lock()
		defer mu.Unlock()
		rep.Cases++
		rep.ByOp[c.Op]++
		switch res.Status(level) {
		case conformance.Pass:
			rep.Agreed++
		case conformance.Skip:
			rep.Skipped[res.Detail]++
		case conformance.Fail:
			failed = append(failed, outcome{i, c, f, res})
			return true
		}
		return false
	})
	rep.Elapsed = time.Since(start)
	if len(failed) == 0 {
		return rep, nil
	}
	sort.Slice(failed, func(a, b int) bool { return failed[a].index < failed[b].index })
	first := failed[0]
	s := &shrinker{
		budget: opt.Shrink,
		best:   first.kase,
		file:   first.file,
		result: first.result,
		fails: func(c Case) (*conformance.File, conformance.Result, bool) {
			f, err := ref.Expect(c)
			if err != nil {
				return nil, conformance.Result{}, false
			}
			res := conformance.CheckVector(&f.Vectors[0], impl)
			return f, res, res.Status(level) == conformance.Fail
		},
	}
	if s.budget == 0 {
		s.budget = DefaultShrink
	}
	s.run()
	rep.Finding = &Finding{Index: first.index, Original: first.file, File: s.file, Result: s.result, Tries: s.tries, Shrinks: s.accepted}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// opsOf lists the ops of each category's cases.
var opsOf = map[string][]conformance.Op{
	conformance.CategoryDecode:  {conformance.OpDecode},
	conformance.CategoryReject:  {conformance.OpDecode},
	conformance.CategoryEncode:  {conformance.OpEncode},
	conformance.CategoryJSON:    {conformance.OpJSONEncode, conformance.OpJSONDecode},
	conformance.CategoryVersion: {conformance.OpDecode, conformance.OpJSONDecode},
	conformance.CategoryMCP:     {conformance.OpMCPServer, conformance.OpMCPClient},
}

func opsIn(categories []string) []conformance.Op {
	var ops []conformance.Op
	for _, c := range categories {
		for _, op := range opsOf[c] {
			if !slices.Contains(ops, op) {
				ops = append(ops, op)
			}
		}
	}
	return ops
}

// probes are trivial cases of one step each, one per op: a payload
// without its final LF, a view, JSON that does not parse, a JSON result
// and the binding's probes of gcx conformance.
var probes = map[conformance.Op]Case{
	conformance.OpDecode:     {Op: conformance.OpDecode, Input: []byte("GCX1 tool=t fields=a\nx")},
	conformance.OpEncode:     {Op: conformance.OpEncode, Input: []byte(`{"sections":[{"tool":"t","fields":["a"]}]}`)},
	conformance.OpJSONEncode: {Op: conformance.OpJSONEncode, Input: []byte("["), Tool: "t", Mode: "gcx"},
	conformance.OpJSONDecode: {Op: conformance.OpJSONDecode, Input: []byte("[]")},
	conformance.OpMCPServer:  {Op: conformance.OpMCPServer, Input: []byte(`{"settings":{"mode":"off"},"request":{"name":"t"},"result":{"content":[]}}`)},
	conformance.OpMCPClient:  {Op: conformance.OpMCPClient, Input: []byte(`{"answers":[{"content":[]}]}`)},
}

// declines reports whether impl declines op: the one-step probe of the op
// is skipped, as gcx conformance skips the vectors of an op a program
// exits 2 on.
func declines(impl conformance.Implementation, ref Reference, op conformance.Op) bool {
	c := probes[op]
	if ref.Tag != spec.Version && c.Op == conformance.OpDecode {
		c.Input = []byte(ref.Tag + strings.TrimPrefix(string(c.Input), spec.Version))
	}
	f, err := ref.Expect(c)
	if err != nil {
		return true // the reference has no such op
	}
	res := conformance.CheckVector(&f.Vectors[0], impl)
	return res.Core == conformance.Skip
}

// runIndexed calls do with 0, 1, 2, ... on workers goroutines at once,
// until cases have been handed out (none: no bound), limit has passed since
// start (0: none), or a call returns true. Calls already begun finish.
func runIndexed(workers, cases int, limit time.Duration, start time.Time, do func(i int) (stop bool)) {
	var stopped atomic.Bool
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if do(i) {
					stopped.Store(true)
				}
			}
		})
	}
	for i := 0; cases <= 0 || i < cases; i++ {
		if stopped.Load() || (limit > 0 && time.Since(start) >= limit) {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}
