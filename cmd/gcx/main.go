// Command gcx converts, checks and measures GCX1 payloads.
//
// Usage:
//
//	gcx encode [--tool NAME] [--mode auto|gcx] [--tag TAG]   JSON value on stdin → GCX1 (or, in auto mode, compact JSON)
//	gcx decode [--accept TAG,...]   GCX1 (or JSON) on stdin → the JSON value
//	gcx decode --wire [limits]   GCX1 on stdin → wire view (JSON) on stdout
//	gcx encode --wire [limits]   wire view on stdin → canonical GCX1 on stdout
//	gcx check [limits]           validate the GCX1 payload on stdin
//	gcx bench [--codec TAG,...]  the token scorecard of bench/wire-format
//	gcx proxy [flags] -- COMMAND [ARGS...]
//	                             run an MCP server and answer its tool results
//	                             in GCX1 for the host's model (section 15.9)
//	gcx stats [--svg OUT] FILE   summarise what gcx proxy --stats FILE recorded
//	gcx conformance [-- PROGRAM ARGS...]
//	                             run the conformance vectors against the built-in
//	                             implementations, or against PROGRAM
//	gcx explore [flags] -- PROGRAM ARGS...
//	                             check PROGRAM against the reference on generated
//	                             cases; shrink each distinct disagreement to a vector
//	gcx help [COMMAND]           this text, or a command's flags and an example
//	gcx --version                the module version and the spec revision
//	gcx --persistent             answer decode and encode runs of the conformance
//	                             protocol in one process (docs/conformance.md)
//
// --tag writes another registered version (a draft of package codec), and
// --accept lists the versions decode reads; both default to GCX1.
//
// Limits: --max-line-bytes N, --max-fields N, --max-sections N, --max-rows N
// (0 means no limit; the defaults are spec.DefaultLimits). They apply to a
// draft as to GCX1; for a draft that cannot take limits (not
// codec.Limited) they are a usage error.
//
// Every command streams: memory stays bounded by a line of the input,
// except where the JSON mapping needs a whole value (chapter 14 of
// docs/wire-format.md says which) and where a draft's codec reads a
// payload whole.
//
// Exit status [WIRE-3] [WIRE-5]: 0 ok; 1 invalid input (stderr gives line,
// column, message and rule ID; stdout holds no result [WIRE-4]); 2 usage; 3
// unsupported version (stderr names the tag: re-issue the tool call without
// the GCX format and read JSON); 4 the input could not be read or the output
// not written.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/gcxwire/gcx/conformance/persistent"
	"github.com/gcxwire/gcx/spec"
)

// Exit statuses [WIRE-3] [WIRE-5].
const (
	exitOK          = 0
	exitInvalid     = 1
	exitUsage       = 2
	exitUnsupported = 3
	exitIO          = 4
)

// streams are a command's standard streams.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// subcommand is one of gcx's commands: its help and what runs it.
type subcommand struct {
	name    string
	usage   string // the usage lines, without "usage: "
	summary string // one line for the command list
	example string // one example, as a shell line
	notes   string // what else help says, after the example
	run     func(c *subcommand, args []string, s streams) int
}

// commands lists gcx's subcommands, in the order help shows them.
var commands []*subcommand

func init() {
	commands = []*subcommand{
		{name: "encode", run: runEncode,
			usage:   "gcx encode [--tool NAME] [--mode auto|gcx] [--tag TAG] [--stats] [--require-layout] [limits] < value.json\n       gcx encode --wire [limits] < view.json",
			summary: "JSON value -> GCX1 (auto: or compact JSON); --wire: wire view -> canonical GCX1",
			example: "gcx encode --mode gcx --tool search_symbols < examples/search_symbols.json"},
		{name: "decode", run: runDecode,
			usage:   "gcx decode [--accept TAG,...] [--stats] [limits] < result\n       gcx decode --wire [limits] < payload.gcx",
			summary: "GCX1 (or JSON) result -> the JSON value; --wire: GCX1 -> wire view",
			example: "gcx decode --wire < docs/example.gcx"},
		{name: "check", run: runCheck,
			usage:   "gcx check [limits] < payload.gcx",
			summary: "validate a GCX1 payload",
			example: "gcx check --max-line-bytes 1048576 < docs/example.gcx"},
		{name: "bench", run: func(_ *subcommand, args []string, s streams) int { return runBench(args, s.stdin, s.stdout, s.stderr) },
			usage:   "gcx bench [flags]",
			summary: "measure GCX1 against JSON and TOON: the scorecard of bench/wire-format",
			example: "gcx bench -check"},
		{name: "conformance", run: func(_ *subcommand, args []string, s streams) int {
			return runConformance(args, s.stdin, s.stdout, s.stderr)
		},
			usage:   "gcx conformance [flags] [-- PROGRAM [ARGS...]]",
			summary: "run the conformance vectors against the built-in implementations, or PROGRAM",
			example: "gcx conformance -- python3 conformance/examples/python/adapter.py"},
		{name: "proxy", run: runProxy,
			usage:   "gcx proxy [flags] -- COMMAND [ARGS...]\n       gcx proxy [flags] --listen ADDR --upstream URL",
			summary: "put GCX1 in front of an MCP server (stdio or Streamable HTTP) for the model a host serves",
			example: "gcx proxy --mode auto -- npx -y @modelcontextprotocol/server-memory",
			notes:   proxyNotes},
		{name: "stats", run: runStats,
			usage:   "gcx stats [--svg OUT] FILE",
			summary: "summarise a gcx proxy --stats file per tool: calls rewritten, tokens saved, why others were left alone",
			example: "gcx stats --svg savings.svg ~/gcx-stats.jsonl",
			notes:   statsNotes},
		{name: "explore", run: func(_ *subcommand, args []string, s streams) int {
			return runExplore(args, s.stdin, s.stdout, s.stderr)
		},
			usage:   "gcx explore [flags] -- PROGRAM [ARGS...]",
			summary: "check PROGRAM against the reference on generated cases, and shrink a disagreement to a vector",
			example: "gcx explore --seed 7 --out /tmp/found -- python3 conformance/examples/python/adapter.py"},
	}
}

