package streaming_test

import (
	"io"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/streaming"
)

// The streaming implementation passes every conformance vector at the
// diagnostic level, none skipped [ERR-6]: fed one byte per read (every line
// reassembled), reading large pieces with ReuseRecord (the row scanner's
// fast path, shared storage), and on the portable row path that platforms
// without the scanner take, which CI also runs with -tags purego. These
// vectors are the decoder's table of decode-error truth: a case belongs in
// a vector, and only what a vector cannot express is tested here in Go.
func TestStreamingPassesEveryVector(t *testing.T) {
	vectors, err := conformance.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	for _, impl := range []conformance.Implementation{
		conformance.Streaming(),
		conformance.StreamingReuse(),
		conformance.StreamingDecoder("streaming (portable)", streaming.NewPortableDecoder),
		conformance.StreamingDecoder("streaming (portable, ReuseRecord)", func(r io.Reader) *streaming.Decoder {
			d := streaming.NewPortableDecoder(r)
			d.ReuseRecord = true
			return d
		}),
	} {
		t.Run(impl.Name, func(t *testing.T) {
			r := conformance.Check(vectors, impl, conformance.Options{})
			if n := r.Counts(conformance.Diagnostic); n.Failed > 0 || n.Skipped > 0 || n.Passed != len(vectors) {
				var b strings.Builder
				r.WriteSummary(&b, false)
				t.Fatalf("%s\n%s", n, b.String())
			}
		})
	}
}
