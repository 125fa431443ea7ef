// Package reference holds the literal GCX1 parser and the canonical encoder.
//
// It is an oracle, not a product path: nothing a user runs decodes or
// encodes through it (package streaming does), and only the tests, the
// conformance vectors and `gcx conformance` run it, to hold the streaming
// codec and other implementations against a second, deliberately plain
// reading of the grammar. It shares with streaming only the rules' data in
// package spec — escape alphabets, tag classification, the header and limit
// checks and their messages — so that the two parsers differ in how they
// walk the bytes and in nothing the rules decide.
//
// The parser is written for truth, not speed: one method per production of
// grammar/gcx1.ebnf, named after it, in the grammar's order, each quoting its
// production. It reads the whole payload from a byte slice and reports the
// first error in the order of docs/wire-format.md [ERR-3]:
//
//  1. when a section ends (at a header line or the end of the input), its
//     rows= count is checked [META-4];
//  2. the first line must begin with "GCX" [PAY-1];
//  3. a header line is checked against the section limit and its version tag
//     classified [VER-1] [VER-2]; a row line is checked against the row
//     limit [LIM-3];
//  4. the line's length is checked against the line limit [LIM-3];
//  5. the line is matched against the grammar, byte by byte, and the first
//     byte that cannot continue a valid payload is reported [ERR-2];
//  6. the rules the grammar cannot express are checked for that line
//     (Appendix B), in column order.
//
// Column numbers count bytes from 1.
package reference

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/gcxwire/gcx/spec"
)

// Decode parses a whole GCX1 payload with spec.DefaultLimits.
func Decode(src []byte) (*spec.Payload, error) {
	return DecodeLimits(src, spec.DefaultLimits)
}

// DecodeLimits parses a whole GCX1 payload under the given limits. On error
// it returns no payload at all [ERR-4].
func DecodeLimits(src []byte, limits spec.Limits) (*spec.Payload, error) {
	p := &parser{src: src, limits: limits, line: 1}
	pl, err := p.payload()
	if err != nil {
		return nil, err
	}
	return pl, nil
}

// Pseudo-runes for what can stand where a character was expected.
const (
	endOfInput  = -1
	invalidUTF8 = -2
)

type parser struct {
	src       []byte
	limits    spec.Limits
	pos       int // byte offset of the next unread byte
	line      int // 1-based number of the line holding pos
	lineStart int // offset of that line's first byte

	sections []spec.Section
	rowsDecl *position // where the open section's rows= value stands
}

// position is a remembered place in the payload, for errors reported later
// than the bytes they concern.
type position struct {
	offset, line, column int
	value                string
}

func (p *parser) here() position {
	return position{offset: p.pos, line: p.line, column: p.pos - p.lineStart + 1}
}

// peek returns the character at pos and its size in bytes, endOfInput at the
// end, or invalidUTF8 (size 1) where the bytes are not UTF-8 [ENC-1].
func (p *parser) peek() (rune, int) {
	if p.pos >= len(p.src) {
		return endOfInput, 0
	}
	r, size := utf8.DecodeRune(p.src[p.pos:])
	if r == utf8.RuneError && size == 1 {
		return invalidUTF8, 1
	}
	return r, size
}

// hasPrefix reports whether the unread input begins with s.
func (p *parser) hasPrefix(s string) bool {
	return bytes.HasPrefix(p.src[p.pos:], []byte(s))
}

func (p *parser) advance(size int) { p.pos += size }

// newLine records that pos now starts a new line.
func (p *parser) newLine() {
	p.line++
	p.lineStart = p.pos
}

func (p *parser) errAt(at position, class error, production, rule, msg string) *spec.Error {
	return &spec.Error{
		Class: class, Line: at.line, Column: at.column, Offset: int64(at.offset),
		Production: production, Rule: rule, Msg: msg,
	}
}

// fault places a fault found on the line that holds pos.
func (p *parser) fault(f *spec.Fault) *spec.Error {
	return f.At(p.line, int64(p.lineStart))
}

// unexpected reports a syntax error at pos: the character there cannot
// continue the production [ERR-2]. spec.Unexpected decides which rule the
// character breaks.
func (p *parser) unexpected(production, rule, expected string) *spec.Error {
	return p.fault(spec.Unexpected(p.pos-p.lineStart, p.src[p.pos:], production, rule, expected))
}

// literal matches the bytes of tok one by one, so a mismatch is reported at
// the first byte that differs.
func (p *parser) literal(tok, production, rule string) error {
	for i := 0; i < len(tok); i++ {
		if p.pos >= len(p.src) || p.src[p.pos] != tok[i] {
			return p.unexpected(production, rule, fmt.Sprintf("%q", tok))
		}
		p.advance(1)
	}
	return nil
}

