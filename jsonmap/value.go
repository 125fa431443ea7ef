package jsonmap

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gcxwire/gcx/spec"
)

// ErrInvalidJSON is the class of errors about the JSON text given to an
// encoder: it is not JSON, or it is JSON outside the mapping's domain
// (a repeated member name, a lone surrogate escape) [MAP-1]. It is
// spec.ErrInvalidJSON, so spec.ClassName names it.
var ErrInvalidJSON = spec.ErrInvalidJSON

// MaxDepth bounds the nesting of arrays and objects this package reads
// [MAP-4]. Deeper input is refused with an error of class spec.ErrLimit.
const MaxDepth = 10000

// Kind is the type of a JSON value.
type Kind uint8

// The kinds of JSON values. Booleans and null carry their kind alone.
const (
	Null Kind = iota
	False
	True
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "false", "true", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Value is one JSON value as the mapping sees it [MAP-2]: strings as their
// characters, whatever escapes spelled them, and numbers as the exact
// literal text they were written with, so 1.0, 1e400 and -0 stay what they
// are. Object members keep their order.
type Value struct {
	Kind    Kind
	Text    string   // Number: the literal; String: the string itself
	Elems   []Value  // Array
	Members []Member // Object
}

// Member is one name/value pair of an object.
type Member struct {
	Key   string
	Value Value
}

// Lookup returns the value of the object member named key.
func (v Value) Lookup(key string) (Value, bool) {
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Value{}, false
}

// Equal reports whether a and b are the same JSON value [MAP-2].
func Equal(a, b Value) bool {
	if a.Kind != b.Kind || a.Text != b.Text || len(a.Elems) != len(b.Elems) || len(a.Members) != len(b.Members) {
		return false
	}
	for i := range a.Elems {
		if !Equal(a.Elems[i], b.Elems[i]) {
			return false
		}
	}
	for i := range a.Members {
		if a.Members[i].Key != b.Members[i].Key || !Equal(a.Members[i].Value, b.Members[i].Value) {
			return false
		}
	}
	return true
}

// Parse reads one JSON text (RFC 8259), optionally surrounded by JSON
// whitespace, and returns its value. It refuses, with an *spec.Error of
// class ErrInvalidJSON and the position of the offending byte, anything
// that is not JSON and the JSON the mapping does not carry: an object that
// repeats a member name, a string with an unpaired surrogate escape
// [MAP-1]. Nesting beyond MaxDepth is an error of class spec.ErrLimit
// [MAP-4].
func Parse(text []byte) (Value, error) {
	p := &jsonParser{src: string(text)}
	if strings.HasPrefix(p.src, "\uFEFF") {
		return Value{}, p.fail("MAP-1", "JSON text begins with a byte-order mark")
	}
	p.skipSpace()
	if p.pos == len(p.src) {
		return Value{}, p.fail("MAP-1", "expected a JSON value, found end of input")
	}
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return Value{}, p.fail("MAP-1", fmt.Sprintf("expected end of input after the JSON value, found %s", p.describe()))
	}
	return v, nil
}

// Compact returns the compact form of the JSON text [MAP-3]. It is how
// this package compares JSON texts: two texts hold the same value exactly
// when their compact forms are equal.
func Compact(text []byte) ([]byte, error) {
	v, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return v.AppendCompact(nil), nil
}

// AppendCompact appends the compact form of v to b [MAP-3]: no whitespace,
// members and elements in order, numbers as their literal, strings with
// only the escapes JSON requires.
func (v Value) AppendCompact(b []byte) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case False:
		return append(b, "false"...)
	case True:
		return append(b, "true"...)
	case Number:
		return append(b, v.Text...)
	case String:
		return appendQuoted(b, v.Text)
	case Array:
		b = append(b, '[')
		for i, e := range v.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.AppendCompact(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, m.Key)
			b = append(b, ':')
			b = m.Value.AppendCompact(b)
		}
		return append(b, '}')
	}
}

const hexDigits = "0123456789abcdef"

