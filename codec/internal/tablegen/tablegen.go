// Package tablegen holds the rapid generators of values that drive the
// codec properties: jsongen's tables with texts that hold a codec's marks
// and look-alikes (codec.Needs), those tables inside objects, and
// look-alikes cut from a codec's own output. It stands under codec, whose
// types it draws for; the tables themselves are jsongen's, which the
// mapping's properties draw too.
//
// A drawn value prints as its tool and compact JSON, so a counterexample
// reads as JSON rather than as a Go struct.
package tablegen

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
)

// Drawn is a tool name and the value drawn as its result.
type Drawn struct {
	Tool  string
	Value jsonmap.Value
}

// GoString shows the value as JSON: rapid prints draws with %#v.
func (d Drawn) GoString() string {
	return fmt.Sprintf("tool %s, value %s", d.Tool, d.Value.AppendCompact(nil))
}

func (d Drawn) String() string { return d.GoString() }

// Table draws an array of objects whose columns a codec's ideas can
// declare or mark: jsongen's tables, whose texts also hold what n names
// and whose cells are now and then one of n's marks or look-alikes whole.
func Table(n codec.Needs) *rapid.Generator[jsonmap.Value] {
	return jsongen.Table(slices.Concat(n.Fragments, n.Marks, n.MarkPrefixes, n.LookAlikes),
		slices.Concat(n.Marks, n.MarkPrefixes, n.LookAlikes))
}

func str(s string) jsonmap.Value { return jsongen.Str(s) }

// Value draws a table, a table inside an object (a member table of the
// header or row form), or a value that fits a declared tool's layout,
// with a tool to encode it for.
func Value(n codec.Needs) *rapid.Generator[Drawn] {
	table := Table(n)
	shapes := 3
	if len(n.Wrappers) > 0 {
		shapes = 4 // and the wrapped lists; other codecs draw as before
	}
	if n.Nested {
		shapes = 6 // and tables nested at any depth, twice as often
	}
	return rapid.Custom(func(t *rapid.T) Drawn {
		switch rapid.IntRange(0, shapes).Draw(t, "shape") {
		case 5, 6:
			return Drawn{rapid.SampledFrom([]string{"t", "execute_sql", "get_callers", "search_symbols"}).Draw(t, "tool"), nested(t, n, table, 0)}
		case 4:
			if len(n.Wrappers) == 0 {
				return Drawn{"t", nested(t, n, table, 0)}
			}
			return wrapped(t, n, table)
		case 0:
			l := rapid.SampledFrom(jsonmap.Layouts()).Draw(t, "layout")
			return Drawn{l.Tool, jsongen.Fitting(l).Draw(t, "fitting")}
		case 1:
			obj := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
				{Key: "total", Value: jsonmap.Value{Kind: jsonmap.Number, Text: "3"}},
				{Key: "items", Value: table.Draw(t, "items")},
				{Key: "more", Value: table.Draw(t, "more")},
			}}
			if rapid.Bool().Draw(t, "row form") {
				obj.Members[0].Value = str("has space")
			}
			return Drawn{"t", obj}
		}
		return Drawn{rapid.SampledFrom([]string{"t", "search_symbols", "get_callers"}).Draw(t, "tool"), table.Draw(t, "table")}
	})
}

