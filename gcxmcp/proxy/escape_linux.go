package proxy

import (
	"bytes"
	"os"
	"os/exec"
	ossignal "os/signal"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// escapees follows the server's descendants that leave its process group
// (setsid, a daemon's double fork), which a signal to the group does not
// reach. The proxy is a child subreaper: when such a process's parent
// ends, the kernel makes it the proxy's child instead of init's, and a
// child of the proxy is one whose pid cannot be another process's until
// the proxy reaps it, so signalling it is safe. Its children are told
// apart from the two the proxy started, the server and the watchdog, which
// os/exec waits for, by pid and start time (once waited for, their pid may
// be an escapee's), and from any older process by their start time, which
// is not before the server's. A child still in the server's group is the
// group's to end, not signalled again.
type escapees struct {
	self  int
	skip  [2]procID // the server and the watchdog (pid 0 when none)
	since uint64    // the server's start time, in clock ticks since boot
	pgid  int       // the server's process group
	off   bool      // /proc did not show the server: nothing is followed

	stopOnce sync.Once
	quit     chan struct{}
	done     chan struct{}
	// termed holds the escapees sent SIGTERM, so that each gets it once;
	// at most maxEscapees of them are held, and one beyond may get it again.
	termed map[int]uint64
}

// procID names a process: its pid and its start time.
type procID struct {
	pid   int
	start uint64
}

// is reports whether st is the process id names.
func (id procID) is(st procStat) bool { return id.pid != 0 && st.pid == id.pid && st.start == id.start }

// procDir is where the proxy reads the processes; a variable for tests.
var procDir = "/proc"

// maxEscapees bounds the escapees held and signalled per pass.
const maxEscapees = 4096

// followEscapees makes this process a child subreaper, before the server
// starts so that a descendant escaping at once is caught, and returns
// what follows the session's escapees; nil where the kernel refuses, or
// when the caller set cmd.SysProcAttr and the server has no group of its
// own that the proxy ends, or when /proc cannot be read: the proxy could
// then neither tell escapees apart nor reap them, and orphans would stay
// its zombies.
func followEscapees(cmd *exec.Cmd) *escapees {
	if !hasGroup(cmd) {
		return nil
	}
	if _, ok := readStat(os.Getpid()); !ok {
		return nil
	}
	if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != nil {
		return nil
	}
	return &escapees{self: os.Getpid(), termed: map[int]uint64{}}
}

// watch starts reaping, during the session, the escapees that end, so that
// they do not pile up as zombies: the kernel tells the proxy a child ended
// with SIGCHLD. server and watchdog are the pids os/exec waits for. When
// /proc does not show the server, the proxy stops being a subreaper and
// follows nothing.
func (e *escapees) watch(server, watchdog int) {
	if e == nil {
		return
	}
	st, ok := readStat(server)
	if !ok {
		e.off = true
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
		return
	}
	e.since, e.pgid = st.start, st.pgrp
	e.skip[0] = procID{server, st.start}
	if watchdog != 0 {
		if wst, ok := readStat(watchdog); ok {
			e.skip[1] = procID{watchdog, wst.start}
		}
	}
	e.quit, e.done = make(chan struct{}), make(chan struct{})
	chld := make(chan os.Signal, 1)
	ossignal.Notify(chld, syscall.SIGCHLD)
	go func() {
		defer close(e.done)
		defer ossignal.Stop(chld)
		for {
			select {
			case <-e.quit:
				return
			case <-chld:
				for _, c := range e.children() {
					if c.zombie {
						reap(c.pid)
					}
				}
			}
		}
	}()
}

// pause stops the reaping of the session before the session's end
// handles the escapees itself.
func (e *escapees) pause() {
	if e == nil || e.quit == nil {
		return
	}
	e.stopOnce.Do(func() { close(e.quit); <-e.done })
}

// stop makes one pass over the escapees at the session's end: it reaps
// those that ended, sends SIGTERM to each new one, or SIGKILL to all when
// forced, and reports whether any was left.
func (e *escapees) stop(forced bool) (left bool) {
	if e == nil {
		return false
	}
	for _, c := range e.children() {
		if c.zombie {
			reap(c.pid)
			continue
		}
		if e.pgid > 1 && c.pgrp == e.pgid {
			continue // the group's signals reach it
		}
		left = true
		sig := syscall.SIGKILL
		if !forced {
			if start, ok := e.termed[c.pid]; ok && start == c.start {
				continue
			}
			if len(e.termed) < maxEscapees {
				e.termed[c.pid] = c.start
			}
			sig = syscall.SIGTERM
		}
		// Once more right before the signal: still this proxy's child,
		// started when it was seen.
		if st, ok := readStat(c.pid); ok && st.ppid == e.self && st.start == c.start && c.pid > 1 {
			syscall.Kill(c.pid, sig)
		}
	}
	return left
}

// reap collects the exit of the escapee pid, this proxy's child.
func reap(pid int) {
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

// procStat is what the proxy reads of /proc/PID/stat.
type procStat struct {
	pid, ppid, pgrp int
	zombie          bool
	start           uint64
}

// readStat reads the stat of pid; ok is false when it has ended.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile(procDir + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(pid, b)
}

// parseStat parses "pid (comm) state ppid pgrp ... starttime ...": comm
// may hold anything, but its closing parenthesis is the line's last;
// starttime is the 22nd field.
func parseStat(pid int, b []byte) (procStat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{pid: pid, ppid: ppid, pgrp: pgrp, zombie: string(f[0]) == "Z", start: start}, true
}

// children lists this proxy's children that are the server's escaped
// descendants, or orphans still in its group, at most maxEscapees of them,
// in one pass over /proc.
func (e *escapees) children() []procStat {
	if e.off {
		return nil
	}
	dir, err := os.Open(procDir)
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil
	}
	var out []procStat
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid <= 1 || pid == e.self {
			continue
		}
		st, ok := readStat(pid)
		if !ok || st.ppid != e.self || st.start < e.since || e.skip[0].is(st) || e.skip[1].is(st) {
			continue
		}
		out = append(out, st)
		if len(out) == maxEscapees {
			break
		}
	}
	return out
}
