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
			return s, nil, loc.atMeta(si, k, "D1-COL-1", fmt.Sprintf("declaration %s=%s: %s", m.Key, spec.QuoteShort(m.Value), msg))
		}
		decls[c], at[c] = d, k
	}
	for c, d := range decls {
		if d == nil {
			continue
		}
		for _, r := range d.refs() {
			if decls[r] != nil && len(decls[r].refs()) > 0 {
				return s, nil, loc.atMeta(si, at[c], "D1-COL-3", fmt.Sprintf("declaration of %s refers to %s, whose own declaration refers to another column", s.Fields[c], s.Fields[r]))
			}
		}
	}

	texts := make([][]string, len(s.Rows))
	for i, row := range s.Rows {
		texts[i] = make([]string, len(row))
	}
	for c := range s.Fields {
		if err := readMarks(s.Rows, texts, c, func(i int, rule, msg string) error {
			return loc.atCell(si, i, c, rule, msg)
		}); err != nil {
			return s, nil, err
		}
	}
	// Columns whose declaration refers to no column first; then those
	// that refer to them [D1-COL-3].
	for _, level := range []bool{false, true} {
		for c, d := range decls {
			if d == nil || (len(d.refs()) > 0) != level {
				continue
			}
			if err := d.read(texts, func(i int) error {
				return loc.atCell(si, i, c, "D1-KEY-1", fmt.Sprintf("empty cell of %s, keyed by %s, and no row above has the same %s", s.Fields[c], s.Fields[d.key], s.Fields[d.key]))
			}); err != nil {
				return s, nil, err
			}
		}
	}
	s.Meta, s.Rows = meta, texts
	return s, kept, nil
}

// readMarks resolves the marks of column c: it sets texts[i][c] to the
// text each cell stands for before any declaration applies [D1-DIT-1]
// [D1-DIT-2] [D1-ABB-1].
func readMarks(rows, texts [][]string, c int, fail func(i int, rule, msg string) error) error {
	seen := newTails()
	prev := ""
	for i, row := range rows {
		cell := row[c]
		text := cell
		switch {
		case cell == dittoMark:
			if i == 0 {
				return fail(i, "D1-DIT-1", "^ repeats the cell above, and the first row has none")
			}
			text = prev
		case strings.HasPrefix(cell, dittoMark+dittoMark), strings.HasPrefix(cell, dittoMark+abbrevMark):
			text = cell[len(dittoMark):]
		case strings.HasPrefix(cell, abbrevMark):
			tail := cell[len(abbrevMark):]
			if tail == "" || len(tail) > maxAbbrevTail || !isSeparator(tail[0]) {
				return fail(i, "D1-ABB-1", fmt.Sprintf("… must be followed by a tail of at most %d bytes that begins with /, :, . or a space", maxAbbrevTail))
			}
			owner, ok := seen.lookup(tail)
			if !ok {
				what := "no earlier text"
				if seen.multi[tail] {
					what = "more than one earlier text"
				}
				return fail(i, "D1-ABB-1", fmt.Sprintf("%s of the column ends with %s", what, spec.QuoteShort(tail)))
			}
			text = owner
		}
		texts[i][c] = text
		seen.add(text)
		prev = text
	}
	return nil
}

// read applies the declaration to its column of texts, whose other
// columns it refers to are final [D1-COL-2] [D1-KEY-1].
func (d *decl) read(texts [][]string, noKey func(i int) error) error {
	c := d.col
	if d.isKey() {
		last := map[string]string{}
		for i, row := range texts {
			k := row[d.key]
			if row[c] == "" {
				prev, ok := last[k]
				if !ok {
					return noKey(i)
				}
				row[c] = prev
			}
			last[k] = row[c]
		}
		return nil
	}
	hole := d.hasHole()
	for _, row := range texts {
		before, after := d.ends(row)
		switch {
		case hole:
			row[c] = before + row[c] + after
		case row[c] == "":
			row[c] = before
		}
	}
	return nil
}
