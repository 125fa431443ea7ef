package wire_test

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
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
// [CAN-3]: on valid payloads, and on models broken in up to three places,
// where the first defect in the order of [CAN-3] decides.
func TestPropertyEncodeIsTheReference(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		for range rapid.IntRange(0, 3).Draw(t, "defects") {
			if len(p.Sections) == 0 {
				break
			}
			s := &p.Sections[rapid.IntRange(0, len(p.Sections)-1).Draw(t, "section")]
			switch rapid.IntRange(0, 6).Draw(t, "how") {
			case 0:
				s.Tool = "my tool"
			case 1:
				s.Fields = append(s.Fields, s.Fields[0])
			case 2:
				s.Rows = append(s.Rows, []string{})
			case 3:
				s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows) + 1, Text: "beyond"})
			case 4:
				s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows), Text: "two\nlines"})
			case 5:
				s.Comments = append(s.Comments, spec.Comment{Row: -1, Text: "before"})
			case 6:
				// rows= one more or one fewer than the rows [META-4].
				n := len(s.Rows) + rapid.SampledFrom([]int{-1, 1}).Draw(t, "off-by")
				s.Meta = slices.DeleteFunc(slices.Clone(s.Meta), func(m spec.Meta) bool { return m.Key == spec.KeyRows })
				if n >= 0 {
					s.Meta = append(s.Meta, spec.Meta{Key: spec.KeyRows, Value: strconv.Itoa(n)})
				}
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
		{`{}`, "1:1", `missing key "sections"`}, // at the object that lacks it [WIRE-3]
		{`{"sections":null}`, "1:13", "null"},
		{`{"sections":[],"x":1}`, "1:16", `unknown key "x"`},
		{`{"sections":[]} {}`, "1:17", "after the JSON value"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":[null]}]}`, "1:49", "null"},
		{`{"sections":[{"tool":"t","fields":["a"],"rows":[[1]]}]}`, "1:50", "a number"},
		// A pair too short at its '[', one too long at its element beyond the two [WIRE-3].
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["k"]]}]}`, "1:49", "the value of a meta pair"},
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[[]]}]}`, "1:49", "the key of a meta pair"},
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["k","v","x"]]}]}`, "1:58", "']' closing the pair"},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0]]}]}`, "1:53", "the text of a comment"},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0,"c",1]]}]}`, "1:60", "']' closing the pair"},
		{`{"sections":[{"tool":"t","fields":["a"],"extra":1}]}`, "1:41", `unknown key "extra"`}, // at its name
		// Keys are compared exactly: one that differs only in case is unknown.
		{`{"Sections":[]}`, "1:2", `unknown key "Sections"`},
		{`{"sections":[{"Tool":"t","fields":["a"]}]}`, "1:15", `unknown key "Tool"`},
		{`{"sections":[{"tool":"t","FIELDS":["a"]}]}`, "1:26", `unknown key "FIELDS"`},
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

// Every refusal of Encode gives the line and column in the view of the
// JSON value at fault [WIRE-3]; the view's own faults name no section.
func TestEncodeRefusalPositions(t *testing.T) {
	cases := []struct {
		name, view string
		limits     spec.Limits
		rule       string
		line, col  int
		msg        string // a part of the message
	}{
		{"no sections", "{\"sections\":\n []}", spec.Unlimited, "PAY-1", 2, 2, ""},
		{"tool name", `{"sections":[{"fields":["a"],"tool":"my tool"}]}`, spec.Unlimited, "HDR-3", 1, 37, ""},
		{"no fields", `{"sections":[{"tool":"t","fields":[]}]}`, spec.Unlimited, "HDR-4", 1, 35, ""},
		{"repeated field", "{\"sections\":[{\"tool\":\"t\",\n\"fields\":[\"a\",\"b\",\"a\"]}]}", spec.Unlimited, "HDR-6", 2, 19, ""},
		{"meta key", `{"sections":[{"tool":"t","fields":["a"],"meta":[["k","1"],["a b","2"]]}]}`, spec.Unlimited, "HDR-3", 1, 60, ""},
		{"structural key", `{"sections":[{"tool":"t","fields":["a"],"meta":[["tool","x"]]}]}`, spec.Unlimited, "HDR-8", 1, 50, ""},
		{"count", `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","99999999999999999999"]]}]}`, spec.Unlimited, "META-1", 1, 57, "above the largest count"},
		{"rows short", `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","2"]],"rows":[["x"]]}]}`, spec.Unlimited, "META-4", 1, 57, ""},
		{"rows over", `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","0"]],"rows":[["x"]]}]}`, spec.Unlimited, "META-4", 1, 57, ""},
		// Meta keys are case-sensitive [HDR-8]: ROWS= is an ordinary pair,
		// not the count, so the refusal stays at rows=.
		{"rows over, ROWS after it", `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","0"],["ROWS","x"]],"rows":[["x"]]}]}`, spec.Unlimited, "META-4", 1, 57, ""},
		{"rows short, next section", `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","2"]]},{"tool":"t","fields":["a"]}]}`, spec.Unlimited, "META-4", 1, 57, ""},
		{"row too wide", `{"sections":[{"tool":"t","fields":["a"],"rows":[["x","y"]]}]}`, spec.Unlimited, "ROW-2", 1, 54, ""},
		{"row too narrow", `{"sections":[{"tool":"t","fields":["a","b"],"rows":[["x"]]}]}`, spec.Unlimited, "ROW-2", 1, 53, ""},
		{"comment place", `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"],["y"],["z"]],"comments":[[-1,"c"]]}]}`, spec.Unlimited, "CMT-3", 1, 81, "outside 0..3"},
		{"comments out of order", `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"],["y"],["z"]],"comments":[[2,"c"],[1,"d"]]}]}`, spec.Unlimited, "CMT-3", 1, 89, "outside 2..3"},
		// A comment's row below int's range stands before every row, so it
		// is refused before the rows are replayed, ahead of a later row's
		// fault [CMT-3].
		{"comment row far below the rows, then a row too wide", `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"],["y","z"]],"comments":[[-99999999999999999999,"c"]]}]}`, spec.Unlimited, "CMT-3", 1, 79, "outside 0..2"},
		{"comment text", `{"sections":[{"tool":"t","fields":["a"],"comments":[[0,"a\nb"]]}]}`, spec.Unlimited, "CMT-4", 1, 56, ""},
		{"section limit", `{"sections":[{"tool":"t","fields":["a"]},{"tool":"t","fields":["a"]}]}`, spec.Limits{MaxSections: 1}, "LIM-4", 1, 42, ""},
		{"field limit", `{"sections":[{"tool":"t","fields":["a","b"]}]}`, spec.Limits{MaxFields: 1}, "LIM-4", 1, 40, ""},
		{"row limit", `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"],["y"]]}]}`, spec.Limits{MaxRows: 1}, "LIM-4", 1, 55, ""},
		{"row line", `{"sections":[{"tool":"t","fields":["a","b"],"rows":[["x","y"],["x\t\t\t\t\t\t\t\t\t\t\t\t","y"]]}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 64, "row 2, value 1"},
		{"header line", `{"sections":[{"tool":"t","fields":["a","b\tb"]}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 40, ""},
		// The header line past its limit, at the part that passes it, whatever
		// order the view's keys come in.
		{"header line at the tool", `{"sections":[{"tool":"averyveryverylongtoolname","fields":["a"]}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 22, "tool name"},
		// Rows before the header: the row is refused when replayed, at the
		// value that passes the limit; only the first value takes the
		// guard's byte, not a later one that begins with "#" [ROW-4].
		{"row line past the limit at its last value, rows first", `{"sections":[{"rows":[["a","#bbbbbbbbbbbbbbbbbbbbb","c"]],"fields":["x","y","z"],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 53, ""},
		{"row line past the limit at a guarded first value, rows first", `{"sections":[{"rows":[["#aaaaaaaaaaaaaaaaaaaaaaa","b"]],"fields":["x","y"],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 24, ""},
		{"header line at the tool, given last", `{"sections":[{"fields":["a"],"tool":"averyveryverylongtoolname"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 37, "tool name"},
		{"header line at a field, tool last", `{"sections":[{"fields":["a","bbbbbbbbbbbbbbbbbbbbbbbbbb"],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 29, "field name"},
		{"header line at a meta value, meta first", `{"sections":[{"meta":[["k","vvvvvvvvvvvvvvvvvvvvvvv"]],"fields":["a"],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 28, "meta pair"},
		{"header line at a meta key, meta first", `{"sections":[{"meta":[["kkkkkkkkkkkkkkkkkkkkkkkk","v"]],"fields":["a"],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 24, "meta pair"},
		{"header line at a meta value, tool last", `{"sections":[{"fields":["a"],"meta":[["k","vvvvvvvvvvvvvvvvvvvvvvv"]],"tool":"t"}]}`, spec.Limits{MaxLineBytes: 24}, "LIM-4", 1, 43, "meta pair"},
		// The tool given last, short enough by itself: the line passes the
		// limit only with it, so the Encoder refuses the header, at the
		// part where the line, in line order, passes the limit.
		{"header line at a field once the tool, given last, counts", `{"sections":[{"fields":["a","bbbb"],"tool":"tttttt"}]}`, spec.Limits{MaxLineBytes: 27}, "LIM-4", 1, 29, ""},
		{"header line at a meta key once the tool, given last, counts", `{"sections":[{"fields":["a"],"meta":[["k","v"]],"tool":"tttttt"}]}`, spec.Limits{MaxLineBytes: 27}, "LIM-4", 1, 39, ""},
		{"header line at a meta value once the tool, given last, counts", `{"sections":[{"fields":["a"],"meta":[["k","vvvvvvvv"]],"tool":"tttttt"}]}`, spec.Limits{MaxLineBytes: 30}, "LIM-4", 1, 43, ""},
		{"garbage after the view", `{"sections":[{"tool":"t","fields":["a"]}]} x`, spec.Unlimited, "WIRE-2", 1, 44, ""},
		{"sections twice", `{"sections":[{"tool":"t","fields":["a"]}],"sections":[]}`, spec.Unlimited, "WIRE-2", 1, 43, ""},
	}
	for _, c := range cases {
		err := wire.Encode(new(bytes.Buffer), strings.NewReader(c.view), c.limits)
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != c.rule || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: got %v (%+v), want [%s] at %d:%d", c.name, err, e, c.rule, c.line, c.col)
			continue
		}
		if c.rule == "WIRE-2" && strings.Contains(e.Msg, "section 1") {
			t.Errorf("%s: %v names a section; the fault is the view's", c.name, err)
		}
	}
}

// A view with several faults is refused for the first one a reader meets
// reading it once, in order [WIRE-3]: a value of the wrong type once its
// token is read, before the view is found cut short or broken later; a
// missing key or a short pair once its object or pair closes; text that
// is not JSON where it stands, before any fault after it.
func TestEncodeReportsTheFirstFaultMet(t *testing.T) {
	cases := []struct {
		name, view string
		rule       string
		col        int
		msg        string
	}{
		{"'[' alone", `[`, "WIRE-2", 1, "expected '{'"},
		{"'[' then bytes not UTF-8", "[\xff", "WIRE-2", 1, "expected '{'"},
		{"a number for the tool, cut short", `{"sections":[{"tool":5`, "WIRE-2", 22, "expected a string"},
		{"a number for a value, cut short", `{"sections":[{"tool":"t","fields":["a"],"rows":[[1`, "WIRE-2", 50, "found a number"},
		{"a number for sections, then not JSON", `{"sections":5x`, "WIRE-2", 13, "found a number"},
		{"a section without a tool, closed, then cut", `{"sections":[{"fields":["a"]}`, "WIRE-2", 14, `"tool" and "fields" are required`},
		{"a section without a tool, not closed", `{"sections":[{"fields":["a"]`, "WIRE-2", 29, "end of input"},
		{"a short pair, closed, then cut", `{"sections":[{"tool":"t","fields":["a"],"meta":[["k"]`, "WIRE-2", 49, "too short"},
		{"a long pair, cut", `{"sections":[{"tool":"t","fields":["a"],"meta":[["k","v","x"`, "WIRE-2", 58, "']' closing the pair"},
		{"an unknown key, cut", `{"x"`, "WIRE-2", 2, `unknown key "x"`},
		{"a name longer than any key, cut", `{"commentsxyz`, "WIRE-2", 2, "unknown key of more than 8 bytes"},
		{"a comment's fraction once its pair closes", `{"sections":[{"tool":"t","fields":["a"],"comments":[[1.5`, "WIRE-2", 57, "end of input"},
		// Not JSON first: a string, number or literal is read whole before its type is known.
		{"not JSON before a wrong type", `{"sections":[{"tool":"t" "fields":5}]}`, "WIRE-2", 26, "expected ',' or '}'"},
		{"a broken literal where a string belongs", `{"sections":[{"tool":tru`, "WIRE-2", 25, `expected "true"`},
		{"a broken number where an array belongs", `{"sections":1.}`, "WIRE-2", 15, "decimal point"},
		{"a lone surrogate where an array belongs", `{"sections":"\ud800"}`, "WIRE-2", 14, "surrogate"},
		// The view's faults before the model's: a broken view describes no
		// model, wherever the model's fault stands.
		{"a bad tool name, then the view cut short", `{"sections":[{"tool":"a b","fields":["a"]}`, "WIRE-2", 43, "end of input"},
		{"a repeated field, then data after the view", `{"sections":[{"tool":"t","fields":["a","a"]}]} x`, "WIRE-2", 48, "after"},
		{"a row too narrow, then an unknown key in the next section", `{"sections":[{"tool":"t","fields":["a"],"rows":[[]]},{"tool":"u","fields":["b"],"x":1}]}`, "WIRE-2", 81, `unknown key "x"`},
		{"a bad tool name in a view without faults of its own", `{"sections":[{"tool":"a b","fields":["a"]}]}`, "HDR-3", 22, "tool name"},
	}
	for _, c := range cases {
		err := wire.Encode(new(bytes.Buffer), strings.NewReader(c.view), spec.DefaultLimits)
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != c.rule || e.Line != 1 || e.Column != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %q: got %v, want [%s] at 1:%d saying %q", c.name, c.view, err, c.rule, c.col, c.msg)
		}
	}
}

// A view cut short anywhere is refused as a WIRE-2 error at the end of
// the input, where the view is missing, and nothing is written; only the
// whole view encodes.
func TestEncodeRefusesEveryPrefix(t *testing.T) {
	view := `{"sections":[{"tool":"t","fields":["a","b"],"meta":[["rows","2"],["k","v"]],"rows":[["x","y"],["1",""]],"comments":[[1,"c"]]},{"fields":["z"],"tool":"u"}]}`
	for n := range len(view) {
		var out bytes.Buffer
		err := wire.Encode(&out, strings.NewReader(view[:n]), spec.Unlimited)
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != "WIRE-2" || e.Offset != int64(n) || !strings.Contains(e.Msg, "end of input") {
			t.Errorf("the view cut to %d bytes: %v; want a WIRE-2 error at offset %d naming the end of input", n, err, n)
			continue
		}
		if out.Len() != 0 {
			t.Errorf("the view cut to %d bytes: wrote %q", n, out.Bytes())
		}
	}
	if err := wire.Encode(new(bytes.Buffer), strings.NewReader(view), spec.Unlimited); err != nil {
		t.Errorf("the whole view: %v", err)
	}
}

// A view whose longest line is n bytes encodes under a line limit of n and
// is refused under n-1 [LIM-4]: the encoder counts every byte of a header
// — commas, escapes, pairs — as the decoder will.
func TestEncodeAtTheLineLimit(t *testing.T) {
	for _, view := range []string{
		`{"sections":[{"tool":"t","fields":["a","b"]}]}`,
		`{"sections":[{"tool":"t","fields":["a","b","c"]}]}`,
		`{"sections":[{"tool":"t","fields":["a,b","c d"],"meta":[["k","v w"],["rows","0"]]}]}`,
		`{"sections":[{"tool":"t","fields":["a","b"],"rows":[["x\ty","z"]]}]}`,
	} {
		var free bytes.Buffer
		if err := wire.Encode(&free, strings.NewReader(view), spec.Unlimited); err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		longest := 0
		for _, line := range strings.Split(strings.TrimSuffix(free.String(), "\n"), "\n") {
			longest = max(longest, len(line))
		}
		if err := wire.Encode(new(bytes.Buffer), strings.NewReader(view), spec.Limits{MaxLineBytes: longest}); err != nil {
			t.Errorf("%s under a line limit of %d, its longest line: %v", view, longest, err)
		}
		err := wire.Encode(new(bytes.Buffer), strings.NewReader(view), spec.Limits{MaxLineBytes: longest - 1})
		if !errors.Is(err, spec.ErrLimit) {
			t.Errorf("%s under a line limit of %d, one below its longest line: %v, want a limit error", view, longest-1, err)
		}
	}
}

// A string too long for its line is refused at its first byte as soon as
// the line cannot fit, and never one that fits [LIM-4].
func TestEncodeLongString(t *testing.T) {
	row := func(cells string) string {
		return `{"sections":[{"tool":"t","fields":["a","b"],"rows":[` + cells + `]}]}`
	}
	cases := []struct {
		view      string
		limit     int
		ok        bool
		line, col int
	}{
		{row(`["123456789012345","67890123456789"]`), 30, true, 0, 0},                          // 15+1+14 = 30
		{row(`["123456789012345","678901234567890"]`), 30, false, 1, 72},                       // 31
		{row(`["#23456789012345","6789012345678"]`), 30, true, 0, 0},                           // the guard: 1+15+1+13
		{row(`["#23456789012345","67890123456789"]`), 30, false, 1, 72},                        // 31 with the guard
		{row(`["\u0031\u0032\u0033\u0034\u0035","678901234567890123456789"]`), 30, true, 0, 0}, // escapes count as what they decode to
		{row(`["` + strings.Repeat("x", 31) + `"]`), 30, false, 1, 54},
		// The tool name is held to what precedes it, "GCX1 tool=": one the
		// line holds is not refused as long, and the line is refused at the
		// field name where it passes the limit.
		{`{"sections":[{"tool":"` + strings.Repeat("t", 13) + `","fields":["a"]}]}`, 30, false, 1, 48}, // 10+13+8+1 = 32
		{`{"sections":[{"tool":"` + strings.Repeat("t", 20) + `","fields":["a"]}]}`, 30, false, 1, 55}, // 10+20 = 30 before " fields="
		{`{"sections":[{"tool":"` + strings.Repeat("t", 21) + `","fields":["a"]}]}`, 30, false, 1, 22}, // 10+21 = 31: the name itself
		{`{"sections":[{"tool":"t","fields":["` + strings.Repeat("f", 11) + `"]}]}`, 30, true, 0, 0},   // 10+1+8+11 = 30
		{`{"sections":[{"tool":"t","fields":["` + strings.Repeat("f", 12) + `"]}]}`, 30, false, 1, 36}, // 31
		// A header string is refused where the line passes the limit, not
		// at a later string too long by itself: the fields' and the meta
		// pairs' bytes are counted as they are read.
		{`{"sections":[{"tool":"t","fields":["aaaaaaaaaaa","c","bbbbbbbbbbbbb"]}]}`, 30, false, 1, 50},                                       // 30 after the a's, 32 with ",c"
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["kkkkkkkkkk","v"],["k","` + strings.Repeat("x", 40) + `"]]}]}`, 30, false, 1, 50}, // 20+1+10 = 31 at the key
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["kkkkkkkkk","v"],["k","` + strings.Repeat("x", 40) + `"]]}]}`, 30, false, 1, 62},  // 30 with the key, 32 with "=v"
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["kkkkkkkk","v"]]}]}`, 30, false, 1, 61},                                           // 31 with "=v"
		{`{"sections":[{"tool":"t","fields":["a"],"meta":[["kkkkkkk","v"]]}]}`, 30, true, 0, 0},                                              // 30
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0,"` + strings.Repeat("c", 30) + `"]]}]}`, 30, false, 1, 56},
		{`{"sections":[{"tool":"t","fields":["a"],"comments":[[0,"` + strings.Repeat("c", 29) + `"]]}]}`, 30, true, 0, 0},
	}
	for _, c := range cases {
		err := wire.Encode(new(bytes.Buffer), strings.NewReader(c.view), spec.Limits{MaxLineBytes: c.limit})
		var e *spec.Error
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.view, err)
		case !c.ok && (!errors.As(err, &e) || e.Rule != "LIM-4" || e.Line != c.line || e.Column != c.col):
			t.Errorf("%s: got %v (%+v), want [LIM-4] at %d:%d", c.view, err, e, c.line, c.col)
		}
	}
}

// A comment's row of -0 denotes 0, as JSON readers read it [WIRE-2].
func TestCommentRowMinusZero(t *testing.T) {
	var zero, minusZero bytes.Buffer
	view := `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]],"comments":[[%s,"c"]]}]}`
	if err := wire.Encode(&zero, strings.NewReader(strings.Replace(view, "%s", "0", 1)), spec.Unlimited); err != nil {
		t.Fatal(err)
	}
	if err := wire.Encode(&minusZero, strings.NewReader(strings.Replace(view, "%s", "-0", 1)), spec.Unlimited); err != nil {
		t.Fatal(err)
	}
	if zero.String() != minusZero.String() || zero.String() != "GCX1 tool=t fields=a\n#c\nx\n" {
		t.Fatalf("-0 gives %q, 0 gives %q", minusZero.String(), zero.String())
	}
}

// A line too long is refused where its string is read, in reading order
// with the view's own faults, while the model's faults wait for the whole
// view [WIRE-3]: a bad tool name in the first section does not come before
// a field name of the second that passes the line limit, nor the field
// name before a fault of the view that stands before it.
func TestEncodeLineLimitBeforeTheModel(t *testing.T) {
	limits := spec.DefaultLimits
	limits.MaxLineBytes = 24
	long := strings.Repeat("x", 30)
	cases := []struct {
		name, view string
		rule       string
		col        int
	}{
		{"a bad tool name, then a line too long", `{"sections":[{"tool":"a b","fields":["a"]},{"tool":"t","fields":["` + long + `"]}]}`, "LIM-4", 66},
		{"a line too long, then the view cut short", `{"sections":[{"tool":"t","fields":["` + long + `"]}`, "LIM-4", 36},
		{"an unknown key, then a line too long", `{"sections":[{"x":1,"fields":["` + long + `"]}]}`, "WIRE-2", 15},
	}
	for _, c := range cases {
		err := wire.Encode(new(bytes.Buffer), strings.NewReader(c.view), limits)
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != c.rule || e.Line != 1 || e.Column != c.col {
			t.Errorf("%s: %q: got %v, want [%s] at 1:%d", c.name, c.view, err, c.rule, c.col)
		}
	}
}
