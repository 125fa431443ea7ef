// Package explore checks an implementation of GCX1 against the reference
// on generated cases, the way the conformance vectors check it on written
// ones: each case is made into a vector whose expected outcome is the
// reference's, and judged by the conformance runner's own comparison
// (conformance.CheckVector) at the level asked for. It goes on past a
// disagreement: the failing cases are grouped by what disagrees (a Key:
// the rule, the op, the aspect of the answer), disagreements listed as
// known are set apart, and each new one is shrunk to a small case that
// still disagrees the same way and handed back as a vector, ready to be
// added to the suite.
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
	// LaneCases is a floor under Time: a run goes on past Time until
	// every lane (lanesOf) has had this many cases, and until its first
	// pass over the committed vectors has run each as committed
	// (mutateCase), so that a loaded machine runs no fewer cases than a
	// quiet one would in part of the time, and no default run checks
	// less than the vectors do. Zero means no floor; Cases still bounds
	// the run.
	LaneCases int
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
	// Findings bounds the distinct new disagreements a run looks for: it
	// stops starting cases once it has found that many. Zero means
	// DefaultFindings.
	Findings int
	// Known lists disagreements already known: cases of them are counted
	// apart, never shrunk, and do not count against Findings.
	Known *Known
	// Observe, if set, is called with every case run — its number, the
	// category of the generator that drew it (a key of the generator
	// table, which is not always the vector's category: a near miss the
	// reference accepts is a decode vector), the case as a vector (whose
	// Rules say what it exercises) and how the implementation fared — one
	// call at a time, in no set order: a hook for reports by rule or by
	// generator, such as Coverage.
	Observe func(index int, generator string, v *conformance.Vector, res conformance.Result)
}

// DefaultTime is the time gcx explore spends on cases by default: in
// persistent mode, where a case costs some milliseconds, thousands of
// cases spread over the lanes of every category (lanesOf).
const DefaultTime = 10 * time.Second

// DefaultLaneCases is gcx explore's floor under DefaultTime, per lane
// (Options.LaneCases): with eight lanes 2,400 cases, which a quiet 2-core
// machine runs in well under DefaultTime in persistent mode
// (docs/conformance.md, "Planted bugs", measures it).
const DefaultLaneCases = 300

// DefaultFindings is the number of distinct new disagreements a run
// looks for by default; each costs a shrink.
const DefaultFindings = 20

// DefaultShrink is the number of candidates a shrink tries by default:
// each runs the program, so it bounds the time a finding takes.
const DefaultShrink = 400

// Report is what a run did.
type Report struct {
	Seed      uint64
	Cases     int            // cases run
	Agreed    int            // cases on which the implementation agreed with the reference
	Disagreed int            // cases on which it did not (new and known)
	Skipped   map[string]int // cases not run in full, by reason
	// Declined lists the ops the program declined on a trivial input
	// (exit status 2, as gcx conformance probes): no case of them is
	// generated, and a category all of whose ops are declined is left out.
	Declined []conformance.Op
	// DeclinedAuto lists the ops of the MCP binding the program declined
	// in auto mode alone (autoProbes): their cases keep the tool out of
	// auto mode.
	DeclinedAuto []conformance.Op
	ByOp         map[conformance.Op]int
	Elapsed      time.Duration
	// Findings are the new disagreements, one per Key, in the order of
	// their first case, each shrunk; empty when every case agreed or
	// disagreed only as known.
	Findings []*Finding
	// Known are the disagreements the run met that Options.Known lists,
	// one per Key, not shrunk.
	Known []*Finding
	// KnownCases are the known cases as the implementation now fares on
	// them: a case that agrees is fixed, and no longer marks its key.
	KnownCases []KnownCase
	// FindingsBound says the run stopped at Options.Findings new findings.
	FindingsBound bool
}

// Finding is a disagreement: the first case of its key as generated, and
// shrunk (a known one is not shrunk: File is Original).
type Finding struct {
	Key      Key
	Index    int // the first case's number in the run, from 0
	Cases    int // how many cases of the run disagreed with this key
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
	conformance.CategoryMCP:     (*gen).bindingCase,
}

// Generate returns case number i of a run with the seed: the same case
// for the same seed, categories and reference, whatever ran before it.
// It fails when the reference can judge none of a thousand draws (a
// reference without the ops of the categories).
func Generate(seed uint64, i int, categories []string, ref Reference) (Case, *conformance.File, error) {
	c, f, _, err := generate(seed, i, categories, ref, nil, nil)
	return c, f, err
}

