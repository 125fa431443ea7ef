package codec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Program returns the codec of a draft written as a program in any
// language: argv, run once per call with the arguments of the gcx command
// appended, as docs/conformance.md ("Draft codecs as programs") specifies:
//
//	encode  argv... encode --mode gcx --tool NAME --tag TAG [limit flags]   JSON text on stdin, the payload on stdout
//	decode  argv... decode --accept TAG [limit flags]                      the payload on stdin, the compact value and LF on stdout
//
// The limit flags are those of gcx (spec.LimitFlags), each with a positive
// count, given only for the limits that are set. Exit status 0 is success,
// 1 a refusal (stderr names the class and the rule), 3 a payload of
// another version (stderr names its tag). The codec is Limited: a program
// must keep its encoder within the limits its decoder is given.
//
// A program that offers the persistent mode of the conformance protocol
// (docs/conformance.md, "The persistent mode") is asked once, then kept
// running: one process answers many calls, several when calls are made at
// once. A call that ends the process, hangs it or breaks the framing fails
// alone, and the next call starts a new process. The codec is safe for
// concurrent use; Close ends the processes it keeps.
//
// Register it (Register(Program(...))) and the scorecard measures it;
// gcx explore --tag TAG -- PROGRAM checks the registry-wide laws on it.
func Program(tag string, timeout time.Duration, argv ...string) Limited {
	return NewProgram(ProgramConfig{Tag: tag, Timeout: timeout}, argv...)
}

// ProgramConfig configures a draft codec written as a program.
type ProgramConfig struct {
	Tag string
	// Timeout bounds a call; zero means 10 seconds.
	Timeout time.Duration
	// PerCall starts a process for every call even when the program
	// offers the persistent mode.
	PerCall bool
}

// NewProgram is Program with every setting; its codec has a Close method
// (io.Closer) that ends the processes it keeps.
func NewProgram(cfg ProgramConfig, argv ...string) Limited {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	return &program{tag: cfg.Tag, argv: argv, timeout: cfg.Timeout, perCall: cfg.PerCall,
		sessions: &persistent.Pool{Argv: argv, Timeout: cfg.Timeout}}
}

type program struct {
	tag     string
	argv    []string
	timeout time.Duration
	perCall bool

	probe      sync.Once
	persistent bool // whether the program offers the persistent mode
	sessions   *persistent.Pool
}

func (p *program) Tag() string { return p.tag }

func (p *program) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return p.EncodeLimits(tool, v, spec.Limits{})
}

func (p *program) Decode(payload []byte) (jsonmap.Value, error) {
	return p.DecodeLimits(payload, spec.Limits{})
}

func (p *program) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	args := append([]string{"encode", "--mode", "gcx", "--tool", tool, "--tag", p.tag}, limitArgs(limits)...)
	return p.run(v.AppendCompact(nil), args)
}

func (p *program) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	args := append([]string{"decode", "--accept", p.tag}, limitArgs(limits)...)
	out, err := p.run(payload, args)
	if err != nil {
		return jsonmap.Value{}, err
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		return jsonmap.Value{}, fmt.Errorf("%s: the value on stdout does not end with LF", p.name(args))
	}
	v, err := jsonmap.Parse(out[:len(out)-1])
	if err != nil {
		return jsonmap.Value{}, fmt.Errorf("%s: stdout is not a JSON text: %v", p.name(args), err)
	}
	return v, nil
}

func limitArgs(l spec.Limits) []string {
	var args []string
	for _, f := range spec.LimitFlags {
		if n := *f.Field(&l); n > 0 {
			args = append(args, "--"+f.Name, strconv.Itoa(n))
		}
	}
	return args
}

func (p *program) name(args []string) string {
	return strings.Join(append(append([]string(nil), p.argv...), args...), " ")
}

