//go:build unix

package proxy

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts the server in a process group of its own, whose id is
// its pid, unless the caller arranged otherwise; on Linux the server is
// also asked to stop (SIGTERM) by the kernel when the proxy dies.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		parentDeathSignal(cmd.SysProcAttr)
	}
}

func hasGroup(cmd *exec.Cmd) bool { return cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid }

// terminate asks the server and its group to stop, and esc's escapees
// (one pass: SIGTERM to each not sent it yet); kill stops them all.
func terminate(cmd *exec.Cmd, esc *escapees) { signal(cmd, syscall.SIGTERM); esc.stop(false) }
func kill(cmd *exec.Cmd, esc *escapees)      { signal(cmd, syscall.SIGKILL); esc.stop(true) }

// endGroup ends what is left of the server's process group once the
// session is over, whichever way it ended: a child the server started
// (npx starts node, a shell starts the server) may outlive the server
// itself. It reaches the group alone: the server itself has been waited
// for, and its pid may be another process's by now. esc, when not nil,
// is ended with the group: the server's descendants that left it.
func endGroup(cmd *exec.Cmd, esc *escapees) {
	if cmd.Process == nil {
		return
	}
	esc.pause()
	pgid := 0
	if hasGroup(cmd) {
		pgid = cmd.Process.Pid
	}
	stopGroupAnd(pgid, esc)
}

// escapeMargin is how long the proxy goes on, after the grace and the
// SIGKILL, reaping the escapees and ending those still being reparented
// to it: the exit is never held longer than ShutdownGrace plus this.
const escapeMargin = time.Second

// stopGroup asks the processes of the group pgid to stop (SIGTERM) and,
// when some are left after ShutdownGrace, stops them by force (SIGKILL).
// The proxy calls it when a session ends, and its watchdog [WatchGroup]
// when the proxy died without doing so.
func stopGroup(pgid int) { stopGroupAnd(pgid, nil) }

// stopGroupAnd is stopGroup that also ends esc's escapees, the server's
// descendants that left the group, each sent SIGTERM when seen and
// SIGKILL after ShutdownGrace. An escapee's children become escapees when
// it ends, so it goes on while new ones appear, up to escapeMargin past
// the grace; pgid 0 is no group.
func stopGroupAnd(pgid int, esc *escapees) {
	grouped := pgid > 1 && syscall.Kill(-pgid, syscall.SIGTERM) == nil
	if !grouped && esc == nil {
		return // no process is left in it
	}
	deadline := time.Now().Add(ShutdownGrace)
	killed := false
	for {
		forced := time.Now().After(deadline)
		if forced && grouped && !killed {
			syscall.Kill(-pgid, syscall.SIGKILL)
			killed = true
			if esc == nil {
				return
			}
		}
		left := grouped && groupRunning(pgid)
		if esc.stop(forced) {
			left = true
		}
		if !left || time.Now().After(deadline.Add(escapeMargin)) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// contain has nothing to do where process groups hold the server's
// children: see the Windows version.
func contain(cmd *exec.Cmd) (release func(), err error) { return func() {}, nil }

// signal sends sig to the server's process group, or to the server alone
// when it has none of its own.
func signal(cmd *exec.Cmd, sig syscall.Signal) {
	if hasGroup(cmd) && syscall.Kill(-cmd.Process.Pid, sig) == nil {
		return
	}
	cmd.Process.Signal(sig)
}
