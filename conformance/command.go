package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/gcxwire/gcx/spec"
)

// Exit statuses of a command that speaks the wire view [WIRE-3].
const (
	ExitOK          = 0
	ExitInvalid     = 1
	ExitUsage       = 2
	ExitUnsupported = 3
)

// DefaultTimeout bounds one run of a command under test.
const DefaultTimeout = 10 * time.Second

// CommandError is the failure of a command under test: it exited with a
// status other than 0, or broke the protocol.
type CommandError struct {
	Argv   []string
	Status int // exit status; -1 if the command did not exit normally
	Stdout []byte
	Stderr string
	Cause  error // set when the command could not run or timed out
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

// check compares the failure with the vector's expected error. The class is
// read from the exit status: 3 for unsupported-version, 1 for every other
// class [WIRE-3]; the rule ID, the tag and (with Options.Positions) the
// line and column must appear on stderr; stdout must be empty.
func (e *CommandError) check(v *Vector, opt Options) []string {
	want := v.Want
	var problems []string
	if e.Cause != nil {
		if e.Status == ExitOK {
			return []string{fmt.Sprintf("want %s error [%s], got exit status 0: %v", want.Class, want.Rule, e.Cause)}
		}
		return []string{e.Error()}
	}
	wantStatus := ExitInvalid
	if want.Class == "unsupported-version" {
		wantStatus = ExitUnsupported
	}
	if e.Status != wantStatus {
		problems = append(problems, fmt.Sprintf("exit status %d, want %d (%s) [WIRE-3]", e.Status, wantStatus, want.Class))
	}
	if len(e.Stdout) > 0 {
		problems = append(problems, fmt.Sprintf("wrote %d bytes to stdout along with the error [WIRE-3] [ERR-4]", len(e.Stdout)))
	}
	if !opt.IgnoreRules && !mentionsRule(e.Stderr, want.Rule) {
		problems = append(problems, fmt.Sprintf("stderr does not name rule %s", want.Rule))
	}
	if want.Tag != "" && !strings.Contains(e.Stderr, want.Tag) {
		problems = append(problems, fmt.Sprintf("stderr does not name the tag %s [VER-2] [WIRE-3]", want.Tag))
	}
	if opt.Positions && v.Kind == Invalid && !mentionsPosition(e.Stderr, want.Line, want.Column) {
		problems = append(problems, fmt.Sprintf("stderr does not give line %d, column %d [ERR-2]", want.Line, want.Column))
	}
	if len(problems) > 0 {
		problems = append(problems, "stderr: "+strings.TrimSpace(e.Stderr))
	}
	return problems
}

// DecoderCommand returns a Decoder that runs argv once per payload: the
// payload on stdin, the wire view expected on stdout [WIRE-3]. A vector's
// limits are appended to argv as flags ("--max-fields 2"); a command that
// exits with status 2 (usage) on such a vector is taken not to support
// limits, and the vector is skipped.
func DecoderCommand(timeout time.Duration, argv ...string) Decoder {
	return func(payload []byte, limits Limits) (*spec.Payload, error) {
		args := append(append([]string(nil), argv...), limits.Flags()...)
		out, err := runCommand(timeout, args, payload)
		if err != nil {
			var e *CommandError
			if limits != nil && errors.As(err, &e) && e.Status == ExitUsage {
				return nil, fmt.Errorf("%w: usage error on the limit flags %s", ErrSkip, strings.Join(limits.Flags(), " "))
			}
			return nil, err
		}
		p, err := spec.UnmarshalWire(out)
		if err != nil {
			return nil, &CommandError{Argv: args, Status: ExitOK, Stdout: out,
				Cause: fmt.Errorf("stdout is not a wire view [WIRE-1]: %v", err)}
		}
		return p, nil
	}
}

// EncoderCommand returns an Encoder that runs argv once per wire view: the
// view on stdin, the GCX1 bytes expected on stdout [WIRE-3].
func EncoderCommand(timeout time.Duration, argv ...string) Encoder {
	return func(wire []byte) ([]byte, error) {
		return runCommand(timeout, argv, wire)
	}
}

// runCommand runs argv with stdin and returns its stdout, or a
// *CommandError if it does not exit with status 0.
func runCommand(timeout time.Duration, argv []string, stdin []byte) ([]byte, error) {
	if len(argv) == 0 {
		return nil, errors.New("conformance: no command to run")
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	e := &CommandError{Argv: argv, Status: -1, Stdout: stdout.Bytes(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		e.Cause = fmt.Errorf("timed out after %v", timeout)
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		e.Status = exit.ExitCode()
	default:
		e.Cause = err
	}
	return nil, e
}
