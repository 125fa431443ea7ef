package streaming

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// fiveRows is a small tool result, the common MCP case: every client call
// decodes a fresh payload of a few rows, so what a decoder costs before its
// first row matters as much as what a row costs. The benchmark is written
// against the API every version of the decoder has, so that it can be run
// side by side against an older commit.
func fiveRows() []byte {
	var b strings.Builder
	b.WriteString("GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=5 total=5 truncated=false\n")
	kinds := []string{"function", "method", "type", "const", "var"}
	for i := range 5 {
		path := fmt.Sprintf("internal/mcp/file_%d.go", i)
		name := fmt.Sprintf("HandleRequest%d", i)
		fmt.Fprintf(&b, "%s::%s\t%s\t%s\t%s\t%d\tfunc %s(ctx context.Context, req *Request%d) (*Response, error)\n",
			path, name, kinds[i], name, path, 1+i*7, name, i)
	}
	return []byte(b.String())
}

// BenchmarkSmallCall decodes a five-row payload per iteration with a new
// Decoder each time, as an MCP client does per call: fresh rows (the
// caller's to keep) and with ReuseRecord.
func BenchmarkSmallCall(b *testing.B) {
	payload := fiveRows()
	text := string(payload)
	for _, inPlace := range []bool{false, true} {
		for _, reuse := range []bool{false, true} {
			name := "fresh"
			if reuse {
				name = "reuse"
			}
			if inPlace {
				// NewDecoderString: the payload read in place.
				name += "-in-place"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(payload)))
				for b.Loop() {
					var d *Decoder
					if inPlace {
						d = NewDecoderString(text)
					} else {
						d = NewDecoder(bytes.NewReader(payload))
					}
					d.ReuseRecord = reuse
					rows := 0
					for {
						kind, err := d.Next()
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						if kind == KindRow {
							rows++
						}
					}
					if rows != 5 {
						b.Fatalf("%d rows", rows)
					}
				}
			})
		}
	}
}

// misreporting is a reader whose Len says the input is delta bytes longer
// or shorter than it is; the decoder sizes its buffer from Len, but must
// give the same answers whatever Len says.
type misreporting struct {
	*bytes.Reader
	delta int
}

func (m misreporting) Len() int { return m.Reader.Len() + m.delta }

// Fresh rows of a small input point into its buffer rather than copy
// their text; they must stay as they were read however the reading goes
// on, also when the input is longer than its reader said and the decoder
// moves on to a new buffer, and with every size the reader could claim.
func TestFreshRowsOfSizedInputsStay(t *testing.T) {
	payloads := [][]byte{
		fiveRows(),
		[]byte("GCX1 tool=t fields=a,b\nx\ty\n#note\n\\#z\tw\\tv\n"),
		[]byte("GCX1 tool=t fields=a\n" + strings.Repeat("row\n", 3000)),
		[]byte("GCX1 tool=t fields=a\n" + strings.Repeat("v", 40<<10) + "\nlast\n"),
		// Short rows, then one long enough that moving it to the front
		// of the buffer would write over them.
		[]byte("GCX1 tool=t fields=a,b\n" + strings.Repeat("key\tvalue\n", 20) + "long\t" + strings.Repeat("x", 3000) + "\n"),
	}
	for _, payload := range payloads {
		want, err := reference.Decode(payload)
		if err != nil {
			t.Fatal(err)
		}
		for _, delta := range []int{0, -1, -len(payload) / 2, -len(payload), 1, 1000, 1 << 20} {
			var r io.Reader = misreporting{bytes.NewReader(payload), delta}
			got, err := Decode(r, spec.DefaultLimits)
			if err != nil {
				t.Fatalf("delta %d: %v", delta, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%.20q with Len off by %d: the rows kept differ from the reference's", payload, delta)
			}
		}
	}
}

// A five-row call allocates what the decoder needs and no more: at most
// 4 KiB fresh, against 7.3 KiB before the speed work of issue 23 and
// 38 KiB after it.
func TestSmallCallAllocation(t *testing.T) {
	payload := fiveRows()
	for _, reuse := range []bool{false, true} {
		var stats runtime.MemStats
		runtime.ReadMemStats(&stats)
		before := stats.TotalAlloc
		const calls = 100
		for range calls {
			d := NewDecoder(bytes.NewReader(payload))
			d.ReuseRecord = reuse
			for {
				if _, err := d.Next(); err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					break
				}
			}
		}
		runtime.ReadMemStats(&stats)
		if per := (stats.TotalAlloc - before) / calls; per > 4<<10 {
			t.Errorf("reuse %v: %d bytes allocated a call, want at most 4 KiB", reuse, per)
		}
	}
}
