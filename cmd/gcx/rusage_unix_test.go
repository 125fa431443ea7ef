//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSS is the peak resident memory of a process that ended, in bytes
// on Linux, which reports KiB (the tests that read it run on Linux).
func peakRSS(state *os.ProcessState) int64 {
	return int64(state.SysUsage().(*syscall.Rusage).Maxrss) * 1024
}
