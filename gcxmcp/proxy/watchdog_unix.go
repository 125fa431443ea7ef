//go:build unix

package proxy

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// WatchGroup is the body of the watchdog of RunStdioWatched: a process of
// its own that outlives a proxy killed by a signal it cannot catch
// (SIGKILL) and then stops the server's process group, pgid, as the proxy
// would have: SIGTERM, then SIGKILL after ShutdownGrace. lifeline is the
// read end of a pipe whose write end only the proxy holds. A byte on it
// means the proxy ended the group itself and WatchGroup returns at once;
// its end without a byte means the proxy died, the kernel having closed
// its end, and WatchGroup stops the group before it returns.
func WatchGroup(lifeline io.Reader, pgid int) error {
	if pgid <= 1 {
		return errors.New("the watchdog needs the server's process group id")
	}
	var b [1]byte
	for {
		n, err := lifeline.Read(b[:])
		if n > 0 {
			return nil // released
		}
		if err != nil {
			break
		}
	}
	stopGroup(pgid)
	return errors.New("the proxy ended without stopping the server; its process group was stopped")
}

// startWatchdog starts watchdog, the command of a process that calls
// WatchGroup on its stdin with the group id it is given as its last
// argument, for the process group of the server cmd, when it has one. It
// runs in a process group of its own, so that a signal sent to the
// proxy's group (the terminal's, or the host's) does not reach it. Its
// stdout is not the host's: the host sees the proxy's output end with the
// proxy. release tells it the group is ended and waits for it to exit.
func startWatchdog(watchdog, cmd *exec.Cmd) (release func(), err error) {
	if !hasGroup(cmd) {
		return func() {}, nil
	}
	pgid := cmd.Process.Pid
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	watchdog.Args = append(watchdog.Args, strconv.Itoa(pgid))
	watchdog.Stdin, watchdog.Stdout = r, nil
	if watchdog.SysProcAttr == nil {
		watchdog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	err = watchdog.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return func() {
		w.Write([]byte{1})
		w.Close()
		watchdog.Wait()
	}, nil
}
