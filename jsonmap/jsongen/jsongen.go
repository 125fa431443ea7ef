// Package jsongen holds the rapid generators of JSON values and JSON texts
// that drive the mapping's property tests. They aim at the corners of the
// mapping: strings that read as numbers, booleans, null or JSON; member
// names with TAB, comma, equals sign, space or nothing; number literals in
// every spelling; arrays of objects whose members come and go and change
// order; deep nesting; values shaped like the declared tools' results;
// tables whose columns repeat and follow each other.
//
// It stands under jsonmap, whose values it draws, so that the mapping's
// tests and those of the packages above it (codec) share it. It is test
// equipment: no command links it.
package jsongen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
)

// trickyStrings read as something else, or carry what GCX1 or JSON must
// escape.
var trickyStrings = []string{
	"", " ", "1", "-0", "1.0", "1e400", "1E5", "0x10", "01", "-", "+1", ".5", "1.", "NaN", "Infinity",
	"true", "false", "null", "True", "nul", "truex", `"x"`, `"`, `""`, "{}", "[]", `{"a":1}`, `{"a": 1}`,
	"[1,2]", "[1, 2]", " 1", "1 ", "[", "{", `["x"`, `"\u00e9"`, `"é"`, `"\/"`, "@", "#", "#x", "GCX", "GCX1",
	"GCX1 hi", "\\", `\t`, "\t", "\n", "\r", "\r\n", "a\tb", "\u2028", "\u2029", "\x00", "\x1f", "\x7f",
	"é", "日本語", "😀", "\uFEFF", "func(a int, b string) error", "internal/mcp/server.go", "key=value",
	"a,b", "[DEBUG] started", "{ not json", "-1", "-1.5e-7", "12345678901234567890",
}

// Keys draws a member name.
func Keys() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"id", "name", "kind", "file_path", "line", "a", "b", "c", "total",
			"truncated", "rows", "json", "tool", "fields", "items", "nodes", "edges", "a.b", "x-y", "_"}),
		rapid.SampledFrom([]string{"", " ", "\t", ",", "=", "a b", "a,b", "a=b", "@", "#", "GCX1", "\n",
			"\\", "é", "\x00", "1", "null", `"`}),
		gen.Text(),
	)
}

// headerNames are member names a GCX1 header can carry as meta keys
// [HDR-3], with the ones it reserves.
var headerNames = rapid.OneOf(
	rapid.SampledFrom([]string{"id", "items", "nodes", "edges", "cursor", "a.b", "x-y", "_", "total", "truncated"}),
	rapid.SampledFrom([]string{"id", "items", "nodes", "edges", "cursor", "a.b", "x-y", "_", "rows", "json", "tool", "fields"}),
	gen.Name(),
	gen.Name(),
)

// Strings draws a string value.
func Strings() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(trickyStrings),
		rapid.SampledFrom(trickyStrings),
		gen.Text(),
		rapid.StringN(0, 8, -1),
	)
}

// numberLiterals are spellings that must survive untouched.
var numberLiterals = []string{
	"0", "-0", "1", "1.0", "1.00", "1e400", "-1e400", "1E5", "1e5", "1e+5", "1E-5", "1e05", "0.0", "-0.0",
	"12345678901234567890", "-12345678901234567890", "3.141592653589793238462643383279", "5e-324", "1.7976931348623157e309",
}

// Numbers draws a number literal.
func Numbers() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(numberLiterals),
		rapid.Map(rapid.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.Custom(func(t *rapid.T) string {
			s := strconv.Itoa(rapid.IntRange(0, 999).Draw(t, "int"))
			if rapid.Bool().Draw(t, "neg") {
				s = "-" + s
			}
			if rapid.Bool().Draw(t, "frac") {
				s += "." + strconv.Itoa(rapid.IntRange(0, 999).Draw(t, "frac-digits"))
			}
			if rapid.Bool().Draw(t, "exp") {
				s += rapid.SampledFrom([]string{"e", "E", "e+", "E-", "e-"}).Draw(t, "e") +
					strconv.Itoa(rapid.IntRange(0, 400).Draw(t, "exp-digits"))
			}
			return s
		}),
	)
}

