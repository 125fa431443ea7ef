package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
)

// multiSection returns a payload under tag of n sections of two rows
// each, so that a header line — the lines Retag rewrites — comes every
// third line.
func multiSection(tag string, n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s tool=t%d fields=id,name rows=2\na%d\tfirst row\nb%d\tsecond row\n", tag, i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkReadWire reads payloads of n and 8n sections under GCX1 and
// under a draft's tag, side by side: the draft pays for rewriting its
// headers, linearly in the payload.
func BenchmarkReadWire(b *testing.B) {
	for _, tag := range []string{spec.Version, "GCX2-draft.1"} {
		for _, n := range []int{1000, 8000} {
			payload := multiSection(tag, n)
			b.Run(fmt.Sprintf("tag=%s/sections=%d", tag, n), func(b *testing.B) {
				b.SetBytes(int64(len(payload)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := codec.ReadWire(tag, payload, spec.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRetag rewrites the headers of n and 8n sections.
func BenchmarkRetag(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		payload := multiSection(spec.Version, n)
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				codec.Retag(payload, spec.Version, "GCX2-draft.1")
			}
		})
	}
}