// checkLineLength applies the line limit to the line starting at pos
// [LIM-3]. Its length excludes the LF; an unterminated last line runs to the
// end of the input.
func (p *parser) checkLineLength() error {
	n := bytes.IndexByte(p.src[p.pos:], '\n')
	if n < 0 {
		n = len(p.src) - p.pos
	}
	if f := p.limits.LineFault(n); f != nil {
		return p.fault(f)
	}
	return nil
}

// payload parses
//
//	payload = section { section } .
//
// Before the grammar it checks that the input begins with "GCX", so that
// JSON, an empty body or a byte-order mark is told apart from a broken GCX
// payload [PAY-1] [ENC-2].
func (p *parser) payload() (*spec.Payload, error) {
	if f := spec.NotGCX(p.src); f != nil {
		return nil, p.fault(f)
	}
	if err := p.section(); err != nil {
		return nil, err
	}
	for p.pos < len(p.src) {
		if err := p.section(); err != nil {
			return nil, err
		}
	}
	return &spec.Payload{Sections: p.sections}, nil
}

// section parses
//
//	section = header { line } .
//
// A line never begins with "GCX" (see row), so that prefix, or the end of
// the input, ends the repetition. The section's rows= count is checked there
// [META-4].
func (p *parser) section() error {
	if err := p.header(); err != nil {
		return err
	}
	for p.pos < len(p.src) && !spec.IsHeaderLine(p.src[p.pos:]) {
		if err := p.lineProduction(); err != nil {
			return err
		}
	}
	return p.endSection()
}

// endSection checks the closing section's rows= value against the rows it
// holds [META-4]; the error points at the rows= value.
func (p *parser) endSection() error {
	decl := p.rowsDecl
	p.rowsDecl = nil
	if decl == nil {
		return nil
	}
	s := &p.sections[len(p.sections)-1]
	if f := spec.RowCountFault(decl.value, len(s.Rows)); f != nil {
		return p.errAt(*decl, f.Class, f.Production, f.Rule, f.Msg)
	}
	return nil
}

// lineProduction parses
//
//	line = comment | row .
func (p *parser) lineProduction() error {
	if p.hasPrefix("#") {
		return p.comment()
	}
	return p.row()
}

// metaMark is a parsed meta pair and where its key and value begin, for
// the rules checked after the header's grammar.
type metaMark struct {
	key, value spec.Mark
	meta       spec.Meta
}

// header parses
//
//	header = "GCX1" sp "tool=" name sp "fields=" field_list { sp meta } lf .
//
// Before the grammar it applies the section limit and classifies the version
// tag, so another version is reported as such and not as a syntax error
// [VER-2] [VER-3]; after it, it checks the rules of Appendix B that concern
// headers, in column order.
func (p *parser) header() error {
	start := p.here()
	if f := p.limits.SectionFault(len(p.sections)); f != nil {
		return p.fault(f)
	}
	if f := spec.TagFault(p.src[p.pos:], len(p.sections)); f != nil {
		return p.fault(f)
	}
	if err := p.checkLineLength(); err != nil {
		return err
	}

	var s spec.Section
	if err := p.literal(spec.Version, "header", "HDR-1"); err != nil {
		return err
	}
	if err := p.sp("header", "HDR-1"); err != nil {
		return err
	}
	if err := p.literal("tool=", "header", "HDR-2"); err != nil {
		return err
	}
	tool, err := p.name(' ')
	if err != nil {
		return err
	}
	s.Tool = tool
	if err := p.sp("header", "HDR-1"); err != nil {
		return err
	}
	if err := p.literal("fields=", "header", "HDR-2"); err != nil {
		return err
	}
	fields, err := p.fieldList()
	if err != nil {
		return err
	}
	var metas []metaMark
	for p.hasPrefix(" ") {
		p.advance(1)
		m, err := p.meta()
		if err != nil {
			return err
		}
		metas = append(metas, m)
	}
	expected := "a field name character, \",\", SP or LF"
	if len(metas) > 0 {
		expected = "a meta value character, SP or LF"
	}
	if err := p.lf("header", "HDR-1", expected); err != nil {
		return err
	}

	keys := make([]spec.Mark, len(metas))
	values := make([]spec.Mark, len(metas))
	for i, m := range metas {
		keys[i], values[i] = m.key, m.value
	}
	if f := spec.HeaderFault(fields, keys, values, p.limits); f != nil {
		return f.At(start.line, int64(start.offset))
	}
	for _, f := range fields {
		s.Fields = append(s.Fields, f.Text)
	}
	for _, m := range metas {
		s.Meta = append(s.Meta, m.meta)
		if m.meta.Key == spec.KeyRows {
			p.rowsDecl = &position{offset: start.offset + m.value.Col, line: start.line, column: m.value.Col + 1, value: m.meta.Value}
		}
	}
	p.sections = append(p.sections, s)
	return nil
}

