package jsonmap_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// scaleCase is one input of the scaling benchmarks: a JSON value that
// grows along one dimension with n.
type scaleCase struct {
	dim  string
	make func(n int) []byte
	n    int // the smaller size; the benchmark also runs 8n
}

// scaleCases grow one dimension each, the others held: the members of one
// object (in the header form, the row form, and as a one-row table), the
// rows of a table, the cells of a table spread over nest= and str=
// columns, the length of one string, and the depth of nesting. Every
// step of the mapping should take time linear (or n log n) in each, so
// the time at 8n should be about 8 times the time at n [MAP-12].
var scaleCases = []scaleCase{
	{"keys-header", func(n int) []byte { return object(n, `"k%d":%d`) }, 20000},
	{"keys-row", func(n int) []byte { return object(n, `"k %d":%d`) }, 20000},
	{"keys-table", func(n int) []byte { return append(append([]byte("["), object(n, `"k%d":%d`)...), ']') }, 20000},
	{"rows", func(n int) []byte {
		return rows(n, func(i int) string {
			return fmt.Sprintf(`{"id":"internal/pkg/file%d.go::F","line":%d,"sig":"func F(a, b int) error"}`, i, i)
		})
	}, 4000},
	{"cells", func(n int) []byte {
		return rows(n/8, func(i int) string {
			return fmt.Sprintf(`{"name":"pod-%d","labels":{"app":"web","tier":"a","zone":"z%d"},"ts":"17940684%d.5","uid":"12%d","ok":true}`, i, i, i, i)
		})
	}, 32000},
	{"string", func(n int) []byte {
		return []byte(`["1` + strings.Repeat(`abc\n\"\u00e9 `, n/16) + `"]`)
	}, 1 << 18},
	{"depth-array", func(n int) []byte { return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n)) }, 1000},
	{"depth-object", func(n int) []byte {
		return []byte(`{"x":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}")
	}, 1000},
}

func object(n int, member string) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, member, i, i)
	}
	b.WriteString("}")
	return b.Bytes()
}

func rows(n int, row func(int) string) []byte {
	var b bytes.Buffer
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row(i))
	}
	b.WriteString("]")
	return b.Bytes()
}

// BenchmarkScale encodes and decodes each scaling input at n and 8n; the
// ratio of the two times, written in docs/performance.md, shows the
// growth.
func BenchmarkScale(b *testing.B) {
	for _, c := range scaleCases {
		for _, n := range []int{c.n, 8 * c.n} {
			// Inputs are made inside each sub-benchmark, so that running one
			// makes only its own.
			b.Run(fmt.Sprintf("%s/encode/n=%d", c.dim, n), func(b *testing.B) {
				in := c.make(n)
				b.ReportAllocs()
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					if _, err := jsonmap.EncodeLimits("t", in, spec.Unlimited); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/decode/n=%d", c.dim, n), func(b *testing.B) {
				payload, err := jsonmap.EncodeLimits("t", c.make(n), spec.Unlimited)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(payload)))
				for b.Loop() {
					if err := jsonmap.DecodeTo(io.Discard, bytes.NewReader(payload), spec.Unlimited); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestScaleCasesRoundTrip keeps the benchmark's inputs honest: each
// encodes and decodes back to itself, in the form it is meant to take.
func TestScaleCasesRoundTrip(t *testing.T) {
	forms := map[string]string{
		"keys-header": "json=object", "keys-row": "json=row", "keys-table": "rows=1", "rows": "rows=", "cells": "nest=labels str=ts,uid",
		"string": "json=array", "depth-array": "json=array", "depth-object": "json=object",
	}
	for _, c := range scaleCases {
		in := c.make(64)
		payload, err := jsonmap.EncodeLimits("t", in, spec.Unlimited)
		if err != nil {
			t.Fatalf("%s: %v", c.dim, err)
		}
		if header, _, _ := strings.Cut(string(payload), "\n"); !strings.Contains(header, forms[c.dim]) {
			t.Errorf("%s: header %.200q lacks %q", c.dim, header, forms[c.dim])
		}
		back, err := jsonmap.DecodeValue(payload)
		want, _ := jsonmap.Parse(in)
		if err != nil || !jsonmap.Equal(back, want) {
			t.Errorf("%s: %v", c.dim, err)
		}
	}
}
