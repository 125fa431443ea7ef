package codec_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/internal/jsongen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The registry-wide properties (property_test.go) hold GCX2-draft.1 to
// every codec's laws on jsongen's values, which seldom make a table where
// the draft's ideas apply. These draw tables made for them: columns that
// repeat, share prefixes and suffixes, are made of other columns or follow
// them, and texts that look like the draft's own marks and syntax.

// fragments are the pieces draft texts are made of, the draft's marks and
// template syntax among them.
var fragments = []string{
	"internal/", "graph/", "store/", "a/b/", "cmd/", "mcp/", "server", "store", "Open", "Close",
	".go", ".ts", "::", ":", ".", " ", "-", "2026-10-31T", "23:58:41", ".000Z",
	"^", "^^", "^…", "…", "…/x", "*", "{", "}", "{path}", "^{a}", "#", "GCX1 ", "\t", "\n", "\\",
	"null", "62", "true", `"q"`, "@", "é", "",
}

func fragmentText() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom(fragments), 0, 4).Draw(t, "parts")
		return strings.Join(parts, "")
	})
}

// columnNames mixes names a declaration can take, names it cannot (the
// reserved keys, a name with a space, the empty name) and nested ones.
var columnNames = []string{"id", "path", "name", "kind", "line", "email", "a", "b", "labels.app",
	"rows", "total", "json", "str", "nest", "tool", "x y", "", "a,b"}

// draftTable draws an array of objects whose columns the draft can
// declare or mark.
func draftTable() *rapid.Generator[jsonmap.Value] {
	return rapid.Custom(func(t *rapid.T) jsonmap.Value {
		names := rapid.SliceOfNDistinct(rapid.SampledFrom(columnNames), 1, 6, func(s string) string { return s }).Draw(t, "columns")
		n := rapid.IntRange(0, 12).Draw(t, "rows")
		pool := rapid.SliceOfN(fragmentText(), 1, 4).Draw(t, "pool")
		kinds := make([]int, len(names))
		for c := range names {
			kinds[c] = rapid.IntRange(0, 6).Draw(t, "kind of column")
		}
		rows := make([]jsonmap.Value, n)
		for i := range rows {
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
					v = str("2026-10-" + fragmentText().Draw(t, "middle") + ".000Z")
				case 3:
					v = jsonmap.Value{Kind: jsonmap.Number, Text: rapid.SampledFrom([]string{"1", "2", "62", "-0", "1e400"}).Draw(t, "number")}
				case 4:
					v = rapid.SampledFrom([]jsonmap.Value{{Kind: jsonmap.Null}, {Kind: jsonmap.True}, str("")}).Draw(t, "literal")
				case 5: // a function of an earlier column: keys
					k := rapid.IntRange(0, c).Draw(t, "key column")
					v = str(strings.Repeat(pool[len(texts[k])%len(pool)]+"/follows", 2))
				default:
					v = jsongen.Value().Draw(t, "any")
				}
				if v.Kind == jsonmap.String {
					texts[c] = v.Text
				}
				obj.Members = append(obj.Members, jsonmap.Member{Key: name, Value: v})
			}
			rows[i] = obj
		}
		return jsonmap.Value{Kind: jsonmap.Array, Elems: rows}
	})
}

func str(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }

// draftValue draws a table, a table inside an object (a member table of
// the header or row form), or a value that fits a declared tool's layout.
func draftValue() *rapid.Generator[struct {
	tool string
	v    jsonmap.Value
}] {
	type tv = struct {
		tool string
		v    jsonmap.Value
	}
	return rapid.Custom(func(t *rapid.T) tv {
		switch rapid.IntRange(0, 3).Draw(t, "shape") {
		case 0:
			l := rapid.SampledFrom(jsonmap.Layouts()).Draw(t, "layout")
			return tv{l.Tool, jsongen.Fitting(l).Draw(t, "fitting")}
		case 1:
			obj := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
				{Key: "total", Value: jsonmap.Value{Kind: jsonmap.Number, Text: "3"}},
				{Key: "items", Value: draftTable().Draw(t, "items")},
				{Key: "more", Value: draftTable().Draw(t, "more")},
			}}
			if rapid.Bool().Draw(t, "row form") {
				obj.Members[0].Value = str("has space")
			}
			return tv{"t", obj}
		}
		return tv{rapid.SampledFrom([]string{"t", "search_symbols", "get_callers"}).Draw(t, "tool"), draftTable().Draw(t, "table")}
	})
}

// ideaSets draws the ideas an encoder switches off.
var ideaSets = rapid.Custom(func(t *rapid.T) []string {
	var off []string
	for _, idea := range (codec.Draft1{}).Ideas() {
		if rapid.IntRange(0, 3).Draw(t, "off "+idea.Name) == 0 {
			off = append(off, idea.Name)
		}
	}
	return off
})

