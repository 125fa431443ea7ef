//go:build !unix

package proxy

import "os/exec"

// Without process groups (Windows), the proxy stops the server process
// itself: a child it started lives on unless the server ends it.
func ownGroup(cmd *exec.Cmd)       {}
func terminate(cmd *exec.Cmd)      { cmd.Process.Kill() }
func kill(cmd *exec.Cmd)           { cmd.Process.Kill() }
func terminateGroup(cmd *exec.Cmd) {}
func killGroup(cmd *exec.Cmd)      {}
func groupAlive(cmd *exec.Cmd) bool {
	return false
}
