//go:build !unix && !windows

package proxy

import "os/exec"

// Without process groups or job objects, the proxy stops the server
// process itself: a child it started lives on unless the server ends it.
func ownGroup(cmd *exec.Cmd)                            {}
func terminate(cmd *exec.Cmd, esc *escapees)            { cmd.Process.Kill() }
func kill(cmd *exec.Cmd, esc *escapees)                 { cmd.Process.Kill() }
func endGroup(cmd *exec.Cmd, esc *escapees)             {}
func contain(cmd *exec.Cmd) (release func(), err error) { return func() {}, nil }
