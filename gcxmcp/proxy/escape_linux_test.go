package proxy

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A process the server starts that leaves its process group (setsid, as a
// daemon does) does not outlive the session: the proxy, a child subreaper,
// adopts it when the server ends, stops it, and reaps it. Its own child,
// adopted in turn when it ends, is stopped too. The daemon's shell ignores
// SIGTERM, so that SIGKILL after the grace is needed.
func TestStdioEndsEscapedDaemon(t *testing.T) {
	defer func(grace time.Duration) { ShutdownGrace = grace }(ShutdownGrace)
	ShutdownGrace = 2 * time.Second
	dir := t.TempDir()
	daemon, grandchild := filepath.Join(dir, "daemon"), filepath.Join(dir, "grandchild")
	server := filepath.Join(dir, "server")
	// The server: writes its pid (its group's id), starts the daemon in a
	// session of its own, waits for both pids, and then echoes its stdin
	// until it ends.
	script := `echo $$ > "$S"
setsid sh -c 'trap "" TERM; sleep 300 & echo $! > "$1"; echo $$ > "$0"; while :; do sleep 1; done' "$D" "$G" </dev/null >/dev/null 2>&1 &
while [ ! -s "$D" ] || [ ! -s "$G" ]; do sleep 0.02; done
exec cat`
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "D="+daemon, "G="+grandchild, "S="+server)
	p, err := New(Options{Subreaper: true})
	if err != nil {
		t.Fatal(err)
	}
	// The host ends the session once the daemon runs.
	hostIn, hostW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- p.RunStdio(context.Background(), cmd, hostIn, io.Discard) }()
	pids := []int{waitPID(t, daemon), waitPID(t, grandchild)}
	serverPid := waitPID(t, server)
	killLeft(t, pids)
	for _, pid := range pids {
		if st, ok := readStat(pid); !ok || st.pgrp == serverPid {
			t.Fatalf("pid %d has not left the server's group (%+v, %v)", pid, st, ok)
		}
	}
	start := time.Now()
	hostW.Close()
	if err := <-done; err != nil {
		t.Logf("RunStdio: %v", err)
	}
	took := time.Since(start)
	for _, pid := range pids {
		// Gone, not a zombie: reaped as well.
		if syscall.Kill(pid, 0) == nil {
			st, _ := readStat(pid)
			t.Errorf("the escaped process %d outlived the session (%+v)", pid, st)
		}
	}
	// The server's own grace after its stdin ends, then the escapees' grace
	// and margin at most.
	if limit := 2*ShutdownGrace + escapeMargin + 2*time.Second; took > limit {
		t.Errorf("the session took %v to end, over %v", took, limit)
	}
}

// An escaped process that ends during the session is reaped then, not
// left a zombie of the proxy until the session ends.
func TestStdioReapsEscapeesDuringSession(t *testing.T) {
	dir := t.TempDir()
	daemon := filepath.Join(dir, "daemon")
	// A double fork: the subshell ends at once, and the daemon is the
	// proxy's child from then on.
	script := `( setsid sh -c 'echo $$ > "$0"; sleep 0.5' "$D" </dev/null >/dev/null 2>&1 & )
while [ ! -s "$D" ]; do sleep 0.02; done
exec cat`
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "D="+daemon)
	p, err := New(Options{Subreaper: true})
	if err != nil {
		t.Fatal(err)
	}
	hostIn, hostW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- p.RunStdio(context.Background(), cmd, hostIn, io.Discard) }()
	defer func() { hostW.Close(); <-done }()
	pid := waitPID(t, daemon)
	killLeft(t, []int{pid})
	// The subshell that started it may not have ended yet: until it has,
	// the daemon is its child.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		st, ok := readStat(pid)
		if !ok || st.zombie || st.ppid == os.Getpid() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon %d is not the proxy's child (%+v)", pid, st)
		}
	}
	// The server still runs: the session has not ended.
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			st, _ := readStat(pid)
			t.Fatalf("the ended process %d was not reaped during the session (%+v)", pid, st)
		}
	}
}

// killLeft makes sure, when the test ends, that the processes pids, seen
// now, do not outlive it, killing each only while its start time shows it
// is still the process seen (not another that got its pid), and that the
// test binary is no longer a child subreaper, which no later test expects.
func killLeft(t *testing.T, pids []int) {
	t.Helper()
	starts := make([]uint64, len(pids))
	for i, pid := range pids {
		if st, ok := readStat(pid); ok {
			starts[i] = st.start
		}
	}
	t.Cleanup(func() {
		for i, pid := range pids {
			if st, ok := readStat(pid); ok && starts[i] != 0 && st.start == starts[i] {
				syscall.Kill(pid, syscall.SIGKILL)
				reap(pid)
			}
		}
		unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	})
}

func waitPID(t *testing.T, name string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(name)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", name)
		}
	}
}

// startChild starts sleep as this test process's child, in a process group
// of its own, and returns it with its stat.
func startChild(t *testing.T) (*exec.Cmd, procStat) {
	t.Helper()
	c := exec.Command("sleep", "30")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	st, ok := readStat(c.Process.Pid)
	if !ok {
		t.Fatalf("no stat for %d", c.Process.Pid)
	}
	return c, st
}

