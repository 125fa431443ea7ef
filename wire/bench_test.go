package wire_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
	"github.com/gcxwire/gcx/wire"
)

// The wire view both ways, at n and 8n rows and at n and 8n bytes of one
// value: the cost per row and per byte stays flat, so time grows by about
// 8 [LIM-4] (issue 12: every step linear).
//
//	go test -run '^$' -bench . -benchmem -count 5 ./wire
func BenchmarkWire(b *testing.B) {
	for _, size := range []struct {
		name        string
		rows, bytes int
	}{
		{"rows=20k", 20_000, 8}, {"rows=160k", 160_000, 8},
		{"value=128KiB", 1, 128 << 10}, {"value=1MiB", 1, 1 << 20},
	} {
		p := &spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"}}}}
		value := string(bytes.Repeat([]byte("v\t"), size.bytes/2))
		for i := range size.rows {
			p.Sections[0].Rows = append(p.Sections[0].Rows, []string{value, fmt.Sprint(i)})
		}
		view := wire.Marshal(p)
		var payload bytes.Buffer
		if err := wire.Encode(&payload, bytes.NewReader(view), spec.Unlimited); err != nil {
			b.Fatal(err)
		}
		b.Run("encode/"+size.name, func(b *testing.B) {
			b.SetBytes(int64(len(view)))
			for b.Loop() {
				if err := wire.Encode(io.Discard, bytes.NewReader(view), spec.Unlimited); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("decode/"+size.name, func(b *testing.B) {
			b.SetBytes(int64(payload.Len()))
			for b.Loop() {
				d := streaming.NewDecoder(bytes.NewReader(payload.Bytes()))
				d.Limits, d.ReuseRecord = spec.Unlimited, true
				w := wire.NewWriter(io.Discard)
				for {
					kind, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					switch kind {
					case streaming.KindHeader:
						h := d.Header()
						w.WriteHeader(h.Tool, h.Fields, h.Meta)
					case streaming.KindRow:
						w.WriteRow(d.Row())
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeDefaultLimits is Encode as `gcx encode --wire` runs it,
// under the default limits, where every string is read under what is left
// of the line limit [LIM-4].
func BenchmarkEncodeDefaultLimits(b *testing.B) {
	for _, size := range []struct {
		name        string
		rows, bytes int
	}{{"rows=160k", 160_000, 8}, {"value=1MiB", 1, 1 << 20}} {
		p := &spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"}}}}
		value := string(bytes.Repeat([]byte("v\t"), size.bytes/2))
		for i := range size.rows {
			p.Sections[0].Rows = append(p.Sections[0].Rows, []string{value, fmt.Sprint(i)})
		}
		view := wire.Marshal(p)
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(view)))
			for b.Loop() {
				if err := wire.Encode(io.Discard, bytes.NewReader(view), spec.DefaultLimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
