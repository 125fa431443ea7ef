package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// Exit statuses of a command under test [WIRE-3].
const (
	ExitOK          = 0
	ExitInvalid     = 1
	ExitUsage       = 2
	ExitUnsupported = 3
)

// DefaultTimeout bounds one run of a command under test.
const DefaultTimeout = 10 * time.Second

// Command returns an Implementation that runs a program once per step of a
// vector, with the op's arguments appended to argv, the input on stdin and
// the result expected on stdout — the protocol of the gcx command itself
// [WIRE-3]:
//
//	decode       argv... decode --wire [--max-line-bytes N] [--max-fields N] [--max-sections N] [--max-rows N]
//	encode       argv... encode --wire
//	json-encode  argv... encode --mode gcx|auto [--tool NAME] [limits, mode gcx only]
//	json-decode  argv... decode [limits]
//	mcp-server   argv... mcp-server
//	mcp-client   argv... mcp-client
//	mcp-proxy    argv... mcp-proxy
//
// The program exits 0 on success; 1 on invalid input, with nothing on
// stdout and a message on stderr that gives the line, the column and the
// rule ID; 3 on an unsupported version, naming the tag on stderr. A JSON
// result (of json-decode, or of json-encode in auto mode) is followed by
// LF, which the runner removes. The ops of the MCP binding read a JSON
// object and write the outcome, a JSON text, with exit status 0 — also
// when the outcome is an error the binding ends in.
//
// Before the first vector of an op, the runner tries the op once on a
// trivial input. A program that exits 2 (usage) there does not offer the
// op — decoder limits, the JSON mapping, its limits and auto mode are
// optional — and its vectors are skipped. Limits are probed apart for each
// op that takes them (decode, json-decode, json-encode in mode gcx), with
// all four flags, so that a program may offer an op and decline its limits. Exit status 2 on any other run is a failure.
func Command(timeout time.Duration, argv ...string) Implementation {
	return CommandFor(spec.Version, timeout, argv...)
}

// CommandFor is Command for the vectors of another version: it adds
// --tag TAG to every encode and --accept TAG to every decode, the flags of
// gcx itself, and probes with payloads under that tag. For GCX1 it adds
// nothing, so a GCX1 implementation need not know the flags.
func CommandFor(tag string, timeout time.Duration, argv ...string) Implementation {
	return NewCommand(CommandConfig{Tag: tag, Timeout: timeout}, argv...)
}

// CommandConfig configures a program under test.
type CommandConfig struct {
	// Tag is the version whose vectors run; "" means GCX1 (CommandFor).
	Tag string
	// Timeout bounds a run of the program on a small input; a run's limit
	// grows with its input, and a run that times out is tried once more
	// with twice the limit (RunLimit). Zero means DefaultTimeout.
	Timeout time.Duration
	// PerCase starts a process for every run even when the program
	// offers the persistent mode.
	PerCase bool
}

// NewCommand returns an Implementation that runs the program argv as
// Command describes. Unless cfg.PerCase is set, it first asks the program
// whether it offers the persistent mode (docs/conformance.md, "The
// persistent mode"): one with the single argument --persistent and an
// empty stdin that writes the hello line and exits 0 does, and then one
// process answers many runs, restarted after a run that ends it. Close
// the Implementation to end the processes it keeps.
func NewCommand(cfg CommandConfig, argv ...string) Implementation {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Tag == "" {
		cfg.Tag = spec.Version
	}
	c := &command{argv: argv, timeout: cfg.Timeout, probes: map[string]*probe{}, tag: cfg.Tag, perCase: cfg.PerCase,
		sessions: &persistent.Pool{Argv: argv, Timeout: cfg.Timeout}}
	return Implementation{
		Name:       strings.Join(argv, " "),
		Decode:     c.decode,
		Encode:     c.encode,
		EncodeJSON: c.encodeJSON,
		DecodeJSON: c.decodeJSON,
		MCP:        c.mcp,
		Close:      c.close,
		Mode:       c.mode,
	}
}