// shortEscapes maps the control characters that JSON lets us write with a
// two-character escape to the letter after the backslash.
var shortEscapes = [32]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// appendQuoted appends s as a JSON string in compact form [MAP-3]: `"` and
// `\` escaped, control characters U+0000..U+001F escaped (short form where
// JSON has one, else \u00xx in lower case), everything else as itself.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case shortEscapes[c] != 0:
			b = append(b, '\\', shortEscapes[c])
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonParser reads JSON from src. In strict mode it accepts only the
// compact form [MAP-3] — no whitespace, no escape that compact form would
// not write — and reports failure without building messages, because the
// spelled-value rule asks that question of every cell [MAP-6].
type jsonParser struct {
	src    string
	pos    int
	depth  int
	strict bool
}

// errNotCompact is the strict parser's only syntax failure: the text is
// not the compact form of a JSON value.
var errNotCompact = errors.New("not a compact JSON text")

func (p *jsonParser) fail(rule, msg string) error {
	if p.strict {
		return errNotCompact
	}
	return p.errAt(p.pos, ErrInvalidJSON, rule, msg)
}

// failf is fail for a message that costs work to build: msg is called only
// outside strict mode, so a cell that is not compact JSON formats nothing.
func (p *jsonParser) failf(rule string, msg func() string) error {
	if p.strict {
		return errNotCompact
	}
	return p.errAt(p.pos, ErrInvalidJSON, rule, msg())
}

func (p *jsonParser) errAt(offset int, class error, rule, msg string) *spec.Error {
	line, col := 1, 1
	for i := 0; i < offset && i < len(p.src); i++ {
		if p.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &spec.Error{Class: class, Line: line, Column: col, Offset: int64(offset), Production: "json", Rule: rule, Msg: msg}
}

func (p *jsonParser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", p.src[p.pos])
	}
	return fmt.Sprintf("%q", r)
}

func (p *jsonParser) skipSpace() {
	if p.strict {
		return
	}
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (Value, error) {
	if p.pos >= len(p.src) {
		return Value{}, p.fail("MAP-1", "expected a JSON value, found end of input")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		return Value{Kind: String, Text: s}, err
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return Value{Kind: True}, p.literal("true")
	case c == 'f':
		return Value{Kind: False}, p.literal("false")
	case c == 'n':
		return Value{Kind: Null}, p.literal("null")
	}
	return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected a JSON value, found %s", p.describe()) })
}

func (p *jsonParser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.src) || p.src[p.pos] != word[i] {
			return p.failf("MAP-1", func() string { return fmt.Sprintf("expected %q, found %s", word, p.describe()) })
		}
		p.pos++
	}
	return nil
}

// enter and leave count nesting [MAP-4]. The limit error is reported even
// in strict mode: a text too deep to read cannot be told apart from a
// value, and callers must not take it for a string.
func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errAt(p.pos, spec.ErrLimit, "MAP-4", fmt.Sprintf("arrays and objects nested deeper than %d", MaxDepth))
	}
	return nil
}

func (p *jsonParser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '{'
	v := Value{Kind: Object}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	var seen map[string]bool
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected a member name in quotes, found %s", p.describe()) })
		}
		keyAt := p.pos
		key, err := p.str()
		if err != nil {
			return Value{}, err
		}
		if duplicate(v.Members, &seen, key) {
			if p.strict {
				return Value{}, errNotCompact
			}
			return Value{}, p.errAt(keyAt, ErrInvalidJSON, "MAP-1",
				fmt.Sprintf("member name %s appears twice in one object; the mapping keeps every member, so names must be distinct", appendQuoted(nil, key)))
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected ':' after a member name, found %s", p.describe()) })
		}
		p.pos++
		p.skipSpace()
		elem, err := p.value()
		if err != nil {
			return Value{}, err
		}
		v.Members = append(v.Members, Member{Key: key, Value: elem})
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return v, nil
		}
		return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected ',' or '}' in an object, found %s", p.describe()) })
	}
}