// generate is Generate drawing only cases of ops not declined, and of
// ops declinedAuto none whose tool is in auto mode; it also returns the
// category of the generator that drew the case.
func generate(seed uint64, i int, categories []string, ref Reference, declined, declinedAuto map[conformance.Op]bool) (Case, *conformance.File, string, error) {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i))), tag: ref.Tag}
	if slices.Contains(categories, conformance.CategoryMCP) {
		g.seed, _ = conformance.BindingVectors()
	}
	// case i is drawn in lane i mod len(lanes): each lane its share
	if lanes := lanesOf(categories, declined); len(lanes) > 0 {
		l := lanes[i%len(lanes)]
		for try := range 1000 {
			c, category, mutated := g.laneCase(l, lanes, ref, seed, i, try, declined)
			if c.Op == "" || declined[c.Op] || (!mutated && l.op != "" && c.Op != l.op) || (declinedAuto[c.Op] && inAutoMode(c)) {
				continue
			}
			if f, err := ref.Expect(c); err == nil {
				return c, f, category, nil
			}
		}
	}
	return Case{}, nil, "", fmt.Errorf("explore: the reference of %s judges no case of %v", ref.Tag, categories)
}

// Run generates cases and checks impl on each; it groups the cases that
// disagree by Key, sets apart those opt.Known lists, and shrinks the first
// case of each new key. The run is deterministic for a seed when bounded
// by Cases: cases are numbered, and each finding is the lowest-numbered
// case of its key, whichever finished first.
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
	declinedAuto := map[conformance.Op]bool{}
	for _, op := range opsIn(categories) {
		if probe, ok := autoProbes[op]; ok && !declined[op] && declinesCase(impl, ref, probe) {
			declinedAuto[op] = true
			rep.DeclinedAuto = append(rep.DeclinedAuto, op)
		}
	}
	categories = slices.DeleteFunc(slices.Clone(categories), func(c string) bool {
		return !slices.ContainsFunc(opsOf[c], func(op conformance.Op) bool { return !declined[op] })
	})
	if len(categories) == 0 {
		rep.Elapsed = time.Since(start)
		return rep, nil
	}

	known, knownCases, err := prepareKnown(opt.Known, impl, level, ref.Tag)
	if err != nil {
		return nil, err
	}
	rep.KnownCases = knownCases
	maxFindings := opt.Findings
	if maxFindings <= 0 {
		maxFindings = DefaultFindings
	}

	type outcome struct {
		index  int
		kase   Case
		file   *conformance.File
		result conformance.Result
		key    Key
	}
	var (
		mu      sync.Mutex
		failed  []outcome
		newKeys = map[Key]bool{}
	)
	floor := 0
	if opt.LaneCases > 0 {
		lanes := lanesOf(categories, declined)
		floor = max(opt.LaneCases*len(lanes), firstSweepCases(len(sweepOf(ref.Tag, lanes, declined)), len(lanes)))
	}
	runIndexed(workers, opt.Cases, opt.Time, floor, start, func(i int) (stop bool) {
		c, f, generator, err := generate(opt.Seed, i, categories, ref, declined, declinedAuto)
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
		if opt.Observe != nil {
			opt.Observe(i, generator, &f.Vectors[0], res)
		}
		switch res.Status(level) {
		case conformance.Pass:
			rep.Agreed++
		case conformance.Skip:
			rep.Skipped[res.Detail]++
		default:
			key := KeyOf(&f.Vectors[0], res)
			failed = append(failed, outcome{i, c, f, res, key})
			if !known.match(key) {
				newKeys[key] = true
			}
			return len(newKeys) >= maxFindings
		}
		return false
	})
	rep.Elapsed = time.Since(start)
	rep.Disagreed = len(failed)
	sort.Slice(failed, func(a, b int) bool { return failed[a].index < failed[b].index })
	byKey := map[Key]*Finding{}
	for _, o := range failed {
		if f := byKey[o.key]; f != nil {
			f.Cases++
			continue
		}
		f := &Finding{Key: o.key, Index: o.index, Cases: 1, Original: o.file, File: o.file, Result: o.result}
		byKey[o.key] = f
		if known.match(o.key) {
			rep.Known = append(rep.Known, f)
			continue
		}
		if len(rep.Findings) == maxFindings {
			rep.FindingsBound = true
			delete(byKey, o.key) // beyond the bound: not reported
			continue
		}
		rep.Findings = append(rep.Findings, f)
	}
	for _, f := range rep.Findings {
		if o := failed[slices.IndexFunc(failed, func(o outcome) bool { return o.index == f.Index })]; o.result.Status(level) == conformance.Fail {
			shrinkFinding(f, o.kase, impl, ref, level, opt.Shrink)
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// shrinkFinding shrinks a finding's case while it still disagrees with
// the same key, so that it does not drift to another disagreement (a
// known one, say).
func shrinkFinding(f *Finding, c Case, impl conformance.Implementation, ref Reference, level conformance.Level, budget int) {
	s := &shrinker{
		budget: budget,
		best:   c,
		file:   f.File,
		result: f.Result,
		fails: func(c Case) (*conformance.File, conformance.Result, bool) {
			file, err := ref.Expect(c)
			if err != nil {
				return nil, conformance.Result{}, false
			}
			res := conformance.CheckVector(&file.Vectors[0], impl)
			return file, res, res.Status(level) == conformance.Fail && KeyOf(&file.Vectors[0], res) == f.Key
		},
	}
	if s.budget == 0 {
		s.budget = DefaultShrink
	}
	s.run()
	f.File, f.Result, f.Tries, f.Shrinks = s.file, s.result, s.tries, s.accepted
}

// opsOf lists the ops of each category's cases.
var opsOf = map[string][]conformance.Op{
	conformance.CategoryDecode:  {conformance.OpDecode},
	conformance.CategoryReject:  {conformance.OpDecode},
	conformance.CategoryEncode:  {conformance.OpEncode},
	conformance.CategoryJSON:    {conformance.OpJSONEncode, conformance.OpJSONDecode},
	conformance.CategoryVersion: {conformance.OpDecode, conformance.OpJSONDecode},
	conformance.CategoryMCP:     {conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy},
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
	conformance.OpMCPProxy:   {Op: conformance.OpMCPProxy, Input: []byte(`{"settings":{"mode":"off"},"request":{"name":"t"},"result":{"content":[]}}`)},
}

// autoProbes are the probes of auto mode, which a server or an
// intermediary without a tokenizer may decline alone, as gcx conformance
// tries them (docs/conformance.md, "The MCP binding's ops"): a program
// that exits 2 there is given no case whose tool is in auto mode.
var autoProbes = map[conformance.Op]Case{
	conformance.OpMCPServer: {Op: conformance.OpMCPServer, Input: []byte(`{"settings":{"mode":"auto"},"request":{"name":"t"},"result":{"content":[]}}`)},
	conformance.OpMCPProxy:  {Op: conformance.OpMCPProxy, Input: []byte(`{"settings":{"mode":"auto"},"request":{"name":"t"},"result":{"content":[]}}`)},
}

// declines reports whether impl declines op: the one-step probe of the op
// is skipped, as gcx conformance skips the vectors of an op a program
// exits 2 on.
func declines(impl conformance.Implementation, ref Reference, op conformance.Op) bool {
	return declinesCase(impl, ref, probes[op])
}

// declinesCase reports whether impl skips the probe c.
func declinesCase(impl conformance.Implementation, ref Reference, c Case) bool {
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
// start (0: none) and floor have been handed out, or a call returns true.
// Calls already begun finish.
func runIndexed(workers, cases int, limit time.Duration, floor int, start time.Time, do func(i int) (stop bool)) {
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
		if stopped.Load() || (limit > 0 && i >= floor && time.Since(start) >= limit) {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

// First returns the first new finding, or nil when there is none.
func (r *Report) First() *Finding {
	if len(r.Findings) == 0 {
		return nil
	}
	return r.Findings[0]
}

// firstSweepCases is how many cases a run over lanes lanes takes before
// its mutated cases (sweepSlot) have taken each of sweep vectors once,
// which the first pass does as committed.
func firstSweepCases(sweep, lanes int) int {
	if sweep == 0 || lanes == 0 {
		return 0
	}
	slots := (sweep + lanes - 1) / lanes // mutated cases a lane needs
	k := 0                               // cases of a lane
	for taken := 0; taken < slots; k++ {
		if _, mutated := sweepSlot(k); mutated {
			taken++
		}
	}
	return k * lanes
}