type command struct {
	argv    []string
	tag     string
	timeout time.Duration
	mu      sync.Mutex
	probes  map[string]*probe

	perCase    bool
	persistent probe // whether the program offers the persistent mode
	sessions   *persistent.Pool
	// counts for Mode
	runs, retries, fallbacks atomic.Int64
}

// probe records whether the program offers a feature, found once.
type probe struct {
	once    sync.Once
	offered bool
}

// Trivial inputs each op accepts, for the probes.
const (
	probePayload = "GCX1 tool=t fields=a\n"
	probeView    = `{"sections":[{"tool":"t","fields":["a"]}]}`
	probeJSON    = "[]"
)

// probeBinding holds a trivial input of each op of the MCP binding: a
// server that leaves a result alone, a client that reads one.
var probeBinding = map[Op]string{
	OpMCPServer: `{"settings":{"mode":"off"},"request":{"name":"t"},"result":{"content":[]}}`,
	OpMCPClient: `{"answers":[{"content":[]}]}`,
	OpMCPProxy:  `{"settings":{"mode":"off"},"request":{"name":"t"},"result":{"content":[]}}`,
}

// probeAuto is a trivial input of a server, or an intermediary, in auto
// mode, which needs a tokenizer: a program without one exits 2 on it, and
// its vectors of that op in auto mode are skipped.
const probeAuto = `{"settings":{"mode":"auto"},"request":{"name":"t"},"result":{"content":[]}}`

// offers reports whether the program accepts args on input with any exit
// status but 2, trying it the first time a feature is asked for.
func (c *command) offers(feature string, input string, args ...string) bool {
	c.mu.Lock()
	p := c.probes[feature]
	if p == nil {
		p = new(probe)
		c.probes[feature] = p
	}
	c.mu.Unlock()
	p.once.Do(func() {
		_, err := c.run([]byte(input), args...)
		var e *CommandError
		p.offered = !(errors.As(err, &e) && e.Status == ExitUsage)
	})
	return p.offered
}

// offersLimits returns nil when a run under limits may go ahead: none are
// set, or the program accepts args followed by all four limit flags, each
// at its minimum of [LIM-2], on input — a probe made once per feature.
// Otherwise it returns the ErrSkip that declines the run, naming the op as
// shown.
func (c *command) offersLimits(feature string, limits Limits, input string, args []string, shown []string) error {
	if limits == nil {
		return nil
	}
	all := Limits{}
	for _, f := range spec.LimitFlags {
		all[f.Name] = *f.Field(&spec.MinimumLimits)
	}
	if !c.offers(feature, input, append(slices.Clone(args), all.Flags()...)...) {
		return fmt.Errorf("%w: exits 2 on the limit flags of %s", ErrSkip, strings.Join(shown, " "))
	}
	return nil
}

// versioned returns the arguments of an op with the version flag that
// selects c's tag appended, if it is not GCX1: flag is --tag for an
// encoder and --accept for a decoder.
func (c *command) versioned(flag string, args ...string) []string {
	if c.tag == spec.Version {
		return args
	}
	return append(args, flag, c.tag)
}

// probePayload returns the trivial payload of c's version.
func (c *command) probePayload() string {
	return c.tag + strings.TrimPrefix(probePayload, spec.Version)
}

func (c *command) decode(payload []byte, limits Limits) (*spec.Payload, error) {
	wireArgs := c.versioned("--accept", "decode", "--wire")
	if !c.offers("decode", c.probePayload(), wireArgs...) {
		return nil, fmt.Errorf("%w: exits 2 on %s", ErrSkip, strings.Join(wireArgs, " "))
	}
	if err := c.offersLimits("limits", limits, c.probePayload(), wireArgs, wireArgs); err != nil {
		return nil, err
	}
	args := append(slices.Clone(wireArgs), limits.Flags()...)
	out, err := c.run(payload, args...)
	if err != nil {
		return nil, err
	}
	p, err := wire.Unmarshal(out)
	if err != nil {
		return nil, c.protocolError(args, out, fmt.Errorf("stdout is not a wire view [WIRE-1]: %v", err))
	}
	return p, nil
}

