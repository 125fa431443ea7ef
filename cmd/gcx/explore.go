package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/explore"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
)

// Default bounds of gcx explore: explore.DefaultTime, no bound on cases
// (in persistent mode some thousands; docs/conformance.md, "Exploring",
// measures it), and explore.DefaultLaneCases a lane at least, however
// long a loaded machine takes for them.
const (
	defaultExploreCases = 0
	defaultExploreTime  = explore.DefaultTime
)

// runExplore drives a program over the conformance protocol with
// generated cases, compares each answer with the reference's at the
// chosen level, and shrinks each distinct disagreement (docs/conformance.md,
// "Exploring"). It exits 0 when no case disagreed but as --known lists, 1
// on a new disagreement (or when no case could run), 2 on a usage error.
func runExplore(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gcx explore", flag.ContinueOnError)
	fl.SetOutput(stderr)
	seed := fl.Uint64("seed", 1, "the `seed` of the generated cases: the same seed, the same cases")
	cases := fl.Int("cases", defaultExploreCases, "run at most `N` cases (0: no bound but --time)")
	limit := fl.Duration("time", defaultExploreTime, "stop starting cases after this `duration` (0: no bound but --cases; --cases given alone bounds the run by cases only)")
	laneCases := fl.Int("lane-cases", explore.DefaultLaneCases, "run at least `N` cases a lane before --time stops the run (by default only when neither --time nor --cases is given)")
	categories := fl.String("category", "", "generate only cases of these categories, a comma-separated `list` of "+strings.Join(conformance.Categories, ","))
	levelName := fl.String("level", conformance.Diagnostic.String(), "the `level` a disagreement is judged at: core or diagnostic")
	shrink := fl.Int("shrink", explore.DefaultShrink, "try at most `N` smaller cases when shrinking a disagreement (0: do not shrink)")
	out := fl.String("out", "", "write each shrunk case as a vectors file under this `directory` (DIR/CATEGORY/explore-SEED-N.json)")
	timeout := fl.Duration("timeout", conformance.DefaultTimeout, "time allowed for one run of the program on a small input (it grows with the input, and a run that\ntimes out is tried once more with twice as long)")
	perCase := fl.Bool("per-case", false, "start the program once per run even if it offers the persistent mode")
	parallel := fl.Int("parallel", 0, "run at most `N` cases at once (0: one per CPU)")
	tag := fl.String("tag", spec.Version, "explore the version `TAG`: GCX1, or a registered draft; the program is given --tag TAG to encode and --accept TAG to decode")
	findings := fl.Int("findings", explore.DefaultFindings, "stop after `N` distinct new disagreements")
	coverage := fl.Bool("coverage", false, "report the rules the run's cases cite (their vectors' rules), and the rules the committed vectors cite that no case reached")
	var knownFiles []string
	fl.Func("known", "a `file` of known disagreements (rules, or vectors files such as --out writes; docs/conformance.md): reported apart, never failing the run; may be repeated", func(name string) error {
		knownFiles = append(knownFiles, name)
		return nil
	})
	fl.Usage = func() {
		fmt.Fprint(stderr, "usage: gcx explore [flags] -- PROGRAM [ARGS...]\n\n"+
			"Runs PROGRAM over the conformance protocol (docs/conformance.md) on generated cases,\n"+
			"compares each answer with the reference's, and shrinks each distinct disagreement to a\n"+
			"small case, printed by rule and (with --out) written as a vector. Disagreements listed\n"+
			"with --known are reported apart; the exit status is 1 only for new ones.\n\nflags:\n")
		fl.PrintDefaults()
		fmt.Fprint(stderr, "\nexample:\n"+
			"  gcx explore --seed 7 --out /tmp/found -- python3 conformance/examples/python/adapter.py\n")
	}
	flags, program := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		flags, program = args[:i], args[i+1:]
	}
	if code, ok := parseFlags(fl, flags, stderr); !ok {
		return code
	}
	if flagSet(fl, "cases") && !flagSet(fl, "time") {
		*limit = 0 // --cases N alone runs N cases, however long they take
	}
	if len(program) == 0 {
		fmt.Fprintln(stderr, "gcx explore: give the program after --: gcx explore [flags] -- PROGRAM [ARGS...]")
		return exitUsage
	}
	level, err := conformance.ParseLevel(*levelName)
	if err != nil {
		fmt.Fprintf(stderr, "gcx explore: --level: %v\n", err)
		return exitUsage
	}
	opt := explore.Options{Seed: *seed, Cases: *cases, Time: *limit, Level: level, Parallel: *parallel, Shrink: *shrink, Findings: *findings}
	if flagSet(fl, "lane-cases") || !flagSet(fl, "time") && !flagSet(fl, "cases") {
		opt.LaneCases = *laneCases // the default run's floor, so that a loaded machine runs as many
	}
	if *shrink == 0 {
		opt.Shrink = -1
	}
	switch {
	case *cases < 0, *limit < 0, *shrink < 0, *parallel < 0, *laneCases < 0:
		fmt.Fprintln(stderr, "gcx explore: --cases, --time, --lane-cases, --shrink and --parallel take no negative value")
		return exitUsage
	case *findings < 1:
		fmt.Fprintln(stderr, "gcx explore: --findings takes a count of at least 1")
		return exitUsage
	case *cases == 0 && *limit == 0:
		fmt.Fprintln(stderr, "gcx explore: bound the run: --cases N or --time D")
		return exitUsage
	}
	if *categories != "" {
		for _, c := range strings.Split(*categories, ",") {
			if !slices.Contains(conformance.Categories, c) {
				fmt.Fprintf(stderr, "gcx explore: --category: %q is none of %s\n", c, strings.Join(conformance.Categories, ","))
				return exitUsage
			}
			opt.Categories = append(opt.Categories, c)
		}
	}
	if err := conformance.CanRun(program[0]); err != nil {
		fmt.Fprintf(stderr, "gcx explore: %v\n", err)
		return exitUsage
	}
	ref, err := explore.ReferenceFor(*tag)
	if err != nil {
		if !validDraftTag(*tag) {
			fmt.Fprintf(stderr, "gcx explore: --tag: %q is not a version tag of [VER-1] other than GCX1\n", *tag)
			return exitUsage
		}
		// No codec of the tag is registered: the program is a draft
		// codec, held to the laws every registered codec keeps.
		if *coverage {
			fmt.Fprintln(stderr, "gcx explore: --coverage counts the rules of the cases' vectors, which need a reference; a draft given as a program is checked against laws, not rules")
			return exitUsage
		}
		draft := codec.NewProgram(codec.ProgramConfig{Tag: *tag, Timeout: *timeout, PerCall: *perCase}, program...)
		defer draft.(io.Closer).Close()
		return runLaws(draft, opt, *out != "", stdout, stderr)
	}
	opt.Reference = ref
	if len(knownFiles) > 0 {
		if opt.Known, err = readKnownFiles(knownFiles); err != nil {
			fmt.Fprintf(stderr, "gcx explore: --known %v\n", err)
			return exitUsage
		}
	}
	var cov explore.Coverage
	if *coverage {
		opt.Observe = cov.Observe
	}
	impl := conformance.NewCommand(conformance.CommandConfig{Tag: *tag, Timeout: *timeout, PerCase: *perCase}, program...)
	rep, err := explore.Run(impl, opt)
	impl.Close()
	if err != nil {
		fmt.Fprintf(stderr, "gcx explore: %v\n", err)
		return exitUsage
	}
	w := &reportWriter{w: stdout}
	fmt.Fprintf(w, "== %s: %s of %s, seed %d, %s (%s)\n", impl.Name, plural.Count(rep.Cases, "case"), *tag, rep.Seed, rep.Elapsed.Round(time.Millisecond), impl.Mode())
	writeExploreCounts(w, rep)
	writeKnown(w, rep)
	if *coverage {
		if err := writeCoverage(w, &cov); err != nil {
			fmt.Fprintf(stderr, "gcx explore: --coverage: %v\n", err)
			return exitInvalid
		}
	}
	code := exitOK
	if len(rep.Findings) > 0 {
		code = exitInvalid
		writeFindings(w, rep, level)
		if *out != "" {
			for n, f := range rep.Findings {
				name, err := writeVectorFile(*out, f, rep.Seed, n+1)
				if err != nil {
					fmt.Fprintf(stderr, "gcx explore: --out: %v\n", err)
					return exitInvalid
				}
				fmt.Fprintf(w, "wrote %s\n", name)
			}
		}
		if rep.FindingsBound {
			fmt.Fprintf(w, "stopped at --findings %d: there may be more\n", opt.Findings)
		}
		fmt.Fprintf(w, "%s new (%s), %s known\n", plural.Count(len(rep.Findings), "disagreement"), plural.Count(newCases(rep), "case"), plural.Count(len(rep.Known), "disagreement"))
	} else if rep.Agreed == 0 && len(rep.Known) == 0 {
		fmt.Fprintln(stderr, "gcx explore: no case ran in full: the program declined every op it was asked (see the skips)")
		code = exitInvalid
	} else {
		if opt.Cases > 0 && rep.Cases < opt.Cases && len(rep.Declined) < len(probeOps) {
			fmt.Fprintf(w, "stopped by --time %v before case %d of --cases %d\n", opt.Time, rep.Cases, opt.Cases)
		}
		if len(rep.Known) > 0 {
			fmt.Fprintf(w, "no new disagreement: %s agreed with the reference at the %s level, %d disagreed as known\n", plural.Count(rep.Agreed, "case"), level, rep.Disagreed)
		} else {
			fmt.Fprintf(w, "all %s agreed with the reference at the %s level\n", plural.Count(rep.Agreed, "case"), level)
		}
	}
	if w.err != nil {
		fmt.Fprintf(stderr, "gcx explore: writing the report to stdout: %v\n", w.err)
		return exitInvalid
	}
	return code
}

