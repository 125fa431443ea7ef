//go:build !linux

package proxy

import "os/exec"

// Only Linux lets a process adopt its orphaned descendants (a child
// subreaper): elsewhere a process that leaves the server's process group
// is not followed, and on Windows the job object holds it anyway.
type escapees struct{}

func followEscapees(cmd *exec.Cmd) *escapees     { return nil }
func (e *escapees) watch(server, watchdog int)   {}
func (e *escapees) pause()                       {}
func (e *escapees) stop(forced bool) (left bool) { return false }
