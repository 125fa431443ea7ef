package conformance

import (
	"errors"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
)

// runSession makes one run in a session of the persistent mode
// (docs/conformance.md, "The persistent mode"; package persistent holds
// the framing, for the runner and codec.Program alike). Its result is what
// command.runProcess returns for the same run; the error wraps
// persistent.ErrLost when the session has been ended.
func (c *command) runSession(s *persistent.Session, input []byte, limit time.Duration, args []string) ([]byte, error) {
	full := append(append([]string(nil), c.argv...), args...)
	r, err := s.Run(args, input, limit, stdoutLimit(input))
	var lost *persistent.LostError
	if errors.As(err, &lost) {
		return nil, &CommandError{Argv: full, Status: -1, Stderr: lost.Stderr, Timeout: lost.Timeout, Cause: lost}
	}
	if err != nil {
		return nil, err
	}
	if r.Status == ExitOK {
		return r.Stdout, nil
	}
	return nil, &CommandError{Argv: full, Status: r.Status, Stdout: r.Stdout, Stderr: string(r.Stderr)}
}
