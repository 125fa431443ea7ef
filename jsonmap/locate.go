package jsonmap

import (
	"errors"
	"strings"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// Mapping errors point into the payload like GCX1 errors do [ERR-2]. The
// decoder works on the model, so it works positions out from the model:
// a valid payload is the canonical spelling of its model [CAN-1], so line
// numbers follow from the counts of rows and comments and columns from the
// escaped lengths of what precedes.

func (d *decoder) errAtHeader(si int, rule, msg string) *spec.Error {
	return d.at(d.headerLine(si), 1, rule, msg)
}

// errAtFields points at the first byte of the fields= value.
func (d *decoder) errAtFields(si int, rule, msg string) *spec.Error {
	return d.at(d.headerLine(si), d.fieldsColumn(si), rule, msg)
}

// errAtMeta points at the first byte of the value of meta key.
func (d *decoder) errAtMeta(si int, key, rule, msg string) *spec.Error {
	s := &d.p.Sections[si]
	col := d.fieldsColumn(si)
	for i, f := range s.Fields {
		if i > 0 {
			col++
		}
		col += escapedLen(f, " ,")
	}
	for _, m := range s.Meta {
		col += 1 + len(m.Key) + 1 // SP key =
		if m.Key == key {
			break
		}
		col += escapedLen(m.Value, " ")
	}
	return d.at(d.headerLine(si), col, rule, msg)
}

// errAtCell points at the first byte of a row's value c (after the guard,
// if the row has one [ROW-4]).
func (d *decoder) errAtCell(si, r, c int, rule, msg string) *spec.Error {
	s := &d.p.Sections[si]
	col := 1
	line := d.headerLine(si) + 1
	if r < len(s.Rows) {
		row := s.Rows[r]
		if len(row) > 0 && (strings.HasPrefix(row[0], "#") || strings.HasPrefix(row[0], spec.TagPrefix)) {
			col++
		}
		for _, v := range row[:c] {
			col += escapedLen(v, "") + 1
		}
		line = d.rowLine(si, r)
	}
	return d.at(line, col, rule, msg)
}

// cellErr places an error found inside a cell's text (too deep to read
// [MAP-4]) at the cell.
func (d *decoder) cellErr(si, r, c int, err error) error {
	return d.placed(d.errAtCell(si, r, c, "", ""), err)
}

// placed moves the class, rule and message of err to the position pos.
func (d *decoder) placed(pos *spec.Error, err error) error {
	var e *spec.Error
	if !errors.As(err, &e) {
		return err
	}
	pos.Class, pos.Rule, pos.Msg = e.Class, e.Rule, e.Msg
	return pos
}

func (d *decoder) at(line, col int, rule, msg string) *spec.Error {
	e := &spec.Error{Class: spec.ErrConstraint, Line: line, Column: col, Production: "json-mapping", Rule: rule, Msg: msg}
	if b, err := reference.Encode(d.p); err == nil {
		offset := 0
		for l := 1; l < line && offset < len(b); l++ {
			n := strings.IndexByte(string(b[offset:]), '\n')
			if n < 0 {
				break
			}
			offset += n + 1
		}
		e.Offset = int64(offset + col - 1)
	}
	return e
}

func (d *decoder) headerLine(si int) int {
	line := 1
	for _, s := range d.p.Sections[:si] {
		line += 1 + len(s.Rows) + len(s.Comments)
	}
	return line
}

// rowLine counts the comments placed before row r [CMT-3].
func (d *decoder) rowLine(si, r int) int {
	line := d.headerLine(si) + 1 + r
	for _, c := range d.p.Sections[si].Comments {
		if c.Row <= r {
			line++
		}
	}
	return line
}

func (d *decoder) fieldsColumn(si int) int {
	return len(spec.Version+" tool=") + len(d.p.Sections[si].Tool) + len(" fields=") + 1
}

// escapedLen is the number of bytes s takes on the wire, where TAB, LF, CR
// and backslash always take two [VAL-1], and so do the bytes of extra
// [HDR-5] [HDR-7].
func escapedLen(s, extra string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t' || c == '\n' || c == '\r' || c == '\\':
			n++
		case strings.IndexByte(extra, c) >= 0:
			n++
		}
	}
	return n
}