// duplicate reports whether key is already a member name, switching from a
// scan to a set once objects grow.
func duplicate(members []Member, seen *map[string]bool, key string) bool {
	const scanMax = 16
	if len(members) < scanMax {
		for _, m := range members {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for _, m := range members {
			(*seen)[m.Key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

func (p *jsonParser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	v := Value{Kind: Array, Elems: []Value{}}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		elem, err := p.value()
		if err != nil {
			return Value{}, err
		}
		v.Elems = append(v.Elems, elem)
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return v, nil
		}
		return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected ',' or ']' in an array, found %s", p.describe()) })
	}
}

// number reads
//
//	number = [ "-" ] ( "0" | digit1-9 { digit } ) [ "." digit { digit } ] [ ( "e" | "E" ) [ "+" | "-" ] digit { digit } ]
//
// and keeps the literal as written [MAP-2].
func (p *jsonParser) number() (Value, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.src) && p.src[p.pos] == '0':
		p.pos++
	case p.pos < len(p.src) && '1' <= p.src[p.pos] && p.src[p.pos] <= '9':
		p.digits()
	default:
		return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected a digit in a number, found %s", p.describe()) })
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected a digit after the decimal point, found %s", p.describe()) })
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return Value{}, p.failf("MAP-1", func() string { return fmt.Sprintf("expected a digit in the exponent, found %s", p.describe()) })
		}
	}
	return Value{Kind: Number, Text: p.src[start:p.pos]}, nil
}

func (p *jsonParser) digits() int {
	n := 0
	for p.pos < len(p.src) && '0' <= p.src[p.pos] && p.src[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

// str reads a string literal and returns the string it denotes. Raw
// characters must be valid UTF-8 and not controls; escapes are JSON's,
// with surrogate pairs joined and lone surrogates refused [MAP-1]. In
// strict mode only the escapes of compact form are accepted [MAP-3].
func (p *jsonParser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == '"' {
			s := p.src[start:p.pos]
			if !utf8.ValidString(s) {
				p.pos = start + invalidUTF8At(s)
				return "", p.fail("MAP-1", "string is not valid UTF-8")
			}
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.pos++
	}
	buf := append([]byte(nil), p.src[start:p.pos]...)
	for {
		if p.pos >= len(p.src) {
			return "", p.fail("MAP-1", "string not closed before the end of input")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				p.pos = start + invalidUTF8At(p.src[start:p.pos])
				return "", p.fail("MAP-1", "string is not valid UTF-8")
			}
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.failf("MAP-1", func() string { return fmt.Sprintf("control character U+%04X must be escaped in a string", c) })
		case c == '\\':
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
}

func invalidUTF8At(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(s)
}

// escape reads one escape at pos (the backslash) and appends what it
// stands for to buf.
func (p *jsonParser) escape(buf []byte) ([]byte, error) {
	at := p.pos
	p.pos++
	if p.pos >= len(p.src) {
		return nil, p.fail("MAP-1", "string not closed before the end of input")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case '"', '\\':
		return append(buf, c), nil
	case '/':
		if p.strict {
			return nil, errNotCompact
		}
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, err := p.hex4()
		if err != nil {
			return nil, err
		}
		if p.strict && (r >= 0x20 || shortEscapes[r] != 0 || p.src[p.pos-4:p.pos] != string([]byte{'0', '0', hexDigits[r>>4], hexDigits[r&0xF]})) {
			return nil, errNotCompact // compact form escapes only controls, in lower-case hex
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || p.pos+6 > len(p.src) || p.src[p.pos] != '\\' || p.src[p.pos+1] != 'u' {
				p.pos = at
				return nil, p.fail("MAP-1", "string holds an unpaired surrogate escape, which is no Unicode character")
			}
			p.pos += 2
			low, err := p.hex4()
			if err != nil {
				return nil, err
			}
			if low < 0xDC00 || low > 0xDFFF {
				p.pos = at
				return nil, p.fail("MAP-1", "string holds an unpaired surrogate escape, which is no Unicode character")
			}
			r = utf16.DecodeRune(r, low)
		}
		return utf8.AppendRune(buf, r), nil
	}
	p.pos = at + 1
	return nil, p.failf("MAP-1", func() string { return fmt.Sprintf("unknown escape \\%c in a string", c) })
}

func (p *jsonParser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		return 0, p.fail("MAP-1", "expected four hex digits after \\u")
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := p.src[p.pos]
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, p.failf("MAP-1", func() string { return fmt.Sprintf("expected four hex digits after \\u, found %s", p.describe()) })
		}
		p.pos++
	}
	return r, nil
}