// alive reports whether pid runs, not ended nor a zombie, after a moment
// for a signal sent to it to take effect.
func alive(pid int) bool {
	time.Sleep(100 * time.Millisecond)
	st, ok := readStat(pid)
	return ok && !st.zombie
}

// A child of the proxy still in the server's group gets the group's
// signals alone, not a second SIGTERM of its own; one in another group
// gets SIGTERM.
func TestEscapeSkipsGroupMembers(t *testing.T) {
	_, member := startChild(t)
	_, other := startChild(t)
	e := &escapees{self: os.Getpid(), termed: map[int]uint64{}, since: min(member.start, other.start), pgid: member.pgrp}
	e.stop(false)
	if !alive(member.pid) {
		t.Errorf("the group's member %d was signalled as an escapee", member.pid)
	}
	if alive(other.pid) {
		t.Errorf("the escapee %d in another group was not signalled", other.pid)
	}
}

// The server's pid is skipped only while it is the server's: another
// process that gets it once the server was waited for is an escapee.
func TestEscapeFollowsRecycledServerPid(t *testing.T) {
	_, st := startChild(t)
	e := &escapees{self: os.Getpid(), termed: map[int]uint64{}, since: st.start}
	e.skip[0] = procID{st.pid, st.start}
	if cs := e.children(); len(cs) != 0 {
		t.Fatalf("the server %d is listed as an escapee: %+v", st.pid, cs)
	}
	e.skip[0].start++ // the server ended; its pid is now another's
	if cs := e.children(); len(cs) != 1 || cs[0].pid != st.pid {
		t.Fatalf("the process %d with the server's old pid is not followed: %+v", st.pid, cs)
	}
}

// subreaper reports whether this process is a child subreaper.
func subreaper(t *testing.T) bool {
	t.Helper()
	var v int32
	if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	return v != 0
}

// Where /proc cannot be read, the proxy does not become a subreaper, whose
// adopted orphans it could neither tell apart nor reap; and when /proc
// stops showing the server, it stops being one and follows nothing.
func TestEscapeNeedsProc(t *testing.T) {
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
	defer func(d string) { procDir = d }(procDir)
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	procDir = t.TempDir()
	if e := followEscapees(cmd); e != nil || subreaper(t) {
		t.Fatalf("a subreaper without /proc (%v, %v)", e, subreaper(t))
	}
	procDir = "/proc"
	e := followEscapees(cmd)
	if e == nil || !subreaper(t) {
		t.Fatal("not a subreaper with /proc")
	}
	_, other := startChild(t)
	procDir = t.TempDir()
	e.watch(other.pid, 0)
	procDir = "/proc"
	if subreaper(t) {
		t.Error("still a subreaper once /proc did not show the server")
	}
	if e.stop(false) || !alive(other.pid) {
		t.Error("escapees followed once /proc did not show the server")
	}
}

// The SIGTERM that asks the server to stop reaches the escapees at once,
// not only after the server was waited for: here the server ignores
// SIGTERM and ends on its own only once its escaped daemon got one. Were
// the daemon signalled only at the session's end, the server would be
// killed after the grace instead, and would never see the daemon end.
func TestStdioTerminateReachesEscapees(t *testing.T) {
	defer func(grace time.Duration) { ShutdownGrace = grace }(ShutdownGrace)
	ShutdownGrace = 3 * time.Second
	dir := t.TempDir()
	daemon, got, saw := filepath.Join(dir, "daemon"), filepath.Join(dir, "got"), filepath.Join(dir, "saw")
	// The daemon starts before the server ignores SIGTERM: a shell cannot
	// trap a signal ignored when it started.
	script := `( setsid sh -c 'trap "echo TERM > \"$1\"; exit" TERM; echo $$ > "$0"; while :; do sleep 0.05; done' "$D" "$G" </dev/null >/dev/null 2>&1 & )
trap "" TERM
echo $$ > "$R"
while [ ! -s "$D" ]; do sleep 0.02; done
while [ ! -s "$G" ]; do sleep 0.02; done
echo saw > "$W"`
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "D="+daemon, "G="+got, "W="+saw, "R="+filepath.Join(dir, "ready"))
	p, err := New(Options{Subreaper: true})
	if err != nil {
		t.Fatal(err)
	}
	hostIn, hostW := io.Pipe()
	defer hostW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.RunStdio(ctx, cmd, hostIn, io.Discard) }()
	pid := waitPID(t, daemon)
	killLeft(t, []int{pid})
	waitPID(t, filepath.Join(dir, "ready")) // the server ignores SIGTERM
	cancel()
	<-done
	if b, _ := os.ReadFile(saw); len(b) == 0 {
		b, _ := os.ReadFile(got)
		t.Errorf("the escaped daemon did not get SIGTERM while the server ran (daemon wrote %q)", b)
	}
	if syscall.Kill(pid, 0) == nil {
		t.Errorf("the escaped daemon %d outlived the session", pid)
	}
}
