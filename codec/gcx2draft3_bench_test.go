package codec_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
)

// nestedWrappers is a dbhub-like value: n statements under data, each
// with its own rows, so that the tree form writes n sections; and n
// members in one object, the case a copy per hole would make quadratic.
func nestedWrappers(n int) jsonmap.Value {
	num := func(i int) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(i)} }
	str := func(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }
	stmts := make([]jsonmap.Value, n)
	byName := make([]jsonmap.Member, n)
	for i := range stmts {
		rows := make([]jsonmap.Value, 4)
		for r := range rows {
			rows[r] = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "id", Value: num(r)}, {Key: "name", Value: str(fmt.Sprintf("user %d", r))}}}
		}
		stmts[i] = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "sql", Value: str("SELECT 1")}, {Key: "rows", Value: jsonmap.Value{Kind: jsonmap.Array, Elems: rows}}}}
		byName[i] = jsonmap.Member{Key: "t" + strconv.Itoa(i), Value: jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "rows", Value: jsonmap.Value{Kind: jsonmap.Array, Elems: rows}}}}}
	}
	return jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
		{Key: "success", Value: jsonmap.Value{Kind: jsonmap.True}},
		{Key: "data", Value: jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "statements", Value: jsonmap.Value{Kind: jsonmap.Array, Elems: stmts}}}}},
		{Key: "tables", Value: jsonmap.Value{Kind: jsonmap.Object, Members: byName}},
	}}
}

// BenchmarkDraft3 writes and reads the tree form of nestedWrappers at n
// and 8n: both directions are linear, so ns/op grows about eightfold.
//
//	go test ./codec -run '^$' -bench Draft3 -benchmem
func BenchmarkDraft3(b *testing.B) {
	d := codec.Draft3{}
	for _, n := range []int{250, 2000} {
		v := nestedWrappers(n)
		payload, err := d.Encode("execute_sql", v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("encode/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := d.Encode("execute_sql", v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("decode/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			for range b.N {
				if _, err := d.Decode(payload); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