func main() {
	// A closed pipe is a write error to report, like a full disk, not a
	// signal that ends the process without a word [WIRE-5].
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs gcx with the arguments after the program name and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == persistent.Flag {
		return servePersistent(stdin, stdout, stderr)
	}
	out := &checkedWriter{w: stdout}
	code := dispatch(args, streams{stdin, out, stderr})
	if out.err != nil && code != exitIO {
		// Whatever the command, a result that did not reach stdout is no
		// result [WIRE-5].
		fmt.Fprintf(stderr, "gcx: writing stdout: %v\n", out.err)
		return exitIO
	}
	return code
}

// servePersistent answers the conformance protocol's runs in one process
// (docs/conformance.md, "The persistent mode"): the ops of the protocol,
// decode and encode, and nothing else, so that no request can start a
// command that listens or lasts.
func servePersistent(stdin io.Reader, stdout, stderr io.Writer) int {
	err := persistent.Serve(stdin, stdout, func(args []string, in []byte, out, errOut io.Writer) int {
		if len(args) == 0 || (args[0] != "decode" && args[0] != "encode") {
			fmt.Fprintln(errOut, "gcx --persistent: only the conformance protocol's decode and encode")
			return exitUsage
		}
		return run(args, bytes.NewReader(in), out, errOut)
	})
	if err != nil {
		fmt.Fprintf(stderr, "gcx: %v\n", err)
		return exitIO
	}
	return exitOK
}

// checkedWriter remembers the first error of the writer it wraps.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func dispatch(args []string, s streams) int {
	if len(args) == 0 {
		usage(s.stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) == 0 || rest[0] == "help" {
			// The help of help is the global help, which says what
			// help does.
			usage(s.stdout)
			return exitOK
		}
		if c := lookup(rest[0]); c != nil {
			c.help(s.stdout)
			return exitOK
		}
		fmt.Fprintf(s.stderr, "gcx help: unknown command %q\n", rest[0])
		return exitUsage
	case "version", "-version", "--version":
		fmt.Fprintln(s.stdout, version())
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(s.stderr, "gcx: unknown command %q\n", name)
		usage(s.stderr)
		return exitUsage
	}
	return c.run(c, rest, s)
}

