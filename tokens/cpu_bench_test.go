//go:build linux

package tokens_test

import (
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// threadCPU returns the processor time the calling thread has used, which
// unlike the wall clock leaves out the time a loaded machine makes it wait.
func threadCPU(b *testing.B) time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		b.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkCountCPU times what auto mode adds to mode gcx on
// search_symbols-500 (bench/floors), in the processor time of the thread
// that counts: the count of the GCX1 payload, and the lower bound of the
// JSON text up to that count, with which CountUpTo settles the choice.
func BenchmarkCountCPU(b *testing.B) {
	cases, err := scorecard.LoadCases(filepath.Join("..", "bench", "wire-format", "cases"))
	if err != nil {
		b.Fatal(err)
	}
	e := encoding(b, tokens.CL100K)
	for _, c := range cases {
		if c.Name != "search_symbols-500" {
			continue
		}
		payload, err := jsonmap.Encode(c.Tool, c.Response)
		if err != nil {
			b.Fatal(err)
		}
		gcxTokens := e.CountBytes(payload)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var count, bound time.Duration
		for b.Loop() {
			start := threadCPU(b)
			e.CountBytes(payload)
			mid := threadCPU(b)
			e.CountUpTo(c.Response, gcxTokens)
			count, bound = count+mid-start, bound+threadCPU(b)-mid
		}
		b.ReportMetric(float64(count.Nanoseconds())/float64(b.N), "count-cpu-ns/op")
		b.ReportMetric(float64(bound.Nanoseconds())/float64(b.N), "json-bound-cpu-ns/op")
	}
}
