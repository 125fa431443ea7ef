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
	"time"

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
// Register it (Register(Program(...))) and the scorecard measures it;
// gcx explore --tag TAG -- PROGRAM checks the registry-wide laws on it.
func Program(tag string, timeout time.Duration, argv ...string) Limited {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	return &program{tag: tag, argv: argv, timeout: timeout}
}

type program struct {
	tag     string
	argv    []string
	timeout time.Duration
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
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.argv[0], append(p.argv[1:len(p.argv):len(p.argv)], args...)...)
	cmd.Stdin = bytes.NewReader(input)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	msg := strings.TrimSpace(stderr.String())
	if len(msg) > 500 {
		msg = msg[:500] + "…"
	}
	var exit *exec.ExitError
	if ctx.Err() == nil && errors.As(err, &exit) {
		switch exit.ExitCode() {
		case 1:
			e := &spec.Error{Class: spec.ErrModel, Rule: ruleInText.FindString(msg), Msg: msg}
			for _, w := range classWords {
				if w.re.MatchString(msg) {
					e.Class = w.class
					break
				}
			}
			return nil, e
		case 3:
			return nil, &spec.Error{Class: spec.ErrUnsupportedVersion, Rule: ruleInText.FindString(msg),
				Tag: tagInText.FindString(msg), Msg: msg}
		}
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out after %v", p.timeout)
	}
	return nil, fmt.Errorf("%s: %v; stderr: %s", p.name(args), err, msg)
}