func lookup(name string) *subcommand {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, "usage: gcx COMMAND [flags] < input\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `  help [CMD]   this text, or a command's flags and an example
  --version    the module version and the spec revision

Each command reads stdin and writes stdout. "gcx help COMMAND" lists its flags.
exit status: 0 ok, 1 invalid input, 2 usage, 3 unsupported version, 4 input or output failed
`)
}

// version is what gcx --version prints: the module's version as the build
// recorded it, and the revision of the specification it implements.
// releaseVersion is the release a binary was built for, set by the release
// command (tools/release) with -ldflags "-X main.releaseVersion=vX.Y.Z".
// A binary from go install of a tagged version leaves it empty and takes
// the version from its build information instead.
var releaseVersion string

func version() string {
	v := "(devel)"
	if releaseVersion != "" {
		v = releaseVersion
	} else if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		v = info.Main.Version
	}
	return fmt.Sprintf("gcx %s, GCX1 specification revision %s", v, spec.Revision)
}

// flags returns the subcommand's flag set; -h prints its help.
func (c *subcommand) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gcx "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { c.helpFlags(stderr, fs) }
	return fs
}

// help prints the subcommand's usage, flags and example.
func (c *subcommand) help(w io.Writer) {
	fs := c.flags(w)
	if c.name == "bench" || c.name == "conformance" || c.name == "explore" {
		// These parse their own flags: ask them for their help.
		c.run(c, []string{"-h"}, streams{stdout: w, stderr: w})
		return
	}
	c.declare(fs)
	c.helpFlags(w, fs)
}

func (c *subcommand) helpFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s.\n\nflags:\n", c.usage, c.summary)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nexample:\n  %s\n", c.example)
	if c.notes != "" {
		fmt.Fprintf(w, "\n%s\n", c.notes)
	}
}

// declare declares the subcommand's flags on fs, for help.
func (c *subcommand) declare(fs *flag.FlagSet) {
	switch c.name {
	case "encode":
		encodeFlags(fs)
	case "decode":
		decodeFlags(fs)
	case "check":
		limitFlags(fs)
	case "proxy":
		proxyFlags(fs)
	case "stats":
		statsFlags(fs)
	}
}

// parseFlags parses a subcommand's arguments. Every subcommand reads its input
// from stdin, so a stray argument is a usage error rather than a file name
// to ignore; -h prints the help and succeeds. ok is false when the command
// should stop and exit with code.
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

// limitFlags declares the limit flags on fs, bound to a copy of
// spec.DefaultLimits [LIM-1].
func limitFlags(fs *flag.FlagSet) *spec.Limits {
	lim := spec.DefaultLimits
	for _, f := range spec.LimitFlags {
		fs.Var((*limitValue)(f.Field(&lim)), f.Name, f.Usage+" is `N` (0: no limit)")
	}
	return &lim
}

// limitValue is a limit flag: a count, never negative.
type limitValue int

func (v *limitValue) String() string { return fmt.Sprint(int(*v)) }

func (v *limitValue) Set(s string) error {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil || fmt.Sprint(n) != strings.TrimPrefix(s, "+") {
		return fmt.Errorf("%q is not a whole number", s)
	}
	if n < 0 {
		return fmt.Errorf("%d is negative; a limit is a count, and 0 means no limit", n)
	}
	*v = limitValue(n)
	return nil
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

// input returns stdin, first telling a person at a terminal that gcx is
// waiting for the input there.
func (s streams) input(command string) io.Reader {
	if f, ok := s.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(s.stderr, "gcx %s: reading the input from the terminal; end it with Ctrl-D (or redirect a file: gcx %s < FILE)\n", command, command)
	}
	return s.stdin
}

// fail reports err on stderr and returns the matching exit status: 3 for
// another GCX version, naming its tag [WIRE-3]; 4 for a failure to read the
// input, write the output or use a file the command needs [WIRE-5]; else 1.
func fail(stderr io.Writer, err error) int {
	var ioErr *streamError
	var fileErr *fileError
	if errors.As(err, &ioErr) || errors.As(err, &fileErr) {
		fmt.Fprintln(stderr, "gcx:", err)
		return exitIO
	}
	// One line: an unsupported-version error already names the tag and
	// says to re-issue the call without the GCX format [VER-5].
	fmt.Fprintln(stderr, err)
	if errors.Is(err, spec.ErrUnsupportedVersion) {
		return exitUnsupported
	}
	return exitInvalid
}

// streamError is a failure to read stdin or write stdout [WIRE-5].
type streamError struct {
	stream string // "stdin" or "stdout"
	err    error
}

func (e *streamError) Error() string {
	verb := "reading"
	if e.stream == "stdout" {
		verb = "writing"
	}
	return fmt.Sprintf("%s %s: %v", verb, e.stream, e.err)
}

func (e *streamError) Unwrap() error { return e.err }

// fileError is a failure to use a file a command needs besides its
// streams, such as the spill file [WIRE-5]: what names the file and what
// it is for.
type fileError struct {
	what string
	err  error
}

func (e *fileError) Error() string { return fmt.Sprintf("%s: %v", e.what, e.err) }

func (e *fileError) Unwrap() error { return e.err }

// spillFailure marks an error of package wire that comes from its spill
// file — the temporary file, in $TMPDIR, where a long section waits — as
// such. The view's own streams fail as *streamError values, and every
// other error of the file system that package wire can meet is the spill
// file's.
func spillFailure(err error) error {
	var ioErr *streamError
	var pathErr *fs.PathError
	if errors.As(err, &ioErr) || !errors.As(err, &pathErr) {
		return err
	}
	return &fileError{what: "the spill file (a temporary file in $TMPDIR for the rows and comments of a long section)", err: err}
}