// name parses
//
//	name = name_char { name_char } .
//	name_char = "A" … "Z" | "a" … "z" | "0" … "9" | "_" | "-" | "." .
//
// It serves tool names and meta keys, which have no escapes [HDR-3]. follow
// is the byte the header needs after the name (SP after a tool name, "="
// after a meta key). The grammar only sees that something else stands there;
// the rule cited says why: a stray SP or a missing item breaks the header's
// shape [HDR-1], any other character is one a name may not hold [HDR-3].
func (p *parser) name(follow byte) (string, error) {
	start := p.pos
	for p.pos < len(p.src) && spec.IsNameByte(p.src[p.pos]) {
		p.advance(1)
	}
	at, _ := p.peek()
	separator := at == ' ' || at == '\t' || at == '\n'
	if p.pos == start {
		rule := "HDR-3" // an empty name
		if separator && follow == '=' {
			rule = "HDR-1" // no key at all: a doubled or trailing SP
		}
		return "", p.unexpected("name", rule, "a name character (A-Z a-z 0-9 _ - .)")
	}
	if at != rune(follow) && !separator {
		return "", p.unexpected("name", "HDR-3", fmt.Sprintf("a name character (A-Z a-z 0-9 _ - .) or %q", follow))
	}
	return string(p.src[start:p.pos]), nil
}

// fieldList parses
//
//	field_list = field_name { "," field_name } .
func (p *parser) fieldList() ([]spec.Mark, error) {
	var fields []spec.Mark
	for {
		col := p.pos - p.lineStart
		name, err := p.fieldName()
		if err != nil {
			return nil, err
		}
		fields = append(fields, spec.Mark{Col: col, Text: name})
		if !p.hasPrefix(",") {
			return fields, nil
		}
		p.advance(1)
	}
}

// fieldName parses
//
//	field_name = { field_char | field_escape } .
//
// The name may be empty [HDR-4].
func (p *parser) fieldName() (string, error) {
	var b []byte
	for {
		r, size := p.peek()
		switch {
		case isFieldChar(r):
			b = append(b, p.src[p.pos:p.pos+size]...)
			p.advance(size)
		case r == '\\':
			c, err := p.fieldEscape()
			if err != nil {
				return "", err
			}
			b = append(b, c)
		default:
			return string(b), nil
		}
	}
}

// isFieldChar reports whether r matches
//
//	field_char = control | "!" … "+" | "-" … "[" | upper .
//
// that is, any character but TAB, LF, CR, SP, "," and "\" [HDR-5].
func isFieldChar(r rune) bool {
	return isControl(r) || '!' <= r && r <= '+' || '-' <= r && r <= '[' || isUpper(r)
}

// fieldEscape parses
//
//	field_escape = "\\" ( "\\" | "t" | "n" | "r" | "s" | "," ) .
//
// and returns the byte it stands for [HDR-5].
func (p *parser) fieldEscape() (byte, error) {
	return p.escapeOf(spec.FieldEscapes)
}

// escapeOf reads a backslash and the letter after it, which must be one of
// the escapes of the alphabet, and returns the byte they stand for.
func (p *parser) escapeOf(escapes *spec.Escapes) (byte, error) {
	p.advance(1) // the backslash
	if p.pos < len(p.src) {
		if c, ok := escapes.Decode(p.src[p.pos]); ok {
			p.advance(1)
			return c, nil
		}
	}
	return 0, p.unexpected(escapes.Production, escapes.Rule, escapes.Expected)
}

// meta parses
//
//	meta = name "=" meta_value .
func (p *parser) meta() (metaMark, error) {
	var m metaMark
	m.key.Col = p.pos - p.lineStart
	key, err := p.name('=')
	if err != nil {
		return m, err
	}
	if err := p.literal("=", "meta", "HDR-1"); err != nil {
		return m, err
	}
	m.value.Col = p.pos - p.lineStart
	value, err := p.metaValue()
	if err != nil {
		return m, err
	}
	m.key.Text, m.value.Text = key, value
	m.meta = spec.Meta{Key: key, Value: value}
	return m, nil
}

