package tokens_test

import (
	"fmt"
	"testing"

	"github.com/gcxwire/gcx/tokens"
)

// BenchmarkLongPiece counts single pieces of n and 8n bytes: the time per
// byte stays flat (n log n), where tiktoken-go's grows with n.
func BenchmarkLongPiece(b *testing.B) {
	e := encoding(b, tokens.CL100K)
	for _, in := range longInputs {
		for _, n := range []int{128 << 10, 1 << 20} {
			b.Run(fmt.Sprintf("%s/%dKiB", in.name, n>>10), func(b *testing.B) {
				text := []byte(in.make(n))
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					e.CountBytes(text)
				}
			})
		}
	}
}
