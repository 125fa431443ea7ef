package jsonmap

import (
	"fmt"
	"strings"

	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
)

// Type is the JSON type a layout column holds [LAY-3].
type Type string

// Column types.
const (
	TypeString Type = "string"
	TypeInt    Type = "int"    // a number literal without fraction or exponent
	TypeNumber Type = "number" // any number literal
	TypeBool   Type = "bool"
	TypeJSON   Type = "json" // any JSON value
)

// holds reports whether v is of type t.
func (t Type) holds(v Value) bool { return t.holdsKind(v.Kind, v.Text) }

// holdsKind reports whether a value of kind k, and for a number of
// literal text, is of type t.
func (t Type) holdsKind(k Kind, text string) bool {
	switch t {
	case TypeString:
		return k == String
	case TypeInt:
		return k == Number && !strings.ContainsAny(text, ".eE")
	case TypeNumber:
		return k == Number
	case TypeBool:
		return k == True || k == False
	}
	return true
}

// Shape says what JSON value a layout part holds [LAY-2].
type Shape string

// Part shapes.
const (
	ShapeRows   Shape = "rows"   // an array of objects, one row each
	ShapeObject Shape = "object" // one object, as the section's only row
)

// Field is one frozen column: its GCX1 field name, the JSON member it
// carries and that member's type [LAY-3]. An optional member may be absent
// from an object, which leaves its cell empty.
type Field struct {
	Name     string
	Key      string
	Type     Type
	Optional bool
}

// Part is one section of a layout. Key names the member of the tool's
// JSON object that the part holds, or is "" when the layout has a single
// part, which then holds the whole value [LAY-2].
type Part struct {
	Tool   string
	Key    string
	Shape  Shape
	Fields []Field
}

// Layout is the frozen GCX1 form of one declared tool's result [LAY-1].
type Layout struct {
	Tool  string
	Parts []Part
}

func str(name, key string) Field     { return Field{Name: name, Key: key, Type: TypeString} }
func integer(name, key string) Field { return Field{Name: name, Key: key, Type: TypeInt} }
func optional(f Field) Field         { f.Optional = true; return f }

// registry is the table of chapter 14.6 [LAY-6]. It is frozen for the
// life of GCX1: a layout never gains, loses, renames or retypes a column
// [LAY-5].
var registry = []Layout{
	{Tool: "search_symbols", Parts: []Part{{Tool: "search_symbols", Shape: ShapeRows, Fields: []Field{
		str("id", "id"), str("kind", "kind"), str("name", "name"), str("path", "file_path"),
		integer("line", "start_line"), optional(str("sig", "signature")),
	}}}},
	{Tool: "find_usages", Parts: []Part{{Tool: "find_usages", Shape: ShapeRows, Fields: []Field{
		str("path", "file_path"), integer("line", "line"), integer("col", "column"), str("kind", "kind"),
		optional(str("caller", "caller")), optional(str("snippet", "snippet")),
	}}}},
	{Tool: "get_callers", Parts: []Part{
		{Tool: "get_callers.nodes", Key: "nodes", Shape: ShapeRows, Fields: []Field{
			str("id", "id"), str("kind", "kind"), str("name", "name"), str("path", "file_path"),
			integer("line", "start_line"), optional(integer("depth", "depth")),
		}},
		{Tool: "get_callers.edges", Key: "edges", Shape: ShapeRows, Fields: []Field{
			str("from", "from"), str("to", "to"), str("kind", "kind"), optional(integer("line", "line")),
		}},
	}},
	{Tool: "analyze", Parts: []Part{{Tool: "analyze", Shape: ShapeRows, Fields: []Field{
		str("rule", "rule"), str("severity", "severity"), str("path", "file_path"), integer("line", "line"),
		optional(str("symbol", "symbol")), str("msg", "message"),
	}}}},
	{Tool: "find_cycles", Parts: []Part{{Tool: "find_cycles", Shape: ShapeRows, Fields: []Field{
		str("kind", "kind"), integer("len", "length"), {Name: "cycle", Key: "nodes", Type: TypeJSON},
	}}}},
	{Tool: "graph_stats", Parts: []Part{{Tool: "graph_stats", Shape: ShapeObject, Fields: []Field{
		integer("nodes", "nodes"), integer("edges", "edges"), integer("files", "files"), integer("symbols", "symbols"),
		optional(integer("packages", "packages")), optional(str("indexed", "indexed_at")),
	}}}},
	{Tool: "get_symbol_source", Parts: []Part{{Tool: "get_symbol_source", Shape: ShapeObject, Fields: []Field{
		str("id", "id"), str("path", "file_path"), integer("start", "start_line"), integer("end", "end_line"),
		optional(str("lang", "language")), str("source", "source"),
	}}}},
}

