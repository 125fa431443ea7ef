// Command gcx-conformance checks a GCX1 decoder or encoder, written in any
// language, against the conformance vectors.
//
// Usage:
//
//	gcx-conformance [flags] -- COMMAND [ARGS...]
//
// It runs COMMAND once per vector. As a decoder (the default) the command
// reads a GCX1 payload on stdin and writes its wire view on stdout; with
// -encoder it reads a wire view and writes GCX1 bytes [WIRE-3]. The command
// exits 0 on success, 1 on invalid input with a message on stderr naming the
// rule ID, and 3 on another version's tag, naming the tag. Vectors that
// carry decoder limits pass them as flags (--max-line-bytes N, --max-fields
// N, --max-sections N, --max-rows N); a command that exits 2 on those flags
// has those vectors skipped.
//
// Flags:
//
//	-encoder     check an encoder instead of a decoder
//	-positions   also check the line and column of decoder errors
//	-no-rules    do not require the rule ID on stderr
//	-no-limits   skip the vectors that carry limits
//	-run RE      run only the vectors whose name matches RE
//	-skip RE     skip the vectors whose name matches RE
//	-vectors DIR read the vectors from DIR instead of the built-in copy
//	-timeout D   time allowed for one run of COMMAND (default 10s)
//	-v           list every vector, passed and skipped too
//
// It prints the failures with what was expected and what came, then
// "N passed, M failed", and exits 1 if anything failed, 2 on a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/gcxwire/gcx/conformance"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("gcx-conformance", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: gcx-conformance [flags] -- COMMAND [ARGS...]")
		fl.PrintDefaults()
	}
	encoder := fl.Bool("encoder", false, "check an encoder (wire view in, GCX1 out) instead of a decoder")
	positions := fl.Bool("positions", false, "also check the line and column of decoder errors")
	noRules := fl.Bool("no-rules", false, "do not require the rule ID on stderr")
	noLimits := fl.Bool("no-limits", false, "skip the vectors that carry decoder limits")
	runRE := fl.String("run", "", "run only the vectors whose name matches this regular expression")
	skipRE := fl.String("skip", "", "skip the vectors whose name matches this regular expression")
	dir := fl.String("vectors", "", "read the vectors from this directory instead of the built-in copy")
	timeout := fl.Duration("timeout", conformance.DefaultTimeout, "time allowed for one run of the command")
	verbose := fl.Bool("v", false, "list every vector, passed and skipped too")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	argv := fl.Args()
	if len(argv) == 0 {
		fl.Usage()
		return 2
	}

	match, err := matcher(*runRE, *skipRE)
	if err != nil {
		fmt.Fprintln(stderr, "gcx-conformance:", err)
		return 2
	}
	var fsys fs.FS = conformance.Embedded()
	source := "built-in vectors"
	if *dir != "" {
		fsys, source = os.DirFS(*dir), *dir
	}
	vectors, err := conformance.Load(fsys)
	if err != nil {
		fmt.Fprintln(stderr, "gcx-conformance:", err)
		return 2
	}

	var impl conformance.Implementation
	role := "decoder"
	if *encoder {
		role = "encoder"
		impl.Encode = conformance.EncoderCommand(*timeout, argv...)
	} else {
		impl.Decode = conformance.DecoderCommand(*timeout, argv...)
	}
	report := conformance.Run(vectors, impl, conformance.Options{
		Match:       match,
		Positions:   *positions,
		IgnoreRules: *noRules,
		NoLimits:    *noLimits,
	})
	fmt.Fprintf(stdout, "gcx-conformance: %s %q, %s\n", role, strings.Join(argv, " "), source)
	report.WriteSummary(stdout, *verbose)
	if report.Failed > 0 {
		return 1
	}
	if report.Passed == 0 {
		fmt.Fprintln(stderr, "gcx-conformance: no vector ran")
		return 1
	}
	return 0
}

// matcher returns a filter for vector names from the -run and -skip
// patterns, or nil when neither is set.
func matcher(run, skip string) (func(string) bool, error) {
	if run == "" && skip == "" {
		return nil, nil
	}
	var runRE, skipRE *regexp.Regexp
	var err error
	if run != "" {
		if runRE, err = regexp.Compile(run); err != nil {
			return nil, fmt.Errorf("-run: %v", err)
		}
	}
	if skip != "" {
		if skipRE, err = regexp.Compile(skip); err != nil {
			return nil, fmt.Errorf("-skip: %v", err)
		}
	}
	return func(name string) bool {
		return (runRE == nil || runRE.MatchString(name)) && (skipRE == nil || !skipRE.MatchString(name))
	}, nil
}
