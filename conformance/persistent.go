package conformance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
)

// The runner's side of the persistent mode of the protocol
// (docs/conformance.md, "The persistent mode"); package persistent
// defines its lines and a program's side.

// session is one process of the program in persistent mode.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	// stdoutFile is the pipe stdout reads, closed with the session
	stdoutFile *os.File
	stderr     *lockedBuffer // what the process writes on stderr outside its responses
	exited     chan struct{} // closed once the process has exited
	next       int           // the id of the next request
}

// lockedBuffer is a cappedBuffer that the process's stderr copier writes
// while the runner may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf cappedBuffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startSession starts the program in persistent mode and waits, at most
// timeout, for its hello line.
func startSession(argv []string, timeout time.Duration) (*session, error) {
	cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], persistent.Flag)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// A pipe of its own, not StdoutPipe, which Wait closes as soon as the
	// process exits: a response half read when it crashed must end in EOF.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	s := &session{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 64<<10), stdoutFile: stdout,
		stderr: &lockedBuffer{buf: cappedBuffer{limit: maxStderrBytes, drop: true}}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = waitDelay
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	go func() {
		cmd.Wait()
		close(s.exited)
	}()
	hello := make(chan error, 1)
	go func() {
		line, err := persistent.ReadLine(s.stdout, 1<<10)
		switch {
		case err != nil:
			hello <- err
		case string(bytes.TrimSpace(line)) != persistent.Hello:
			hello <- fmt.Errorf("its first line is %q, not %s", CutText(string(line)), persistent.Hello)
		default:
			hello <- nil
		}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-hello:
	case <-timer.C:
		err = fmt.Errorf("no hello line in %v", timeout)
	}
	if err != nil {
		s.kill()
		return nil, fmt.Errorf("persistent mode: %v", err)
	}
	return s, nil
}

// kill ends the process and waits for it.
func (s *session) kill() {
	s.cmd.Process.Kill()
	<-s.exited
	s.stdoutFile.Close()
}

// close ends the session as the protocol ends it: stdin closed, after
// which the program exits; one that does not is killed.
func (s *session) close() {
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(waitDelay):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.stdoutFile.Close()
}

// errSessionLost marks a run whose process ended, timed out or broke the
// framing: the session cannot be used again.
var errSessionLost = errors.New("persistent mode: the process is lost")

// run sends one request and reads its response within limit. Its result
// is what command.runProcess returns for the same run; the error wraps
// errSessionLost when the session is no longer usable.
func (s *session) run(argv []string, input []byte, limit time.Duration, args []string) ([]byte, error) {
	s.next++
	id := s.next
	req, err := json.Marshal(persistent.Request{ID: id, Args: args, Stdin: base64.StdEncoding.EncodeToString(input)})
	if err != nil {
		return nil, err
	}
	full := append(append([]string(nil), argv...), args...)
	type answer struct {
		resp persistent.Response
		line []byte
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		// The request is written while the response is read, so that a
		// program that answers before it has read everything cannot
		// deadlock the two pipes.
		writeErr := make(chan error, 1)
		go func() {
			_, err := s.stdin.Write(append(req, '\n'))
			writeErr <- err
		}()
		max := base64.StdEncoding.EncodedLen(stdoutLimit(input)) + base64.StdEncoding.EncodedLen(maxStderrBytes) + 1<<10
		line, err := persistent.ReadLine(s.stdout, max)
		if err == nil {
			err = <-writeErr
		}
		var a answer
		a.line, a.err = line, err
		if err == nil {
			a.err = json.Unmarshal(line, &a.resp)
		}
		answered <- a
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	var a answer
	select {
	case a = <-answered:
	case <-timer.C:
		s.kill()
		return nil, &CommandError{Argv: full, Status: -1, Stderr: s.stderr.String(), Timeout: limit,
			Cause: fmt.Errorf("timed out after %v (%w)", limit, errSessionLost)}
	}
	lost := func(cause error) error {
		s.kill()
		e := &CommandError{Argv: full, Status: -1, Stderr: s.stderr.String(), Cause: fmt.Errorf("%v (%w)", cause, errSessionLost)}
		if code := s.cmd.ProcessState.ExitCode(); code >= 0 {
			e.Cause = fmt.Errorf("the process exited with status %d while answering (%w)", code, errSessionLost)
		}
		return e
	}
	switch {
	case errors.Is(a.err, persistent.ErrLineTooLong):
		return nil, lost(fmt.Errorf("wrote a response of more than %d bytes, more than any result of a %d-byte input", len(a.line), len(input)))
	case a.err == io.EOF || errors.Is(a.err, io.ErrUnexpectedEOF):
		return nil, lost(errors.New("the process ended while answering"))
	case a.err != nil:
		return nil, lost(fmt.Errorf("the response is not a JSON line of the persistent mode: %v: %q", a.err, CutText(string(a.line))))
	case a.resp.ID != id:
		return nil, lost(fmt.Errorf("the response has id %d, the request %d", a.resp.ID, id))
	case a.resp.Status == nil:
		return nil, lost(errors.New(`the response has no "status"`))
	}
	stdout, err1 := base64.StdEncoding.DecodeString(a.resp.Stdout)
	stderr, err2 := base64.StdEncoding.DecodeString(a.resp.Stderr)
	if err := errors.Join(err1, err2); err != nil {
		return nil, lost(fmt.Errorf("the response's stdout or stderr is not base64: %v", err))
	}
	if *a.resp.Status == ExitOK {
		return stdout, nil
	}
	if len(stderr) > maxStderrBytes {
		stderr = append(stderr[:maxStderrBytes:maxStderrBytes], fmt.Sprintf("… (%d more bytes not kept)", len(stderr)-maxStderrBytes)...)
	}
	return nil, &CommandError{Argv: full, Status: *a.resp.Status, Stdout: stdout, Stderr: string(stderr)}
}

// sessions holds the idle processes of a command in persistent mode: a
// run takes one, or starts one, and gives it back when it is still
// usable, so that at most as many run as runs are made at once.
type sessions struct {
	mu      sync.Mutex
	idle    []*session
	started int
	closed  bool
}

func (p *sessions) get(argv []string, timeout time.Duration) (*session, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.started++
	p.mu.Unlock()
	return startSession(argv, timeout)
}

func (p *sessions) put(s *session) {
	p.mu.Lock()
	if !p.closed {
		p.idle = append(p.idle, s)
		s = nil
	}
	p.mu.Unlock()
	if s != nil {
		s.close()
	}
}

// close ends every idle process; a run still going ends its own.
func (p *sessions) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
}
