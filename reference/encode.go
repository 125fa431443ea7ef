package reference

import (
	"bytes"

	"github.com/gcxwire/gcx/spec"
)

// Encode returns the canonical GCX1 bytes of p [CAN-2]. It first checks that
// p has a spelling at all and returns an *spec.Error of class spec.ErrModel
// if it has not, so it never writes what a decoder rejects [CAN-3].
//
// Because every valid payload is canonical [CAN-1], Encode is the inverse of
// Decode: Encode(Decode(b)) == b for every valid b.
func Encode(p *spec.Payload) ([]byte, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for i := range p.Sections {
		writeSection(&b, &p.Sections[i])
	}
	return b.Bytes(), nil
}

// writeSection writes a checked section: its header, then its rows with each
// comment placed before the row it precedes [CMT-3].
func writeSection(b *bytes.Buffer, s *spec.Section) {
	writeHeader(b, s)
	c := 0
	for r, row := range s.Rows {
		for ; c < len(s.Comments) && s.Comments[c].Row == r; c++ {
			writeComment(b, s.Comments[c].Text)
		}
		writeRow(b, row)
	}
	for ; c < len(s.Comments); c++ {
		writeComment(b, s.Comments[c].Text)
	}
}

// writeHeader writes "GCX1 tool=T fields=F1,F2 k=v ...\n" [CAN-2].
func writeHeader(b *bytes.Buffer, s *spec.Section) {
	b.WriteString(spec.Version)
	b.WriteString(" tool=")
	b.WriteString(s.Tool)
	b.WriteString(" fields=")
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(spec.FieldEscapes.Append(b.AvailableBuffer(), f))
	}
	for _, m := range s.Meta {
		b.WriteByte(' ')
		b.WriteString(m.Key)
		b.WriteByte('=')
		b.Write(spec.MetaEscapes.Append(b.AvailableBuffer(), m.Value))
	}
	b.WriteByte('\n')
}

// writeRow writes the values of one row separated by TAB. A first value that
// begins with "#" or "GCX" gets the guard, a single backslash [ROW-4].
func writeRow(b *bytes.Buffer, row []string) {
	for i, v := range row {
		if i > 0 {
			b.WriteByte('\t')
		} else if spec.NeedsGuard(v) {
			b.WriteByte(spec.GuardByte)
		}
		b.Write(spec.ValueEscapes.Append(b.AvailableBuffer(), v))
	}
	b.WriteByte('\n')
}

func writeComment(b *bytes.Buffer, text string) {
	b.WriteByte('#')
	b.WriteString(text)
	b.WriteByte('\n')
}