// readKnownFiles reads the files of --known into one list.
func readKnownFiles(names []string) (*explore.Known, error) {
	all := &explore.Known{}
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		k, err := explore.ReadKnown(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		all.Rules = append(all.Rules, k.Rules...)
		all.Cases = append(all.Cases, k.Cases...)
	}
	return all, nil
}

// newCases counts the cases of the new findings.
func newCases(rep *explore.Report) int {
	n := 0
	for _, f := range rep.Findings {
		n += f.Cases
	}
	return n
}

// writeCoverage lists the rules the run's cases cited, with how many
// cases and which generators, and the rules the committed vectors cite
// that no case reached: what the run did not look at (docs/coverage.md
// measures the default run).
func writeCoverage(w io.Writer, cov *explore.Coverage) error {
	vectors, err := conformance.Vectors()
	if err != nil {
		return err
	}
	binding, err := conformance.BindingVectors()
	if err != nil {
		return err
	}
	var cited []string
	for _, v := range slices.Concat(vectors, binding) {
		cited = append(cited, v.Rules...)
	}
	reached := cov.Reached()
	fmt.Fprintf(w, "coverage: %s cited by the %s (cases, generators):\n", plural.Count(len(reached), "rule"), plural.Count(cov.Cases, "case"))
	for _, r := range reached {
		fmt.Fprintf(w, "  %s %d %s\n", r, cov.ByRule[r], strings.Join(cov.Generators(r), ","))
	}
	unreached := cov.Unreached(cited)
	fmt.Fprintf(w, "coverage: %s the vectors cite reached by no case", plural.Count(len(unreached), "rule"))
	if len(unreached) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(unreached, ", "))
	}
	fmt.Fprintln(w)
	return nil
}

