package streaming

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gcxwire/gcx/spec"
)

// headerParser walks one header line. Headers are rare next to rows, so it
// goes byte by byte and favours plainness over speed.
type headerParser struct {
	d     *Decoder
	line  []byte
	text  string // line's copy, which names and values without escapes are cut from
	hasLF bool
	i     int
}

func (p *headerParser) unexpected(production, rule, expected string) error {
	return p.d.unexpected(p.line, p.hasLF, p.i, production, rule, expected)
}

// literal matches tok byte by byte, so a mismatch is reported at the first
// byte that differs.
func (p *headerParser) literal(tok, production, rule string) error {
	for k := 0; k < len(tok); k++ {
		if p.i == len(p.line) || p.line[p.i] != tok[k] {
			return p.unexpected(production, rule, strconv.Quote(tok))
		}
		p.i++
	}
	return nil
}

// name reads a tool name or meta key: one or more name bytes, no escapes
// [HDR-3]. follow is the byte the header needs next (SP after a tool name,
// "=" after a meta key). As in the reference, a name cut short by a stray
// character breaks [HDR-3], and a key missing altogether where a separator
// stands breaks the header's shape [HDR-1].
func (p *headerParser) name(follow byte) (string, error) {
	from := p.i
	for p.i < len(p.line) && spec.IsNameByte(p.line[p.i]) {
		p.i++
	}
	// What stands after the name; the LF counts, the end of the input not.
	separator := p.i < len(p.line) && (p.line[p.i] == ' ' || p.line[p.i] == '\t') ||
		p.i == len(p.line) && p.hasLF
	if p.i == from {
		rule := "HDR-3"
		if separator && follow == '=' {
			rule = "HDR-1"
		}
		return "", p.unexpected("name", rule, "a name character (A-Z a-z 0-9 _ - .)")
	}
	if !separator && (p.i == len(p.line) || p.line[p.i] != follow) {
		return "", p.unexpected("name", "HDR-3", fmt.Sprintf("a name character (A-Z a-z 0-9 _ - .) or %q", follow))
	}
	return p.text[from:p.i], nil
}

// escapedText reads a field name or meta value: any character but TAB, LF,
// CR, SP, backslash and (for a field name) ',', or an escape of its
// alphabet [HDR-5] [HDR-7]. It stops at the first byte that can do neither
// and leaves it to the caller.
func (p *headerParser) escapedText(escapes *spec.Escapes) (string, error) {
	field := escapes == spec.FieldEscapes
	from := p.i
	// b holds the decoded text once an escape has turned up; until then
	// the text is line[from:p.i] as it stands.
	var b []byte
	decoded := func() string {
		if b == nil {
			return p.text[from:p.i]
		}
		return string(b)
	}
	for p.i < len(p.line) {
		c := p.line[p.i]
		switch {
		case c == '\\':
			if p.i+1 < len(p.line) {
				if e, ok := escapes.Decode(p.line[p.i+1]); ok {
					if b == nil {
						b = append([]byte(nil), p.line[from:p.i]...)
					}
					b = append(b, e)
					p.i += 2
					continue
				}
			}
			p.i++
			return "", p.unexpected(escapes.Production, escapes.Rule, escapes.Expected)
		case c == '\t' || c == '\r' || c == ' ' || field && c == ',':
			return decoded(), nil
		case c < utf8.RuneSelf:
			if b != nil {
				b = append(b, c)
			}
			p.i++
		default:
			r, size := utf8.DecodeRune(p.line[p.i:])
			if r == utf8.RuneError && size == 1 {
				return decoded(), nil
			}
			if b != nil {
				b = append(b, p.line[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
	return decoded(), nil
}

// readHeader reads a header line [HDR-1]. Before the grammar it applies the
// section limit, classifies the version tag [VER-1] [VER-2] and applies the
// line limit; after it, the rules the grammar cannot express, in column
// order [ERR-3].
func (d *Decoder) readHeader(line []byte, hasLF bool) error {
	if f := d.Limits.SectionFault(d.sections); f != nil {
		return d.fault(f)
	}
	if f := spec.TagFault(line, d.sections); f != nil {
		return d.fault(f)
	}
	if err := d.checkLineLength(line); err != nil {
		return err
	}

	// One copy of the line backs the header's strings, where a copy each
	// would cost a small call's decoder an allocation per field.
	p := &headerParser{d: d, line: line, text: string(line), hasLF: hasLF, i: len(spec.Version)}
	var h Header
	var err error
	if err := p.literal(" tool=", "header", "HDR-2"); err != nil {
		if p.i == len(spec.Version) {
			// The SP itself is missing [HDR-1].
			return p.unexpected("header", "HDR-1", "SP")
		}
		return err
	}
	if h.Tool, err = p.name(' '); err != nil {
		return err
	}
	if p.i == len(line) || line[p.i] != ' ' {
		return p.unexpected("header", "HDR-1", "SP")
	}
	p.i++
	if err := p.literal("fields=", "header", "HDR-2"); err != nil {
		return err
	}
	fields := make([]spec.Mark, 0, bytes.Count(line[p.i:], []byte{','})+1)
	for {
		at := p.i
		name, err := p.escapedText(spec.FieldEscapes)
		if err != nil {
			return err
		}
		fields = append(fields, spec.Mark{Col: at, Text: name})
		if p.i == len(line) || line[p.i] != ',' {
			break
		}
		p.i++
	}
	pairs := bytes.Count(line[p.i:], []byte{' '})
	keys, values := make([]spec.Mark, 0, pairs), make([]spec.Mark, 0, pairs)
	for p.i < len(line) && line[p.i] == ' ' {
		p.i++
		keyAt := p.i
		key, err := p.name('=')
		if err != nil {
			return err
		}
		if err := p.literal("=", "meta", "HDR-1"); err != nil {
			return err
		}
		valueAt := p.i
		value, err := p.escapedText(spec.MetaEscapes)
		if err != nil {
			return err
		}
		keys = append(keys, spec.Mark{Col: keyAt, Text: key})
		values = append(values, spec.Mark{Col: valueAt, Text: value})
	}
	if p.i < len(line) || !hasLF {
		expected := "a field name character, \",\", SP or LF"
		if len(keys) > 0 {
			expected = "a meta value character, SP or LF"
		}
		return p.unexpected("header", "HDR-1", expected)
	}

	if f := spec.HeaderFault(fields, keys, values, d.Limits); f != nil {
		return d.fault(f)
	}
	h.Fields = make([]string, len(fields))
	for k, f := range fields {
		h.Fields[k] = f.Text
	}
	var decl *declared
	if len(keys) > 0 {
		h.Meta = make([]spec.Meta, 0, len(keys)) // nil without pairs, as the reference has it
	}
	for k, key := range keys {
		if key.Text == spec.KeyRows {
			decl = &declared{value: values[k].Text, line: d.line, lineOffset: d.base + int64(d.start), col: values[k].Col}
		}
		h.Meta = append(h.Meta, spec.Meta{Key: key.Text, Value: values[k].Text})
	}

	d.fieldsCol = fields[0].Col + 1
	d.metaCols = d.metaCols[:0]
	for _, v := range values {
		d.metaCols = append(d.metaCols, v.Col+1)
	}
	if haveRowScanner && len(d.marks) < len(h.Fields) {
		// Room for the row scanner to mark a row's TABs and a few
		// backslashes; a row with more grows it. A section of a few
		// columns never pays for maxMarks.
		d.marks = make([]int32, min(max(2*len(h.Fields), 64), maxMarks))
	}
	d.header = &h
	d.sections++
	d.rows = 0
	d.rowsDecl = decl
	return nil
}