// metaValue parses
//
//	meta_value = { text_char | text_escape } .
func (p *parser) metaValue() (string, error) {
	var b []byte
	for {
		r, size := p.peek()
		switch {
		case isTextChar(r):
			b = append(b, p.src[p.pos:p.pos+size]...)
			p.advance(size)
		case r == '\\':
			c, err := p.textEscape()
			if err != nil {
				return "", err
			}
			b = append(b, c)
		default:
			return string(b), nil
		}
	}
}

// isTextChar reports whether r matches
//
//	text_char = control | "!" … "[" | upper .
//
// that is, any character but TAB, LF, CR, SP and "\" [HDR-7].
func isTextChar(r rune) bool {
	return isControl(r) || '!' <= r && r <= '[' || isUpper(r)
}

// textEscape parses
//
//	text_escape = "\\" ( "\\" | "t" | "n" | "r" | "s" ) .
func (p *parser) textEscape() (byte, error) {
	return p.escapeOf(spec.MetaEscapes)
}

// comment parses
//
//	comment = "#" { comment_char } lf .
//	comment_char = tab | value_char | "\\" .
//
// The text is kept verbatim, without escapes [CMT-1].
func (p *parser) comment() error {
	if err := p.checkLineLength(); err != nil {
		return err
	}
	p.advance(1) // the '#'
	start := p.pos
	for {
		r, size := p.peek()
		if r != '\t' && r != '\\' && !isValueChar(r) {
			break
		}
		p.advance(size)
	}
	text := string(p.src[start:p.pos])
	if err := p.lf("comment", "CMT-1", "a comment character or LF"); err != nil {
		return err
	}
	s := &p.sections[len(p.sections)-1]
	s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows), Text: text})
	return nil
}

// row parses
//
//	row = first_value { tab value } lf .
//
// Before the grammar it applies the row limit and the line limit; after it,
// it checks that the row has one value per field [ROW-2].
func (p *parser) row() error {
	s := &p.sections[len(p.sections)-1]
	if max := p.limits.MaxRows; max > 0 && len(s.Rows) == max {
		return p.errAt(p.here(), spec.ErrLimit, "row", "LIM-3",
			fmt.Sprintf("more than the limit of %d rows in a section", max))
	}
	if err := p.checkLineLength(); err != nil {
		return err
	}
	first, err := p.firstValue()
	if err != nil {
		return err
	}
	values := []string{first}
	var extra *position // the TAB before the first value beyond the fields
	for p.hasPrefix("\t") {
		if len(values) == len(s.Fields) && extra == nil {
			at := p.here()
			extra = &at
		}
		p.advance(1)
		v, err := p.value()
		if err != nil {
			return err
		}
		values = append(values, v)
	}
	end := p.here()
	if err := p.lf("row", "ROW-1", "a value character, TAB or LF"); err != nil {
		return err
	}
	if extra == nil && len(values) < len(s.Fields) {
		extra = &end
	}
	if extra != nil {
		f := spec.RowWidthFault(extra.column-1, len(values), len(s.Fields))
		return f.At(extra.line, int64(extra.offset-extra.column+1))
	}
	s.Rows = append(s.Rows, values)
	return nil
}

// firstValue parses
//
//	first_value = [ guard value | escape value | lead_char value | "G" [ after_g ] ] .
//
// The alternatives keep a row line from beginning with "#" or "GCX", which
// would make it a comment or a header [ROW-4]: such a value is written behind
// a guard.
func (p *parser) firstValue() (string, error) {
	var b []byte
	r, size := p.peek()
	switch {
	case r == spec.GuardByte && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '#' || p.src[p.pos+1] == 'G'):
		protected, err := p.guard()
		if err != nil {
			return "", err
		}
		b = append(b, protected...)
	case r == '\\':
		c, err := p.escape()
		if err != nil {
			return "", err
		}
		b = append(b, c)
	case isLeadChar(r):
		b = append(b, p.src[p.pos:p.pos+size]...)
		p.advance(size)
	case r == 'G':
		p.advance(1)
		rest, err := p.afterG()
		if err != nil {
			return "", err
		}
		return "G" + rest, nil
	default:
		return "", nil // the option is absent: an empty first value
	}
	rest, err := p.value()
	if err != nil {
		return "", err
	}
	return string(b) + rest, nil
}

// guard parses
//
//	guard = "\\" ( "#" | "GCX" ) .
//
// and returns the text after the backslash, which begins the value: the
// backslash alone is the guard and decodes to nothing [ROW-4].
func (p *parser) guard() (string, error) {
	p.advance(1) // the backslash
	if p.hasPrefix("#") {
		p.advance(1)
		return "#", nil
	}
	if err := p.literal("GCX", "guard", "ROW-4"); err != nil {
		return "", err
	}
	return "GCX", nil
}