func (c *command) encode(view []byte) ([]byte, error) {
	args := c.versioned("--tag", "encode", "--wire")
	if !c.offers("encode", probeView, args...) {
		return nil, fmt.Errorf("%w: exits 2 on %s", ErrSkip, strings.Join(args, " "))
	}
	return c.run(view, args...)
}

func (c *command) encodeJSON(text []byte, tool, mode string, limits Limits) ([]byte, error) {
	probeArgs := c.versioned("--tag", "encode", "--mode", mode, "--tool", "t")
	if !c.offers("json-encode "+mode, probeJSON, probeArgs...) {
		return nil, fmt.Errorf("%w: exits 2 on %s", ErrSkip, strings.Join(c.versioned("--tag", "encode", "--mode", mode), " "))
	}
	if err := c.offersLimits("json-encode "+mode+" limits", limits, probeJSON, probeArgs, c.versioned("--tag", "encode", "--mode", mode)); err != nil {
		return nil, err
	}
	args := c.versioned("--tag", "encode", "--mode", mode)
	if tool != "" { // else the program's default [MAP-12]
		args = append(args, "--tool", tool)
	}
	args = append(args, limits.Flags()...)
	out, err := c.run(text, args...)
	if err != nil || bytes.HasPrefix(out, []byte(spec.TagPrefix)) {
		return out, err
	}
	return c.trimLF(args, out)
}

func (c *command) decodeJSON(result []byte, limits Limits) ([]byte, error) {
	args := c.versioned("--accept", "decode")
	if !c.offers("json-decode", probeJSON, args...) {
		return nil, fmt.Errorf("%w: exits 2 on %s", ErrSkip, strings.Join(args, " "))
	}
	if err := c.offersLimits("json-decode limits", limits, c.probePayload(), args, args); err != nil {
		return nil, err
	}
	args = append(args, limits.Flags()...)
	out, err := c.run(result, args...)
	if err != nil {
		return nil, err
	}
	return c.trimLF(args, out)
}

// mcp runs an op of the MCP binding: its name is the argument, the input
// object is stdin, and stdout is the outcome, a JSON text the runner
// compares with the vector's as a JSON value. The binding is for GCX1
// alone here, so no version flag is added.
func (c *command) mcp(op Op, input []byte) ([]byte, error) {
	if !c.offers(string(op), probeBinding[op], string(op)) {
		return nil, fmt.Errorf("%w: exits 2 on %s", ErrSkip, op)
	}
	if (op == OpMCPServer || op == OpMCPProxy) && usesAuto(input) && !c.offers(string(op)+" auto", probeAuto, string(op)) {
		return nil, fmt.Errorf("%w: exits 2 on %s in auto mode", ErrSkip, op)
	}
	return c.run(input, string(op))
}

// trimLF removes the LF that ends a JSON result on stdout.
func (c *command) trimLF(args []string, out []byte) ([]byte, error) {
	if !bytes.HasSuffix(out, []byte("\n")) {
		return nil, c.protocolError(args, out, errors.New("a JSON result on stdout must end with LF"))
	}
	return out[:len(out)-1], nil
}

func (c *command) protocolError(args []string, out []byte, cause error) error {
	return &CommandError{Argv: append(append([]string(nil), c.argv...), args...), Status: ExitOK, Stdout: out, Cause: cause}
}

// RunLimit is the time a run on input of n bytes is allowed, given the
// time allowed a run on a small input: timeout more for every whole 256 KiB, so
// that the million-row vectors are not held to the limit of a one-line
// one. A run that times out is tried once more with twice its limit
// before the vector is reported as timed out.
func RunLimit(timeout time.Duration, n int) time.Duration {
	return timeout * time.Duration(1+n/(256<<10))
}

// run runs the program with args appended and input on stdin, and returns
// its stdout, or a *CommandError if it does not exit with status 0. A run
// that times out is tried once more with twice the limit, so that a slow
// moment of a loaded machine is not taken for a hang.
func (c *command) run(input []byte, args ...string) ([]byte, error) {
	limit := RunLimit(c.timeout, len(input))
	out, err := c.runOnce(input, limit, args)
	if e, ok := err.(*CommandError); ok && e.Timeout > 0 {
		c.retries.Add(1)
		out, err = c.runOnce(input, 2*limit, args)
		if e, ok := err.(*CommandError); ok && e.Timeout > 0 {
			e.Cause = fmt.Errorf("timed out after %v, and after %v the first time", 2*limit, limit)
		}
	}
	return out, err
}

