package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/codec/internal/tablegen"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The registry-wide properties (property_test.go) hold GCX2-draft.1 to
// every codec's laws, on jsongen's values and on the tables tablegen draws
// for what the draft's Needs declare. These add the draft's own laws: every
// set of ideas switched off decodes, and other tags are refused.

func str(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }

// draftValue draws the tables of internal/tablegen, made for what the
// draft says its ideas need.
func draftValue() *rapid.Generator[tablegen.Drawn] { return tablegen.Value(codec.Draft1{}.Needs()) }

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
		payload, err := d.EncodeWithout(x.Tool, x.Value, off)
		if err != nil {
			t.Fatalf("EncodeWithout(%s, %s, %v): %v", x.Tool, x.Value.AppendCompact(nil), off, err)
		}
		back, err := d.Decode(payload)
		if err != nil {
			t.Fatalf("Decode(%q): %v", payload, err)
		}
		if !jsonmap.Equal(back, x.Value) {
			t.Fatalf("Decode(Encode(v)) = %s, want %s\npayload %q", back.AppendCompact(nil), x.Value.AppendCompact(nil), payload)
		}
		if len(off) == 0 {
			again, err := d.Encode(x.Tool, back)
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
		payload, err := d.Encode(x.Tool, x.Value)
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
		payload, err := d.Encode(x.Tool, x.Value)
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
		again, err := d.Encode(x.Tool, v)
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

// A column's default is its most common text, the smallest of those that
// tie: which text a tie gives must not depend on the order of the rows,
// or two encoders of the same value could write two payloads.
func TestDraft1DefaultOfATie(t *testing.T) {
	for _, first := range []string{"alpha-alpha-alpha", "bravo-bravo-bravo"} {
		second := map[string]string{"alpha-alpha-alpha": "bravo-bravo-bravo", "bravo-bravo-bravo": "alpha-alpha-alpha"}[first]
		v := jsonmap.Value{Kind: jsonmap.Array}
		for i := range 10 {
			for _, k := range []string{first, second} {
				v.Elems = append(v.Elems, jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
					{Key: "k", Value: str(k)}, {Key: "n", Value: jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(i)}}}})
			}
		}
		payload, err := codec.Draft1{}.Encode("t", v)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := bytes.Cut(payload, []byte("\n"))
		if !bytes.HasSuffix(header, []byte(" k=alpha-alpha-alpha")) {
			t.Errorf("%s first: the header is %q; want the default k=alpha-alpha-alpha, the smaller of the two", first, header)
		}
	}
}

// Each idea's name gives that idea and no other: EncodeWithout switches
// off exactly what it is told, and a name the draft lacks is refused.
func TestParseDraft1IdeasNamesEachIdea(t *testing.T) {
	for _, idea := range (codec.Draft1{}).Ideas() {
		set, err := codec.ParseDraft1Ideas(idea.Name)
		if err != nil || set.String() != idea.Name {
			t.Errorf("ParseDraft1Ideas(%q) = %v, %v; want the idea %s alone", idea.Name, set, err, idea.Name)
		}
	}
	if set, err := codec.ParseDraft1Ideas("Default"); err == nil {
		t.Errorf("ParseDraft1Ideas(%q) = %v; want an error, idea names being case-sensitive", "Default", set)
	}
}

// Meta keys are case-sensitive [META-1]: a column named JSON is a member
// like any other, and its declared default, JSON=array, does not make
// the table-form root one of the json= forms, whose root holds no
// declarations.
func TestDraft1ColumnNamedLikeJSONKey(t *testing.T) {
	v := jsonmap.Value{Kind: jsonmap.Array}
	for i := range 10 {
		v.Elems = append(v.Elems, jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "JSON", Value: str("array")}, {Key: "n", Value: jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(i)}}}})
	}
	payload, err := codec.Draft1{}.Encode("t", v)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := bytes.Cut(payload, []byte("\n"))
	if !bytes.Contains(header, []byte(" JSON=array")) {
		t.Fatalf("the header is %q; want the default JSON=array declared", header)
	}
	back, err := codec.Draft1{}.Decode(payload)
	if err != nil {
		t.Fatalf("Decode(%q): %v", payload, err)
	}
	if !jsonmap.Equal(back, v) {
		t.Errorf("Decode(%q) = %s, want %s", payload, back.AppendCompact(nil), v.AppendCompact(nil))
	}
}

