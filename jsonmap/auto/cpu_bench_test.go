//go:build linux

package auto_test

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/internal/cputime"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// threadCPU is the processor time the calling thread has used.
func threadCPU(b *testing.B) time.Duration {
	d, err := cputime.Thread()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkAutoCPU is BenchmarkAutoPaired for the inputs of bench/floors'
// auto rows (search_symbols-60 and -500 of the scorecard's corpus), timed
// in processor time of the one thread that runs both sides, call by call:
// a ratio that stays put while the machine's load comes and goes. It
// reports auto.Encode's time over jsonmap.Encode's.
func BenchmarkAutoCPU(b *testing.B) {
	cases, err := scorecard.LoadCases(filepath.Join("..", "..", "bench", "wire-format", "cases"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		if c.Name != "search_symbols-60" && c.Name != "search_symbols-500" {
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var gcx, au time.Duration
			for b.Loop() {
				start := threadCPU(b)
				if _, err := jsonmap.Encode(c.Tool, c.Response); err != nil {
					b.Fatal(err)
				}
				mid := threadCPU(b)
				if _, _, err := auto.Encode(c.Tool, c.Response); err != nil {
					b.Fatal(err)
				}
				end := threadCPU(b)
				gcx, au = gcx+mid-start, au+end-mid
			}
			if gcx <= 0 {
				b.Fatal("no processor time measured for mode gcx")
			}
			b.ReportMetric(float64(gcx.Nanoseconds())/float64(b.N), "gcx-cpu-ns/op")
			b.ReportMetric(float64(au.Nanoseconds())/float64(b.N), "auto-cpu-ns/op")
			b.ReportMetric(float64(au)/float64(gcx), "auto/gcx")
		})
	}
}