// runOnce runs the program once, in a persistent process when it offers
// the mode, else in a process of its own.
func (c *command) runOnce(input []byte, limit time.Duration, args []string) ([]byte, error) {
	if len(c.argv) == 0 {
		return nil, errors.New("conformance: no command to run")
	}
	c.runs.Add(1)
	if !c.offersPersistent() {
		return c.runProcess(input, limit, args)
	}
	s, err := c.sessions.Get()
	if err != nil {
		// It answered the probe but does not start now: this run, at
		// least, is made the ordinary way.
		c.fallbacks.Add(1)
		return c.runProcess(input, limit, args)
	}
	out, err := c.runSession(s, input, limit, args)
	if !errors.Is(err, persistent.ErrLost) {
		c.sessions.Put(s)
	}
	return out, err
}

// offersPersistent reports whether the program offers the persistent
// mode, asking it once: started with --persistent alone and an empty
// stdin, a program that does writes the hello line and exits 0.
func (c *command) offersPersistent() bool {
	if c.perCase {
		return false
	}
	c.persistent.once.Do(func() {
		c.persistent.offered = persistent.Offers(c.argv, c.timeout)
	})
	return c.persistent.offered
}

func (c *command) close() error {
	c.sessions.Close()
	return nil
}

// mode says how the program was run, for reports.
func (c *command) mode() string {
	switch {
	case c.runs.Load() == 0:
		return "not run"
	case !c.offersPersistent():
		return fmt.Sprintf("one process per run (%s)%s", plural.Count(int(c.runs.Load()), "run"), c.retried())
	}
	started := c.sessions.Started()
	processes := fmt.Sprintf("%d processes", started)
	if started == 1 {
		processes = "1 process"
	}
	s := fmt.Sprintf("persistent mode: %s in %s", plural.Count(int(c.runs.Load()), "run"), processes)
	if n := c.fallbacks.Load(); n > 0 {
		s += fmt.Sprintf(", %d made in a process of their own", n)
	}
	return s + c.retried()
}

// retried says how many runs timed out and were tried again.
func (c *command) retried() string {
	if n := c.retries.Load(); n > 0 {
		return fmt.Sprintf("; %d timed out and tried again with twice as long", n)
	}
	return ""
}

