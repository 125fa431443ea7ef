package codec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// expand rewrites every table section of a decoded draft payload into the
// GCX1 section it stands for [D1-TAB-1]: declarations leave the header,
// marks and declared columns give way to the texts they stand for. The
// result is a GCX1 model that package jsonmap reads [MAP-7].
func expand(p *spec.Payload, loc *locator) (*spec.Payload, error) {
	out := &spec.Payload{Sections: slices.Clone(p.Sections)}
	loc.kept = make([][]int, len(p.Sections))
	for _, si := range tableSections(p) {
		s, kept, err := expandTable(p, si, loc)
		if err != nil {
			return nil, err
		}
		out.Sections[si] = s
		loc.kept[si] = kept
	}
	return out, nil
}

// expandTable expands section si and returns it with the indexes of the
// header pairs it keeps.
func expandTable(p *spec.Payload, si int, loc *locator) (spec.Section, []int, error) {
	s := p.Sections[si]
	index := make(map[string]int, len(s.Fields))
	for c, f := range s.Fields {
		index[f] = c
	}
	decls := make([]*decl, len(s.Fields))
	at := make([]int, len(s.Fields)) // the pair that declares each column
	var kept []int
	var meta []spec.Meta
	for k, m := range s.Meta {
		c, ok := index[m.Key]
		if !ok || !declarable(m.Key) {
			kept = append(kept, k)
			meta = append(meta, m)
			continue
		}
		d, msg := parseDecl(m.Value, c, index)
		if d == nil {
			return s, nil, loc.atMeta(si, k, "D1-COL-1", fmt.Sprintf("declaration of %s, %s: %s", spec.QuoteShort(m.Key), spec.QuoteShort(m.Value), msg))
		}
		decls[c], at[c] = d, k
	}
	for c, d := range decls {
		if d == nil {
			continue
		}
		for _, r := range d.refs() {
			if decls[r] != nil && len(decls[r].refs()) > 0 {
				return s, nil, loc.atMeta(si, at[c], "D1-COL-3", fmt.Sprintf("declaration of %s refers to %s, whose own declaration refers to another column", spec.QuoteShort(s.Fields[c]), spec.QuoteShort(s.Fields[r])))
			}
		}
	}

	// Row by row, top to bottom: first each cell's mark, then the
	// declarations that refer to no column, then those that refer to them
	// [D1-ORD-1].
	marks := make([]*markReader, len(s.Fields))
	keys := make([]map[string]string, len(s.Fields))
	names := make([]bool, len(s.Fields)) // the declaration names a column: read second
	for c, d := range decls {
		marks[c] = newMarkReader()
		if d != nil {
			names[c] = len(d.refs()) > 0
			if d.isKey() {
				keys[c] = map[string]string{}
			}
		}
	}
	texts := make([][]string, len(s.Rows))
	for i, row := range s.Rows {
		text := make([]string, len(row))
		for c, cell := range row {
			t, rule, msg := marks[c].read(cell)
			if rule != "" {
				return s, nil, loc.atCell(si, i, c, rule, msg)
			}
			text[c] = t
		}
		for _, second := range []bool{false, true} {
			for c, d := range decls {
				if d == nil || names[c] != second {
					continue
				}
				if !d.read(text, keys[c]) {
					return s, nil, loc.atCell(si, i, c, "D1-KEY-1", fmt.Sprintf("empty cell of %s, keyed by %s, and no row above has the same %s", spec.QuoteShort(s.Fields[c]), spec.QuoteShort(s.Fields[d.key]), spec.QuoteShort(s.Fields[d.key])))
				}
			}
		}
		texts[i] = text
	}
	s.Meta, s.Rows = meta, texts
	return s, kept, nil
}

// markReader reads the cells of one column, top to bottom, and gives the
// text each stands for before any declaration applies [D1-DIT-1]
// [D1-DIT-2] [D1-ABB-1].
type markReader struct {
	seen  *tails
	prev  string
	first bool
}

func newMarkReader() *markReader { return &markReader{seen: newTails(), first: true} }

// read returns the text of the next cell, or the rule it breaks and why.
func (m *markReader) read(cell string) (text, rule, msg string) {
	text = cell
	switch {
	case cell == dittoMark:
		if m.first {
			return "", "D1-DIT-1", "^ repeats the cell above, and the first row has none"
		}
		text = m.prev
	case strings.HasPrefix(cell, dittoMark+dittoMark), strings.HasPrefix(cell, dittoMark+abbrevMark):
		text = cell[len(dittoMark):]
	case strings.HasPrefix(cell, abbrevMark):
		tail := cell[len(abbrevMark):]
		if tail == "" || len(tail) > maxAbbrevTail || !isSeparator(tail[0]) {
			return "", "D1-ABB-1", fmt.Sprintf("… must be followed by a tail of 1 to %d bytes that begins with /, :, . or a space", maxAbbrevTail)
		}
		owner, ok := m.seen.lookup(tail)
		if !ok {
			what := "no earlier text"
			if m.seen.multi[tail] {
				what = "more than one earlier text"
			}
			return "", "D1-ABB-1", fmt.Sprintf("%s of the column ends with %s", what, spec.QuoteShort(tail))
		}
		text = owner
	}
	m.seen.add(text)
	m.prev, m.first = text, false
	return text, "", ""
}

// read applies the declaration to its column of one row, whose other
// columns it refers to are final [D1-COL-2] [D1-KEY-1]. A key remembers
// in last the column's text for each key text; read reports false for an
// empty cell of a key never seen.
func (d *decl) read(row []string, last map[string]string) bool {
	c := d.col
	if d.isKey() {
		k := row[d.key]
		if row[c] == "" {
			prev, ok := last[k]
			if !ok {
				return false
			}
			row[c] = prev
		}
		last[k] = row[c]
		return true
	}
	before, after := d.ends(row)
	switch {
	case d.hasHole():
		row[c] = before + row[c] + after
	case row[c] == "":
		row[c] = before
	}
	return true
}
