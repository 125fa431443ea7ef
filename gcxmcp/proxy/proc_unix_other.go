//go:build unix && !linux

package proxy

import "syscall"

// Elsewhere the watchdog [WatchGroup] alone stops the server and its
// children when the proxy dies without doing so.
func parentDeathSignal(attr *syscall.SysProcAttr) {}

// groupRunning reports whether the group pgid has a member left, an
// ended one not yet reaped included.
func groupRunning(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
