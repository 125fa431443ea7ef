package streaming

import (
	"bytes"
	"testing"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// BenchmarkEncodeFloor writes the symbols payload through an Encoder into
// a bytes.Buffer, as bench/floors does, against writing its lines: the
// floor an encoder is held to (issue 38).
func BenchmarkEncodeFloor(b *testing.B) {
	// The floors' payload: 500 rows of search_symbols, 92 kB.
	s := &symbolRows().model.Sections[0]
	s.Rows = s.Rows[:500]
	s.Meta = []spec.Meta{{Key: "rows", Value: "500"}, {Key: "total", Value: "500"}, {Key: "truncated", Value: "false"}}
	gcx, err := reference.Encode(&spec.Payload{Sections: []spec.Section{*s}})
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.SplitAfter(gcx, []byte{'\n'})
	var sink bytes.Buffer
	b.Run("encoder", func(b *testing.B) {
		b.SetBytes(int64(len(gcx)))
		b.ReportAllocs()
		for b.Loop() {
			sink.Reset()
			e := NewEncoder(&sink)
			if err := e.WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields, Meta: s.Meta}); err != nil {
				b.Fatal(err)
			}
			for _, row := range s.Rows {
				if err := e.WriteRow(row); err != nil {
					b.Fatal(err)
				}
			}
			if err := e.Close(); err != nil {
				b.Fatal(err)
			}
		}
		if !bytes.Equal(sink.Bytes(), gcx) {
			b.Fatal("the encoder wrote other bytes")
		}
	})
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(len(gcx)))
		b.ReportAllocs()
		for b.Loop() {
			sink.Reset()
			for _, l := range lines {
				sink.Write(l)
			}
		}
	})
}

// An Encoder per payload, as a server makes per call, takes a buffer that
// an earlier one closed rather than grow one of its own: encoding the
// floors' payload allocates the Encoder and nothing else, where it grew
// 23 objects (286 kB) before issue 38. What each writes is still its own.
func TestEncoderBuffersAreReused(t *testing.T) {
	s := &symbolRows().model.Sections[0]
	s.Rows = s.Rows[:500]
	s.Meta = nil
	want, err := reference.Encode(&spec.Payload{Sections: []spec.Section{*s}})
	if err != nil {
		t.Fatal(err)
	}
	var sink bytes.Buffer
	encode := func() {
		sink.Reset()
		e := NewEncoder(&sink)
		if err := e.WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields}); err != nil {
			t.Fatal(err)
		}
		for _, row := range s.Rows {
			if err := e.WriteRow(row); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	encode()
	if allocs := testing.AllocsPerRun(20, encode); allocs > 2 && !raceEnabled {
		t.Errorf("%.0f allocations a payload, want at most 2", allocs)
	}
	if !bytes.Equal(sink.Bytes(), want) {
		t.Error("the encoder wrote other bytes than the reference")
	}
	// Encoders open at once never share a buffer.
	var outs [3]bytes.Buffer
	var encs [3]*Encoder
	for i := range encs {
		encs[i] = NewEncoder(&outs[i])
		if err := encs[i].WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields}); err != nil {
			t.Fatal(err)
		}
	}
	for _, row := range s.Rows {
		for _, e := range encs {
			if err := e.WriteRow(row); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, e := range encs {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(outs[i].Bytes(), want) {
			t.Errorf("encoder %d of three open at once wrote other bytes", i)
		}
	}
}
