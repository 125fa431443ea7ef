package tokens

import (
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// cl100kPattern is tiktoken-go's pre-tokenizer expression for cl100k_base.
const cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// BenchmarkLoadTable is the first-call cost of an encoding: reading its
// table from the compiled-in assets into what counting needs. tiktoken-go
// is what this package did before: the loader's map of ranks, then the
// tokenizer tiktoken-go builds on it.
func BenchmarkLoadTable(b *testing.B) {
	b.Run("cl100k/tokens", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := loadTable(CL100K + ".tiktoken"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cl100k/tiktoken-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe(CL100K + ".tiktoken")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tiktoken.NewCoreBPE(ranks, map[string]int{"<|endoftext|>": 100257}, cl100kPattern); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("o200k/tokens", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := loadTable(O200K + ".tiktoken"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