// TestPropertyDraft1Identity: whatever ideas the encoder uses, the draft
// payload gives the value back [MAP-4]; and re-encoding what the
// registered encoder wrote gives the same bytes.
func TestPropertyDraft1Identity(t *testing.T) {
	d := codec.Draft1{}
	gen.Check(t, 5000, func(t *rapid.T) {
		x := draftValue().Draw(t, "value")
		off := ideaSets.Draw(t, "off")
		payload, err := d.EncodeWithout(x.tool, x.v, off)
		if err != nil {
			t.Fatalf("EncodeWithout(%s, %s, %v): %v", x.tool, x.v.AppendCompact(nil), off, err)
		}
		back, err := d.Decode(payload)
		if err != nil {
			t.Fatalf("Decode(%q): %v", payload, err)
		}
		if !jsonmap.Equal(back, x.v) {
			t.Fatalf("Decode(Encode(v)) = %s, want %s\npayload %q", back.AppendCompact(nil), x.v.AppendCompact(nil), payload)
		}
		if len(off) == 0 {
			again, err := d.Encode(x.tool, back)
			if err != nil || !bytes.Equal(again, payload) {
				t.Fatalf("re-encoding gives %q, %v; want %q", again, err, payload)
			}
		}
	})
}

// TestPropertyDraft1Refuses: the draft's decoder refuses every other tag,
// GCX1's included, naming it, and GCX1's decoder refuses the draft's
// payloads naming the draft's tag [D1-VER-1] [VER-2].
func TestPropertyDraft1Refuses(t *testing.T) {
	d := codec.Draft1{}
	gen.Check(t, 1000, func(t *rapid.T) {
		x := draftValue().Draw(t, "value")
		payload, err := d.Encode(x.tool, x.v)
		if err != nil {
			t.Fatal(err)
		}
		other := rapid.SampledFrom([]string{"GCX1", "GCX2", "GCX2-draft.2", "GCX2-draft.10", "GCX3-draft.1", "GCX1-stream"}).Draw(t, "tag")
		retagged := slices.Concat([]byte(other), payload[len(codec.Draft1Tag):])
		for _, c := range []struct {
			codec codec.Codec
			input []byte
			tag   string
		}{{d, retagged, other}, {codec.GCX1{}, payload, codec.Draft1Tag}} {
			_, err := c.codec.Decode(c.input)
			var e *spec.Error
			if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != c.tag || e.Line != 1 || e.Column != 1 {
				t.Fatalf("%s reading %q: want unsupported-version naming %s at 1:1, got %v", c.codec.Tag(), c.input, c.tag, err)
			}
		}
	})
}

// TestPropertyDraft1Mutations: a damaged draft payload is read back as some
// value or refused with an error of the module's classes, never anything
// else, and a value it reads is one the draft can carry.
func TestPropertyDraft1Mutations(t *testing.T) {
	d := codec.Draft1{}
	gen.Check(t, 3000, func(t *rapid.T) {
		x := draftValue().Draw(t, "value")
		payload, err := d.Encode(x.tool, x.v)
		if err != nil {
			t.Fatal(err)
		}
		damaged := gen.Mutate(t, payload)
		v, err := d.Decode(damaged)
		if err != nil {
			var e *spec.Error
			if !errors.As(err, &e) || spec.ClassName(err) == "" || spec.ClassName(err) == "io" {
				t.Fatalf("Decode(%q): an error of no class: %v", damaged, err)
			}
			if e.Line > 0 && (e.Offset < 0 || e.Offset > int64(len(damaged))) {
				t.Fatalf("Decode(%q): offset %d outside the input: %v", damaged, e.Offset, err)
			}
			return
		}
		again, err := d.Encode(x.tool, v)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", v.AppendCompact(nil), err)
		}
		if back, err := d.Decode(again); err != nil || !jsonmap.Equal(back, v) {
			t.Fatalf("the value read from %q does not come back: %v", damaged, err)
		}
	})
}

func FuzzDraft1Decode(f *testing.F) {
	for _, s := range []string{
		"GCX2-draft.1 tool=t fields=a,b rows=3 b={a}::*\nx\ty\n^\tz\n…/x\t\n",
		"GCX2-draft.1 tool=t fields=a,b rows=2 b=^{a}\nx\ty\nx\t\n",
		"GCX2-draft.1 tool=search_symbols fields=id,kind,name,path,line,sig rows=1 id={path}::{name}\n\tfunction\tF\ta.go\t3\t\n",
		"GCX2-draft.1 tool=t fields= json=object a=1\n",
	} {
		f.Add([]byte(s))
	}
	d := codec.Draft1{}
	f.Fuzz(func(t *testing.T, payload []byte) {
		v, err := d.Decode(payload)
		if err != nil {
			if spec.ClassName(err) == "" || spec.ClassName(err) == "io" {
				t.Fatalf("an error of no class: %v", err)
			}
			return
		}
		again, err := d.Encode("t", v)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", v.AppendCompact(nil), err)
		}
		if back, err := d.Decode(again); err != nil || !jsonmap.Equal(back, v) {
			t.Fatalf("the value does not come back: %v", err)
		}
	})
}
