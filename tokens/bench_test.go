package tokens_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/jsonmap"
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

// corpusTexts returns every scorecard case as compact JSON and as GCX1.
func corpusTexts(b testing.TB) [][]byte {
	cases, err := scorecard.LoadCases(filepath.Join("..", "bench", "wire-format", "cases"))
	if err != nil {
		b.Fatal(err)
	}
	var texts [][]byte
	for _, c := range cases {
		payload, err := jsonmap.Encode(c.Tool, c.Response)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, c.Response, payload)
	}
	return texts
}

// BenchmarkCorpus counts the whole scorecard corpus, as compact JSON and
// as GCX1, with this package and with tiktoken-go.
func BenchmarkCorpus(b *testing.B) {
	texts := corpusTexts(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	for _, name := range encodingNames {
		b.Run(name+"/tokens", func(b *testing.B) {
			e := encoding(b, name)
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, t := range texts {
					e.CountBytes(t)
				}
			}
		})
		b.Run(name+"/tiktoken-go", func(b *testing.B) {
			oracleCount(b, name, "")
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, t := range texts {
					oracleCount(b, name, string(t))
				}
			}
		})
	}
}

// BenchmarkThroughput measures the cost per byte of counting and of the
// lower bound CountUpTo starts with, on the largest scorecard case as
// compact JSON and as GCX1: the figures to hold against an encoder's own
// cost per byte.
func BenchmarkThroughput(b *testing.B) {
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
		for _, in := range []struct {
			name string
			text []byte
		}{{"json", c.Response}, {"gcx", payload}} {
			b.Run(in.name+"/count", func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				for b.Loop() {
					e.CountBytes(in.text)
				}
			})
			b.Run(in.name+"/lower-bound", func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				for b.Loop() {
					tokens.CL100KLowerBound(in.text, math.MaxInt)
				}
			})
		}
	}
}

// BenchmarkLongPieceOracle counts one random word of n and 8n bytes with
// this package and with tiktoken-go, whose merge rescans every part after
// each join: its time grows about 64-fold where this package's grows
// 8-fold.
func BenchmarkLongPieceOracle(b *testing.B) {
	e := encoding(b, tokens.CL100K)
	for _, n := range []int{8 << 10, 64 << 10} {
		text := longInputs[0].make(n)
		b.Run(fmt.Sprintf("%dKiB/tokens", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				e.Count(text)
			}
		})
		b.Run(fmt.Sprintf("%dKiB/tiktoken-go", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				oracleCount(b, tokens.CL100K, text)
			}
		})
	}
}