// wrapped draws a list wrapped in an object, as a server of MCP
// 2025-11-25 returns one: a list that fits (or, now and then, just fails
// to fit) a declared tool's layout of one rows part, or a table, under one
// of n's Wrappers, with scalar members before and after it and now and
// then a second table. The tool is the layout's, or one that claims none.
func wrapped(t *rapid.T, n codec.Needs, table *rapid.Generator[jsonmap.Value]) Drawn {
	var single []jsonmap.Layout
	for _, l := range jsonmap.Layouts() {
		if len(l.Parts) == 1 && l.Parts[0].Shape == jsonmap.ShapeRows {
			single = append(single, l)
		}
	}
	l := rapid.SampledFrom(single).Draw(t, "layout")
	list := jsongen.Fitting(l).Draw(t, "list")
	tool := l.Tool
	switch rapid.IntRange(0, 3).Draw(t, "tool and list") {
	case 0:
		tool = rapid.SampledFrom([]string{"t", "get_callers", "graph_stats", "get_callers.nodes"}).Draw(t, "other tool")
	case 1:
		list = table.Draw(t, "table")
	}
	scalar := func(label string) jsonmap.Value {
		return rapid.SampledFrom([]jsonmap.Value{{Kind: jsonmap.Number, Text: "41"}, {Kind: jsonmap.True}, {Kind: jsonmap.False},
			{Kind: jsonmap.Null}, str("@"), str("x"), str("has space"), str(""), {Kind: jsonmap.Array, Elems: []jsonmap.Value{}}}).Draw(t, label)
	}
	var before, after []jsonmap.Member
	for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"total", "truncated", "next", "a b"}), 0, 2, rapid.ID).Draw(t, "before") {
		before = append(before, jsonmap.Member{Key: name, Value: scalar(name)})
	}
	for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"cursor", "more", "note"}), 0, 2, rapid.ID).Draw(t, "after") {
		v := scalar(name)
		if name == "more" {
			v = table.Draw(t, "second table")
		}
		after = append(after, jsonmap.Member{Key: name, Value: v})
	}
	key := rapid.SampledFrom(n.Wrappers).Draw(t, "wrapper")
	obj := jsonmap.Value{Kind: jsonmap.Object, Members: slices.Concat(before, []jsonmap.Member{{Key: key, Value: list}}, after)}
	return Drawn{tool, obj}
}

// NeedsOf returns what c's ideas need, or nothing for a codec that does
// not say.
func NeedsOf(c codec.Codec) codec.Needs {
	if e, ok := c.(codec.Exercised); ok {
		return e.Needs()
	}
	return codec.Needs{}
}

// maxNesting bounds the depth of the wrappers nested draws.
const maxNesting = 4

// nested draws a value whose tables lie at any depth, as real servers
// return rows ({"success":true,"data":{"statements":[{"sql":...,"rows":[...]}]}}):
// objects whose members are scalars, strings "@", tables, tables whose
// rows hold a table, and further wrappers, under names that are GCX1 names,
// digits, or hold a dot or a space; and arrays of such wrappers.
func nested(t *rapid.T, n codec.Needs, table *rapid.Generator[jsonmap.Value], depth int) jsonmap.Value {
	kind := rapid.IntRange(0, 5).Draw(t, "nested kind")
	if depth >= maxNesting {
		kind = rapid.IntRange(0, 2).Draw(t, "leaf kind")
	}
	switch kind {
	case 0:
		return rapid.SampledFrom([]jsonmap.Value{{Kind: jsonmap.Number, Text: "7"}, {Kind: jsonmap.True}, {Kind: jsonmap.Null},
			str("@"), str("x"), str("has space"), str(""), {Kind: jsonmap.Array, Elems: []jsonmap.Value{}}}).Draw(t, "scalar")
	case 1, 2:
		return table.Draw(t, "nested table")
	case 3:
		// A table whose rows hold a table, as a statement holds its rows.
		inner := nested(t, n, table, depth+1)
		rows := rapid.IntRange(1, 3).Draw(t, "outer rows")
		elems := make([]jsonmap.Value, rows)
		for i := range elems {
			elems[i] = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
				{Key: "sql", Value: str(rapid.SampledFrom([]string{"SELECT 1", "@", "x"}).Draw(t, "sql"))},
				{Key: "rows", Value: inner},
			}}
		}
		return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
	case 4:
		elems := make([]jsonmap.Value, rapid.IntRange(1, 3).Draw(t, "array length"))
		for i := range elems {
			elems[i] = nested(t, n, table, depth+1)
		}
		return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
	}
	names := slices.Concat([]string{"data", "rows", "0", "a.b", "a b", "total", "next"}, n.Wrappers)
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom(names), 1, 4, rapid.ID).Draw(t, "members")
	obj := jsonmap.Value{Kind: jsonmap.Object}
	for _, k := range keys {
		obj.Members = append(obj.Members, jsonmap.Member{Key: k, Value: nested(t, n, table, depth+1)})
	}
	return obj
}