// An affix never splits a word [D1-COL-2]: cells that share only the
// last letter, a7z, b8z, …, share no suffix the encoder may declare, so
// the column's header pair is absent, however many bytes a declared z
// would save.
func TestDraft1AffixSplitsNoWord(t *testing.T) {
	v := jsonmap.Value{Kind: jsonmap.Array}
	for i := range 40 {
		v.Elems = append(v.Elems, jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "c", Value: str(string(rune('a'+i%26)) + strconv.Itoa(i) + "z")}}})
	}
	payload, err := codec.Draft1{}.Encode("t", v)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := bytes.Cut(payload, []byte("\n"))
	if bytes.Contains(header, []byte(" c=")) {
		t.Errorf("the header is %q; want no template for c, whose cells share only a part of a word", header)
	}
}

// Every ablatable draft knows its ideas by their names exactly: each name
// switches off alone, and the same name in capitals, or a name the draft
// lacks, is refused rather than taken for an idea.
func TestEncodeWithoutNamesIdeasExactly(t *testing.T) {
	v, err := jsonmap.Parse([]byte(`[{"a":1,"b":"x"},{"a":2,"b":"x"}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []codec.Ablatable{codec.Draft1{}, codec.Draft2{}, codec.Draft3{}} {
		for _, idea := range d.Ideas() {
			if _, err := d.EncodeWithout("t", v, []string{idea.Name}); err != nil {
				t.Errorf("%s: EncodeWithout(%q): %v", d.Tag(), idea.Name, err)
			}
			for _, name := range []string{strings.ToUpper(idea.Name), idea.Name + "s"} {
				if payload, err := d.EncodeWithout("t", v, []string{name}); err == nil {
					t.Errorf("%s: EncodeWithout(%q) = %q; want an error, idea names being case-sensitive", d.Tag(), name, payload)
				}
			}
		}
	}
}

// An abbreviation keeps a tail of minAbbrevTail (5) to maxAbbrevTail (64)
// bytes, separator included, and leaves out at least minAbbrevDrop (12)
// [D1-ABB-1]: each text below stands at one of those bounds, inside or
// just outside, and comes back whole when decoded.
func TestDraft1AbbrevBounds(t *testing.T) {
	texts := []string{
		"/srv/projects/alpha.json",                   // tail of 5: "….json"
		"/srv/projects/gamma.txt",                    // ".txt" is 4, too short: the next separator's
		"abcdefghijkl.yaml",                          // 12 bytes left out
		"abcdefghijk.toml",                           // 11: not abbreviated
		"/srv/projects/x/" + strings.Repeat("a", 63), // tail of 64
		"/srv/projects/y/" + strings.Repeat("b", 64), // 65: not abbreviated
	}
	want := []string{
		"….json", "…/gamma.txt", "….yaml", "abcdefghijk.toml", "…/" + strings.Repeat("a", 63), texts[5],
	}
	var b strings.Builder
	b.WriteString("[")
	for i := range 2 * len(texts) {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"p":%q,"n":%d}`, texts[i%len(texts)], i)
	}
	b.WriteString("]")
	v, err := jsonmap.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := codec.Draft1{}.EncodeWithout("t", v, []string{"default", "derive", "affix", "key", "ditto"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(payload), "\n"), "\n")
	if len(lines) != 1+2*len(texts) {
		t.Fatalf("payload of %d lines:\n%s", len(lines), payload)
	}
	for i, w := range want {
		if cell, _, _ := strings.Cut(lines[1+len(texts)+i], "\t"); cell != w {
			t.Errorf("the second %q is written %q, want %q", texts[i], cell, w)
		}
	}
	back, err := codec.Draft1{}.Decode(payload)
	if err != nil || !jsonmap.Equal(back, v) {
		t.Errorf("Decode(%q) = %s, %v; want the value encoded", payload, back.AppendCompact(nil), err)
	}
}