// runProcess runs the program with args appended and input on stdin in a
// process of its own, within limit.
func (c *command) runProcess(input []byte, limit time.Duration, args []string) ([]byte, error) {
	argv := append(append([]string(nil), c.argv...), args...)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	// A program that leaves a child holding its stdout (a shell wrapper,
	// say) must not make Wait outlast the timeout.
	cmd.WaitDelay = persistent.WaitDelay
	stdout := &cappedBuffer{limit: stdoutLimit(input)}
	stderr := &cappedBuffer{limit: maxStderrBytes, drop: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if err == nil && !stdout.over {
		return stdout.Bytes(), nil
	}
	e := &CommandError{Argv: argv, Status: -1, Stdout: stdout.Bytes(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case stdout.over:
		e.Cause = fmt.Errorf("wrote more than %d bytes on stdout, more than any result of a %d-byte input", stdout.limit, len(input))
	case ctx.Err() != nil:
		e.Timeout = limit
		e.Cause = fmt.Errorf("timed out after %v", limit)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		e.Status = exit.ExitCode()
	default:
		e.Cause = err
	}
	return nil, e
}

// maxStderrBytes is what the runner keeps of a run's stderr; a message is
// far shorter, and the rest is counted, not kept.
const maxStderrBytes = persistent.MaxStderr

// stdoutLimit bounds what the runner keeps of a run's stdout: far more than
// any result of input (a wire view escapes a byte in at most 6, the JSON
// mapping repeats names per row), so that a program that floods stdout
// fails instead of exhausting the runner's memory.
func stdoutLimit(input []byte) int {
	return 64<<20 + 16*len(input)
}

// cappedBuffer keeps at most limit bytes. Beyond it, a buffer with drop
// set counts and discards what comes; one without fails the write, which
// closes the program's pipe, and records that it overflowed.
// It keeps its bytes in a field, not an embedded bytes.Buffer, whose
// ReadFrom io.Copy would call instead of Write, bypassing the limit.
type cappedBuffer struct {
	buf     bytes.Buffer
	limit   int
	drop    bool
	over    bool
	dropped int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.buf.Len()
	if len(p) <= room {
		return b.buf.Write(p)
	}
	b.over = true
	if !b.drop {
		return 0, errors.New("conformance: output over its limit")
	}
	b.buf.Write(p[:max(room, 0)])
	b.dropped += len(p) - max(room, 0)
	return len(p), nil
}

// String returns what was kept, and how much was dropped.
func (b *cappedBuffer) String() string {
	if b.dropped == 0 {
		return b.buf.String()
	}
	return fmt.Sprintf("%s… (%d more bytes not kept)", b.buf.String(), b.dropped)
}

// Bytes returns what was kept.
func (b *cappedBuffer) Bytes() []byte { return b.buf.Bytes() }

// CommandError is the failure of a command under test: it exited with a
// status other than 0, or broke the protocol.
type CommandError struct {
	Argv   []string
	Status int // exit status; -1 if the command did not exit normally
	Stdout []byte
	Stderr string
	Cause  error // set when the command could not run, timed out or broke the protocol
	// Timeout is the limit a run that timed out was given; zero for one
	// that did not time out.
	Timeout time.Duration
}

func (e *CommandError) Error() string {
	msg := fmt.Sprintf("%s: exit status %d", strings.Join(e.Argv, " "), e.Status)
	if e.Cause != nil {
		msg += ": " + e.Cause.Error()
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += "; stderr: " + s
	}
	return msg
}

// Unwrap returns the cause.
func (e *CommandError) Unwrap() error { return e.Cause }

// check compares the failure with the expected error. The class is read
// from the exit status — 3 for unsupported-version, 1 for every other class
// [WIRE-3] — and, for status 1, from stderr, which must name it; stderr
// must also give the tag, the line and (diagnostic level) the column and
// the rule ID; stdout must be empty.
func (e *CommandError) check(want *ExpectedError) []problem {
	if e.Cause != nil {
		if e.Status == ExitOK {
			return []problem{core("want %s error [%s], got exit status 0: %v", want.Class, want.Rule, e.Cause)}
		}
		return []problem{core("%s", e.Error())}
	}
	var problems []problem
	wantStatus := ExitInvalid
	if want.Class == "unsupported-version" {
		wantStatus = ExitUnsupported
	}
	if e.Status != wantStatus {
		problems = append(problems, core("exit status %d, want %d (%s) [WIRE-3]", e.Status, wantStatus, want.Class))
	}
	if len(e.Stdout) > 0 {
		problems = append(problems, core("wrote %d bytes to stdout along with the error [WIRE-3] [ERR-4]", len(e.Stdout)))
	}
	if wantStatus == ExitInvalid && !mentionsClass(e.Stderr, want.Class) {
		problems = append(problems, core("stderr does not name the error class %s [WIRE-3]", want.Class))
	}
	for _, p := range checkText(e.Stderr, want) {
		p.text = "stderr " + p.text
		problems = append(problems, p)
	}
	if len(problems) > 0 {
		problems = append(problems, problem{minLevel(problems), "stderr: " + strings.TrimSpace(e.Stderr)})
	}
	return problems
}

// CanRun reports, in plain words, why the program named by name cannot be
// run: it is not on the PATH, does not exist or is not executable. The
// runner calls it once before the first vector, so that a wrong name gives
// one error and not a failure per vector.
func CanRun(name string) error {
	_, err := exec.LookPath(name)
	var execErr *exec.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("cannot run %s: no such program on the PATH", name)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot run %s: there is no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot run %s: it is not executable", name)
	case errors.As(err, &execErr):
		return fmt.Errorf("cannot run %s: %v", name, execErr.Err)
	}
	return fmt.Errorf("cannot run %s: %v", name, err)
}
