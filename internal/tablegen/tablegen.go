// Package tablegen holds the rapid generators of table-shaped values that
// drive the codec properties: arrays of objects whose columns repeat,
// share prefixes and suffixes, are made of other columns or follow them,
// and whose texts hold a codec's marks and look-alikes (codec.Needs). The
// generic generators of jsongen seldom make such a table, so a draft's
// ideas would go untested by them.
//
// A drawn value prints as its tool and compact JSON, so a counterexample
// reads as JSON rather than as a Go struct.
package tablegen

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/internal/jsongen"
	"github.com/gcxwire/gcx/jsonmap"
)

// common are fragments every codec's tables get: GCX1's own syntax and
// texts that read as other JSON values.
var common = []string{"#", "GCX1 ", "\t", "\n", "\\", "null", "62", "true", `"q"`, "@", "é", ""}

// columnNames mixes names a declaration can take, names it cannot (the
// reserved keys, a name with a space, the empty name) and nested ones.
var columnNames = []string{"id", "path", "name", "kind", "line", "email", "a", "b", "labels.app",
	"rows", "total", "json", "str", "nest", "tool", "x y", "", "a,b"}

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

// fragments returns what texts are made of for a codec that needs n.
func fragments(n codec.Needs) []string {
	out := append([]string(nil), common...)
	out = append(out, n.Fragments...)
	out = append(out, n.Marks...)
	out = append(out, n.MarkPrefixes...)
	out = append(out, n.LookAlikes...)
	return out
}

// Text draws a text of up to four fragments.
func Text(n codec.Needs) *rapid.Generator[string] {
	pieces := fragments(n)
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 4).Draw(t, "parts")
		return strings.Join(parts, "")
	})
}

// Table draws an array of objects whose columns a codec's ideas can
// declare or mark.
func Table(n codec.Needs) *rapid.Generator[jsonmap.Value] {
	text := Text(n)
	whole := slices.Concat(n.Marks, n.MarkPrefixes, n.LookAlikes)
	return rapid.Custom(func(t *rapid.T) jsonmap.Value {
		names := rapid.SliceOfNDistinct(rapid.SampledFrom(columnNames), 1, 6, func(s string) string { return s }).Draw(t, "columns")
		rows := rapid.IntRange(0, 12).Draw(t, "rows")
		pool := rapid.SliceOfN(text, 1, 4).Draw(t, "pool")
		if len(whole) > 0 && rapid.IntRange(0, 3).Draw(t, "a mark as a text") == 0 {
			pool = append(pool, rapid.SampledFrom(whole).Draw(t, "mark"))
		}
		kinds := make([]int, len(names))
		for c := range names {
			kinds[c] = rapid.IntRange(0, 7).Draw(t, "kind of column")
		}
		elems := make([]jsonmap.Value, rows)
		above := make([]string, len(names)) // each column's last text
		for i := range elems {
			obj := jsonmap.Value{Kind: jsonmap.Object}
			texts := map[int]string{}
			for c, name := range names {
				if rapid.IntRange(0, 9).Draw(t, "absent") == 0 {
					continue
				}
				var v jsonmap.Value
				switch kinds[c] {
				case 0: // one of a few texts: defaults, keys, dittos, abbreviations
					v = str(rapid.SampledFrom(pool).Draw(t, "pooled"))
				case 1: // made of earlier columns and a text: derived templates
					var b strings.Builder
					for _, k := range rapid.SliceOfN(rapid.IntRange(0, c), 0, 2).Draw(t, "parts of") {
						b.WriteString(texts[k])
						b.WriteString(rapid.SampledFrom([]string{"::", "/", "", "-"}).Draw(t, "separator"))
					}
					b.WriteString(rapid.SampledFrom(pool).Draw(t, "own part"))
					v = str(b.String())
				case 2: // a shared prefix and suffix: affixes
					v = str("2026-10-" + text.Draw(t, "middle") + ".000Z")
				case 3:
					v = jsonmap.Value{Kind: jsonmap.Number, Text: rapid.SampledFrom([]string{"1", "2", "62", "-0", "1e400"}).Draw(t, "number")}
				case 4:
					v = rapid.SampledFrom([]jsonmap.Value{{Kind: jsonmap.Null}, {Kind: jsonmap.True}, str("")}).Draw(t, "literal")
				case 5: // a function of an earlier column: keys
					k := rapid.IntRange(0, c).Draw(t, "key column")
					v = str(strings.Repeat(pool[len(texts[k])%len(pool)]+"/follows", 2))
				case 6: // the beginning of the text above and a text: paths, prefixes
					v = str(chained(t, above[c], text))
				default:
					v = jsongen.Value().Draw(t, "any")
				}
				if v.Kind == jsonmap.String {
					texts[c] = v.Text
					above[c] = v.Text
				}
				obj.Members = append(obj.Members, jsonmap.Member{Key: name, Value: v})
			}
			elems[i] = obj
		}
		return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
	})
}

// chained draws a text that begins with a beginning of above — most
// often all of it up to a byte that separates words or path parts, the
// part a prefix or delta mark stands for — and goes on with a text, so
// that down a column each text shares a beginning with the one above and
// adds to it, at times more parts than the one it replaced.
func chained(t *rapid.T, above string, text *rapid.Generator[string]) string {
	var cuts []int // just after each separating byte, and the end
	for i := 0; i < len(above); i++ {
		if strings.IndexByte("/.:-_ ,", above[i]) >= 0 {
			cuts = append(cuts, i+1)
		}
	}
	cuts = append(cuts, len(above))
	var at int
	switch rapid.IntRange(0, 3).Draw(t, "cut") {
	case 0:
		at = cut(t, above, "anywhere")
	case 1:
		at = 0
	default:
		at = rapid.SampledFrom(cuts).Draw(t, "after a separator")
	}
	return above[:at] + text.Draw(t, "goes on with")
}

func str(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }

// Value draws a table, a table inside an object (a member table of the
// header or row form), or a value that fits a declared tool's layout,
// with a tool to encode it for.
func Value(n codec.Needs) *rapid.Generator[Drawn] {
	table := Table(n)
	shapes := 3
	if len(n.Wrappers) > 0 {
		shapes = 4 // and the wrapped lists; other codecs draw as before
	}
	return rapid.Custom(func(t *rapid.T) Drawn {
		switch rapid.IntRange(0, shapes).Draw(t, "shape") {
		case 4:
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
