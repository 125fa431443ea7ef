package jsonmap

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/gcxwire/gcx/internal/jsontext"
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
// class ErrInvalidJSON and the line, column and byte offset of the
// offending byte, anything that is not JSON and the JSON the mapping does
// not carry: an object that repeats a member name, a string with an
// unpaired surrogate escape [MAP-1]. Nesting beyond MaxDepth is an error of
// class spec.ErrLimit [MAP-4].
func Parse(text []byte) (Value, error) {
	return parse(string(text))
}

// ParseShared is Parse for a caller that keeps text unchanged while it
// uses the value, which shares text's bytes instead of copying them. It
// also reports whether text is the value's compact form already, exactly
// the bytes v.AppendCompact(nil) would write [MAP-3], so that a caller
// that wants that form can take text as it is.
func ParseShared(text []byte) (v Value, compact bool, err error) {
	return parseText(unsafe.String(unsafe.SliceData(text), len(text)), true)
}

// parse is Parse of a text the value may share: every string without
// escapes and every number of the value is a substring of text.
func parse(text string) (Value, error) {
	v, _, err := parseText(text, false)
	return v, err
}

// ParseLiteral is ParseShared of the JSON text a JSON string literal
// holds, read from text, the literal's bytes after its opening quote as
// they stand, up to its closing quote and maybe on after it, without
// decoding them into a copy: the value's strings without escapes and its
// numbers share text (jsontext.NewLiteralReader). n is the offset of the
// closing quote in text. ok is false when the literal is not a JSON
// string, when the text is not JSON, or when the literal writes it in a
// form that reader leaves to decoding: the caller then decodes the
// literal and calls ParseShared, which tells them apart; when ok, v and
// compact are what ParseShared gives of the decoded text.
func ParseLiteral(text []byte) (v Value, compact bool, n int, ok bool) {
	r := literalReaders.Get().(*jsontext.Reader)
	r.ResetLiteral(unsafe.String(unsafe.SliceData(text), len(text)))
	v, compact, err := parseWith(r, true)
	n = r.LiteralEnd()
	r.ResetString("") // holding neither text nor the strings it decoded
	literalReaders.Put(r)
	if err != nil || n < 0 {
		return Value{}, false, -1, false
	}
	return v, compact, n, true
}

// literalReaders are the readers ParseLiteral reads with, one text at a
// time each: a reader is a few hundred bytes, and the value read shares
// none of its memory once it is reset (jsontext.Reader.ResetString lets
// go of the buffers the value's strings share).
var literalReaders = sync.Pool{New: func() any { return new(jsontext.Reader) }}

// parseText is parse that also reports, when checkCompact is set, whether
// text is the value's compact form.
func parseText(text string, checkCompact bool) (Value, bool, error) {
	return parseWith(jsontext.NewStringReader(text), checkCompact)
}

// parseWith is parseText reading with r, which has read nothing yet.
func parseWith(r *jsontext.Reader, checkCompact bool) (Value, bool, error) {
	r.MaxDepth = MaxDepth
	r.RejectDuplicateNames = true
	r.CheckCompact = checkCompact
	p := parser{r: r}
	k, text, err := r.NextText()
	if err != nil {
		return Value{}, false, jsonError(err)
	}
	var v Value
	if err := p.value(k, text, 0, &v); err != nil {
		return Value{}, false, jsonError(err)
	}
	if err := r.End(); err != nil {
		return Value{}, false, jsonError(err)
	}
	return v, r.Compact(), nil
}

// parser builds a Value from tokens. Each array or object gets its slice
// at once, with room for as many members or elements as the last one
// read at the same depth had: in the arrays of like objects tool results
// are made of, that is one allocation per container and no copying.
type parser struct {
	r     *jsontext.Reader
	hints []int // per depth: the size of the last container read there

	// arena, when set, holds the members and elements of the values read,
	// for a caller that reads one value at a time and resets it between
	// them; scratch gathers each depth's members and elements meanwhile.
	arena   *valueArena
	members [][]Member
	elems   [][]Value
}

// valueArena holds the members and elements of a value read while the
// caller uses it; reset makes their room free for the next value.
type valueArena struct {
	members []Member
	elems   []Value
}

func (a *valueArena) reset() {
	a.members = a.members[:0]
	a.elems = a.elems[:0]
}

