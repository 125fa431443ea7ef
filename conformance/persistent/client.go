package persistent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// The caller's side of the mode: the conformance runner and codec.Program
// (a draft codec written as a program) both run a program through it, so
// the framing is read and written in this one place.

// WaitDelay is how long a caller waits, once a run has timed out or
// exited, for the program's stdout and stderr to close.
const WaitDelay = time.Second

// MaxStderr is what a Session keeps of what the process writes on stderr
// outside its responses; the rest is counted, not kept.
const MaxStderr = 64 << 10

// Offers reports whether the program argv offers the mode: started with
// Flag appended and an empty stdin, it writes Hello and LF and exits 0
// within timeout.
func Offers(argv []string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], append(argv[1:len(argv):len(argv)], Flag)...)
	cmd.WaitDelay = WaitDelay
	var out bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, room: 1 << 10}
	return cmd.Run() == nil && string(bytes.TrimSpace(out.Bytes())) == Hello
}

// limitedWriter fails a write past room bytes.
type limitedWriter struct {
	w    io.Writer
	room int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if len(p) > l.room {
		return 0, errors.New("persistent mode: output over its limit")
	}
	l.room -= len(p)
	return l.w.Write(p)
}

// Result is what one run wrote and the exit status it ended with.
type Result struct {
	Status         int
	Stdout, Stderr []byte
}

// ErrLost marks a run whose process ended, timed out or broke the
// framing: the session has been ended and cannot be used again.
var ErrLost = errors.New("persistent mode: the process is lost")

// LostError is the failure of a run that lost its session.
type LostError struct {
	Cause error
	// Timeout is the limit of a run that timed out; zero otherwise.
	Timeout time.Duration
	// Stderr is what the process wrote on stderr outside its responses.
	Stderr string
}

func (e *LostError) Error() string { return fmt.Sprintf("%v (%v)", e.Cause, ErrLost) }

// Is makes errors.Is(err, ErrLost) hold.
func (e *LostError) Is(target error) bool { return target == ErrLost }

// Session is one process of a program in the mode.
type Session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	// stdoutFile is the pipe stdout reads, closed with the session
	stdoutFile *os.File
	stderr     *stderrBuffer
	exited     chan struct{} // closed once the process has exited
	next       int           // the id of the next request
}

// stderrBuffer keeps the first MaxStderr bytes the process's stderr
// copier writes while the caller may read them, and counts the rest.
type stderrBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	dropped int
}

func (b *stderrBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := max(MaxStderr-b.buf.Len(), 0)
	if len(p) > room {
		b.buf.Write(p[:room])
		b.dropped += len(p) - room
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *stderrBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped == 0 {
		return b.buf.String()
	}
	return fmt.Sprintf("%s… (%d more bytes not kept)", b.buf.String(), b.dropped)
}

// Start starts the program argv with Flag appended and waits, at most
// timeout, for its hello line.
func Start(argv []string, timeout time.Duration) (*Session, error) {
	cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], Flag)...)
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
	s := &Session{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 64<<10), stdoutFile: stdout,
		stderr: &stderrBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = WaitDelay
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
		line, err := ReadLine(s.stdout, 1<<10)
		switch {
		case err != nil:
			hello <- err
		case string(bytes.TrimSpace(line)) != Hello:
			hello <- fmt.Errorf("its first line is %q, not %s", cut(line), Hello)
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
		s.Kill()
		return nil, fmt.Errorf("persistent mode: %v", err)
	}
	return s, nil
}

// cut quotes at most a short prefix of what a program wrote.
func cut(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// Kill ends the process and waits for it.
func (s *Session) Kill() {
	s.cmd.Process.Kill()
	<-s.exited
	s.stdoutFile.Close()
}

// Close ends the session as the protocol ends it: stdin closed, after
// which the program exits; one that does not is killed.
func (s *Session) Close() {
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(WaitDelay):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.stdoutFile.Close()
}

// Run sends one request, args and input, and reads its response within
// limit; maxOutput bounds the stdout the run may write. Any error is a
// *LostError: the process has been ended, and the session is not to be
// used again.
func (s *Session) Run(args []string, input []byte, limit time.Duration, maxOutput int) (Result, error) {
	s.next++
	id := s.next
	req, err := json.Marshal(Request{ID: id, Args: args, Stdin: base64.StdEncoding.EncodeToString(input)})
	if err != nil {
		s.Kill()
		return Result{}, &LostError{Cause: err}
	}
	type answer struct {
		resp Response
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
		max := base64.StdEncoding.EncodedLen(maxOutput) + base64.StdEncoding.EncodedLen(MaxStderr) + 1<<10
		line, err := ReadLine(s.stdout, max)
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
		s.Kill()
		return Result{}, &LostError{Cause: fmt.Errorf("timed out after %v", limit), Timeout: limit, Stderr: s.stderr.String()}
	}
	lost := func(cause error) (Result, error) {
		s.Kill()
		if code := s.cmd.ProcessState.ExitCode(); code >= 0 {
			cause = fmt.Errorf("the process exited with status %d while answering", code)
		}
		return Result{}, &LostError{Cause: cause, Stderr: s.stderr.String()}
	}
	switch {
	case errors.Is(a.err, ErrLineTooLong):
		return lost(fmt.Errorf("wrote a response of more than %d bytes, more than any result of a %d-byte input", len(a.line), len(input)))
	case a.err == io.EOF || errors.Is(a.err, io.ErrUnexpectedEOF):
		return lost(errors.New("the process ended while answering"))
	case a.err != nil:
		return lost(fmt.Errorf("the response is not a JSON line of the persistent mode: %v: %q", a.err, cut(a.line)))
	case a.resp.ID != id:
		return lost(fmt.Errorf("the response has id %d, the request %d", a.resp.ID, id))
	case a.resp.Status == nil:
		return lost(errors.New(`the response has no "status"`))
	}
	stdout, err1 := base64.StdEncoding.DecodeString(a.resp.Stdout)
	stderr, err2 := base64.StdEncoding.DecodeString(a.resp.Stderr)
	if err := errors.Join(err1, err2); err != nil {
		return lost(fmt.Errorf("the response's stdout or stderr is not base64: %v", err))
	}
	if len(stderr) > MaxStderr {
		stderr = append(stderr[:MaxStderr:MaxStderr], fmt.Sprintf("… (%d more bytes not kept)", len(stderr)-MaxStderr)...)
	}
	return Result{Status: *a.resp.Status, Stdout: stdout, Stderr: stderr}, nil
}

// Pool holds the idle sessions of one program: a run takes one, or starts
// one, and gives it back when it is still usable, so that at most as many
// processes run as runs are made at once. It is safe for concurrent use.
type Pool struct {
	Argv []string
	// Timeout bounds the wait for a new process's hello line.
	Timeout time.Duration

	mu      sync.Mutex
	idle    []*Session
	started int
	closed  bool
}

// Get returns an idle session, or starts one.
func (p *Pool) Get() (*Session, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.started++
	p.mu.Unlock()
	return Start(p.Argv, p.Timeout)
}

// Put gives back a session whose last run did not lose it.
func (p *Pool) Put(s *Session) {
	p.mu.Lock()
	if !p.closed {
		p.idle = append(p.idle, s)
		s = nil
	}
	p.mu.Unlock()
	if s != nil {
		s.Close()
	}
}

// Started is how many processes the pool has started.
func (p *Pool) Started() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

// Close ends every idle session; a run still going ends its own.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, s := range idle {
		s.Close()
	}
}
