package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/conformance"
)

// runConformance runs the conformance vectors against the built-in
// reference and streaming implementations, or, after "--", against any
// program that speaks the protocol of this command (docs/conformance.md).
// It prints the failures, then "N passed, M failed", and exits 1 if a
// vector failed or none passed.
func runConformance(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gcx conformance", flag.ContinueOnError)
	fl.SetOutput(stderr)
	runRE := fl.String("run", "", "run only the vectors whose name CATEGORY/GROUP/ID matches this `regexp`")
	categories := fl.String("category", "", "run only these categories, a comma-separated `list` of "+strings.Join(conformance.Categories, ","))
	noPositions := fl.Bool("no-positions", false, "do not compare the line and column of errors")
	noRules := fl.Bool("no-rules", false, "do not require errors to name the rule ID")
	dir := fl.String("vectors", "", "read the vectors from this `directory` instead of the built-in copy")
	timeout := fl.Duration("timeout", conformance.DefaultTimeout, "time allowed for one run of the program under test")
	verbose := fl.Bool("v", false, "list every vector, passed and skipped too")
	fl.Usage = func() {
		fmt.Fprint(stderr, "usage: gcx conformance [flags] [-- PROGRAM [ARGS...]]\n\n"+
			"Without a program, checks the built-in reference and streaming implementations.\n"+
			"With one, runs PROGRAM ARGS... decode --wire, encode --wire, encode --mode MODE --tool NAME\n"+
			"or decode, once per vector, as docs/conformance.md describes.\n\n")
		fl.PrintDefaults()
	}
	var program []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, program = args[:i], args[i+1:]
		if len(program) == 0 {
			fmt.Fprintln(stderr, "gcx conformance: no program after --")
			return exitUsage
		}
	}
	if code, ok := parseFlags(fl, args, stderr); !ok {
		return code
	}
	opt := conformance.Options{IgnorePositions: *noPositions, IgnoreRules: *noRules}
	if *runRE != "" {
		re, err := regexp.Compile(*runRE)
		if err != nil {
			fmt.Fprintf(stderr, "gcx conformance: --run: %v\n", err)
			return exitUsage
		}
		opt.Match = re.MatchString
	}
	if *categories != "" {
		for _, c := range strings.Split(*categories, ",") {
			if !slices.Contains(conformance.Categories, c) {
				fmt.Fprintf(stderr, "gcx conformance: --category: %q is none of %s\n", c, strings.Join(conformance.Categories, ","))
				return exitUsage
			}
			opt.Categories = append(opt.Categories, c)
		}
	}
	var vectorFS fs.FS = conformance.Embedded()
	source := "built-in vectors"
	if *dir != "" {
		vectorFS, source = os.DirFS(*dir), *dir
	}
	vectors, err := conformance.Load(vectorFS)
	if err != nil {
		fmt.Fprintf(stderr, "gcx conformance: %s: %v\n", source, err)
		return exitUsage
	}

	impls := []conformance.Implementation{conformance.Reference(), conformance.Streaming()}
	if program != nil {
		impls = []conformance.Implementation{conformance.Command(*timeout, program...)}
	}
	total := conformance.Report{}
	for _, impl := range impls {
		fmt.Fprintf(stdout, "== %s (%s)\n", impl.Name, source)
		r := conformance.Check(vectors, impl, opt)
		r.WriteSummary(stdout, *verbose)
		total.Passed += r.Passed
		total.Failed += r.Failed
		total.Skipped += r.Skipped
	}
	if len(impls) > 1 {
		fmt.Fprintf(stdout, "== all\n%d passed, %d failed\n", total.Passed, total.Failed)
	}
	if total.Failed > 0 {
		return exitInvalid
	}
	if total.Passed == 0 {
		fmt.Fprintln(stderr, "gcx conformance: no vector passed")
		return exitInvalid
	}
	return exitOK
}
