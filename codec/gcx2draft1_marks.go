package codec

import (
	"strings"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Marks are cells that stand for a text written earlier in the same
// column [D1-DIT-1] [D1-ABB-1]. Every other cell is its own text, except
// that a text which would read as a mark is written with one more ^ in
// front [D1-DIT-2].
const (
	dittoMark  = "^" // the text of the cell above
	abbrevMark = "…" // U+2026: the only earlier text that ends with what follows
)

// maxAbbrevTail bounds what follows an abbreviation mark, so that
// remembering the tails of earlier texts costs a bounded amount per cell
// [D1-ABB-1].
const maxAbbrevTail = 64

// isSeparator reports whether c may begin an abbreviation's tail: the
// places where paths, qualified names, hosts and phrases divide [D1-ABB-1].
func isSeparator(c byte) bool { return c == '/' || c == ':' || c == '.' || c == ' ' }

// stuffed reports whether a text would read as a mark, and is therefore
// written with one more ^ in front [D1-DIT-2].
func stuffed(text string) bool {
	return text == dittoMark || strings.HasPrefix(text, abbrevMark) ||
		strings.HasPrefix(text, dittoMark+dittoMark) || strings.HasPrefix(text, dittoMark+abbrevMark)
}

// tails remembers the distinct texts of a column read so far and, for each
// tail they end with (a separator and at most maxAbbrevTail-1 bytes after
// it), the one text that ends with it, or that several do.
type tails struct {
	seen  map[string]bool
	owner map[string]string
	multi map[string]bool
}

func newTails() *tails {
	return &tails{seen: map[string]bool{}, owner: map[string]string{}, multi: map[string]bool{}}
}

// add remembers text. Each text adds at most maxAbbrevTail tails of at
// most maxAbbrevTail bytes.
func (s *tails) add(text string) {
	if text == "" || s.seen[text] {
		return
	}
	s.seen[text] = true
	for p := len(text) - 1; p >= 0 && len(text)-p <= maxAbbrevTail; p-- {
		if !isSeparator(text[p]) {
			continue
		}
		tail := text[p:]
		if _, ok := s.owner[tail]; ok {
			s.multi[tail] = true
			continue
		}
		s.owner[tail] = text
	}
}

// lookup returns the only text remembered that ends with tail.
func (s *tails) lookup(tail string) (string, bool) {
	if s.multi[tail] {
		return "", false
	}
	t, ok := s.owner[tail]
	return t, ok
}

// tableSections returns the indexes of the sections whose rows are tables
// of objects, where declarations and marks stand [D1-TAB-1]: every
// section of a payload whose root has no json= or json=rows (the table
// form, a declared tool's layout), and the member-table sections after a
// root of the object forms. The root of the object forms is not one: in
// the header form its pairs are members [MAP-10].
func tableSections(p *spec.Payload) []int {
	first := 0
	switch form, ok := lookupMeta(p.Sections[0].Meta, jsonmap.KeyJSON); {
	case !ok || form == jsonmap.FormRows:
	case form == jsonmap.FormObject || form == jsonmap.FormRow:
		first = 1
	default:
		return nil
	}
	out := make([]int, 0, len(p.Sections)-first)
	for i := first; i < len(p.Sections); i++ {
		out = append(out, i)
	}
	return out
}

func lookupMeta(meta []spec.Meta, key string) (string, bool) {
	for _, m := range meta {
		if m.Key == key {
			return m.Value, true
		}
	}
	return "", false
}

// declarable reports whether a pair with key f declares a column when f
// is a field of a table section: every key but those GCX1 gives a
// meaning in table sections [MAP-15] [MAP-16] [META-1] [META-3], and the
// two structural keys [HDR-8].
func declarable(f string) bool {
	switch f {
	case jsonmap.KeyJSON, jsonmap.KeyNest, jsonmap.KeyStr, spec.KeyRows, spec.KeyTotal, spec.KeyTruncated, spec.KeyTool, spec.KeyFields:
		return false
	}
	return spec.IsName(f)
}
