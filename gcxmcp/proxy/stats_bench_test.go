package proxy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// What --stats allocates on a tools/call result's path: off is the proxy
// without a recorder, path with one whose goroutine is held, so that only
// the call's own work is measured (the queue fills, and the calls after
// are dropped, which costs the same copy). Its times are too noisy on a
// shared machine; BenchmarkStatsSideBySide measures the time.
//
//	go test -run '^$' -bench 'Stats$' -benchmem ./gcxmcp/proxy
func BenchmarkStats(b *testing.B) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}`)
	for _, n := range []int{3, 30, 300} {
		result := memoryGraph(n)
		for _, how := range []string{"off", "path"} {
			b.Run(fmt.Sprintf("read_graph-%d/%s", n, how), func(b *testing.B) {
				var opts proxy.Options
				var held *gate
				var rec *proxy.Recorder
				if how == "path" {
					held = &gate{entered: make(chan struct{}), open: make(chan struct{})}
					var err error
					if rec, err = proxy.NewRecorder(held, nil); err != nil {
						b.Fatal(err)
					}
					opts.Stats = rec
				}
				p, err := proxy.New(opts)
				if err != nil {
					b.Fatal(err)
				}
				p.FromHost(call)
				p.FromUpstream(result)
				if held != nil {
					<-held.entered
				}
				b.SetBytes(int64(len(result)))
				b.ReportAllocs()
				for b.Loop() {
					p.FromHost(call)
					if out := p.FromUpstream(result); len(out) == len(result) {
						b.Fatal("not answered")
					}
				}
				b.StopTimer()
				if held != nil {
					close(held.open)
					rec.Close()
				}
			})
		}
	}
}

// BenchmarkStatsSideBySide measures what --stats costs a tools/call
// result, robust to a busy machine: each iteration answers the same call
// once on each of three proxies, in turn, timing each call, and reports
// the median time per call of each and the ratios of the medians, so that
// what slows one slows the others alike. off has no recorder. on has one,
// and the time is the call's own; its line is counted and written after
// the clock stops, as it is between calls spaced out in use. drained
// counts the line's writing too: the whole work --stats adds, as if it
// were done on the call's path.
//
//	go test -run '^$' -bench 'StatsSideBySide' -benchtime 3000x -count 3 ./gcxmcp/proxy
func BenchmarkStatsSideBySide(b *testing.B) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}`)
	for _, n := range []int{3, 30, 300} {
		b.Run(fmt.Sprintf("read_graph-%d", n), func(b *testing.B) {
			result := memoryGraph(n)
			newProxy := func(stats bool) (*proxy.Proxy, *proxy.Recorder) {
				var opts proxy.Options
				if stats {
					f, err := os.OpenFile(filepath.Join(b.TempDir(), "stats.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { f.Close() })
					if opts.Stats, err = proxy.NewRecorder(f, nil); err != nil {
						b.Fatal(err)
					}
				}
				p, err := proxy.New(opts)
				if err != nil {
					b.Fatal(err)
				}
				return p, opts.Stats
			}
			type contender struct {
				p       *proxy.Proxy
				rec     *proxy.Recorder
				timed   bool // the line's writing is timed
				perCall []time.Duration
			}
			off, _ := newProxy(false)
			on, onRec := newProxy(true)
			drained, drainedRec := newProxy(true)
			all := []*contender{{p: off}, {p: on, rec: onRec}, {p: drained, rec: drainedRec, timed: true}}
			answer := func(c *contender) time.Duration {
				start := time.Now()
				c.p.FromHost(call)
				if out := c.p.FromUpstream(result); len(out) == len(result) {
					b.Fatal("not answered")
				}
				if c.timed {
					c.rec.Flush()
				}
				d := time.Since(start)
				if c.rec != nil && !c.timed {
					c.rec.Flush()
				}
				return d
			}
			for _, c := range all {
				answer(c) // warm: the token tables loaded, the caches filled
			}
			i := 0
			for b.Loop() {
				for k := range all {
					c := all[(i+k)%len(all)]
					c.perCall = append(c.perCall, answer(c))
				}
				i++
			}
			b.StopTimer()
			for _, c := range all {
				if c.rec != nil {
					if err := c.rec.Close(); err != nil {
						b.Fatal(err)
					}
				}
			}
			median := func(d []time.Duration) float64 {
				slices.Sort(d)
				return float64(d[len(d)/2].Nanoseconds())
			}
			mOff, mOn, mDrained := median(all[0].perCall), median(all[1].perCall), median(all[2].perCall)
			b.ReportMetric(mOff, "off-ns/call")
			b.ReportMetric(mOn, "on-ns/call")
			b.ReportMetric(mDrained, "drained-ns/call")
			b.ReportMetric(mOn/mOff, "on/off")
			b.ReportMetric(mDrained/mOff, "drained/off")
			b.ReportMetric(0, "ns/op")
		})
	}
}
