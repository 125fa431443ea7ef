package codec

import (
	"fmt"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// A declaration [D1-COL-1] is a header pair of a table section whose key
// is one of the section's fields. Its value is either a template or a key.
//
// A template [D1-COL-2] is literal text with references to other columns
// of the same row, written {name}, and at most one hole, written *. A
// column with a template and no hole is written once in the header: an
// empty cell stands for the template's text, any other cell for itself.
// A column with a hole keeps a cell in every row, which fills the hole.
//
// A key [D1-KEY-1], written ^{name}, says that the column repeats itself
// for a repeated text of column name: an empty cell stands for the text
// the column had in the last row above with the same text in name.
type decl struct {
	col   int
	parts []tplPart // the template; nil for a key
	key   int       // the key column of a keyed declaration, or -1
	gain  int       // bytes the encoder expects it to save
}

type tplPart struct {
	lit  string // literal text, when col < 0 and not hole
	col  int    // the column referred to, or -1
	hole bool
}

// The declaration syntax. A template's literal text never holds the three
// marks, and a template never begins with the key mark.
const (
	holeMark = '*'
	refOpen  = '{'
	refClose = '}'
	keyMark  = '^'
)

// literalOK reports whether s can stand as literal text in a template.
func literalOK(s string) bool {
	return !strings.ContainsAny(s, "{}*")
}

func (d *decl) isKey() bool { return d.key >= 0 }

// hasHole reports whether the template has a hole.
func (d *decl) hasHole() bool {
	for _, p := range d.parts {
		if p.hole {
			return true
		}
	}
	return false
}

// refs lists the columns the declaration refers to, in order.
func (d *decl) refs() []int {
	if d.isKey() {
		return []int{d.key}
	}
	var out []int
	for _, p := range d.parts {
		if p.col >= 0 {
			out = append(out, p.col)
		}
	}
	return out
}

// spell writes the declaration's value for a section with these fields.
func (d *decl) spell(fields []string) string {
	if d.isKey() {
		return string(keyMark) + string(refOpen) + fields[d.key] + string(refClose)
	}
	var b strings.Builder
	for _, p := range d.parts {
		switch {
		case p.hole:
			b.WriteByte(holeMark)
		case p.col >= 0:
			b.WriteByte(refOpen)
			b.WriteString(fields[p.col])
			b.WriteByte(refClose)
		default:
			b.WriteString(p.lit)
		}
	}
	return b.String()
}

// ends returns the template's text before and after its hole in a row
// whose columns hold texts; without a hole, before is the whole text.
func (d *decl) ends(texts []string) (before, after string) {
	var b, a strings.Builder
	w := &b
	for _, p := range d.parts {
		switch {
		case p.hole:
			w = &a
		case p.col >= 0:
			w.WriteString(texts[p.col])
		default:
			w.WriteString(p.lit)
		}
	}
	return b.String(), a.String()
}

// parseDecl reads the value of the declaration of column col [D1-COL-1].
// index maps the section's field names to their columns. The error text
// says what is wrong; the caller places it.
func parseDecl(value string, col int, index map[string]int) (*decl, string) {
	d := &decl{col: col, key: -1}
	ref := func(s string) (int, int, string) { // s begins after '{'
		n := 0
		for n < len(s) && spec.IsNameByte(s[n]) {
			n++
		}
		if n == len(s) || s[n] != refClose {
			return 0, 0, fmt.Sprintf("%c must be followed by a field name made of A-Z a-z 0-9 _ - . and %c", refOpen, refClose)
		}
		name := s[:n]
		c, ok := index[name]
		switch {
		case n == 0:
			return 0, 0, fmt.Sprintf("%c%c names no field", refOpen, refClose)
		case !ok:
			return 0, 0, fmt.Sprintf("%c%s%c names no field of the section", refOpen, spec.QuoteShort(name), refClose)
		case c == col:
			return 0, 0, fmt.Sprintf("%c%s%c refers to the column it declares", refOpen, name, refClose)
		}
		return c, n + 1, ""
	}
	if strings.HasPrefix(value, string(keyMark)) {
		if len(value) < 2 || value[1] != refOpen {
			return nil, fmt.Sprintf("a key is written %c%cname%c", keyMark, refOpen, refClose)
		}
		c, n, msg := ref(value[2:])
		if msg != "" {
			return nil, msg
		}
		if 2+n != len(value) {
			return nil, fmt.Sprintf("a key is written %c%cname%c and nothing after it", keyMark, refOpen, refClose)
		}
		d.key = c
		return d, ""
	}
	holes := 0
	lit := 0 // start of the literal being read
	flush := func(i int) {
		if i > lit {
			d.parts = append(d.parts, tplPart{lit: value[lit:i], col: -1})
		}
	}
	for i := 0; i < len(value); {
		switch value[i] {
		case holeMark:
			if holes++; holes > 1 {
				return nil, fmt.Sprintf("a template has at most one hole %c", holeMark)
			}
			flush(i)
			d.parts = append(d.parts, tplPart{col: -1, hole: true})
			i++
			lit = i
		case refOpen:
			flush(i)
			c, n, msg := ref(value[i+1:])
			if msg != "" {
				return nil, msg
			}
			d.parts = append(d.parts, tplPart{col: c})
			i += 1 + n
			lit = i
		case refClose:
			return nil, fmt.Sprintf("%c without %c: literal text in a template cannot hold %c, %c or %c", refClose, refOpen, refOpen, refClose, holeMark)
		default:
			i++
		}
	}
	flush(len(value))
	return d, ""
}
