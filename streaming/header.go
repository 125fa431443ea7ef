package streaming

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gcxwire/gcx/spec"
)

// headerEscape maps the letter after a backslash in a field name to the byte
// it stands for, or 0 where the pair is not an escape [HDR-5]. Meta values
// use the same table without ',' [HDR-7].
var headerEscape = [256]byte{'\\': '\\', 't': '\t', 'n': '\n', 'r': '\r', 's': ' ', ',': ','}

// mark is a header part and the 0-based column where it starts, for the rules
// checked after the header's grammar.
type mark struct {
	col  int
	text string
}

// headerParser walks one header line. Headers are rare next to rows, so it
// goes byte by byte and favours plainness over speed.
type headerParser struct {
	d     *Decoder
	line  []byte
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
	return string(p.line[from:p.i]), nil
}

// escapedText reads a field name or meta value: any character but TAB, LF,
// CR, SP, backslash and (for a field name) ',', or an escape. It stops at
// the first byte that can do neither and leaves it to the caller.
func (p *headerParser) escapedText(field bool) (string, error) {
	var b []byte
	for p.i < len(p.line) {
		c := p.line[p.i]
		switch {
		case c == '\\':
			if p.i+1 < len(p.line) && (field || p.line[p.i+1] != ',') {
				if e := headerEscape[p.line[p.i+1]]; e != 0 {
					b = append(b, e)
					p.i += 2
					continue
				}
			}
			p.i++
			if field {
				return "", p.unexpected("field_escape", "HDR-5", `one of \ t n r s , after "\" in a field name`)
			}
			return "", p.unexpected("text_escape", "HDR-7", `one of \ t n r s after "\" in a meta value`)
		case c == '\t' || c == '\r' || c == ' ' || field && c == ',':
			return string(b), nil
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.line[p.i:])
			if r == utf8.RuneError && size == 1 {
				return string(b), nil
			}
			b = append(b, p.line[p.i:p.i+size]...)
			p.i += size
		}
	}
	return string(b), nil
}

// readHeader reads a header line [HDR-1]. Before the grammar it applies the
// section limit, classifies the version tag [VER-1] [VER-2] and applies the
// line limit; after it, the rules the grammar cannot express, in column
// order [ERR-3].
func (d *Decoder) readHeader(line []byte, hasLF bool) error {
	if max := d.Limits.MaxSections; max > 0 && d.sections == max {
		return d.errAt(0, spec.ErrLimit, "header", "LIM-3",
			fmt.Sprintf("more than the limit of %d sections", max))
	}
	tag, kind, n := spec.ReadTag(line)
	switch kind {
	case spec.TagOther:
		e := d.errAt(0, spec.ErrUnsupportedVersion, "header", "VER-2",
			fmt.Sprintf("version tag %s is not GCX1; re-issue the call without the GCX format", tag))
		if d.sections > 0 {
			e.Rule = "VER-4"
		}
		e.Tag = tag
		return e
	case spec.TagMalformed:
		return d.errAt(n, spec.ErrSyntax, "header", "VER-3",
			"malformed version tag: GCX must be followed by 1 to 29 of A-Z a-z 0-9 . _ - and then SP or LF")
	}
	if err := d.checkLineLength(line); err != nil {
		return err
	}

	p := &headerParser{d: d, line: line, hasLF: hasLF, i: len(spec.Version)}
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
	var fields []mark
	for {
		at := p.i
		name, err := p.escapedText(true)
		if err != nil {
			return err
		}
		fields = append(fields, mark{at, name})
		if p.i == len(line) || line[p.i] != ',' {
			break
		}
		p.i++
	}
	var keys, values []mark
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
		value, err := p.escapedText(false)
		if err != nil {
			return err
		}
		keys = append(keys, mark{keyAt, key})
		values = append(values, mark{valueAt, value})
	}
	if p.i < len(line) || !hasLF {
		expected := "a field name character, \",\", SP or LF"
		if len(keys) > 0 {
			expected = "a meta value character, SP or LF"
		}
		return p.unexpected("header", "HDR-1", expected)
	}

	seen := make(map[string]bool, len(fields))
	for k, f := range fields {
		if max := d.Limits.MaxFields; max > 0 && k == max {
			return d.errAt(f.col, spec.ErrLimit, "field_list", "LIM-3",
				fmt.Sprintf("more than the limit of %d fields", max))
		}
		if seen[f.text] {
			return d.errAt(f.col, spec.ErrConstraint, "field_name", "HDR-6",
				fmt.Sprintf("field name %q is declared twice", f.text))
		}
		seen[f.text] = true
		h.Fields = append(h.Fields, f.text)
	}
	var decl *declared
	seenKeys := make(map[string]bool, len(keys))
	for k, key := range keys {
		switch {
		case key.text == spec.KeyTool || key.text == spec.KeyFields:
			return d.errAt(key.col, spec.ErrConstraint, "meta", "HDR-8",
				fmt.Sprintf("%s= may appear only once, in its fixed place", key.text))
		case seenKeys[key.text]:
			return d.errAt(key.col, spec.ErrConstraint, "meta", "HDR-8",
				fmt.Sprintf("meta key %q appears twice", key.text))
		}
		seenKeys[key.text] = true
		value := values[k]
		if rule, msg := spec.CheckMeta(key.text, value.text); rule != "" {
			return d.errAt(value.col, spec.ErrConstraint, "meta_value", rule, msg)
		}
		if key.text == spec.KeyRows {
			count, _ := strconv.ParseInt(value.text, 10, 64) // CheckMeta vouched for it [META-1]
			decl = &declared{count: count, value: value.text, line: d.line, column: value.col + 1,
				offset: d.base + int64(d.start) + int64(value.col)}
		}
		h.Meta = append(h.Meta, spec.Meta{Key: key.text, Value: value.text})
	}

	d.fieldsCol = fields[0].col + 1
	d.metaCols = d.metaCols[:0]
	for _, v := range values {
		d.metaCols = append(d.metaCols, v.col+1)
	}
	d.header = &h
	d.sections++
	d.rows = 0
	d.rowsDecl = decl
	return nil
}
