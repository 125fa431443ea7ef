package jsongen

import (
	"slices"
	"strings"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/jsonmap"
)

// tableCommon are fragments every table's texts get: GCX1's own syntax and
// texts that read as other JSON values.
var tableCommon = []string{"#", "GCX1 ", "\t", "\n", "\\", "null", "62", "true", `"q"`, "@", "é", ""}

// columnNames mixes names a declaration can take, names it cannot (the
// reserved keys, a name with a space, the empty name) and nested ones.
var columnNames = []string{"id", "path", "name", "kind", "line", "email", "a", "b", "labels.app",
	"rows", "total", "json", "str", "nest", "tool", "x y", "", "a,b"}

// ColumnNames returns the column names Table draws from.
func ColumnNames() []string { return slices.Clone(columnNames) }

// TableText draws a text of up to four fragments: GCX1's syntax, texts
// that read as other JSON values, and extra.
func TableText(extra []string) *rapid.Generator[string] {
	pieces := slices.Concat(tableCommon, extra)
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 4).Draw(t, "parts")
		return strings.Join(parts, "")
	})
}

// Table draws an array of objects whose columns repeat, share prefixes and
// suffixes, are made of other columns or follow them: the tables a
// compact form's ideas declare or mark, which Value seldom makes. Texts
// are made of TableText(extra); now and then a cell is one of whole as it
// stands (a codec passes its marks and look-alikes, the mapping nothing).
func Table(extra, whole []string) *rapid.Generator[jsonmap.Value] {
	text := TableText(extra)
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
					v = Str(rapid.SampledFrom(pool).Draw(t, "pooled"))
				case 1: // made of earlier columns and a text: derived templates
					var b strings.Builder
					for _, k := range rapid.SliceOfN(rapid.IntRange(0, c), 0, 2).Draw(t, "parts of") {
						b.WriteString(texts[k])
						b.WriteString(rapid.SampledFrom([]string{"::", "/", "", "-"}).Draw(t, "separator"))
					}
					b.WriteString(rapid.SampledFrom(pool).Draw(t, "own part"))
					v = Str(b.String())
				case 2: // a shared prefix and suffix: affixes
					v = Str("2026-10-" + text.Draw(t, "middle") + ".000Z")
				case 3:
					v = jsonmap.Value{Kind: jsonmap.Number, Text: rapid.SampledFrom([]string{"1", "2", "62", "-0", "1e400"}).Draw(t, "number")}
				case 4:
					v = rapid.SampledFrom([]jsonmap.Value{{Kind: jsonmap.Null}, {Kind: jsonmap.True}, Str("")}).Draw(t, "literal")
				case 5: // a function of an earlier column: keys
					k := rapid.IntRange(0, c).Draw(t, "key column")
					v = Str(strings.Repeat(pool[len(texts[k])%len(pool)]+"/follows", 2))
				case 6: // the beginning of the text above and a text: paths, prefixes
					v = Str(chained(t, above[c], text))
				default:
					v = Value().Draw(t, "any")
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
	case 0: // anywhere a character begins
		at = rapid.IntRange(0, len(above)).Draw(t, "anywhere")
		for at < len(above) && !utf8.RuneStart(above[at]) {
			at--
		}
	case 1:
		at = 0
	default:
		at = rapid.SampledFrom(cuts).Draw(t, "after a separator")
	}
	return above[:at] + text.Draw(t, "goes on with")
}

// Str is the JSON string s.
func Str(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }
