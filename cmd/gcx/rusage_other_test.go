//go:build !unix

package main

import "os"

// peakRSS is not known here; the tests that read it run on Linux.
func peakRSS(state *os.ProcessState) int64 { return 0 }
