// Command mutate measures how many plausible bugs the module's tests
// catch. It plants one bug at a time (a mutant) in the code users run,
// runs the tests that cover that code, and counts the mutant killed when
// a test fails. The kill rate and every surviving mutant are written to a
// Markdown report.
//
// Usage, from the module root:
//
//	go run ./tools/mutate [-pkgs streaming,spec,...] [-sample N] [-seed S] [-jobs J] [-timeout D] [-out docs/mutation.md]
//
// A mutant is applied with go test -overlay, so the working tree is never
// changed and an interrupted run leaves nothing behind. -sample N draws N
// mutants per package with a generator seeded by -seed and the package's
// path, so a run is repeatable; -sample 0 runs every mutant. -list prints
// the mutants without running them, and -only runs the named ones (ids as
// the report prints them).
//
// -resume takes the log of an earlier run: the progress lines this command
// prints on its standard error, one per mutant. A drawn mutant the log
// shows killed or stillborn, with the same id and the same change, keeps
// that outcome and is not run again; the others run: the log's survivors,
// and its timeouts, since on a loaded machine a survivor's two steps can
// pass the time limit without any hang. So an interrupted run goes on
// where it stopped, and after tests are added only the survivors run
// again. The report says how many outcomes came from the log.
//
// -logged (with -resume) runs nothing: the report is made from the log
// alone, a later line for a mutant overriding an earlier one, so that the
// logs of runs split over several processes, and a rerun of some of their
// mutants after tests were added, can be joined (cat) into one report.
// A mutant the log does not show is left out as not run; one it shows
// timed out counts as a survivor, the reading that claims least: on a
// loaded machine a survivor's two steps can pass the time limit.
//
// Each mutant runs its package's tests first (go test -short -failfast),
// then, if it survived, the conformance vectors, which exercise every
// package here through the built-in implementation. A mutant that does
// not compile is stillborn and counts neither way; one whose tests exceed
// -timeout is killed (a hang is a failure users would see).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// defaultPackages are the packages whose code users run.
const defaultPackages = "streaming,spec,jsonmap,jsonmap/auto,internal/jsontext,tokens,gcxmcp/binding,wire,codec"

// vectorTests are the tests of ./conformance that run the vectors against
// the built-in implementation; they run for every surviving mutant.
const vectorTests = "^(TestVectors|TestBuiltIn|TestDraft|TestPropertyGeneratedVectorsPass|TestVectorsAgreeWithGrammar)"

type outcome string

const (
	killed    outcome = "killed"
	survived  outcome = "survived"
	stillborn outcome = "stillborn"
	timedOut  outcome = "timeout"
	notRun    outcome = "not run" // -logged: the log lacks it
)

type result struct {
	site
	pkg     string
	outcome outcome
	by      string // the first failing test, for a killed mutant
}

