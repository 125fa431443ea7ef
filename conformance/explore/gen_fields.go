package explore

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The mutations of this file change a committed vector's payload field by
// field, the way its reader reads it: a column (a field and its cell in
// every row) added, taken away or moved; a header's value replaced by
// another name the payload holds; a row taken away or repeated with rows=
// kept in step. A rule that relates two parts of a payload — nest= to the
// fields [MAP-15], a layout's parts to their names and order [LAY-2]
// [LAY-4], an object part to its one row [LAY-2] — meets the other
// spellings of its relation, not only a broken byte.

// section is one section of a payload split into lines: its header's
// index in the lines, and the indexes of its rows (comments left out).
type section struct {
	header int
	rows   []int
}

// sectionsOf splits a payload's lines (bytes.SplitAfter at LF) into its
// sections.
func sectionsOf(lines [][]byte) []section {
	var out []section
	for i, l := range lines {
		switch {
		case bytes.HasPrefix(l, []byte(spec.TagPrefix)):
			out = append(out, section{header: i})
		case len(out) > 0 && len(l) > 0 && l[0] != '#':
			out[len(out)-1].rows = append(out[len(out)-1].rows, i) // "\n" too: a row of one empty value
		}
	}
	return out
}

// token is a header's space-separated token split at its first '='.
type token struct{ key, value string }

// splitHeader returns a header line's tokens after the tag, the tag, and
// its line terminator.
func splitHeader(l []byte) (tag string, tokens []token, end string) {
	body := string(bytes.TrimRight(l, "\r\n"))
	end = string(l[len(body):])
	parts := strings.Split(body, " ")
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		tokens = append(tokens, token{k, v})
	}
	return parts[0], tokens, end
}

func joinHeader(tag string, tokens []token, end string) []byte {
	var b strings.Builder
	b.WriteString(tag)
	for _, t := range tokens {
		b.WriteString(" " + t.key + "=" + t.value)
	}
	b.WriteString(end)
	return []byte(b.String())
}

// names are a comma list's items: fields=, nest=, str= (a list that
// escapes a comma is left whole).
func namesOf(value string) []string {
	if strings.Contains(value, `\,`) {
		return []string{value}
	}
	return strings.Split(value, ",")
}

// namesIn returns the names a payload holds, to put in another place:
// every field, the part of a dotted field before its first dot, every
// value of its headers' tokens and list items, and the layouts' section
// names [LAY-4].
func namesIn(lines [][]byte) []string {
	var out []string
	for _, l := range lines {
		if !bytes.HasPrefix(l, []byte(spec.TagPrefix)) {
			continue
		}
		_, tokens, _ := splitHeader(l)
		for _, t := range tokens {
			out = append(out, t.value)
			for _, n := range namesOf(t.value) {
				out = append(out, n)
				if before, _, ok := strings.Cut(n, "."); ok {
					out = append(out, before)
				}
			}
		}
	}
	return append(out, layoutSections()...)
}

// layoutSections are the tools and section names of the declared layouts.
func layoutSections() []string {
	var out []string
	for _, l := range jsonmap.Layouts() {
		out = append(out, l.Tool)
		for _, p := range l.Parts {
			if p.Tool != l.Tool {
				out = append(out, p.Tool)
			}
		}
	}
	return out
}

// columnEdit adds a column to one section (its field named after a name
// the payload holds, a field's prefix or a field in other case, its cell
// empty, a number or a copy of its neighbour's), takes one away, or moves
// one, field and cells together.
func (g *gen) columnEdit(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	secs := sectionsOf(lines)
	secs = slices.DeleteFunc(secs, func(s section) bool {
		_, tokens, _ := splitHeader(lines[s.header])
		return !slices.ContainsFunc(tokens, func(t token) bool { return t.key == spec.KeyFields && !strings.Contains(t.value, `\,`) })
	})
	if len(secs) == 0 {
		return g.nearMiss(b)
	}
	s := pick(g, secs)
	tag, tokens, end := splitHeader(lines[s.header])
	fi := slices.IndexFunc(tokens, func(t token) bool { return t.key == spec.KeyFields })
	names := namesOf(tokens[fi].value)
	cells := make([][]string, len(s.rows))
	ends := make([]string, len(s.rows))
	for i, r := range s.rows {
		row := string(bytes.TrimRight(lines[r], "\r\n"))
		ends[i] = string(lines[r][len(row):])
		cells[i] = strings.Split(row, "\t")
	}
	insert := func(xs []string, j int, x string) []string {
		if j > len(xs) {
			return append(xs, x)
		}
		return slices.Insert(xs, j, x)
	}
	switch op := g.n(4); {
	case op >= 2 || len(names) < 2:
		// a column more
		j := g.n(len(names) + 1)
		near := names[min(j, len(names)-1)]
		name := pick(g, []string{"", near, g.respellWord(near), near + ".x", pick(g, namesIn(lines))})
		if before, _, ok := strings.Cut(pick(g, names), "."); ok && g.one(2) {
			name = before // a field a nested one's prefix names [MAP-15]
		}
		names = insert(names, j, name)
		cell := pick(g, []string{"", "1", "x", "copy"})
		for i := range cells {
			c := cell
			if c == "copy" {
				c = cells[i][min(j, len(cells[i])-1)]
			}
			cells[i] = insert(cells[i], j, c)
		}
	case op == 0:
		// a column fewer
		j := g.n(len(names))
		names = slices.Delete(names, j, j+1)
		for i := range cells {
			if j < len(cells[i]) {
				cells[i] = slices.Delete(cells[i], j, j+1)
			}
		}
	default:
		// a column moved one place, its cells with it
		j := g.n(len(names) - 1)
		names[j], names[j+1] = names[j+1], names[j]
		for i := range cells {
			if j+1 < len(cells[i]) {
				cells[i][j], cells[i][j+1] = cells[i][j+1], cells[i][j]
			}
		}
	}
	tokens[fi].value = strings.Join(names, ",")
	lines[s.header] = joinHeader(tag, tokens, end)
	for i, r := range s.rows {
		lines[r] = []byte(strings.Join(cells[i], "\t") + ends[i])
	}
	return bytes.Join(lines, nil)
}

