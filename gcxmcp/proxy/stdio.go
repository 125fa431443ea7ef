package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"
)

// ShutdownGrace is how long the proxy waits for the server to exit after
// closing its stdin, and again after asking it to stop, before it stops it
// by force: the stdio shutdown MCP describes.
var ShutdownGrace = 5 * time.Second

// ServerEndedError reports that the server closed its stdout, or could no
// longer be written to, before the host closed the session.
type ServerEndedError struct {
	// State is the server's exit state, nil when it could not be had.
	State *os.ProcessState
	// Unanswered is the number of tools/call requests still in flight.
	Unanswered int
}

func (e *ServerEndedError) Error() string {
	how := "closed its output"
	if e.State != nil {
		how = "exited (" + e.State.String() + ")"
	}
	return fmt.Sprintf("the server %s before the host closed the session; %d tools/call requests were left unanswered", how, e.Unanswered)
}

// The names of the stdio streams in errors.
const (
	hostRead    = "reading stdin (the host)"
	hostWrite   = "writing stdout (the host)"
	serverRead  = "reading the server's stdout"
	serverWrite = "writing the server's stdin"
)

// RunStdio starts cmd, the MCP server, and proxies between the host, which
// speaks to this process over hostIn and hostOut, and the server's stdin
// and stdout; the server's stderr is the caller's to set. It returns when
// the session ends:
//
//   - nil when the host closed hostIn and the server's output up to its
//     exit has reached hostOut. The server is given its stdin's end, then
//     ShutdownGrace to exit, then SIGTERM, then ShutdownGrace again, then
//     SIGKILL.
//   - a *ServerEndedError when the server ended first: its messages up to
//     then have reached the host, and the host's next messages are not read.
//   - a *StreamError when a stream failed, after stopping the server.
//   - the error of starting cmd, or ctx's error after stopping the server
//     (SIGTERM, then SIGKILL after ShutdownGrace): a caller cancels ctx on
//     the signals that end it.
//
// Unless the caller set cmd.SysProcAttr, the server runs in a process
// group of its own, and whichever way the session ends, what is left of the
// group then is stopped too, so that no child the server started (npx
// starts node) outlives the session. On Linux the kernel also sends the
// server SIGTERM if this process dies without stopping it; on Windows,
// where there are no process groups, a job object holds the server and its
// children and ends them when the session or the process ends. RunStdio
// returns once the server's group is gone. With Options.Subreaper, on
// Linux, the server's descendants that leave its group (setsid, a daemon)
// are ended with it too.
func (p *Proxy) RunStdio(ctx context.Context, cmd *exec.Cmd, hostIn io.Reader, hostOut io.Writer) error {
	return p.RunStdioWatched(ctx, cmd, hostIn, hostOut, nil)
}