func main() {
	pkgs := flag.String("pkgs", defaultPackages, "comma-separated package directories, relative to the module root")
	sample := flag.Int("sample", 0, "mutants drawn per package (0: every mutant)")
	seed := flag.Uint64("seed", 1, "seed of the per-package sample")
	jobs := flag.Int("jobs", 1, "mutants run at once")
	timeout := flag.Duration("timeout", 4*time.Minute, "time limit of one mutant's tests")
	out := flag.String("out", "docs/mutation.md", "report file (\"\" for none)")
	list := flag.Bool("list", false, "list the drawn mutants and exit")
	only := flag.String("only", "", "comma-separated mutant ids to run (overrides -sample)")
	resume := flag.String("resume", "", "log of an earlier run (its standard error): mutants it shows killed or stillborn are not run again")
	logged := flag.Bool("logged", false, "with -resume: run nothing, report the outcomes the log shows (its timeouts as survivors, mutants it lacks left out as not run)")
	equivalentFile := flag.String("equivalent", "tools/mutate/equivalent.txt", "mutants judged equivalent, one id and the reason per line")
	flag.Parse()

	if _, err := os.Stat("go.mod"); err != nil {
		fail("run mutate from the module root: %v", err)
	}
	root, _ := os.Getwd()
	work, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(work)
	// An interrupted run stops its go test processes (each leads its own
	// process group) and removes its mutants.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		running.Range(func(k, _ any) bool { syscall.Kill(-k.(int), syscall.SIGKILL); return true })
		os.RemoveAll(work)
		os.Exit(130)
	}()

	var drawn []drawnMutant
	var totals = map[string]int{}
	pkgList := strings.Split(*pkgs, ",")
	wanted := map[string]bool{}
	for _, id := range strings.Split(*only, ",") {
		if id != "" {
			wanted[id] = true
		}
	}
	for _, pkg := range pkgList {
		all, err := packageSites(root, pkg)
		if err != nil {
			fail("%s: %v", pkg, err)
		}
		totals[pkg] = len(all)
		var pick []drawnMutant
		switch {
		case len(wanted) > 0:
			for _, s := range all {
				if wanted[s.id()] {
					pick = append(pick, s)
				}
			}
		case *sample > 0 && *sample < len(all):
			h := fnv.New64a()
			h.Write([]byte(pkg))
			r := rand.New(rand.NewPCG(*seed, h.Sum64()))
			for _, i := range r.Perm(len(all))[:*sample] {
				pick = append(pick, all[i])
			}
			sort.Slice(pick, func(i, j int) bool { return pick[i].less(pick[j]) })
		default:
			pick = all
		}
		drawn = append(drawn, pick...)
	}
	if *list {
		for _, m := range drawn {
			fmt.Printf("%s\t%s\n", m.id(), m.desc)
		}
		return
	}

	var earlier map[string]logLine
	if *resume != "" {
		b, err := os.ReadFile(*resume)
		if err != nil {
			fail("%v", err)
		}
		earlier = parseLog(string(b))
	}

	noteFailFiles(root)
	results := make([]result, len(drawn))
	reused := 0
	var torun []int
	for i, m := range drawn {
		if *logged {
			oc := loggedOutcome(earlier, m)
			results[i] = result{site: m.site, pkg: m.pkg, outcome: oc}
			if oc != notRun {
				reused++
			}
			continue
		}
		if oc, ok := keptOutcome(earlier, m); ok {
			results[i] = result{site: m.site, pkg: m.pkg, outcome: oc}
			reused++
			fmt.Fprintf(os.Stderr, "[from log] %-9s %s %s\n", oc, m.id(), m.desc)
			continue
		}
		torun = append(torun, i)
	}
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	start := time.Now()
	for w := 0; w < max(*jobs, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range next {
				m := drawn[i]
				oc, by := run(root, filepath.Join(work, fmt.Sprint(w)), m, *timeout)
				results[i] = result{site: m.site, pkg: m.pkg, outcome: oc, by: by}
				mu.Lock()
				done++
				fmt.Fprintf(os.Stderr, "[%d/%d %s] %-9s %s %s %s\n", done, len(torun), time.Since(start).Round(time.Second), oc, m.id(), m.desc, by)
				mu.Unlock()
			}
		}(w)
	}
	for _, i := range torun {
		next <- i
	}
	close(next)
	wg.Wait()

	equivalent, err := readEquivalent(*equivalentFile)
	if err != nil {
		fail("%v", err)
	}
	report := summarize(results, pkgList, totals, equivalent)
	if *out != "" {
		cmd := "go run ./tools/mutate " + strings.Join(os.Args[1:], " ")
		report.reused, report.resumed, report.logged = reused, *resume, *logged
		if err := os.WriteFile(*out, []byte(markdown(report, cmd, *sample, *seed, time.Since(start))), 0o644); err != nil {
			fail("%v", err)
		}
	}
	fmt.Printf("kill rate %s: %d killed of %d (%d survived, %d stillborn); %s with the %d equivalent mutants left out\n",
		report.total.rate(), report.total.killed+report.total.timedOut, report.total.scored(), report.total.survived, report.total.stillborn,
		report.total.rateWithout(), report.total.equivalent)
}