// Value draws any JSON value, nested up to a few levels, with now and then
// a deep chain of arrays and objects.
func Value() *rapid.Generator[jsonmap.Value] {
	return rapid.Custom(func(t *rapid.T) jsonmap.Value {
		depth := rapid.IntRange(1, 4).Draw(t, "depth")
		switch rapid.IntRange(0, 15).Draw(t, "top") {
		case 0:
			return deep(t)
		case 1, 2:
			return scalar(t)
		case 3, 4, 5, 6:
			return object(t, depth)
		case 7, 8, 9, 10:
			return records(t, depth+1)
		}
		return value(t, depth)
	})
}

func scalar(t *rapid.T) jsonmap.Value {
	switch rapid.IntRange(0, 9).Draw(t, "scalar") {
	case 0:
		return jsonmap.Value{Kind: jsonmap.Null}
	case 1:
		return jsonmap.Value{Kind: jsonmap.True}
	case 2:
		return jsonmap.Value{Kind: jsonmap.False}
	case 3, 4:
		return jsonmap.Value{Kind: jsonmap.Number, Text: Numbers().Draw(t, "number")}
	}
	return jsonmap.Value{Kind: jsonmap.String, Text: Strings().Draw(t, "string")}
}

func value(t *rapid.T, depth int) jsonmap.Value {
	if depth <= 0 {
		return scalar(t)
	}
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0, 1, 2:
		return scalar(t)
	case 3:
		n := rapid.IntRange(0, 5).Draw(t, "len")
		v := jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{}}
		for i := 0; i < n; i++ {
			v.Elems = append(v.Elems, value(t, depth-1))
		}
		return v
	case 4, 5:
		return object(t, depth)
	default:
		return records(t, depth)
	}
}

// object draws an object with distinct member names; some members are
// arrays of objects, as wrappers around results are.
func object(t *rapid.T, depth int) jsonmap.Value {
	names := Keys()
	if rapid.IntRange(0, 2).Draw(t, "header-names") > 0 {
		names = headerNames
	}
	keys := rapid.SliceOfNDistinct(names, 0, 6, rapid.ID[string]).Draw(t, "keys")
	v := jsonmap.Value{Kind: jsonmap.Object}
	for _, k := range keys {
		var e jsonmap.Value
		if depth > 1 && rapid.IntRange(0, 2).Draw(t, "member-records") == 0 {
			e = records(t, depth-1)
		} else {
			e = value(t, depth-1)
		}
		v.Members = append(v.Members, jsonmap.Member{Key: k, Value: e})
	}
	return v
}

// records draws an array of objects drawn from one set of names: each
// element keeps some of the names, mostly in the set's order, now and then
// in another order.
func records(t *rapid.T, depth int) jsonmap.Value {
	names := rapid.SliceOfNDistinct(Keys(), 0, 6, rapid.ID[string]).Draw(t, "names")
	// A column is of random values, of objects (which the encoder may
	// spread over columns), or of strings that read as numbers or JSON
	// (which it may declare bare).
	style := make(map[string]int, len(names))
	for _, k := range names {
		style[k] = rapid.IntRange(0, 4).Draw(t, "column-style")
	}
	n := rapid.IntRange(0, 6).Draw(t, "records")
	v := jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{}}
	for i := 0; i < n; i++ {
		obj := jsonmap.Value{Kind: jsonmap.Object}
		order := names
		if rapid.IntRange(0, 5).Draw(t, "reorder") == 0 {
			order = rapid.Permutation(names).Draw(t, "order")
		}
		for _, k := range order {
			if rapid.IntRange(0, 6).Draw(t, "absent") == 0 {
				continue
			}
			var e jsonmap.Value
			switch style[k] {
			case 0:
				e = subObject(t, depth)
			case 1:
				e = jsonmap.Value{Kind: jsonmap.String, Text: rapid.SampledFrom(trickyStrings).Draw(t, "tricky")}
			default:
				e = value(t, depth-2)
			}
			obj.Members = append(obj.Members, jsonmap.Member{Key: k, Value: e})
		}
		v.Elems = append(v.Elems, obj)
	}
	return v
}

