package conformance

import (
	"bytes"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

func TestPartsExpand(t *testing.T) {
	for _, c := range []struct {
		name  string
		parts Parts
		want  string // "" with err set: refused
		err   string
	}{
		{"header, a long line, LF", Parts{{Text: "GCX1 tool=t fields=a\n"}, {Text: "x", Repeat: 5}, {Text: "\n"}}, "GCX1 tool=t fields=a\nxxxxx\n", ""},
		{"one repeated part", Parts{{Text: "ab\n", Repeat: 3}}, "ab\nab\nab\n", ""},
		{"an odd count, doubled past", Parts{{Text: "xyz", Repeat: 7}}, strings.Repeat("xyz", 7), ""},
		{"empty", Parts{}, "", "empty list"},
		{"no text", Parts{{Text: "", Repeat: 2}}, "", "no text"},
		{"repeat 1", Parts{{Text: "x", Repeat: 1}, {Text: "y", Repeat: 2}}, "", "give 2 or more"},
		{"negative repeat", Parts{{Text: "x", Repeat: -2}}, "", "give 2 or more"},
		{"nothing repeats", Parts{{Text: "x"}, {Text: "y"}}, "", "write the text as a string"},
		{"beyond the bound", Parts{{Text: "xy", Repeat: MaxExpanded/2 + 1}}, "", "more than"},
		{"beyond the bound in sum", Parts{{Text: "x", Repeat: MaxExpanded}, {Text: "y"}}, "", "more than"},
		{"a count that overflows", Parts{{Text: "xy", Repeat: int(^uint(0) >> 1)}}, "", "more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.parts.Expand()
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("Expand: %q, %v; want an error saying %q", got, err, c.err)
			case c.err == "" && (err != nil || string(got) != c.want):
				t.Errorf("Expand: %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// Expanding parts is writing each part's text its count of times, in
// order, whatever the counts.
func TestPropertyPartsExpandConcatenates(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		parts := Parts(rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Part {
			return Part{Text: rapid.StringN(1, 8, -1).Draw(t, "text"), Repeat: rapid.SampledFrom([]int{0, 2, 3, 5, 64, 1000}).Draw(t, "repeat")}
		}), 1, 6).Draw(t, "parts"))
		parts = append(parts, Part{Text: "\n", Repeat: 2})
		var want bytes.Buffer
		for _, p := range parts {
			want.WriteString(strings.Repeat(p.Text, max(p.Repeat, 1)))
		}
		got, err := parts.Expand()
		if err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Expand: %d bytes, %v; want %d bytes", len(got), err, want.Len())
		}
	})
}

// A file may give an input, an output and a view as parts, and they load
// as the bytes the strings would give; the canonical form keeps them as
// parts.
func TestPartsLoadAsTheirText(t *testing.T) {
	const file = `{"category":"decode","group":"g","description":"d","vectors":[
	{"id":"lim-2-x","description":"d","rules":["LIM-2"],"op":"decode","input":[{"text":"GCX1 tool=t fields=a\n"},{"text":"x","repeat":3},{"text":"\n"}],"canonical":true,
	 "expected":{"view":[{"text":"{\"sections\":[{\"tool\":\"t\",\"fields\":[\"a\"],\"rows\":[[\""},{"text":"x","repeat":3},{"text":"\"]]}]}"}]}}]}`
	f, err := ParseFile([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	v := &f.Vectors[0]
	if string(v.Input) != "GCX1 tool=t fields=a\nxxx\n" || string(v.Expected.View) != `{"sections":[{"tool":"t","fields":["a"],"rows":[["xxx"]]}]}` {
		t.Errorf("input %q, view %s", v.Input, v.Expected.View)
	}
	if p := v.Expected.Payload(); p == nil || p.Sections[0].Rows[0][0] != "xxx" {
		t.Errorf("payload %+v", p)
	}
	out, err := Format(f)
	if err != nil || !bytes.Contains(out, []byte(`"input": [{"text":"GCX1 tool=t fields=a\n"},{"text":"x","repeat":3},{"text":"\n"}],`)) ||
		!bytes.Contains(out, []byte(`"expected": {"view": [{"text":"{\"sections\"`)) {
		t.Errorf("Format: %v\n%s", err, out)
	}
	again, err := ParseFile(out)
	if err != nil || !bytes.Equal(again.Vectors[0].Input, v.Input) || !bytes.Equal(again.Vectors[0].Expected.View, v.Expected.View) {
		t.Errorf("the formatted file reads otherwise: %v", err)
	}
	encode := strings.NewReplacer(`"op":"decode"`, `"op":"encode"`, `"canonical":true,`, ``, `"expected":{"view":[`, `"expected":{"output":[`)
	f, err = ParseFile([]byte(strings.Replace(encode.Replace(file), `"category":"decode"`, `"category":"encode"`, 1)))
	if err != nil || !strings.HasPrefix(string(f.Vectors[0].Expected.Output), `{"sections":[{"tool":"t","fields":["a"],"rows":[["xxx"]]}]}`) {
		t.Errorf("output as parts: %v", err)
	}
}

// The vectors written as parts are as long as their descriptions say: a
// slip in a repeat count would otherwise go unseen, as the vector might
// still pass.
func TestLongVectorsHaveTheirSizes(t *testing.T) {
	byID := map[string]*Vector{}
	vs := loadVectors(t)
	for i := range vs {
		byID[vs[i].ID] = &vs[i]
	}
	line2 := func(v *Vector) int { return len(bytes.Split(v.Input, []byte("\n"))[1]) }
	for id, check := range map[string]func(v *Vector) bool{
		"lim-1-line-of-4-mib-and-a-byte": func(v *Vector) bool { return line2(v) == 4<<20+1 },
		"lim-2-line-of-1-mib":            func(v *Vector) bool { return line2(v) == 1<<20 },
		"lim-2-1048576-rows":             func(v *Vector) bool { return len(v.Expected.Payload().Sections[0].Rows) == 1<<20 },
		"lim-2-256-sections":             func(v *Vector) bool { return len(v.Expected.Payload().Sections) == 256 },
	} {
		v := byID[id]
		switch {
		case v == nil:
			t.Errorf("%s: missing", id)
		case v.InputParts == nil || v.Expected.ViewParts == nil:
			t.Errorf("%s: its input and view are not written as parts", id)
		case !check(v):
			t.Errorf("%s: not the size its description gives", id)
		}
	}
}