// afterG parses
//
//	after_g = escape value | not_c value | "C" [ after_gc ] .
//
// It follows a first value's leading "G". Where none of its alternatives
// starts, the enclosing option "G" [ after_g ] is complete.
func (p *parser) afterG() (string, error) {
	r, size := p.peek()
	var head string
	switch {
	case r == '\\':
		c, err := p.escape()
		if err != nil {
			return "", err
		}
		head = string(c)
	case isNotC(r):
		head = string(p.src[p.pos : p.pos+size])
		p.advance(size)
	case r == 'C':
		p.advance(1)
		rest, err := p.afterGC()
		if err != nil {
			return "", err
		}
		return "C" + rest, nil
	default:
		return "", nil
	}
	rest, err := p.value()
	if err != nil {
		return "", err
	}
	return head + rest, nil
}

// afterGC parses
//
//	after_gc = escape value | not_x value .
//
// It follows a first value's leading "GC"; an "X" there would make the line
// a header, so it cannot appear.
func (p *parser) afterGC() (string, error) {
	r, size := p.peek()
	var head string
	switch {
	case r == '\\':
		c, err := p.escape()
		if err != nil {
			return "", err
		}
		head = string(c)
	case isNotX(r):
		head = string(p.src[p.pos : p.pos+size])
		p.advance(size)
	default:
		return "", nil
	}
	rest, err := p.value()
	if err != nil {
		return "", err
	}
	return head + rest, nil
}

// value parses
//
//	value = { value_char | escape } .
func (p *parser) value() (string, error) {
	var b []byte
	for {
		r, size := p.peek()
		switch {
		case isValueChar(r):
			b = append(b, p.src[p.pos:p.pos+size]...)
			p.advance(size)
		case r == '\\':
			c, err := p.escape()
			if err != nil {
				return "", err
			}
			b = append(b, c)
		default:
			return string(b), nil
		}
	}
}

// escape parses
//
//	escape = "\\" ( "\\" | "t" | "n" | "r" ) .
//
// and returns the byte it stands for [VAL-1]. Any other character after the
// backslash, including TAB, LF and the end of the input, is an error [VAL-2].
func (p *parser) escape() (byte, error) {
	return p.escapeOf(spec.ValueEscapes)
}

// isValueChar reports whether r matches
//
//	value_char = control | " " … "[" | upper .
//
// that is, any character but TAB, LF, CR and "\" [VAL-3].
func isValueChar(r rune) bool {
	return isControl(r) || ' ' <= r && r <= '[' || isUpper(r)
}

// isLeadChar reports whether r matches
//
//	lead_char = control | " " … "\"" | "$" … "F" | "H" … "[" | upper .
//
// that is, a value_char other than "#" and "G".
func isLeadChar(r rune) bool {
	return isValueChar(r) && r != '#' && r != 'G'
}

// isNotC reports whether r matches
//
//	not_c = control | " " … "B" | "D" … "[" | upper .
func isNotC(r rune) bool { return isValueChar(r) && r != 'C' }

// isNotX reports whether r matches
//
//	not_x = control | " " … "W" | "Y" … "[" | upper .
func isNotX(r rune) bool { return isValueChar(r) && r != 'X' }

// isControl reports whether r matches
//
//	control = "\x00" … "\x08" | "\x0B" | "\x0C" | "\x0E" … "\x1F" .
//
// the C0 controls other than TAB, LF and CR, which are data [ENC-4].
func isControl(r rune) bool {
	return 0 <= r && r <= 0x08 || r == 0x0B || r == 0x0C || 0x0E <= r && r <= 0x1F
}

// isUpper reports whether r matches
//
//	upper = "]" … "\uD7FF" | "\uE000" … "\U0010FFFF" .
//
// every scalar value above the backslash.
func isUpper(r rune) bool {
	return ']' <= r && r <= 0xD7FF || 0xE000 <= r && r <= 0x10FFFF
}

// sp parses
//
//	sp = " " .
func (p *parser) sp(production, rule string) error {
	if !p.hasPrefix(" ") {
		return p.unexpected(production, rule, "SP")
	}
	p.advance(1)
	return nil
}

// lf parses
//
//	lf = "\n" .
//
// Every line ends with one, the last included [LINE-1].
func (p *parser) lf(production, rule, expected string) error {
	if !p.hasPrefix("\n") {
		return p.unexpected(production, rule, expected)
	}
	p.advance(1)
	p.newLine()
	return nil
}