// subObject draws a small object from a few names, now and then another
// value, for the columns whose objects may be spread out.
func subObject(t *rapid.T, depth int) jsonmap.Value {
	if rapid.IntRange(0, 9).Draw(t, "not-object") == 0 {
		return scalar(t)
	}
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"app", "tier", "a.b", "", "x y", "k,v", "1"}), 0, 4, rapid.ID[string]).Draw(t, "sub-keys")
	obj := jsonmap.Value{Kind: jsonmap.Object}
	for _, k := range keys {
		obj.Members = append(obj.Members, jsonmap.Member{Key: k, Value: value(t, depth-2)})
	}
	return obj
}

// deep draws a chain of 20 to 200 nested arrays and objects around a
// scalar.
func deep(t *rapid.T) jsonmap.Value {
	n := rapid.IntRange(20, 200).Draw(t, "chain")
	v := scalar(t)
	for i := 0; i < n; i++ {
		if rapid.Bool().Draw(t, "link") {
			v = jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{v}}
		} else {
			v = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: Keys().Draw(t, "key"), Value: v}}}
		}
	}
	return v
}

// Text writes v as a JSON text in one of its many spellings: whitespace
// here and there, characters escaped or not, \u escapes in either case,
// astral characters as surrogate pairs. Every spelling holds the value v.
func Text(t *rapid.T, v jsonmap.Value) []byte {
	var b strings.Builder
	w := &writer{t: t, b: &b, pretty: rapid.IntRange(0, 2).Draw(t, "spacing")}
	w.space()
	w.value(v)
	w.space()
	return []byte(b.String())
}

type writer struct {
	t      *rapid.T
	b      *strings.Builder
	pretty int // 0: none, 1: some, 2: much whitespace
}

func (w *writer) space() {
	if w.pretty == 0 {
		return
	}
	if w.pretty == 1 && rapid.IntRange(0, 3).Draw(w.t, "space?") != 0 {
		return
	}
	w.b.WriteString(rapid.SampledFrom([]string{" ", "\n", "\t", "\r\n", "  ", "\n    "}).Draw(w.t, "space"))
}

func (w *writer) value(v jsonmap.Value) {
	switch v.Kind {
	case jsonmap.Null:
		w.b.WriteString("null")
	case jsonmap.True:
		w.b.WriteString("true")
	case jsonmap.False:
		w.b.WriteString("false")
	case jsonmap.Number:
		w.b.WriteString(v.Text)
	case jsonmap.String:
		w.str(v.Text)
	case jsonmap.Array:
		w.b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				w.space()
				w.b.WriteByte(',')
			}
			w.space()
			w.value(e)
		}
		w.space()
		w.b.WriteByte(']')
	case jsonmap.Object:
		w.b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				w.space()
				w.b.WriteByte(',')
			}
			w.space()
			w.str(m.Key)
			w.space()
			w.b.WriteByte(':')
			w.space()
			w.value(m.Value)
		}
		w.space()
		w.b.WriteByte('}')
	}
}

func (w *writer) str(s string) {
	w.b.WriteByte('"')
	escapeMore := rapid.IntRange(0, 3).Draw(w.t, "escape-style") == 0
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.b.WriteByte('\\')
			w.b.WriteRune(r)
		case r < 0x20 || escapeMore && rapid.Bool().Draw(w.t, "escape"):
			w.escape(r)
		default:
			w.b.WriteRune(r)
		}
	}
	w.b.WriteByte('"')
}

