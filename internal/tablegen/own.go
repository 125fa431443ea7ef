package tablegen

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/internal/jsongen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// maxPiece bounds a piece taken from a payload, so that a long line makes
// a long value only now and then, by joining.
const maxPiece = 200

// Pieces cuts a payload written under tag into the texts a look-alike of
// the codec's output is made of, in the order met, each as often as it
// occurs, so that what the codec writes again and again — its marks, its
// tag, its separators — is drawn the most: every line; each element of a
// header line (its tag, each key=value pair, each key and value, each
// name of a comma-separated list); each cell of a row and each comment as
// written, GCX1's escapes and all; and, when the payload has GCX1's lines,
// each text of its model as read — tool, field names, header pairs and
// cells with GCX1's escapes resolved and the codec's own marks still in
// them. Texts that are not UTF-8 or are longer than maxPiece are left out.
func Pieces(tag string, payload []byte) []string {
	var out []string
	add := func(s string) {
		if len(s) <= maxPiece && utf8.ValidString(s) {
			out = append(out, s)
		}
	}
	for _, line := range strings.Split(string(bytes.TrimSuffix(payload, []byte("\n"))), "\n") {
		add(line)
		switch {
		case spec.IsHeaderLine([]byte(line)):
			for _, elem := range strings.Split(line, " ") {
				add(elem)
				key, value, ok := strings.Cut(elem, "=")
				if !ok {
					continue
				}
				add(key)
				add(value)
				if strings.Contains(value, ",") {
					for _, name := range strings.Split(value, ",") {
						add(name)
					}
				}
			}
		case strings.HasPrefix(line, "#"):
		default:
			for _, cell := range strings.Split(line, "\t") {
				add(cell)
			}
		}
	}
	p, err := codec.ReadWire(tag, payload, spec.Unlimited)
	if err != nil {
		return out // not GCX1's lines: the bytes as written are all there is
	}
	for _, s := range p.Sections {
		add(s.Tool)
		for _, f := range s.Fields {
			add(f)
		}
		for _, m := range s.Meta {
			add(m.Key)
			add(m.Value)
		}
		for _, row := range s.Rows {
			for _, cell := range row {
				add(cell)
			}
		}
		for _, c := range s.Comments {
			add(c.Text)
		}
	}
	return out
}

