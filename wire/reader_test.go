package wire_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// The wire view is lossless: Unmarshal(Marshal(p)) == p [WIRE-1] [WIRE-2].
func TestPropertyRoundTrip(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		back, err := wire.Unmarshal(wire.Marshal(p))
		if err != nil {
			t.Fatalf("%v\n%s", err, wire.Marshal(p))
		}
		if diff := cmp.Diff(p, back); diff != "" {
			t.Fatalf("wire view round trip (-want +got):\n%s", diff)
		}
	})
}

// Encode streams what the reference encoder writes for the model the view
// describes, and refuses what it refuses with the same rule [CAN-2]
// [CAN-3]: on valid payloads, and on models broken in one place.
func TestPropertyEncodeIsTheReference(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		if rapid.Bool().Draw(t, "break") && len(p.Sections) > 0 {
			s := &p.Sections[rapid.IntRange(0, len(p.Sections)-1).Draw(t, "section")]
			switch rapid.IntRange(0, 3).Draw(t, "how") {
			case 0:
				s.Tool = "my tool"
			case 1:
				s.Fields = append(s.Fields, s.Fields[0])
			case 2:
				s.Rows = append(s.Rows, []string{})
			case 3:
				s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows) + 1, Text: "beyond"})
			}
		}
		want, wantErr := reference.Encode(p)
		var got bytes.Buffer
		err := wire.Encode(&got, bytes.NewReader(wire.Marshal(p)), spec.Unlimited)
		if wantErr != nil {
			var we, ge *spec.Error
			errors.As(wantErr, &we)
			if !errors.As(err, &ge) || ge.Rule != we.Rule || ge.Class != we.Class {
				t.Fatalf("Encode error %v, want %v", err, wantErr)
			}
			return
		}
		if err != nil || !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("Encode = %q, %v; want %q", got.Bytes(), err, want)
		}
	})
}

// A section whose rows and comments pass the spill's memory share streams
// through a temporary file and comes out whole, with every comment in its
// place, whichever of "rows" and "comments" comes first.
func TestEncodeSpills(t *testing.T) {
	p := &spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"}}}}
	s := &p.Sections[0]
	value := strings.Repeat("v", 500)
	for i := range 5000 { // about 5 MB of rows
		s.Rows = append(s.Rows, []string{value, "x\ty"})
		if i%1000 == 0 {
			s.Comments = append(s.Comments, spec.Comment{Row: i, Text: "every thousand"})
		}
	}
	s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows), Text: "end"})
	want, err := reference.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	view := wire.Marshal(p)
	// The same view with "comments" before "rows".
	i, j := bytes.Index(view, []byte(`"rows":`)), bytes.Index(view, []byte(`,"comments":`))
	swapped := append(append(append(append([]byte{}, view[:i]...), view[j+1:len(view)-4]...), ','), view[i:j]...)
	swapped = append(swapped, "}]}\n"...)
	for name, v := range map[string][]byte{"rows first": view, "comments first": swapped} {
		var got bytes.Buffer
		if err := wire.Encode(&got, bytes.NewReader(v), spec.DefaultLimits); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%s: output differs from the reference's", name)
		}
	}
}

// The reader is strict, and says where: every refusal cites WIRE-2 with
// the line and column of the offending token [WIRE-2].
func TestReaderStrict(t *testing.T) {
	cases := []struct{ in, where, says string }{
		{``, "1:1", "end of input"},
		{`[]`, "1:1", "expected '{'"},
		{`{}`, "1:2", `missing key "sections"`},
		{`{"sections":null}`, "1:13", "null"},
		{`{"sections":[],"x":1}`, "1:16", `unknown key "x"`},
		{`{"sections":[]} {}`, "1:17", "after the JSON value"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":[null]}]}`, "1:49", "null"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":[[1]]}]}`, "1:50", "a number"},
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["k"]]}]}`, "1:53", "the value of a meta pair"},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0]]}]}`, "1:55", "the text of a comment"},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[["0","x"]]}]}`, "1:54", "the row of a comment"},
		{`{"sections":[{"tool":"t","fields":["\udfff"]}]}`, "1:37", "surrogate"},
		{`{"sections":[{"fields":["a"]}]}`, "1:14", `"tool" and "fields" are required`},
		{`{"sections":[{"tool":"t"}]}`, "1:14", `"tool" and "fields" are required`},
		{`{"sections":[{"tool":null,"fields":["a"]}]}`, "1:22", "null"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":null}]}`, "1:48", "null"},
		{`{"sections":[{"tool":"t","fields":["a"],"meta":null}]}`, "1:48", "null"},
		{`{"sections":[{"tool":"t","tool":"u","fields":["a"]}]}`, "1:26", "tool"},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0.0,"x"]]}]}`, "1:54", "fraction or exponent"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]]}],"sections":[]}`, "1:58", "sections"},
		{"{\"sections\":[\n  {\"tool\":\"t\",\n   \"fields\":[\"a\"], \"rowz\":[]}]}", "3:20", `unknown key "rowz"`},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[` + strings.Repeat("1", 1<<20) + `.5,"x"]]}]}`, "1:54", "bytes)"},
	}
	for _, c := range cases {
		_, err := wire.Unmarshal([]byte(c.in))
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != "WIRE-2" || spec.ClassName(err) != "model" {
			t.Errorf("Unmarshal(%.80s) = %v, want a model error citing WIRE-2", c.in, err)
			continue
		}
		if where := itoa(e.Line) + ":" + itoa(e.Column); where != c.where || !strings.Contains(e.Msg, c.says) {
			t.Errorf("Unmarshal(%.80s): at %s, %q; want at %s, saying %q", c.in, where, e.Msg, c.where, c.says)
		}
		if len(e.Error()) > 300 {
			t.Errorf("Unmarshal(%.80s): a %d-byte message", c.in, len(e.Error()))
		}
		if strings.Contains(e.Msg, "Go ") || strings.Contains(e.Msg, "struct") || strings.Contains(e.Msg, "spec.") {
			t.Errorf("Unmarshal(%.80s): message speaks Go: %q", c.in, e.Msg)
		}
	}
	// Keys repeated in different objects are fine.
	if _, err := wire.Unmarshal([]byte(`{"sections":[{"tool":"t","fields":["tool"]},{"tool":"t","fields":["a"]}]}`)); err != nil {
		t.Errorf("two sections: %v", err)
	}
	p, err := wire.Unmarshal([]byte(`{"sections":[{"tool":"t","fields":["a"]}]}`))
	if err != nil || p.Sections[0].Rows != nil || p.Sections[0].Meta != nil {
		t.Errorf("omitted keys: %+v, %v", p, err)
	}
}

// A comment's row beyond int's range is a place no section has [CMT-3],
// and the message quotes the row as written, not a clipped number.
func TestCommentRowBeyondInt(t *testing.T) {
	view := `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]],"comments":[[99999999999999999999,"far"]]}]}`
	err := wire.Encode(&bytes.Buffer{}, strings.NewReader(view), spec.DefaultLimits)
	var e *spec.Error
	if !errors.As(err, &e) || e.Rule != "CMT-3" || !strings.Contains(e.Msg, "99999999999999999999") || strings.Contains(e.Msg, "9223372036854775807") {
		t.Errorf("got %v", err)
	}
}