func (w *writer) escape(r rune) {
	short := map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '/': `\/`}
	if e, ok := short[r]; ok && rapid.Bool().Draw(w.t, "short") {
		w.b.WriteString(e)
		return
	}
	format := `\u%04x`
	if rapid.Bool().Draw(w.t, "upper") {
		format = `\u%04X`
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		fmt.Fprintf(w.b, format+format, hi, lo)
		return
	}
	fmt.Fprintf(w.b, format, r)
}

// Fitting draws a value that fits the layout, or, one time in four, one
// that departs from it in one place: a member left out, added, retyped or
// set to null.
func Fitting(l jsonmap.Layout) *rapid.Generator[jsonmap.Value] {
	return rapid.Custom(func(t *rapid.T) jsonmap.Value {
		breakIt := rapid.IntRange(0, 3).Draw(t, "break") == 0
		parts := make([]jsonmap.Value, len(l.Parts))
		for i, p := range l.Parts {
			if p.Shape == jsonmap.ShapeObject {
				parts[i] = layoutObject(t, p, breakIt)
				continue
			}
			n := rapid.IntRange(0, 6).Draw(t, "rows")
			parts[i] = jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{}}
			for r := 0; r < n; r++ {
				parts[i].Elems = append(parts[i].Elems, layoutObject(t, p, breakIt && r == n-1))
			}
		}
		if len(parts) == 1 {
			return parts[0]
		}
		v := jsonmap.Value{Kind: jsonmap.Object}
		for i, p := range l.Parts {
			v.Members = append(v.Members, jsonmap.Member{Key: p.Key, Value: parts[i]})
		}
		return v
	})
}

func layoutObject(t *rapid.T, p jsonmap.Part, breakIt bool) jsonmap.Value {
	obj := jsonmap.Value{Kind: jsonmap.Object}
	for _, f := range p.Fields {
		if f.Optional && rapid.Bool().Draw(t, "omit") {
			continue
		}
		obj.Members = append(obj.Members, jsonmap.Member{Key: f.Key, Value: ofType(t, f.Type)})
	}
	if !breakIt {
		return obj
	}
	switch rapid.IntRange(0, 3).Draw(t, "how") {
	case 0:
		if len(obj.Members) > 0 {
			i := rapid.IntRange(0, len(obj.Members)-1).Draw(t, "drop")
			obj.Members = append(obj.Members[:i:i], obj.Members[i+1:]...)
		}
	case 1:
		obj.Members = append(obj.Members, jsonmap.Member{Key: "extra_column", Value: scalar(t)})
	case 2:
		if len(obj.Members) > 0 {
			i := rapid.IntRange(0, len(obj.Members)-1).Draw(t, "retype")
			obj.Members[i].Value = jsonmap.Value{Kind: jsonmap.Number, Text: "1.5"}
		}
	default:
		if len(obj.Members) > 0 {
			i := rapid.IntRange(0, len(obj.Members)-1).Draw(t, "nullify")
			obj.Members[i].Value = jsonmap.Value{Kind: jsonmap.Null}
		}
	}
	return obj
}

func ofType(t *rapid.T, typ jsonmap.Type) jsonmap.Value {
	switch typ {
	case jsonmap.TypeString:
		return jsonmap.Value{Kind: jsonmap.String, Text: Strings().Draw(t, "string")}
	case jsonmap.TypeInt:
		return jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(rapid.IntRange(-5, 100000).Draw(t, "int"))}
	case jsonmap.TypeNumber:
		return jsonmap.Value{Kind: jsonmap.Number, Text: Numbers().Draw(t, "number")}
	case jsonmap.TypeBool:
		return jsonmap.Value{Kind: rapid.SampledFrom([]jsonmap.Kind{jsonmap.True, jsonmap.False}).Draw(t, "bool")}
	}
	return value(t, 2)
}