// probeOps are the ops in the order the report counts them.
var probeOps = []conformance.Op{conformance.OpDecode, conformance.OpEncode, conformance.OpJSONEncode,
	conformance.OpJSONDecode, conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy}

func writeExploreCounts(w io.Writer, rep *explore.Report) {
	var ops []string
	for _, op := range probeOps {
		if n := rep.ByOp[op]; n > 0 {
			ops = append(ops, fmt.Sprintf("%s %d", op, n))
		}
	}
	skipped := 0
	for _, n := range rep.Skipped {
		skipped += n
	}
	fmt.Fprintf(w, "cases by op: %s\n%d agreed, %d disagreed, %d skipped\n", strings.Join(ops, ", "), rep.Agreed, rep.Disagreed, skipped)
	if len(rep.Declined) > 0 {
		var ops []string
		for _, op := range rep.Declined {
			ops = append(ops, string(op))
		}
		fmt.Fprintf(w, "SKIP ops the program declines (exit 2 on a trivial input), so no case of them was made: %s\n", strings.Join(ops, ", "))
	}
	if len(rep.DeclinedAuto) > 0 {
		var ops []string
		for _, op := range rep.DeclinedAuto {
			ops = append(ops, string(op))
		}
		fmt.Fprintf(w, "SKIP auto mode, which the program declines for %s (exit 2 on the probe in auto mode), so no case of them puts its tool in auto mode\n", strings.Join(ops, ", "))
	}
	reasons := make([]string, 0, len(rep.Skipped))
	for r := range rep.Skipped {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "SKIP %s: %s\n", plural.Count(rep.Skipped[r], "case"), r)
	}
}

