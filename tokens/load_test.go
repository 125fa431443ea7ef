package tokens

import (
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
)

// cl100kPattern is tiktoken-go's pre-tokenizer expression for cl100k_base.
const cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// BenchmarkLoadTable is the first-call cost of an encoding: making what
// counting needs of its table. embedded is what Get does, opening the
// table go generate laid out; parse is building that table from
// tiktoken's text at start, as this package did before it was embedded
// (then into a map-like table of its own, about as costly); tiktoken-go is
// the loader's map of ranks, then the tokenizer tiktoken-go builds on it.
func BenchmarkLoadTable(b *testing.B) {
	for _, name := range []string{CL100K, O200K} {
		b.Run(name+"/embedded", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := loadTable(name); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/parse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				text, err := assets.Assets.ReadFile(name + ".tiktoken")
				if err != nil {
					b.Fatal(err)
				}
				source, err := ranktable.Parse(name, text)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ranktable.Build(source); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("cl100k_base/tiktoken-go", func(b *testing.B) {
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
}