// partIndex maps every section tool name a layout uses to its layout and
// part number.
var partIndex = func() map[string][2]int {
	m := make(map[string][2]int)
	for i, l := range registry {
		for j, p := range l.Parts {
			m[p.Tool] = [2]int{i, j}
		}
	}
	return m
}()

// Layouts returns the registry of declared tools, in the order of chapter
// 14.6. The result is a copy; changing it changes nothing.
func Layouts() []Layout {
	out := make([]Layout, len(registry))
	for i, l := range registry {
		out[i] = l.clone()
	}
	return out
}

// Lookup returns the layout of a declared tool.
func Lookup(tool string) (Layout, bool) {
	for _, l := range registry {
		if l.Tool == tool {
			return l.clone(), true
		}
	}
	return Layout{}, false
}

// claimed reports whether a root section named tool without a json= pair
// claims a layout: the name is a declared tool or a section name of one
// [LAY-4]. Generic payloads under such names carry json=.
func claimed(tool string) bool {
	_, ok := partIndex[tool]
	return ok || declared(tool)
}

func declared(tool string) bool {
	for _, l := range registry {
		if l.Tool == tool {
			return true
		}
	}
	return false
}

func (l Layout) clone() Layout {
	c := Layout{Tool: l.Tool, Parts: make([]Part, len(l.Parts))}
	for i, p := range l.Parts {
		p.Fields = append([]Field(nil), p.Fields...)
		c.Parts[i] = p
	}
	return c
}

// FieldNames returns the part's GCX1 field names in order.
func (p Part) FieldNames() []string {
	names := make([]string, len(p.Fields))
	for i, f := range p.Fields {
		names[i] = f.Name
	}
	return names
}

// Fit reports whether v has the shape the layout freezes and returns nil
// if so, or an *spec.Error of class spec.ErrModel saying where it departs
// [LAY-2] [LAY-3]. A value that does not fit is still encoded,
// generically [LAY-7]; Fit is for callers that would rather refuse it.
func (l Layout) Fit(v Value) error {
	if _, err := l.fit(v); err != nil {
		return &spec.Error{Class: spec.ErrModel, Rule: "LAY-2", Msg: err.Error()}
	}
	return nil
}

// layoutOf returns the registry's layout of a declared tool, uncopied.
func layoutOf(tool string) (Layout, bool) {
	for _, l := range registry {
		if l.Tool == tool {
			return l, true
		}
	}
	return Layout{}, false
}

// fit checks v against the layout and returns the value of each part: v
// itself for a single part, else its members in order.
func (l Layout) fit(v Value) ([]Value, error) {
	values, err := l.partValues(v)
	if err != nil {
		return nil, err
	}
	for i, p := range l.Parts {
		if err := p.fit(values[i]); err != nil {
			return nil, err
		}
	}
	return values, nil
}

// partValues returns the value of each part: v itself for a single part,
// else its members, which must be the parts' keys in order.
func (l Layout) partValues(v Value) ([]Value, error) {
	values := []Value{v}
	if len(l.Parts) > 1 {
		if v.Kind != Object {
			return nil, fmt.Errorf("%s: the value is %s, and the layout needs an object with members %s", l.Tool, kindPhrase(v.Kind), l.partKeys())
		}
		if len(v.Members) != len(l.Parts) {
			return nil, fmt.Errorf("%s: the object has %s, and the layout needs exactly %s", l.Tool, plural.Count(len(v.Members), "member"), l.partKeys())
		}
		values = values[:0]
		for i, m := range v.Members {
			if m.Key != l.Parts[i].Key {
				return nil, fmt.Errorf("%s: member %d is %s where the layout needs %q", l.Tool, i+1, quote(m.Key), l.Parts[i].Key)
			}
			values = append(values, m.Value)
		}
	}
	return values, nil
}