// writeKnown lists the known disagreements the run met, and the known
// cases that no longer disagree.
func writeKnown(w io.Writer, rep *explore.Report) {
	for _, f := range rep.Known {
		fmt.Fprintf(w, "KNOWN %s: %s, the first at case %d\n", f.Key, plural.Count(f.Cases, "case"), f.Index)
	}
	for _, k := range rep.KnownCases {
		if k.Status != conformance.Fail {
			fmt.Fprintf(w, "KNOWN case %s no longer disagrees (%s): it marks nothing as known\n", k.Vector.ID, k.Status)
		}
	}
}

// writeFindings prints the new disagreements grouped by rule, in the
// order of each rule's first case.
func writeFindings(w io.Writer, rep *explore.Report, level conformance.Level) {
	var rules []string
	byRule := map[string][]*explore.Finding{}
	for _, f := range rep.Findings {
		if byRule[f.Key.Rule] == nil {
			rules = append(rules, f.Key.Rule)
		}
		byRule[f.Key.Rule] = append(byRule[f.Key.Rule], f)
	}
	for _, rule := range rules {
		fmt.Fprintf(w, "\n== [%s]: %s\n", rule, plural.Count(len(byRule[rule]), "disagreement"))
		for _, f := range byRule[rule] {
			writeFinding(w, rep, f, level)
		}
	}
}

// writeFinding prints the shrunk case: its input, what the reference
// expects, what the program did, and the rules it touches.
func writeFinding(w io.Writer, rep *explore.Report, f *explore.Finding, level conformance.Level) {
	v := f.Vector()
	orig := &f.Original.Vectors[0]
	if f.Result.Status(level) == conformance.Timeout {
		// no answer to judge, and none to shrink: every try would wait as long
		fmt.Fprintf(w, "\nTIMEOUT %s: %s, the first at case %d (seed %d), not shrunk:\n", f.Key, plural.Count(f.Cases, "case"), f.Index, rep.Seed)
	} else {
		fmt.Fprintf(w, "\nDISAGREEMENT %s: %s, the first at case %d (seed %d, %s level), shrunk from %d to %d input bytes in %d of %d tries:\n",
			f.Key, plural.Count(f.Cases, "case"), f.Index, rep.Seed, level, len(orig.Input), len(v.Input), f.Shrinks, f.Tries)
	}
	fmt.Fprintf(w, "== %s/%s [%s] op %s\n", v.Category, v.ID, strings.Join(v.Rules, " "), v.Op)
	if v.Limits != nil {
		fmt.Fprintf(w, "   limits %s\n", strings.Join(v.Limits.Flags(), " "))
	}
	if v.Tool != "" {
		fmt.Fprintf(w, "   tool %s, mode %s\n", v.Tool, v.Mode)
	}
	conformance.WriteQuoted(w, "input", v.Input, 20)
	e := &v.Expected
	fmt.Fprintln(w, "   expected (the reference):")
	switch {
	case e.View != nil:
		fmt.Fprintf(w, "      view %s\n", conformance.CutText(string(e.View)))
		if v.IsCanonical() {
			fmt.Fprintln(w, "      and the view encodes back to the input [CAN-1]")
		}
	case e.Error != nil:
		fmt.Fprintf(w, "      error %s [%s]", e.Error.Class, e.Error.Rule)
		if e.Error.Line > 0 {
			fmt.Fprintf(w, " at line %d, column %d", e.Error.Line, e.Error.Column)
		}
		if e.Error.Tag != "" {
			fmt.Fprintf(w, ", tag %s", e.Error.Tag)
		}
		fmt.Fprintln(w)
	case e.Outcome != nil:
		fmt.Fprintf(w, "      outcome %s\n", conformance.CutText(string(e.Outcome)))
	}
	if e.Output != nil {
		conformance.WriteQuoted(w, "   output", e.Output, 20)
	}
	if e.Value != nil {
		fmt.Fprintf(w, "      value %s\n", conformance.CutText(*e.Value))
	}
	fmt.Fprintln(w, "   got (the program):")
	for _, line := range strings.Split(strings.TrimRight(f.Result.Detail, "\n"), "\n") {
		fmt.Fprintf(w, "      %s\n", line)
	}
	fmt.Fprintf(w, "   rules: %s\n", strings.Join(v.Rules, ", "))
}

