package codec

import (
	"errors"

	"github.com/gcxwire/gcx/spec"
)

// A locator places errors in a draft payload. The payload is the
// canonical spelling of its model, as every valid GCX1 text is [CAN-1],
// so lines follow from the counts of rows and comments, and columns from
// the escaped lengths of what precedes. It also moves the errors of
// package jsonmap, which places them in the GCX1 payload the expanded
// model would spell, to the draft payload.
type locator struct {
	payload []byte
	p       *spec.Payload
	tag     string
	kept    [][]int // for each table section, the header pairs expand kept
}

func newLocator(payload []byte, p *spec.Payload, tag string) *locator {
	return &locator{payload: payload, p: p, tag: tag}
}

// Production names the draft's mapping in its errors.
const draftProduction = "draft-mapping"

func (l *locator) at(line, col int, rule, msg string) *spec.Error {
	return &spec.Error{Class: spec.ErrConstraint, Line: line, Column: col,
		Offset: int64(lineStart(l.payload, line) + col - 1), Production: draftProduction, Rule: rule, Msg: msg}
}

// atMeta points at the first byte of the value of header pair k.
func (l *locator) atMeta(si, k int, rule, msg string) *spec.Error {
	cols := headerColumns(l.tag, &l.p.Sections[si])
	return l.at(headerLine(l.p, si), cols.pairs[k]+len(l.p.Sections[si].Meta[k].Key)+1, rule, msg)
}

// atCell points at the first byte of cell c of row r.
func (l *locator) atCell(si, r, c int, rule, msg string) *spec.Error {
	return l.at(rowLine(l.p, si, r), cellColumns(l.p.Sections[si].Rows[r])[c], rule, msg)
}

// RemapError moves an error that jsonmap.DecodePayload placed in the GCX1
// spelling of plain — the model a draft's decoder made GCX1 again — to the
// same header element or cell of payload, the draft's own payload, whose
// model is draft and whose lines carry tag. It is for a draft that changes
// cells, and so their lengths: plain and draft must have the same
// sections, rows, comments and header pairs, in order. A position it
// cannot carry over (a pair or cell draft lacks) is moved to column 1 of
// its line; an error without a position is returned as it is. The error
// is changed in place and returned.
func RemapError(err error, payload []byte, tag string, draft, plain *spec.Payload) error {
	return newLocator(payload, draft, tag).remap(err, plain)
}

// remap moves an error package jsonmap placed in the GCX1 spelling of
// plain, the expanded model, to the same header element or cell of the
// draft payload.
func (l *locator) remap(err error, plain *spec.Payload) error {
	var e *spec.Error
	if !errors.As(err, &e) || e.Line == 0 {
		return err
	}
	si, r := whereIs(plain, e.Line)
	switch {
	case si < 0: // a comment line, the same in both
	case si >= len(l.p.Sections) || r >= len(l.p.Sections[si].Rows):
		e.Column = 1
	case r < 0:
		from := headerColumns(spec.Version, &plain.Sections[si])
		to := headerColumns(l.tag, &l.p.Sections[si])
		switch k := from.pairAt(e.Column); {
		case e.Column == 1:
		case k < 0:
			e.Column += len(l.tag) - len(spec.Version)
		default:
			orig := k
			if si < len(l.kept) && l.kept[si] != nil {
				orig = l.kept[si][k]
			}
			if orig < len(to.pairs) {
				e.Column = to.pairs[orig] + e.Column - from.pairs[k]
			} else {
				e.Column = 1
			}
		}
	default:
		from := cellColumns(plain.Sections[si].Rows[r])
		to := cellColumns(l.p.Sections[si].Rows[r])
		c := 0
		for c+1 < len(from) && from[c+1] <= e.Column {
			c++
		}
		if c < len(to) {
			e.Column = to[c]
		} else {
			e.Column = 1
		}
	}
	e.Offset = int64(lineStart(l.payload, e.Line) + e.Column - 1)
	return e
}

// headerLine returns the line number of section si's header.
func headerLine(p *spec.Payload, si int) int {
	line := 1
	for _, s := range p.Sections[:si] {
		line += 1 + len(s.Rows) + len(s.Comments)
	}
	return line
}

// rowLine returns the line number of row r of section si: its comments
// placed before the row come first [CMT-3].
func rowLine(p *spec.Payload, si, r int) int {
	line := headerLine(p, si) + 1 + r
	for _, c := range p.Sections[si].Comments {
		if c.Row <= r {
			line++
		}
	}
	return line
}

// whereIs returns the section of a line and the row it holds, or -1 for
// the header; the section is -1 for a comment or a line past the end.
func whereIs(p *spec.Payload, line int) (si, r int) {
	first := 1
	for si, s := range p.Sections {
		last := first + len(s.Rows) + len(s.Comments)
		if line > last {
			first = last + 1
			continue
		}
		if line == first {
			return si, -1
		}
		at, ci := first+1, 0
		for r := 0; r <= len(s.Rows); r++ {
			for ci < len(s.Comments) && s.Comments[ci].Row == r {
				if at == line {
					return -1, 0
				}
				at++
				ci++
			}
			if r < len(s.Rows) && at == line {
				return si, r
			}
			at++
		}
		return -1, 0
	}
	return -1, 0
}

// columns of a header line: where its field list and each pair's key
// begin, 1-based.
type columnsOf struct {
	fields int
	pairs  []int
}

// pairAt returns the pair whose text holds column col, or -1 before the
// first pair.
func (c columnsOf) pairAt(col int) int {
	k := -1
	for i, at := range c.pairs {
		if at <= col {
			k = i
		}
	}
	return k
}

func headerColumns(tag string, s *spec.Section) columnsOf {
	col := len(tag) + len(" tool=") + len(s.Tool) + len(" fields=") + 1
	out := columnsOf{fields: col}
	for i, f := range s.Fields {
		if i > 0 {
			col++
		}
		col += spec.FieldEscapes.Len(f)
	}
	for _, m := range s.Meta {
		col++ // SP
		out.pairs = append(out.pairs, col)
		col += len(m.Key) + 1 + spec.MetaEscapes.Len(m.Value)
	}
	return out
}

// cellColumns returns where each cell of a row begins, 1-based, after the
// guard if the row has one [ROW-4].
func cellColumns(row []string) []int {
	out := make([]int, len(row))
	col := 1
	if len(row) > 0 && spec.NeedsGuard(row[0]) {
		col++
	}
	for c, v := range row {
		out[c] = col
		col += spec.ValueEscapes.Len(v) + 1
	}
	return out
}
