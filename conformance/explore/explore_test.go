package explore_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/explore"
	"github.com/gcxwire/gcx/internal/deep"
	"github.com/gcxwire/gcx/spec"
)

// TestReferenceAgreesWithItself runs the built-in implementations against
// the cases: each must agree with the reference on every one, or the
// generators make cases the reference judges two ways. The cases are
// drawn once, by a run against the first, and checked against the others
// as that run's vectors: drawing a case and computing what the reference
// expects costs several times what checking it does.
func TestReferenceAgreesWithItself(t *testing.T) {
	cases := 400
	if testing.Short() {
		cases = 100
	}
	impls := conformance.BuiltIn()
	var vectors []*conformance.Vector
	rep, err := explore.Run(impls[0], explore.Options{Seed: 1, Cases: cases, Observe: func(_ int, _ string, v *conformance.Vector, _ conformance.Result) {
		vectors = append(vectors, v)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Run(impls[0].Name, func(t *testing.T) {
		if f := rep.First(); f != nil {
			t.Fatalf("disagreement on case %d: %s\n%s", f.Index, f.Vector().Input, f.Result.Detail)
		}
		if rep.Agreed != cases || len(vectors) != cases {
			t.Errorf("%d of %d cases agreed (%d observed), skips %v", rep.Agreed, cases, len(vectors), rep.Skipped)
		}
		for _, op := range []conformance.Op{conformance.OpDecode, conformance.OpEncode, conformance.OpJSONEncode,
			conformance.OpJSONDecode, conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy} {
			if rep.ByOp[op] == 0 {
				t.Errorf("no case of op %s among %d: %v", op, cases, rep.ByOp)
			}
		}
	})
	for _, impl := range impls[1:] {
		t.Run(impl.Name, func(t *testing.T) {
			for _, v := range vectors {
				if res := conformance.CheckVector(v, impl); res.Diagnostic != conformance.Pass {
					t.Fatalf("disagreement on %s: %s\n%s", v.Name(), v.Input, res.Detail)
				}
			}
		})
	}
}

// TestGeneratedCasesAreVectors checks that every generated case is a
// vector the format accepts, written and read back, and that a seed gives
// the same cases every time.
func TestGeneratedCasesAreVectors(t *testing.T) {
	ref := explore.GCX1()
	outcomes := map[string]int{}
	for i := range 300 {
		c, f, err := explore.Generate(7, i, conformance.Categories, ref)
		if err != nil {
			t.Fatal(err)
		}
		again, _, _ := explore.Generate(7, i, conformance.Categories, ref)
		if !bytes.Equal(c.Input, again.Input) || c.Op != again.Op {
			t.Fatalf("case %d differs between two draws of one seed", i)
		}
		b, err := conformance.Format(f)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if _, err := conformance.ParseFile(b); err != nil {
			t.Fatalf("case %d does not read back: %v\n%s", i, err, b)
		}
		v := &f.Vectors[0]
		kind := f.Category + " accepts"
		if !v.Accepts() {
			kind = f.Category + " refuses"
		}
		outcomes[kind]++
	}
	for _, want := range []string{"decode accepts", "reject refuses", "encode accepts", "encode refuses",
		"json accepts", "json refuses", "version refuses", "version accepts", "mcp accepts"} {
		if outcomes[want] == 0 {
			t.Errorf("no case of kind %q among %v", want, outcomes)
		}
	}
}

// planted wraps the streaming implementation with one bug each, of the
// kinds the vectors were written against but on inputs no vector holds.
// A bug marked late is first met past case 3,000 of seed 1: its run is a
// long proof (TestFindsLatePlantedBugs).
var planted = []struct {
	name string
	late bool
	make func(conformance.Implementation) conformance.Implementation
}{
	{"encoder guards no value beginning GCX2", false, func(impl conformance.Implementation) conformance.Implementation {
		encode := impl.Encode
		impl.Encode = func(view []byte) ([]byte, error) {
			out, err := encode(view)
			return bytes.ReplaceAll(out, []byte("\n\\GCX2"), []byte("\nGCX2")), err
		}
		return impl
	}},
	{"decoder reports rows= mismatches one column right", false, func(impl conformance.Implementation) conformance.Implementation {
		decode := impl.Decode
		impl.Decode = func(payload []byte, limits conformance.Limits) (*spec.Payload, error) {
			p, err := decode(payload, limits)
			var e *spec.Error
			if errors.As(err, &e) && e.Rule == "META-4" {
				e.Column++
				e.Offset++
			}
			return p, err
		}
		return impl
	}},
	{"JSON decoder drops empty strings in arrays", true, func(impl conformance.Implementation) conformance.Implementation {
		decode := impl.DecodeJSON
		impl.DecodeJSON = func(result []byte, limits conformance.Limits) ([]byte, error) {
			out, err := decode(result, limits)
			return bytes.ReplaceAll(out, []byte(`,""]`), []byte(`]`)), err
		}
		return impl
	}},
}

// TestFindsPlantedBugs shows that explore finds each planted bug within
// 4,000 cases, as a quiet machine's default run does, and shrinks it to a
// vector that fails the buggy implementation and passes the reference.
// The run stops at its first finding (the lowest-numbered case that
// disagrees, one case at a time): the cases after it could not change
// what is checked.
func TestFindsPlantedBugs(t *testing.T) {
	findPlantedBugs(t, false)
}

// TestFindsLatePlantedBugs is TestFindsPlantedBugs for the bugs the run
// meets late, a long proof (GCX_DEEP=1; .ci/run sets it).
func TestFindsLatePlantedBugs(t *testing.T) {
	deep.Skip(t, "explore finds the planted bugs it meets past case 3,000")
	findPlantedBugs(t, true)
}

func findPlantedBugs(t *testing.T, late bool) {
	for _, bug := range planted {
		if bug.late != late {
			continue
		}
		t.Run(bug.name, func(t *testing.T) {
			buggy := bug.make(conformance.Streaming())
			rep, err := explore.Run(buggy, explore.Options{Seed: 1, Cases: 4000, Parallel: 1, Findings: 1})
			if err != nil {
				t.Fatal(err)
			}
			f := rep.First()
			if f == nil {
				t.Fatalf("not found in %d cases", rep.Cases)
			}
			v := f.Vector()
			if len(v.Input) > len(f.Original.Vectors[0].Input) {
				t.Errorf("the shrunk case is larger than the original")
			}
			if res := conformance.CheckVector(v, buggy); res.Diagnostic != conformance.Fail {
				t.Errorf("the shrunk case passes the buggy implementation")
			}
			for _, impl := range conformance.BuiltIn() {
				if res := conformance.CheckVector(v, impl); res.Diagnostic != conformance.Pass {
					t.Errorf("the shrunk case fails %s: %s", impl.Name, res.Detail)
				}
			}
			t.Logf("found at case %d, shrunk from %d to %d bytes in %d tries: %q",
				f.Index, len(f.Original.Vectors[0].Input), len(v.Input), f.Tries, v.Input)
		})
	}
}

// TestRunIsDeterministic runs one seed twice, in parallel, against a
// planted bug: the same case is found and shrunk the same way, though the
// run stops at its first finding while other cases are still running.
func TestRunIsDeterministic(t *testing.T) {
	buggy := planted[0].make(conformance.Streaming())
	var inputs []string
	for range 2 {
		rep, err := explore.Run(buggy, explore.Options{Seed: 3, Cases: 2000, Parallel: 4, Findings: 1, Categories: []string{"encode", "decode"}})
		if err != nil || rep.First() == nil {
			t.Fatalf("no finding: %v", err)
		}
		inputs = append(inputs, string(rep.First().Vector().Input))
	}
	if inputs[0] != inputs[1] {
		t.Errorf("two runs of one seed shrank to %q and %q", inputs[0], inputs[1])
	}
}

// TestLaneCasesFloorTime checks that a run bounded by time goes on past it
// until every lane has had its floor of cases (Options.LaneCases), as a
// loaded machine must, and until its first pass has run every committed
// vector of its lanes (TestFirstSweepCasesCoverTheSweep counts those
// cases), and that Cases still bounds it.
func TestLaneCasesFloorTime(t *testing.T) {
	categories := []string{"decode", "mcp"} // four lanes: decode and the binding's three ops
	// a floor of 5 a lane is less than the first pass over the lanes'
	// hundreds of vectors takes
	rep, err := explore.Run(conformance.Streaming(), explore.Options{Seed: 2, Time: time.Nanosecond, LaneCases: 5, Categories: categories})
	if err != nil {
		t.Fatal(err)
	}
	firstPass := rep.Cases
	if firstPass <= 20 || firstPass >= 800 {
		t.Errorf("%d cases under a floor of 5 a lane: want the first pass's, more than 20 and under 800", firstPass)
	}
	// a floor above the first pass is what the run takes
	floor := firstPass/4 + 1
	rep, err = explore.Run(conformance.Streaming(), explore.Options{Seed: 2, Time: time.Nanosecond, LaneCases: floor, Categories: categories})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 4*floor {
		t.Errorf("%d cases past a time already spent, want the floor of %d a lane in 4 lanes, %d", rep.Cases, floor, 4*floor)
	}
	rep, err = explore.Run(conformance.Streaming(), explore.Options{Seed: 2, Time: time.Nanosecond, Cases: 6, LaneCases: 5, Categories: categories})
	if err != nil || rep.Cases != 6 {
		t.Errorf("bounded by 6 cases under a floor of 20: %d cases, %v", rep.Cases, err)
	}
}

func TestRunNeedsABound(t *testing.T) {
	if _, err := explore.Run(conformance.Streaming(), explore.Options{}); err == nil || !strings.Contains(err.Error(), "bound") {
		t.Errorf("unbounded run: %v", err)
	}
	if _, err := explore.Run(conformance.Streaming(), explore.Options{Cases: 1, Categories: []string{"nope"}}); err == nil {
		t.Error("an unknown category is accepted")
	}
}

// twoBugs is the streaming implementation with the first two planted bugs
// at once: an encoder that does not guard GCX2, and a decoder whose
// [META-4] column is one off.
func twoBugs() conformance.Implementation {
	return planted[1].make(planted[0].make(conformance.Streaming()))
}

// TestKnownDisagreementsDoNotBlind shows that a run goes on past a
// disagreement: with two bugs it reports both, each shrunk to a case of
// its own key; told that one is known, as a rule or as its shrunk case,
// it reports that one apart and still finds the other. The runs stop at
// the findings they look for: with seed 1 the [META-4] bug's first case
// comes before the other bug's, so a run that goes on past it finds two,
// and one told it is known stops at the other.
func TestKnownDisagreementsDoNotBlind(t *testing.T) {
	opt := explore.Options{Seed: 1, Cases: 1500, Categories: []string{"decode", "reject", "encode"}, Shrink: 100, Findings: 2}
	rep, err := explore.Run(twoBugs(), opt)
	if err != nil {
		t.Fatal(err)
	}
	byRule := map[string]*explore.Finding{}
	for _, f := range rep.Findings {
		byRule[f.Key.Rule] = f
		if got := explore.KeyOf(f.Vector(), conformance.CheckVector(f.Vector(), twoBugs())); got != f.Key {
			t.Errorf("the shrunk case of %v disagrees as %v", f.Key, got)
		}
	}
	t.Logf("findings: %v", keys(rep.Findings))
	meta := byRule["META-4"]
	if meta == nil || len(rep.Findings) < 2 || len(rep.Known) != 0 {
		t.Fatalf("want the [META-4] bug and the encoder's among the findings, got %v", keys(rep.Findings))
	}
	if meta.Key.Aspect != "error column" {
		t.Errorf("the [META-4] bug's aspect is %q", meta.Key.Aspect)
	}

	metaCase, err := explore.ReadKnown(strings.NewReader(string(mustFormat(t, meta.File))))
	if err != nil {
		t.Fatal(err)
	}
	for name, known := range map[string]*explore.Known{
		"rule": {Rules: []explore.KnownRule{{Rule: "META-4"}}},
		"case": metaCase,
	} {
		t.Run(name, func(t *testing.T) {
			opt := opt
			opt.Known = known
			opt.Findings = 1
			rep, err := explore.Run(twoBugs(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Known) != 1 || rep.Known[0].Key != meta.Key {
				t.Errorf("known: %v, want %v", keys(rep.Known), meta.Key)
			}
			for _, f := range rep.Findings {
				if f.Key == meta.Key {
					t.Errorf("the known disagreement is reported as new")
				}
			}
			if len(rep.Findings) == 0 {
				t.Fatal("the known disagreement hides the other bug")
			}
			if name == "case" && (len(rep.KnownCases) != 1 || rep.KnownCases[0].Status != conformance.Fail) {
				t.Errorf("the known case: %+v", rep.KnownCases)
			}
		})
	}

	// Bounded by findings: the run stops at the first.
	opt.Findings = 1
	rep, err = explore.Run(twoBugs(), opt)
	if err != nil || len(rep.Findings) != 1 || rep.Cases == opt.Cases {
		t.Errorf("--findings 1: %d findings in %d cases (%v)", len(rep.Findings), rep.Cases, err)
	}
}

func keys(fs []*explore.Finding) []explore.Key {
	var out []explore.Key
	for _, f := range fs {
		out = append(out, f.Key)
	}
	return out
}

func mustFormat(t *testing.T, f *conformance.File) []byte {
	t.Helper()
	b, err := conformance.Format(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadKnown(t *testing.T) {
	k, err := explore.ReadKnown(strings.NewReader(`{"rule":"META-4"}` + "\n" + `{"rule":"ROW-2","op":"decode","note":"the guard"}` + "\n"))
	if err != nil || len(k.Rules) != 2 || k.Rules[1].Op != conformance.OpDecode {
		t.Errorf("rules: %+v, %v", k, err)
	}
	for _, bad := range []string{`{"rule":""}`, `{"rules":"X"}`, `[1]`, `{"vectors":[]}`, `{"rule":"A"} x`} {
		if _, err := explore.ReadKnown(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// Observe sees every case run, once, with the rules its vector names.
func TestObserveSeesEveryCase(t *testing.T) {
	seen := map[int]bool{}
	rules := map[string]int{}
	rep, err := explore.Run(conformance.Streaming(), explore.Options{Seed: 2, Cases: 200, Observe: func(i int, generator string, v *conformance.Vector, res conformance.Result) {
		if seen[i] {
			t.Errorf("case %d observed twice", i)
		}
		seen[i] = true
		if !slices.Contains(conformance.Categories, generator) {
			t.Errorf("case %d: generator %q is no category", i, generator)
		}
		for _, r := range v.Rules {
			rules[r]++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != rep.Cases || rep.Cases != 200 || len(rules) < 5 {
		t.Errorf("observed %d of %d cases, rules %v", len(seen), rep.Cases, rules)
	}
}

// A case that times out is its own finding, "timed out", and is not
// shrunk: every try would wait as long.
func TestTimeoutIsAFindingOfItsOwn(t *testing.T) {
	impl := conformance.Streaming()
	decode := impl.Decode
	impl.Decode = func(payload []byte, limits conformance.Limits) (*spec.Payload, error) {
		if bytes.Contains(payload, []byte("#")) {
			return nil, &conformance.CommandError{Argv: []string{"slow"}, Status: -1, Timeout: time.Second, Cause: errors.New("timed out after 1s")}
		}
		return decode(payload, limits)
	}
	rep, err := explore.Run(impl, explore.Options{Seed: 1, Cases: 300, Categories: []string{"decode"}, Findings: 1})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.First()
	if f == nil || f.Key.Aspect != "timed out" || f.Result.Diagnostic != conformance.Timeout || f.Tries != 0 {
		t.Fatalf("findings %v", keys(rep.Findings))
	}
}

// Coverage counts each case once per rule its vector cites, under the
// generator that drew it, and agrees with what Observe saw.
func TestCoverageCountsRulesByGenerator(t *testing.T) {
	var cov explore.Coverage
	byRule := map[string]int{}
	rep, err := explore.Run(conformance.Streaming(), explore.Options{Seed: 3, Cases: 120, Categories: []string{"reject", "json"}, Observe: func(i int, generator string, v *conformance.Vector, res conformance.Result) {
		for _, r := range v.Rules {
			byRule[r]++
		}
		cov.Observe(i, generator, v, res)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cov.Cases != rep.Cases || len(cov.Reached()) != len(byRule) || len(byRule) < 3 {
		t.Fatalf("coverage of %d cases reached %v; observed %v", cov.Cases, cov.Reached(), byRule)
	}
	for _, r := range cov.Reached() {
		sum := 0
		for g, n := range cov.By[r] {
			if g != "reject" && g != "json" {
				t.Errorf("%s: reached by generator %q, which did not run", r, g)
			}
			sum += n
		}
		if sum != byRule[r] || cov.ByRule[r] != byRule[r] || len(cov.Generators(r)) == 0 {
			t.Errorf("%s: %d cases by generator, %d counted, %d observed", r, sum, cov.ByRule[r], byRule[r])
		}
	}
}

// Rule IDs sort by prefix, then by number.
func TestCompareRules(t *testing.T) {
	ids := []string{"MAP-10", "CAN-3", "MAP-2", "MAP-1", "AUTO-1"}
	slices.SortFunc(ids, explore.CompareRules)
	if want := []string{"AUTO-1", "CAN-3", "MAP-1", "MAP-2", "MAP-10"}; !slices.Equal(ids, want) {
		t.Errorf("sorted %v, want %v", ids, want)
	}
}
