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

// BenchmarkCountCPU counts the GCX1 payload of search_symbols-500, the count
// auto mode adds to mode gcx (bench/floors), in the processor time of the
// thread that counts.
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
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var spent time.Duration
		for b.Loop() {
			start := threadCPU(b)
			e.CountBytes(payload)
			spent += threadCPU(b) - start
		}
		b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
