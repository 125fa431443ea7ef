package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
)

// runConformance runs the conformance vectors against the built-in
// implementations, or, after "--", against any program that speaks the
// protocol of this command (docs/conformance.md). For each implementation
// it prints the failures, the skipped vectors, the counts at both levels
// and "N passed, N failed, N skipped" at the chosen level; it exits 1 if a
// vector failed, none passed, or none matches the filters.
func runConformance(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gcx conformance", flag.ContinueOnError)
	fl.SetOutput(stderr)
	runRE := fl.String("run", "", "run only the vectors whose name CATEGORY/GROUP/ID matches this `regexp`")
	categories := fl.String("category", "", "run only these categories, a comma-separated `list` of "+strings.Join(conformance.Categories, ","))
	levelName := fl.String("level", conformance.Diagnostic.String(), "the `level` that decides pass or fail: core (accept or refuse, value, error class, line)\nor diagnostic (also column, offset and rule ID); both are reported")
	dir := fl.String("vectors", "", "read the vectors from this `directory` instead of the built-in copy")
	timeout := fl.Duration("timeout", conformance.DefaultTimeout, "time allowed for one run of the program under test on a small input;\nit grows by as much for every 256 KiB of input, and a run that times out is tried once more with twice as long")
	perCase := fl.Bool("per-case", false, "start the program once per run even if it offers the persistent mode")
	verbose := fl.Bool("v", false, "list every vector, passed and skipped too")
	tag := fl.String("tag", spec.Version, "run the vectors of this version `TAG`: GCX1's, or a draft's own and those it inherits;\nthe program is then given --tag TAG to encode and --accept TAG to decode")
	fl.Usage = func() {
		fmt.Fprint(stderr, "usage: gcx conformance [flags] [-- PROGRAM [ARGS...]]\n\n"+
			"Runs the conformance vectors. Without a program, checks the built-in reference and\n"+
			"streaming implementations. With one, runs PROGRAM ARGS... decode --wire, encode --wire,\n"+
			"encode --mode MODE --tool NAME or decode, once per step of each vector, as\n"+
			"docs/conformance.md describes.\n\nflags:\n")
		fl.PrintDefaults()
		fmt.Fprint(stderr, "\nexample:\n"+
			"  gcx conformance --level core --category decode,reject -- python3 adapter.py\n"+
			"  gcx conformance --tag GCX2-draft.1\n")
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
	level, err := conformance.ParseLevel(*levelName)
	if err != nil {
		fmt.Fprintf(stderr, "gcx conformance: --level: %v\n", err)
		return exitUsage
	}
	opt := conformance.Options{Level: level}
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
	vectors, source, err := loadVectors(*dir, *tag)
	if err != nil {
		fmt.Fprintf(stderr, "gcx conformance: %v\n", err)
		return exitUsage
	}
	var impls []conformance.Implementation
	if program != nil {
		if err := conformance.CanRun(program[0]); err != nil {
			fmt.Fprintf(stderr, "gcx conformance: %v\n", err)
			return exitUsage
		}
		impls = []conformance.Implementation{conformance.NewCommand(conformance.CommandConfig{Tag: *tag, Timeout: *timeout, PerCase: *perCase}, program...)}
	} else if impls, err = conformance.BuiltInFor(*tag); err != nil {
		fmt.Fprintf(stderr, "gcx conformance: --tag: %v\n", err)
		return exitUsage
	}

	selected := 0
	for i := range vectors {
		if opt.Selects(&vectors[i]) {
			selected++
		}
	}
	out := &reportWriter{w: stdout}
	var core, diagnostic conformance.Counts
	for _, impl := range impls {
		fmt.Fprintf(out, "== %s: %s of %s (%s)\n", impl.Name, plural.Count(selected, "vector"), *tag, source)
		r := conformance.Check(vectors, impl, opt)
		if impl.Close != nil {
			impl.Close()
		}
		if impl.Mode != nil {
			fmt.Fprintf(out, "(%s)\n", impl.Mode())
		}
		r.WriteSummary(out, *verbose)
		core.Add(r.Core)
		diagnostic.Add(r.Diagnostic)
	}
	total := diagnostic
	if level == conformance.Core {
		total = core
	}
	if len(impls) > 1 {
		fmt.Fprintf(out, "== all: %s of %s × %d implementations\ncore level: %s\ndiagnostic level: %s\n%s\n",
			plural.Count(selected, "vector"), *tag, len(impls), core, diagnostic, total)
	}
	if out.err != nil {
		fmt.Fprintf(stderr, "gcx conformance: writing the report to stdout: %v\n", out.err)
		return exitInvalid
	}
	switch {
	case total.Failed > 0 || total.TimedOut > 0:
		return exitInvalid
	case selected == 0:
		fmt.Fprintf(stderr, "gcx conformance: no vector of %s matches the filters (--run, --category)\n", *tag)
		return exitInvalid
	case total.Passed == 0:
		fmt.Fprintf(stderr, "gcx conformance: no vector passed at the %s level (%s)\n", level, total)
		return exitInvalid
	}
	return exitOK
}

// loadVectors reads the vectors of the version tag from dir, or from the
// built-in copy when dir is empty, and says in plain words what is missing
// when it cannot.
func loadVectors(dir, tag string) ([]conformance.Vector, string, error) {
	if dir == "" {
		vs, err := conformance.VectorsFor(tag)
		if err == nil && tag == spec.Version {
			// and the MCP binding's, whose results name GCX1
			var binding []conformance.Vector
			binding, err = conformance.BindingVectors()
			vs = slices.Concat(vs, binding)
		}
		return vs, "built-in vectors", err
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", fmt.Errorf("--vectors %s: there is no such directory", dir)
	case err != nil:
		return nil, "", fmt.Errorf("--vectors %s: %v", dir, err)
	case !info.IsDir():
		return nil, "", fmt.Errorf("--vectors %s: not a directory; give the directory that holds %s", dir, strings.Join(conformance.Categories, "/, ")+"/")
	}
	suite, err := conformance.LoadSuite(os.DirFS(dir))
	if err != nil {
		return nil, "", fmt.Errorf("--vectors %s: %v", dir, err)
	}
	vs, err := suite.For(tag)
	if err != nil {
		return nil, "", fmt.Errorf("--tag: %v", err)
	}
	return vs, dir, nil
}

// reportWriter passes the report on and keeps the first write error, so
// that a report that could not be written is not taken for a pass.
type reportWriter struct {
	w   io.Writer
	err error
}

func (r *reportWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.err = err
	return n, err
}