// keep returns a copy of items in *room, taking a new room, twice as
// large, when they do not fit: the values that share the old one keep it.
func keep[T any](room *[]T, items []T) []T {
	if len(items) == 0 {
		return nil
	}
	if cap(*room)-len(*room) < len(items) {
		*room = make([]T, 0, max(2*cap(*room), len(items), 256))
	}
	start := len(*room)
	*room = append(*room, items...)
	return (*room)[start:len(*room):len(*room)]
}

// scratch returns the depth's scratch slice, empty.
func scratch[T any](s *[][]T, depth int) []T {
	for len(*s) <= depth {
		*s = append(*s, nil)
	}
	return (*s)[depth][:0]
}

func (p *parser) hint(depth int) int {
	for len(p.hints) <= depth {
		p.hints = append(p.hints, 0)
	}
	return p.hints[depth]
}

// value reads the value that a token of kind k and text begins, whole,
// into *out. It takes the token's parts and fills in a Value in its place
// (a member's, an element's) rather than returning either: both are too
// large for the compiler to keep in registers, and a copy of one just
// written, a level at a time, stalls on the narrower stores that made it.
// On an error *out is left as it may be.
func (p *parser) value(k jsontext.Kind, text string, depth int, out *Value) error {
	switch k {
	case jsontext.ObjectStart:
		var members []Member
		if p.arena != nil {
			members = scratch(&p.members, depth)
		} else if n := p.hint(depth); n > 0 {
			members = make([]Member, 0, n)
		}
		for {
			nk, name, err := p.r.NextText()
			if err != nil {
				return err
			}
			if nk == jsontext.ObjectEnd {
				break
			}
			vk, vtext, err := p.r.NextText()
			if err != nil {
				return err
			}
			members = append(members, Member{Key: name})
			if err := p.value(vk, vtext, depth+1, &members[len(members)-1].Value); err != nil {
				return err
			}
		}
		if p.arena != nil {
			p.members[depth] = members
			*out = Value{Kind: Object, Members: keep(&p.arena.members, members)}
			return nil
		}
		p.hints[depth] = len(members)
		*out = Value{Kind: Object, Members: members}
		return nil
	case jsontext.ArrayStart:
		var elems []Value
		if p.arena != nil {
			elems = scratch(&p.elems, depth)
		} else {
			elems = make([]Value, 0, p.hint(depth))
		}
		for {
			ek, etext, err := p.r.NextText()
			if err != nil {
				return err
			}
			if ek == jsontext.ArrayEnd {
				break
			}
			elems = append(elems, Value{})
			if err := p.value(ek, etext, depth+1, &elems[len(elems)-1]); err != nil {
				return err
			}
		}
		if p.arena != nil {
			p.elems[depth] = elems
			*out = Value{Kind: Array, Elems: keep(&p.arena.elems, elems)}
			return nil
		}
		p.hints[depth] = len(elems)
		*out = Value{Kind: Array, Elems: elems}
		return nil
	case jsontext.String:
		*out = Value{Kind: String, Text: text}
	case jsontext.Number:
		*out = Value{Kind: Number, Text: text}
	case jsontext.True:
		*out = Value{Kind: True}
	case jsontext.False:
		*out = Value{Kind: False}
	default:
		*out = Value{Kind: Null}
	}
	return nil
}

// jsonError gives an error of the JSON reader its class and rule: a text
// outside the mapping's domain [MAP-1], or one nested too deep [MAP-4].
func jsonError(err error) error {
	var e *jsontext.Error
	if !errors.As(err, &e) {
		return err
	}
	class, rule := ErrInvalidJSON, "MAP-1"
	if e.Limit {
		class, rule = spec.ErrLimit, "MAP-4"
	}
	return &spec.Error{Class: class, Line: e.Line, Column: e.Column, Offset: e.Offset, Production: "json", Rule: rule, Msg: e.Msg}
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

// GoString returns the value's compact form [MAP-3], so that %#v — as a
// property test's counterexample is printed — shows JSON, not the struct.
func (v Value) GoString() string { return string(v.AppendCompact(nil)) }

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
		return jsontext.AppendString(b, v.Text)
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
			b = jsontext.AppendString(b, m.Key)
			b = append(b, ':')
			b = m.Value.AppendCompact(b)
		}
		return append(b, '}')
	}
}