type drawnMutant struct {
	site
	pkg string
}

func (a drawnMutant) less(b drawnMutant) bool {
	if a.file != b.file {
		return a.file < b.file
	}
	return a.index < b.index
}

// packageSites lists every mutation site of a package's non-test files.
func packageSites(root, pkg string) ([]drawnMutant, error) {
	files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []drawnMutant
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(src, []byte("//go:build ignore")) {
			continue
		}
		rel, _ := filepath.Rel(root, path)
		_, ms, err := mutations(token.NewFileSet(), rel, src)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			out = append(out, drawnMutant{m.site, pkg})
		}
	}
	return out, nil
}

// run builds mutant m in dir and runs its tests.
func run(root, dir string, m drawnMutant, timeout time.Duration) (outcome, string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail("%v", err)
	}
	src, err := os.ReadFile(filepath.Join(root, m.file))
	if err != nil {
		fail("%v", err)
	}
	fset := token.NewFileSet()
	f, ms, err := mutations(fset, m.file, src)
	if err != nil || m.index >= len(ms) || ms[m.index].id() != m.id() {
		fail("%s: the source changed since the mutants were listed", m.id())
	}
	ms[m.index].apply()
	text, err := render(fset, f)
	if err != nil {
		return stillborn, ""
	}
	mutant := filepath.Join(dir, filepath.Base(m.file))
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(mutant, text, 0o644); err != nil {
		fail("%v", err)
	}
	o, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, m.file): mutant}})
	if err := os.WriteFile(overlay, o, 0o644); err != nil {
		fail("%v", err)
	}
	deadline := time.Now().Add(timeout)
	steps := [][]string{
		{"./" + m.pkg},
		{"-run", vectorTests, "./conformance"},
	}
	for _, step := range steps {
		args := append([]string{"test", "-short", "-failfast", "-count=1", "-vet=off", "-overlay", overlay}, step...)
		oc, by := goTest(root, args, deadline)
		removeFailFiles(root, step[len(step)-1])
		if oc != survived {
			return oc, by
		}
	}
	return survived, ""
}

// keptFailFiles are the files under testdata/rapid that were there before
// the run; a mutant's failing property adds others, which are removed.
var keptFailFiles = map[string]bool{}

func noteFailFiles(root string) {
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(path, "/testdata/rapid/") {
			keptFailFiles[path] = true
		}
		return nil
	})
}

// removeFailFiles removes the files rapid wrote under the package
// directory pkg ("./streaming") for a mutant's failures.
func removeFailFiles(root, pkg string) {
	dir := filepath.Join(root, pkg, "testdata", "rapid")
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !keptFailFiles[path] {
			os.Remove(path)
		}
		return nil
	})
	// Directories the run made and left empty go too.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.Remove(filepath.Join(dir, e.Name())) // only if empty
	}
	os.Remove(dir)
	os.Remove(filepath.Dir(dir))
}

// running holds the process group of every go test under way.
var running sync.Map

// goTest runs go test until deadline and classifies the outcome.
func goTest(root string, args []string, deadline time.Time) (outcome, string) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		fail("go test: %v", err)
	}
	running.Store(cmd.Process.Pid, true)
	err := cmd.Wait()
	running.Delete(cmd.Process.Pid)
	if ctx.Err() != nil {
		return timedOut, ""
	}
	if err == nil {
		return survived, ""
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		fail("go test: %v", err)
	}
	text := buf.String()
	if strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]") {
		return stillborn, ""
	}
	return killed, firstFailure(text)
}

// firstFailure names the first failing test in go test's output.
func firstFailure(out string) string {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(line, "--- FAIL: "); ok {
			return strings.Fields(name)[0]
		}
		if strings.HasPrefix(line, "panic:") {
			return "panic"
		}
	}
	return "go test failed"
}

// A tally counts outcomes; equivalent counts the survivors that are
// listed as equivalent, and is part of survived.
type tally struct{ drawn, killed, survived, stillborn, timedOut, equivalent, notRun int }

