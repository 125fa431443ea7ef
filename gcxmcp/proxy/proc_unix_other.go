//go:build unix && !linux

package proxy

import "syscall"

// Elsewhere the watchdog [WatchGroup] alone stops the server and its
// children when the proxy dies without doing so.
func parentDeathSignal(attr *syscall.SysProcAttr) {}
