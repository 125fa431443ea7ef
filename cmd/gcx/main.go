// Command gcx converts, checks and measures GCX1 payloads.
//
// Usage:
//
//	gcx encode [--tool NAME] [--mode auto|gcx]   JSON value on stdin → GCX1 (or, in auto mode, compact JSON)
//	gcx decode                   GCX1 (or JSON) on stdin → the JSON value
//	gcx decode --wire [limits]   GCX1 on stdin → wire view (JSON) on stdout
//	gcx encode --wire            wire view on stdin → canonical GCX1 on stdout
//	gcx check [limits]           validate the GCX1 payload on stdin
//	gcx bench                    the token scorecard of bench/wire-format
//	gcx conformance [-- PROGRAM ARGS...]
//	                             run the conformance vectors against the built-in
//	                             implementations, or against PROGRAM
//
// Limits: --max-line-bytes N, --max-fields N, --max-sections N, --max-rows N
// (0 means no limit; the defaults are spec.DefaultLimits).
//
// Exit status [WIRE-3]: 0 ok; 1 invalid input (stderr gives line, column,
// message and rule ID; nothing is written to stdout); 2 usage; 3 unsupported
// version (stderr names the tag: re-issue the tool call without the GCX
// format and read JSON).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// Exit statuses [WIRE-3].
const (
	exitOK          = 0
	exitInvalid     = 1
	exitUsage       = 2
	exitUnsupported = 3
)

// command runs one subcommand with its arguments and streams and returns the
// exit status.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	var cmd command
	switch name {
	case "decode":
		cmd = runDecode
	case "encode":
		cmd = runEncode
	case "check":
		cmd = runCheck
	case "bench":
		cmd = runBench
	case "conformance":
		cmd = runConformance
	case "help", "-h", "--help":
		usage(stdout)
		return exitOK
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "gcx: unknown command %q\n", name)
		usage(stderr)
		return exitUsage
	}
	return cmd(rest, stdin, stdout, stderr)
}

// parseFlags parses a subcommand's arguments. Every subcommand reads its
// input from stdin, so a stray argument is a usage error rather than a file
// name to ignore; -h prints the flags and succeeds. ok is false when the
// command should stop and exit with code.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q; the input is read from stdin\n", fs.Name(), fs.Arg(0))
		return exitUsage, false
	}
	return exitOK, true
}

// onlyFlags reports a usage error when a flag other than the allowed ones
// was set: the flags of one mode of a subcommand mean nothing in the other.
func onlyFlags(fs *flag.FlagSet, stderr io.Writer, allowed ...string) (code int, ok bool) {
	var stray []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(allowed, f.Name) {
			stray = append(stray, "--"+f.Name)
		}
	})
	if len(stray) > 0 {
		fmt.Fprintf(stderr, "%s: %s: not used in this mode\n", fs.Name(), strings.Join(stray, ", "))
		return exitUsage, false
	}
	return exitOK, true
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  gcx encode [--tool NAME] [--mode auto|gcx] [--stats] [--require-layout]
                               JSON value on stdin -> GCX1 (auto: or compact JSON)
  gcx decode                   GCX1 (or JSON) on stdin -> the JSON value
  gcx decode --wire [limits]   GCX1 on stdin -> wire view (JSON) on stdout
  gcx encode --wire            wire view on stdin -> canonical GCX1 on stdout
  gcx check [limits]           validate the GCX1 payload on stdin
  gcx bench [-h]               the token scorecard of bench/wire-format
  gcx conformance [--run RE] [--category LIST] [-v] [-- PROGRAM ARGS...]
                               the conformance vectors against the built-in
                               implementations, or against PROGRAM
limits: --max-line-bytes N --max-fields N --max-sections N --max-rows N (0: none)
exit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported version
`)
}

// fail reports err on stderr and returns the matching exit status
// [WIRE-3]: 3 for another GCX version, naming its tag, else 1.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, err)
	var e *spec.Error
	if errors.As(err, &e) && errors.Is(err, spec.ErrUnsupportedVersion) {
		fmt.Fprintf(stderr, "gcx: version %s is not supported; re-issue the call without the GCX format and read JSON\n", e.Tag)
		return exitUnsupported
	}
	return exitInvalid
}