func (t tally) scored() int { return t.killed + t.timedOut + t.survived }

func (t tally) rate() string { return percent(t.killed+t.timedOut, t.scored()) }

// rateWithout is the kill rate with the equivalent mutants left out: they
// cannot be killed, since no program can tell them from the original.
func (t tally) rateWithout() string {
	return percent(t.killed+t.timedOut, t.scored()-t.equivalent)
}

func percent(n, of int) string {
	if of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// readEquivalent reads the list of mutants judged equivalent: lines of an
// id and the reason, blank lines and lines beginning with # skipped.
func readEquivalent(path string) (map[string]string, error) {
	out := map[string]string{}
	if path == "" {
		return out, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		out[id] = strings.TrimSpace(reason)
	}
	return out, nil
}

func (t *tally) add(o outcome) {
	t.drawn++
	switch o {
	case killed:
		t.killed++
	case survived:
		t.survived++
	case stillborn:
		t.stillborn++
	case timedOut:
		t.timedOut++
	case notRun:
		t.drawn--
		t.notRun++
	}
}

type summary struct {
	pkgs       []string
	totals     map[string]int
	per        map[string]*tally
	total      tally
	survivors  []result
	ops        map[string]*tally
	equivalent map[string]string
	reused     int    // outcomes taken from the log of an earlier run
	resumed    string // that log
	logged     bool   // nothing was run: every outcome is the log's
}

func summarize(results []result, pkgs []string, totals map[string]int, equivalent map[string]string) summary {
	s := summary{pkgs: pkgs, totals: totals, per: map[string]*tally{}, ops: map[string]*tally{}, equivalent: equivalent}
	for _, p := range pkgs {
		s.per[p] = &tally{}
	}
	for _, r := range results {
		s.per[r.pkg].add(r.outcome)
		s.total.add(r.outcome)
		if s.ops[r.op] == nil {
			s.ops[r.op] = &tally{}
		}
		s.ops[r.op].add(r.outcome)
		if r.outcome == survived {
			s.survivors = append(s.survivors, r)
			if _, ok := equivalent[r.id()]; ok {
				s.per[r.pkg].equivalent++
				s.total.equivalent++
				s.ops[r.op].equivalent++
			}
		}
	}
	return s
}

func markdown(s summary, cmd string, sample int, seed uint64, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Mutation score\n\n")
	fmt.Fprintf(&b, "How many plausible single-point bugs in the code users run the tests and vectors catch. Written by\n")
	fmt.Fprintf(&b, "[tools/mutate](../tools/mutate/main.go); regenerate with the command below (it rewrites this file).\n\n")
	fmt.Fprintf(&b, "    %s\n\n", cmd)
	if sample > 0 {
		fmt.Fprintf(&b, "Sampled: %d mutants per package, drawn with seed %d (the same draw on the same source); `-sample 0` runs all of them.\n", sample, seed)
	} else {
		fmt.Fprintf(&b, "Every mutant of the packages below was run.\n")
	}
	switch {
	case s.logged:
		fmt.Fprintf(&b, "Made from the log of earlier runs, running nothing (`-resume %s -logged`): %d mutants have the outcome the log shows,\n", s.resumed, s.reused)
		fmt.Fprintf(&b, "a timeout counted as a survivor (on a loaded machine a survivor's tests can pass the time limit); %d drawn mutants the log lacks are left out as not run.\n", s.total.notRun)
	default:
		fmt.Fprintf(&b, "The run took %s.\n", took.Round(time.Second))
	}
	if s.reused > 0 && !s.logged {
		fmt.Fprintf(&b, "Of the %d mutants, %d kept the outcome (killed or stillborn) an earlier run's log shows (`-resume %s`);\n", s.total.drawn, s.reused, s.resumed)
		fmt.Fprintf(&b, "the other %d, that run's survivors and timeouts among them, were run again for this report, and the time above is theirs.\n", s.total.drawn-s.reused)
	}
	fmt.Fprintf(&b, "\n")
	fmt.Fprintf(&b, "Kill rate = (killed + timed out) / (killed + timed out + survived); a mutant that does not compile is stillborn and not scored.\n")
	fmt.Fprintf(&b, "The last column leaves out the survivors judged equivalent (listed, each with its reason, in\n")
	fmt.Fprintf(&b, "[tools/mutate/equivalent.txt](../tools/mutate/equivalent.txt)): changes no test can see because no input can.\n\n")
	fmt.Fprintf(&b, "| package | sites | run | killed | timed out | survived | of them equivalent | stillborn | kill rate | without equivalents |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range s.pkgs {
		t := s.per[p]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %s | %s |\n", p, s.totals[p], t.drawn, t.killed, t.timedOut, t.survived, t.equivalent, t.stillborn, t.rate(), t.rateWithout())
	}
	t := s.total
	fmt.Fprintf(&b, "| **all** | | %d | %d | %d | %d | %d | %d | **%s** | **%s** |\n\n", t.drawn, t.killed, t.timedOut, t.survived, t.equivalent, t.stillborn, t.rate(), t.rateWithout())
	fmt.Fprintf(&b, "By operator:\n\n| operator | run | killed | survived | stillborn | kill rate |\n|---|---:|---:|---:|---:|---:|\n")
	ops := make([]string, 0, len(s.ops))
	for op := range s.ops {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	for _, op := range ops {
		t := s.ops[op]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", op, t.drawn, t.killed+t.timedOut, t.survived, t.stillborn, t.rate())
	}
	fmt.Fprintf(&b, "\n## Survivors\n\n")
	if len(s.survivors) == 0 {
		fmt.Fprintf(&b, "None.\n")
	}
	for _, r := range s.survivors {
		if reason, ok := s.equivalent[r.id()]; ok {
			fmt.Fprintf(&b, "- `%s` %s — *equivalent:* %s\n", r.id(), r.desc, reason)
			continue
		}
		fmt.Fprintf(&b, "- `%s` %s\n", r.id(), r.desc)
	}
	return b.String()
}

// A logLine is what a run's log says of one mutant: its outcome, and the
// rest of the line after its id (the change, then for a killed mutant the
// test that failed).
type logLine struct {
	outcome outcome
	rest    string
}

// parseLog reads the progress lines of a run's standard error,
// "[n/N time] outcome id change [test]", keyed by the mutant's id; a line
// "[from log] outcome id change" counts too, so a resumed run's log
// resumes again.
func parseLog(log string) map[string]logLine {
	out := map[string]logLine{}
	for _, line := range strings.Split(log, "\n") {
		if !strings.HasPrefix(line, "[") {
			continue
		}
		_, rest, ok := strings.Cut(line, "] ")
		if !ok {
			continue
		}
		word, rest, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
		oc := outcome(word)
		switch oc {
		case killed, survived, stillborn, timedOut:
		default:
			continue
		}
		id, rest, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
		out[id] = logLine{oc, rest}
	}
	return out
}

// loggedOutcome is m's outcome for a report made from the log alone: as
// the log shows it with the same change, a timeout counted as a survivor;
// a mutant the log lacks is not run.
func loggedOutcome(log map[string]logLine, m drawnMutant) outcome {
	l, ok := log[m.id()]
	switch {
	case !ok || (l.rest != m.desc && !strings.HasPrefix(l.rest, m.desc+" ")):
		return notRun
	case l.outcome == timedOut:
		return survived
	}
	return l.outcome
}

// keptOutcome is the outcome a log shows for m if m need not run again:
// the log shows it killed or stillborn, with the same change (the same id
// on a changed source may be another mutant).
func keptOutcome(log map[string]logLine, m drawnMutant) (outcome, bool) {
	l, ok := log[m.id()]
	if !ok || (l.rest != m.desc && !strings.HasPrefix(l.rest, m.desc+" ")) {
		return "", false
	}
	return l.outcome, l.outcome == killed || l.outcome == stillborn
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mutate: "+format+"\n", args...)
	os.Exit(1)
}