// writeVectorFile writes finding n of a run as
// DIR/CATEGORY/explore-SEED-N.json, a vectors file of one vector in
// canonical form, and returns its name.
func writeVectorFile(dir string, f *explore.Finding, seed uint64, n int) (string, error) {
	file := *f.File
	file.Group = fmt.Sprintf("explore-%d-%d", seed, n)
	b, err := conformance.Format(&file)
	if err != nil {
		return "", err
	}
	if _, err := conformance.ParseFile(b); err != nil {
		return "", fmt.Errorf("the vector does not read back: %v", err)
	}
	name := filepath.Join(dir, file.Category, file.Group+".json")
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return "", err
	}
	return name, os.WriteFile(name, b, 0o666)
}

// validDraftTag reports whether tag is a well-formed tag of [VER-1] that is
// not GCX1's and that no version reserves for itself [VER-6].
func validDraftTag(tag string) bool {
	if len(tag) < 4 || len(tag) > 32 || !strings.HasPrefix(tag, spec.TagPrefix) || tag == spec.Version {
		return false
	}
	for _, c := range []byte(tag[3:]) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// runLaws checks a draft codec given as a program against the laws of
// package codec on generated values, and prints the first value that
// breaks one, shrunk.
func runLaws(c codec.Limited, opt explore.Options, wantsOut bool, stdout, stderr io.Writer) int {
	if wantsOut {
		fmt.Fprintln(stderr, "gcx explore: --out writes vectors, which need a reference; a draft given as a program has none (register its codec, or add vectors by hand)")
		return exitUsage
	}
	rep, err := explore.Laws(c, opt)
	if err != nil {
		fmt.Fprintf(stderr, "gcx explore: %v\n", err)
		return exitUsage
	}
	w := &reportWriter{w: stdout}
	fmt.Fprintf(w, "== draft %s as a program: the laws of every codec on %s, seed %d, %s\n",
		c.Tag(), plural.Count(rep.Cases, "value"), rep.Seed, rep.Elapsed.Round(time.Millisecond))
	code := exitOK
	if f := rep.Finding; f != nil {
		code = exitInvalid
		fmt.Fprintf(w, "\nLAW BROKEN at value %d (seed %d), shrunk from %d to %d bytes of JSON in %d of %d tries:\n   %s\n",
			f.Index, rep.Seed, len(f.Original.AppendCompact(nil)), len(f.Value.AppendCompact(nil)), f.Shrinks, f.Tries, f.Law)
		fmt.Fprintf(w, "   tool %s\n   value %s\n", f.Tool, conformance.CutText(string(f.Value.AppendCompact(nil))))
		if f.Limits != (spec.Limits{}) {
			fmt.Fprintf(w, "   limits --max-line-bytes %d --max-fields %d --max-sections %d --max-rows %d\n",
				f.Limits.MaxLineBytes, f.Limits.MaxFields, f.Limits.MaxSections, f.Limits.MaxRows)
		}
		for _, line := range strings.Split(f.Detail, "\n") {
			fmt.Fprintf(w, "   %s\n", conformance.CutText(line))
		}
	} else {
		if opt.Cases > 0 && rep.Cases < opt.Cases {
			fmt.Fprintf(w, "stopped by --time %v before value %d of --cases %d\n", opt.Time, rep.Cases, opt.Cases)
		}
		fmt.Fprintf(w, "every law held on all %s\n", plural.Count(rep.Cases, "value"))
	}
	if w.err != nil {
		fmt.Fprintf(stderr, "gcx explore: writing the report to stdout: %v\n", w.err)
		return exitInvalid
	}
	return code
}

// flagSet reports whether the command line set the flag name.
func flagSet(fl *flag.FlagSet, name string) bool {
	set := false
	fl.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