// headerEdit gives one token of a header (tool= and reserved keys among
// them) another value the payload holds, or its own in other case, or
// adds a token of a key the mapping reads — nest=, str=, json=, rows=,
// total=, truncated= — holding such a value.
func (g *gen) headerEdit(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	secs := sectionsOf(lines)
	if len(secs) == 0 {
		return g.nearMiss(b)
	}
	s := secs[g.n(len(secs))]
	if len(secs) > 1 && g.one(2) {
		s = pick(g, secs[1:]) // a later section: a layout's later part [LAY-4]
	}
	tag, tokens, end := splitHeader(lines[s.header])
	values := append(namesIn(lines), "", "rows", "row", "object", "array", "value", "0", "1", "true", "false")
	if len(tokens) > 0 && g.n(3) > 0 {
		i := g.n(len(tokens))
		if tokens[i].key == spec.KeyFields && g.one(2) {
			i = g.n(len(tokens))
		}
		if g.one(3) {
			tokens[i].value = g.respellWord(tokens[i].value)
		} else {
			tokens[i].value = pick(g, values)
		}
	} else {
		key := pick(g, []string{"nest", "str", "json", spec.KeyRows, spec.KeyTotal, spec.KeyTruncated, spec.KeyTool})
		at := g.n(len(tokens) + 1)
		tokens = slices.Insert(tokens, at, token{key, pick(g, values)})
	}
	lines[s.header] = joinHeader(tag, tokens, end)
	return bytes.Join(lines, nil)
}

// rowEdit takes a row of one section away, repeats one, or takes them
// all away, and mostly keeps the section's rows= in step [META-4], so
// that what a section's count of rows means is judged, not only a count
// that is wrong: an object part with no row [LAY-2], a value form with
// two [MAP-9].
func (g *gen) rowEdit(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	secs := sectionsOf(lines)
	if len(secs) == 0 {
		return g.nearMiss(b)
	}
	s := pick(g, secs)
	drop := map[int]bool{}
	extra := -1
	n := len(s.rows)
	switch {
	case len(s.rows) > 0 && g.one(3):
		for _, r := range s.rows {
			drop[r] = true
		}
		n = 0
	case len(s.rows) > 0 && g.one(2):
		drop[pick(g, s.rows)] = true
		n--
	case len(s.rows) > 0:
		extra = pick(g, s.rows)
		n++
	default:
		// a section with no row given one
		extra = s.header
		n++
	}
	if g.n(4) > 0 {
		tag, tokens, end := splitHeader(lines[s.header])
		for i := range tokens {
			if tokens[i].key == spec.KeyRows {
				tokens[i].value = strconv.Itoa(n)
			}
		}
		lines[s.header] = joinHeader(tag, tokens, end)
	}
	var out [][]byte
	for i, l := range lines {
		if drop[i] {
			continue
		}
		out = append(out, l)
		if i == extra {
			if i == s.header {
				out = append(out, []byte(pick(g, []string{"x\n", "1\n", "\n"})))
			} else {
				out = append(out, l)
			}
		}
	}
	return bytes.Join(out, nil)
}

// respellNumber spells a number's literal another way — an exponent, a
// fraction, both — mostly with the same value, which the mapping keeps
// as a different literal [MAP-3] and a layout's int does not take
// [LAY-3].
func (g *gen) respellNumber(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i] // the exponent taken away
	}
	return s + pick(g, []string{"e0", "E+0", "e5", ".0", "0e-1", ".5"})
}
