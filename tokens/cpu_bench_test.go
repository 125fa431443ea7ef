//go:build linux

package tokens_test

import (
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/internal/cputime"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// threadCPU is the processor time the calling thread has used.
func threadCPU(b *testing.B) time.Duration {
	d, err := cputime.Thread()
	if err != nil {
		b.Fatal(err)
	}
	return d
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
