package codec_test

import (
	"fmt"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
)

// symbols returns n search_symbols hits of the kind the draft's ideas
// apply to: ids made of path and name, paths that repeat, kinds that
// follow the signature's first word, a shared prefix.
func symbols(n int) jsonmap.Value {
	kinds := []string{"function", "method", "type", "var"}
	v := jsonmap.Value{Kind: jsonmap.Array, Elems: make([]jsonmap.Value, n)}
	for i := range n {
		path := fmt.Sprintf("internal/pkg%d/file%d.go", i%97, i%13)
		name := fmt.Sprintf("Name%d", i)
		kind := kinds[i%len(kinds)]
		v.Elems[i] = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "id", Value: str(path + "::" + name)},
			{Key: "kind", Value: str(kind)},
			{Key: "name", Value: str(name)},
			{Key: "file_path", Value: str(path)},
			{Key: "start_line", Value: jsonmap.Value{Kind: jsonmap.Number, Text: fmt.Sprint(i % 500)}},
			{Key: "signature", Value: str(kind + " " + name + "(ctx context.Context) error")},
		}}
	}
	return v
}

// The draft's encoder and decoder are linear in the rows: the figures at
// 1,000 and 8,000 rows differ by a factor of about 8 (docs/performance.md).
func BenchmarkDraft1(b *testing.B) {
	d := codec.Draft1{}
	for _, n := range []int{1000, 8000} {
		v := symbols(n)
		payload, err := d.Encode("search_symbols", v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("encode/rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Encode("search_symbols", v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("decode/rows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for b.Loop() {
				if _, err := d.Decode(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// wide returns 20 rows of n columns whose texts repeat, prefix one another
// and follow one another, the worst case for weighing references and keys.
func wide(n int) jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.Array, Elems: make([]jsonmap.Value, 20)}
	for i := range v.Elems {
		obj := jsonmap.Value{Kind: jsonmap.Object}
		for c := range n {
			obj.Members = append(obj.Members, jsonmap.Member{Key: fmt.Sprintf("c%d", c), Value: str(fmt.Sprintf("x/%d", i%3))})
		}
		v.Elems[i] = obj
	}
	return v
}

// The draft is linear in the columns too: 8 times the columns cost about 8
// times as much, though every column could be any other's key.
func BenchmarkDraft1Columns(b *testing.B) {
	d := codec.Draft1{}
	for _, n := range []int{64, 512} {
		v := wide(n)
		payload, err := d.Encode("t", v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("encode/columns=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Encode("t", v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("decode/columns=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := d.Decode(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