// RunStdioWatched is RunStdio with a watchdog for the server's process
// group: watchdog is the command of a process that calls WatchGroup (gcx
// proxy runs its own executable), started, once the server is, with the
// group's id appended to its arguments and a lifeline as its stdin. If
// this process dies without stopping the group, SIGKILL included, the
// watchdog stops it: the server's children too, which Linux's parent-death
// signal does not reach, and on systems that have none. Without process
// groups (Windows) the watchdog is not needed and not started.
func (p *Proxy) RunStdioWatched(ctx context.Context, cmd *exec.Cmd, hostIn io.Reader, hostOut io.Writer, watchdog *exec.Cmd) error {
	// The server and its children in a group of their own, so that
	// stopping it reaches a server started through npx or a shell, and
	// none of them outlives the proxy.
	ownGroup(cmd)
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = ShutdownGrace
	}
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	// The server's descendants that leave its group are adopted by this
	// process, from before the server starts, when the caller allows it.
	var esc *escapees
	if p.subreaper {
		esc = followEscapees(cmd)
	}
	release, err := p.startServer(cmd)
	if err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	defer release()
	watchdogPid := 0
	if watchdog != nil {
		releaseWatchdog, err := startWatchdog(watchdog, cmd)
		if err != nil {
			// The parent-death signal still reaches the server on Linux.
			p.log.printf("gcx proxy: the watchdog that stops the server should the proxy be killed could not be started: %v", err)
		} else {
			defer releaseWatchdog()
			if watchdog.Process != nil {
				watchdogPid = watchdog.Process.Pid
			}
		}
	}
	esc.watch(cmd.Process.Pid, watchdogPid)
	// Deferred last, run first: the group and the escapees end before the
	// watchdog is released and before the job object closes.
	defer endGroup(cmd, esc)
	// The host's stdout carries the server's messages and the proxy's
	// refusals [PRX-9], a whole message per Write.
	out := &lockedWriter{w: hostOut}
	hostOut = out
	p.reply = func(msg []byte) error {
		_, err := out.Write(msg)
		return err
	}
	serverDone := make(chan error, 1)
	go func() { serverDone <- p.Pump(UpstreamToHost, hostOut, fromServer, serverRead, hostWrite) }()
	hostDone := make(chan error, 1)
	go func() { hostDone <- p.Pump(HostToUpstream, toServer, hostIn, hostRead, serverWrite) }()

	select {
	case err := <-hostDone:
		toServer.Close()
		var se *StreamError
		if errors.As(err, &se) && se.Stream == serverWrite {
			// The server stopped reading: it has ended or is ending. A
			// server that closed its stdin but keeps its stdout open is
			// stopped, so that the host is not kept waiting.
			return p.serverEnded(cmd, esc, awaitOutput(cmd, esc, serverDone, fromServer))
		}
		// The host ended the session: the server gets the end of its
		// stdin and time to answer what it was asked, and exit.
		outErr := awaitOutput(cmd, esc, serverDone, fromServer)
		wait(cmd, esc)
		return errors.Join(err, outErr)
	case err := <-serverDone:
		return p.serverEnded(cmd, esc, err)
	case <-ctx.Done():
		toServer.Close()
		terminate(cmd, esc)
		awaitOutput(cmd, esc, serverDone, fromServer)
		wait(cmd, esc)
		return ctx.Err()
	}
}

// serverEnded handles the server's output ending first (outErr nil or a
// read error), or the host's output failing (the server is then stopped).
func (p *Proxy) serverEnded(cmd *exec.Cmd, esc *escapees, outErr error) error {
	var se *StreamError
	if errors.As(outErr, &se) && se.Stream == hostWrite {
		terminate(cmd, esc)
		wait(cmd, esc)
		return outErr
	}
	wait(cmd, esc)
	return &ServerEndedError{State: cmd.ProcessState, Unanswered: p.Pending()}
}

// awaitOutput waits for the server's output to end, giving it
// ShutdownGrace, then SIGTERM and ShutdownGrace, then SIGKILL and
// ShutdownGrace, then closing the pipe. It returns the error of the
// output's copy to the host, but none for the pipe it closed.
func awaitOutput(cmd *exec.Cmd, esc *escapees, serverDone <-chan error, fromServer io.Closer) error {
	steps := []func(){
		func() { terminate(cmd, esc) },
		func() { kill(cmd, esc) },
		func() { fromServer.Close() },
	}
	for i, step := range steps {
		select {
		case err := <-serverDone:
			return err
		case <-time.After(ShutdownGrace):
			step()
			if i == len(steps)-1 {
				<-serverDone
				return nil
			}
		}
	}
	return nil
}

// wait waits for the server to exit, stopping it when it lives on: after
// ShutdownGrace with a request to stop, after another by force.
func wait(cmd *exec.Cmd, esc *escapees) {
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	for _, stop := range []func(*exec.Cmd, *escapees){terminate, kill} {
		select {
		case <-waited:
			return
		case <-time.After(ShutdownGrace):
			stop(cmd, esc)
		}
	}
	<-waited
}

// startServer starts cmd from a goroutine locked to its OS thread, and
// keeps the thread until release: Linux sends the parent-death signal
// when the thread that started a process ends, not the process, and Go
// ends a thread whenever a goroutine locked to it returns without
// unlocking, in any package. release also closes what contain made.
func (p *Proxy) startServer(cmd *exec.Cmd) (release func(), err error) {
	started := make(chan error)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		started <- err
		if err == nil {
			<-done
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	uncontain, err := contain(cmd)
	if err != nil {
		p.log.printf("gcx proxy: %v; a child the server starts may outlive the proxy", err)
	}
	return func() {
		uncontain()
		close(done)
	}, nil
}

// lockedWriter writes each message whole, from any goroutine.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