// LookAlike draws a text made of pieces: a piece whole, a fragment of one
// cut at random points, a piece's beginning or end, two or three joined
// (by nothing, a TAB, an LF, a space or a backslash), or one spliced into
// another. pieces must not be empty.
func LookAlike(pieces []string) *rapid.Generator[string] {
	distinct := slices.Compact(slices.Sorted(slices.Values(pieces)))
	piece := rapid.OneOf(rapid.SampledFrom(pieces), rapid.SampledFrom(distinct))
	return rapid.Custom(func(t *rapid.T) string {
		switch rapid.IntRange(0, 6).Draw(t, "look-alike") {
		case 0, 1, 2:
			return piece.Draw(t, "whole")
		case 3:
			p := piece.Draw(t, "cut")
			i := cut(t, p, "from")
			j := cut(t, p[i:], "to")
			return p[i : i+j]
		case 4:
			p := piece.Draw(t, "end of")
			i := cut(t, p, "at")
			if rapid.Bool().Draw(t, "beginning") {
				return p[:i]
			}
			return p[i:]
		case 5:
			parts := rapid.SliceOfN(piece, 2, 3).Draw(t, "joined")
			return strings.Join(parts, rapid.SampledFrom([]string{"", "", "\t", "\n", " ", `\`}).Draw(t, "joined by"))
		}
		into := piece.Draw(t, "spliced into")
		i := cut(t, into, "at")
		return into[:i] + piece.Draw(t, "spliced") + into[i:]
	})
}

// cut draws a byte offset of s at which a character begins, or len(s).
func cut(t *rapid.T, s, label string) int {
	i := rapid.IntRange(0, len(s)).Draw(t, label)
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// columnCells returns, for each field name of a payload written in
// GCX1's lines under tag, the cells of its column as read — marks and
// all — in every section that has it, each as often as it occurs; nil
// for a payload that has not GCX1's lines.
func columnCells(tag string, payload []byte) map[string][]string {
	p, err := codec.ReadWire(tag, payload, spec.Unlimited)
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	for _, s := range p.Sections {
		for c, f := range s.Fields {
			for _, row := range s.Rows {
				if len(row[c]) <= maxPiece && utf8.ValidString(row[c]) {
					out[f] = append(out[f], row[c])
				}
			}
		}
	}
	return out
}

// OwnOutput draws values made of what c itself writes, the values a
// codec most easily mistakes for its own syntax: it draws a seed value
// (a table for c's Needs, or now and then any JSON value), encodes it with
// c, cuts the payload into Pieces, adds the marks and LookAlikes c's Needs
// name, and returns either the seed with some of its texts, member names
// and scalars replaced by look-alikes — a member's text often by a cell
// the codec wrote in that member's column — and now and then an element
// repeated, or a table of look-alikes whose columns repeat a few of them.
// A codec whose encoder compares a text with a cell as written, rather
// than with the text the cell stands for, meets here the texts it wrote,
// in the places it wrote them. A seed c cannot encode fails t.
func OwnOutput(c codec.Codec) *rapid.Generator[Drawn] {
	n := NeedsOf(c)
	seeds := Value(n)
	return rapid.Custom(func(t *rapid.T) Drawn {
		seed := Drawn{Tool: "t"}
		if rapid.IntRange(0, 3).Draw(t, "any value as the seed") == 0 {
			seed.Value = jsongen.Value().Draw(t, "seed value")
		} else {
			seed = seeds.Draw(t, "seed")
		}
		drawn := lookAlikeOf(t, c, n, seed, true)
		if rapid.Bool().Draw(t, "again, of what it wrote for that") {
			drawn = lookAlikeOf(t, c, n, drawn, false)
		}
		return drawn
	})
}

// lookAlikeOf encodes seed with c and returns, made of the payload, a
// table of look-alikes (when table is set, now and then) or the seed with
// look-alikes in place of some of its texts.
func lookAlikeOf(t *rapid.T, c codec.Codec, n codec.Needs, seed Drawn, table bool) Drawn {
	payload, err := c.Encode(seed.Tool, seed.Value)
	if err != nil {
		t.Fatalf("Encode(%s, %s), the seed of a look-alike: %v", seed.Tool, seed.Value.AppendCompact(nil), err)
	}
	r := replacer{
		alike:   LookAlike(slices.Concat(Pieces(c.Tag(), payload), n.Marks, n.MarkPrefixes, n.LookAlikes)),
		columns: columnCells(c.Tag(), payload),
		texts:   texts(seed.Value, map[string]bool{}),
		repeats: 2, // each repeat copies a subtree: a few, or a deep chain doubles at every level
	}
	if table && rapid.IntRange(0, 2).Draw(t, "a table of look-alikes") == 0 {
		return Drawn{seed.Tool, r.table(t)}
	}
	return Drawn{seed.Tool, r.replace(t, seed.Value, "", -1)}
}

// A replacer puts look-alikes of a payload in a value.
type replacer struct {
	alike   *rapid.Generator[string]
	columns map[string][]string // the cells written in each field's column
	texts   map[string]bool     // the texts of the seed value
	repeats int                 // how many more elements may be repeated
}

// texts adds the member names and strings of v to set and returns it.
func texts(v jsonmap.Value, set map[string]bool) map[string]bool {
	switch v.Kind {
	case jsonmap.String:
		set[v.Text] = true
	case jsonmap.Array:
		for _, e := range v.Elems {
			texts(e, set)
		}
	case jsonmap.Object:
		for _, m := range v.Members {
			set[m.Key] = true
			texts(m.Value, set)
		}
	}
	return set
}

// ownAbove returns the cell written for member name in the row above
// element row when the codec wrote it as no text of the seed: a mark, an
// abbreviation, an escape — its own writing, which an encoder that keeps
// the cell as written for the next row compares the next text with.
func (r *replacer) ownAbove(name string, row int) (string, bool) {
	cells := r.columns[name]
	if row <= 0 || row > len(cells) || r.texts[cells[row-1]] {
		return "", false
	}
	return cells[row-1], true
}

// text draws a look-alike for the text of member name in element row of
// an array (-1 for none): as often as not, when the payload has a column
// of that name, one of its cells, and of those most often the cell
// written in the row above — the one a mark in this row would stand
// for, or begin from.
func (r *replacer) text(t *rapid.T, name string, row int) string {
	if cells := r.columns[name]; len(cells) > 0 && rapid.Bool().Draw(t, "a cell of its column") {
		if row > 0 && row <= len(cells) && rapid.IntRange(0, 2).Draw(t, "the cell above") > 0 {
			return cells[row-1]
		}
		return rapid.SampledFrom(cells).Draw(t, "cell")
	}
	return r.alike.Draw(t, "text")
}

// replace returns v — the value of member name ("" for an element) of
// the element row of an array (-1 for none) — with some of its strings
// and member names, and now and then another scalar, replaced by
// look-alikes, and now and then an element of an array repeated next to
// itself, so that a look-alike of a mark comes right after the cell the
// mark would repeat.
func (r *replacer) replace(t *rapid.T, v jsonmap.Value, name string, row int) jsonmap.Value {
	if own, ok := r.ownAbove(name, row); ok && v.Kind != jsonmap.Array && v.Kind != jsonmap.Object &&
		rapid.IntRange(0, 2).Draw(t, "the codec's own cell above") > 0 {
		return str(own)
	}
	switch v.Kind {
	case jsonmap.String:
		if rapid.IntRange(0, 2).Draw(t, "replace a text") == 0 {
			return str(r.text(t, name, row))
		}
	case jsonmap.Number, jsonmap.True, jsonmap.False, jsonmap.Null:
		if rapid.IntRange(0, 7).Draw(t, "replace a scalar") == 0 {
			return str(r.text(t, name, row))
		}
	case jsonmap.Array:
		elems := slices.Clone(v.Elems)
		if len(elems) > 0 && r.repeats > 0 && rapid.IntRange(0, 3).Draw(t, "repeat an element") == 0 {
			r.repeats--
			i := rapid.IntRange(0, len(elems)-1).Draw(t, "repeated")
			elems = slices.Insert(elems, i, elems[i])
		}
		for i := range elems {
			elems[i] = r.replace(t, elems[i], "", i)
		}
		return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
	case jsonmap.Object:
		members := slices.Clone(v.Members)
		for i := range members {
			members[i].Value = r.replace(t, members[i].Value, members[i].Key, row)
			if rapid.IntRange(0, 5).Draw(t, "replace a name") == 0 {
				name := r.alike.Draw(t, "name")
				taken := slices.ContainsFunc(members, func(m jsonmap.Member) bool { return m.Key == name })
				if !taken {
					members[i].Key = name
				}
			}
		}
		return jsonmap.Value{Kind: jsonmap.Object, Members: members}
	}
	return v
}

// table draws an array of objects whose member names and texts are
// look-alikes or the payload's own columns and cells, each column drawing
// from a pool of one to three texts, so that texts repeat down a column
// as they do where marks are written.
func (r *replacer) table(t *rapid.T) jsonmap.Value {
	known := slices.Sorted(maps.Keys(r.columns))
	name := rapid.OneOf(rapid.SampledFrom(columnNames), r.alike)
	if len(known) > 0 {
		name = rapid.OneOf(rapid.SampledFrom(known), name)
	}
	names := rapid.SliceOfNDistinct(name, 1, 4, rapid.ID).Draw(t, "columns")
	pools := make([][]string, len(names))
	for c, name := range names {
		pools[c] = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return r.text(t, name, -1) }), 1, 3).Draw(t, "pool")
	}
	rows := rapid.IntRange(1, 10).Draw(t, "rows")
	elems := make([]jsonmap.Value, rows)
	for i := range elems {
		obj := jsonmap.Value{Kind: jsonmap.Object}
		for c, name := range names {
			obj.Members = append(obj.Members, jsonmap.Member{Key: name, Value: str(rapid.SampledFrom(pools[c]).Draw(t, "cell"))})
		}
		elems[i] = obj
	}
	return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
}
