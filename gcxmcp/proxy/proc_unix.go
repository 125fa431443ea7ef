//go:build unix

package proxy

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the server in a process group of its own, whose id is
// its pid, unless the caller arranged otherwise.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
}

func hasGroup(cmd *exec.Cmd) bool { return cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid }

// terminate asks the server and its group to stop; kill stops them.
func terminate(cmd *exec.Cmd) { signal(cmd, syscall.SIGTERM) }
func kill(cmd *exec.Cmd)      { signal(cmd, syscall.SIGKILL) }

// terminateGroup and killGroup reach the group alone: the server itself
// has been waited for, and its pid may be another process's by now.
func terminateGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
func killGroup(cmd *exec.Cmd)      { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// groupAlive reports whether a process of the server's group is left.
func groupAlive(cmd *exec.Cmd) bool {
	return hasGroup(cmd) && syscall.Kill(-cmd.Process.Pid, 0) == nil
}

// signal sends sig to the server's process group, or to the server alone
// when it has none of its own.
func signal(cmd *exec.Cmd, sig syscall.Signal) {
	if hasGroup(cmd) && syscall.Kill(-cmd.Process.Pid, sig) == nil {
		return
	}
	cmd.Process.Signal(sig)
}