var (
	ruleInText = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(-[A-Z][A-Z0-9]*)*-[0-9]+\b`)
	tagInText  = regexp.MustCompile(`\bGCX[A-Za-z0-9._-]*`)
	// classWords maps the words of [ERR-1] a message may use to classes.
	classWords = []struct {
		re    *regexp.Regexp
		class error
	}{
		{regexp.MustCompile(`(?i)\blimit\b`), spec.ErrLimit},
		{regexp.MustCompile(`(?i)\bnot[- ]gcx\b`), spec.ErrNotGCX},
		{regexp.MustCompile(`(?i)\bsyntax\b`), spec.ErrSyntax},
		{regexp.MustCompile(`(?i)\bconstraint\b`), spec.ErrConstraint},
		{regexp.MustCompile(`(?i)\binvalid[- ]json\b`), spec.ErrInvalidJSON},
		{regexp.MustCompile(`(?i)\bmodel\b`), spec.ErrModel},
	}
)

// run runs the program with args appended and input on stdin. A refusal
// (exit status 1 or 3) comes back as a *spec.Error whose class, rule and
// tag are read from stderr; anything else that is not success is an error
// that names the command.
func (p *program) run(input []byte, args []string) ([]byte, error) {
	if len(p.argv) == 0 {
		return nil, errors.New("codec: a program codec needs a command")
	}
	status, stdout, stderr, err := p.runOnce(input, args)
	if err == nil && status == 0 {
		return stdout, nil
	}
	msg := strings.TrimSpace(string(stderr))
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %w; stderr: %s", p.name(args), err, msg)
	case status == 1:
		e := &spec.Error{Class: spec.ErrModel, Rule: ruleInText.FindString(msg), Msg: msg}
		for _, w := range classWords {
			if w.re.MatchString(msg) {
				e.Class = w.class
				break
			}
		}
		return nil, e
	case status == 3:
		return nil, &spec.Error{Class: spec.ErrUnsupportedVersion, Rule: ruleInText.FindString(msg),
			Tag: tagInText.FindString(msg), Msg: msg}
	}
	return nil, fmt.Errorf("%s: exit status %d; stderr: %s", p.name(args), status, msg)
}

// runOnce runs the program once, in a persistent process when it offers
// the mode, else in a process of its own, and returns the exit status and
// what it wrote; err is set when it did not exit normally.
func (p *program) runOnce(input []byte, args []string) (status int, stdout, stderr []byte, err error) {
	p.probe.Do(func() {
		p.persistent = !p.perCall && persistent.Offers(p.argv, p.timeout)
	})
	if p.persistent {
		s, err := p.sessions.Get()
		if err == nil {
			r, err := s.Run(args, input, p.timeout, maxProgramOutput(input))
			var lost *persistent.LostError
			if errors.As(err, &lost) {
				return -1, nil, []byte(lost.Stderr), lost
			}
			p.sessions.Put(s)
			return r.Status, r.Stdout, r.Stderr, nil
		}
		// It answered the probe but does not start now: this call, at
		// least, is made the ordinary way.
	}
	return p.runProcess(input, args)
}

// maxProgramOutput bounds what a call may write on stdout: far more than
// any payload or value of input, so that a program that floods stdout
// fails instead of exhausting memory.
func maxProgramOutput(input []byte) int {
	return 64<<20 + 16*len(input)
}

func (p *program) runProcess(input []byte, args []string) (status int, stdout, stderr []byte, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.argv[0], append(p.argv[1:len(p.argv):len(p.argv)], args...)...)
	cmd.Stdin = bytes.NewReader(input)
	cmd.WaitDelay = persistent.WaitDelay
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, nil, errOut.Bytes(), fmt.Errorf("timed out after %v", p.timeout)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode(), out.Bytes(), errOut.Bytes(), nil
	case err != nil:
		return -1, nil, errOut.Bytes(), err
	}
	return 0, out.Bytes(), errOut.Bytes(), nil
}

// Close ends the processes the codec keeps in persistent mode.
func (p *program) Close() error {
	p.sessions.Close()
	return nil
}