func (l Layout) partKeys() string {
	keys := make([]string, len(l.Parts))
	for i, p := range l.Parts {
		keys[i] = fmt.Sprintf("%q", p.Key)
	}
	return strings.Join(keys, ", ")
}

// fit checks that v has the part's shape and each of its objects the
// part's members.
func (p Part) fit(v Value) error {
	switch p.Shape {
	case ShapeObject:
		if v.Kind != Object {
			return fmt.Errorf("%s: the value is %s, and the layout needs an object", p.Tool, kindPhrase(v.Kind))
		}
		return p.row(v, -1)
	default:
		if v.Kind != Array {
			return fmt.Errorf("%s: the value is %s, and the layout needs an array of objects", p.Tool, kindPhrase(v.Kind))
		}
		for i, e := range v.Elems {
			if e.Kind != Object {
				return fmt.Errorf("%s: element %d is %s, and the layout needs an object", p.Tool, i+1, kindPhrase(e.Kind))
			}
			if err := p.row(e, i); err != nil {
				return err
			}
		}
		return nil
	}
}

// where names object i of a part in messages; -1 is the part's only one.
func where(i int) string {
	if i < 0 {
		return "the object"
	}
	return fmt.Sprintf("element %d", i+1)
}

// row checks one object: its members must be the part's keys, in the
// part's order, each of its type, with only optional ones left out.
func (p Part) row(obj Value, i int) error {
	next := 0
	for _, m := range obj.Members {
		k := next
		for k < len(p.Fields) && p.Fields[k].Key != m.Key {
			k++
		}
		if k == len(p.Fields) {
			if p.declares(m.Key) {
				return fmt.Errorf("%s: %s has member %s out of the layout's order (%s)", p.Tool, where(i), quote(m.Key), p.keyList())
			}
			return fmt.Errorf("%s: %s has member %s, which the layout does not declare (%s)", p.Tool, where(i), quote(m.Key), p.keyList())
		}
		if err := p.skip(obj, next, k, i); err != nil {
			return err
		}
		f := p.Fields[k]
		if !f.Type.holds(m.Value) {
			return fmt.Errorf("%s: in %s, member %s is %s, and the layout types it %s", p.Tool, where(i), quote(m.Key), kindPhrase(m.Value.Kind), f.Type)
		}
		next = k + 1
	}
	return p.skip(obj, next, len(p.Fields), i)
}

// fill writes the cells of an object that fits the part into row, one per
// field, empty for an absent optional member.
func (p Part) fill(row []string, obj *Value, e *encoder) {
	k := 0
	for j := range obj.Members {
		m := &obj.Members[j]
		for p.Fields[k].Key != m.Key {
			k++
		}
		row[k] = e.spell(&m.Value)
		k++
	}
}

// skip checks that the fields in [from, to) may be absent from obj.
func (p Part) skip(obj Value, from, to int, i int) error {
	for _, f := range p.Fields[from:to] {
		if f.Optional {
			continue
		}
		if _, ok := obj.Lookup(f.Key); ok { // only on the way to an error
			return fmt.Errorf("%s: %s has member %q out of the layout's order (%s)", p.Tool, where(i), f.Key, p.keyList())
		}
		return fmt.Errorf("%s: %s lacks member %q, which the layout requires", p.Tool, where(i), f.Key)
	}
	return nil
}

func (p Part) declares(key string) bool {
	for _, f := range p.Fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

func (p Part) keyList() string {
	keys := make([]string, len(p.Fields))
	for i, f := range p.Fields {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}

// kindPhrase names a kind for messages: "an object", "a string", "null".
func kindPhrase(k Kind) string {
	switch k {
	case Array, Object:
		return "an " + k.String()
	case Number, String:
		return "a " + k.String()
	}
	return k.String()
}
