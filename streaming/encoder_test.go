package streaming

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// Named cases of the encoder's output [CAN-2].
func TestEncoderOutput(t *testing.T) {
	cases := []struct {
		name string
		p    spec.Payload
		want string
	}{
		{"header and rows [HDR-1] [ROW-1]",
			spec.Payload{Sections: []spec.Section{{Tool: "search_symbols", Fields: []string{"id", "kind"},
				Meta: []spec.Meta{{Key: "rows", Value: "2"}, {Key: "total", Value: "2"}},
				Rows: [][]string{{"a", "function"}, {"b", ""}}}}},
			"GCX1 tool=search_symbols fields=id,kind rows=2 total=2\na\tfunction\nb\t\n"},
		{"value escapes [VAL-1] and trailing empty values [ROW-3]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b", "c"},
				Rows: [][]string{{"x\ty\nz\r\\", "", ""}}}}},
			"GCX1 tool=t fields=a,b,c\nx\\ty\\nz\\r\\\\\t\t\n"},
		{"field name escapes [HDR-5], empty field name [HDR-4]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a b,c\\", ""}}}},
			"GCX1 tool=t fields=a\\sb\\,c\\\\,\n"},
		{"meta value escapes, ',' and '=' raw [HDR-7] [HDR-9]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"},
				Meta: []spec.Meta{{Key: "q", Value: "a b,c=d\t"}}}}},
			"GCX1 tool=t fields=a q=a\\sb,c=d\\t\n"},
		{"guard before # and GCX, only first value [ROW-4]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"},
				Rows: [][]string{{"#x", "#y"}, {"GCX1 hi", "GCX"}, {"GC", "G"}}}}},
			"GCX1 tool=t fields=a,b\n\\#x\t#y\n\\GCX1 hi\tGCX\nGC\tG\n"},
		{"comments anywhere after the header [CMT-1] [CMT-2] [CMT-3]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Rows: [][]string{{"1"}, {"2"}},
				Comments: []spec.Comment{{Row: 0, Text: "first"}, {Row: 1, Text: "\ttab \\ raw"}, {Row: 2, Text: ""}}}}},
			"GCX1 tool=t fields=a\n#first\n1\n#\ttab \\ raw\n2\n#\n"},
		{"several sections, tool names repeat [PAY-2] [PAY-3]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}}, {Tool: "t", Fields: []string{"a"}}}},
			"GCX1 tool=t fields=a\nGCX1 tool=t fields=a\n"},
		{"controls, U+2028 and BOM inside are data [ENC-4]",
			spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Rows: [][]string{{"\x00\x01\u2028\uFEFF\x7f"}}}}},
			"GCX1 tool=t fields=a\n\x00\x01\u2028\uFEFF\x7f\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := Encode(&out, &c.p); err != nil {
				t.Fatal(err)
			}
			if out.String() != c.want {
				t.Errorf("got  %q\nwant %q", out.String(), c.want)
			}
			ref, err := reference.Encode(&c.p)
			if err != nil || string(ref) != c.want {
				t.Errorf("reference.Encode = %q, %v; the case itself is wrong", ref, err)
			}
		})
	}
}

// Model errors, one per rule [CAN-3]: the stream encoder names the rule
// reference.Encode names.
func TestEncoderRefuses(t *testing.T) {
	base := func() spec.Payload {
		return spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"},
			Meta: []spec.Meta{{Key: "rows", Value: "1"}}, Rows: [][]string{{"x", "y"}},
			Comments: []spec.Comment{{Row: 1, Text: "c"}}}}}
	}
	cases := []struct {
		name string
		edit func(*spec.Payload)
		rule string
	}{
		{"no sections [PAY-1]", func(p *spec.Payload) { p.Sections = nil }, "PAY-1"},
		{"tool name with SP [HDR-3]", func(p *spec.Payload) { p.Sections[0].Tool = "my tool" }, "HDR-3"},
		{"no fields [HDR-4]", func(p *spec.Payload) { p.Sections[0].Fields = nil }, "HDR-4"},
		{"field twice [HDR-6]", func(p *spec.Payload) { p.Sections[0].Fields = []string{"a", "a"} }, "HDR-6"},
		{"field not UTF-8 [ENC-1]", func(p *spec.Payload) { p.Sections[0].Fields[1] = "\xff" }, "ENC-1"},
		{"meta key tool [HDR-8]", func(p *spec.Payload) {
			p.Sections[0].Meta = append(p.Sections[0].Meta, spec.Meta{Key: "tool", Value: "x"})
		}, "HDR-8"},
		{"rows=01 [META-1]", func(p *spec.Payload) { p.Sections[0].Meta[0].Value = "01" }, "META-1"},
		{"truncated=yes [META-3]", func(p *spec.Payload) {
			p.Sections[0].Meta = append(p.Sections[0].Meta, spec.Meta{Key: "truncated", Value: "yes"})
		}, "META-3"},
		{"rows= too small [META-4]", func(p *spec.Payload) { p.Sections[0].Meta[0].Value = "0" }, "META-4"},
		{"rows= too large [META-4]", func(p *spec.Payload) { p.Sections[0].Meta[0].Value = "2" }, "META-4"},
		{"row too short [ROW-2]", func(p *spec.Payload) { p.Sections[0].Rows[0] = []string{"x"} }, "ROW-2"},
		{"value not UTF-8 [ENC-1]", func(p *spec.Payload) { p.Sections[0].Rows[0][1] = "\xc3" }, "ENC-1"},
		{"comment with LF [CMT-4]", func(p *spec.Payload) { p.Sections[0].Comments[0].Text = "a\nb" }, "CMT-4"},
		{"comment with CR [CMT-4]", func(p *spec.Payload) { p.Sections[0].Comments[0].Text = "a\r" }, "CMT-4"},
		{"comment beyond the rows [CMT-3]", func(p *spec.Payload) { p.Sections[0].Comments[0].Row = 2 }, "CMT-3"},
		{"comment before row 0 [CMT-3]", func(p *spec.Payload) { p.Sections[0].Comments[0].Row = -1 }, "CMT-3"},
		{"comments out of order [CMT-3]", func(p *spec.Payload) {
			p.Sections[0].Comments = append(p.Sections[0].Comments, spec.Comment{Row: 0, Text: "d"})
		}, "CMT-3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := base()
			c.edit(&p)
			err := Encode(io.Discard, &p)
			if !errors.Is(err, spec.ErrModel) || ruleOf(err) != c.rule {
				t.Errorf("stream encoder: %v, want a model error [%s]", err, c.rule)
			}
			_, want := reference.Encode(&p)
			if ruleOf(want) != c.rule {
				t.Errorf("reference.Encode: %v, want [%s]; the case itself is wrong", want, c.rule)
			}
			// The very error, message and place included: the section and
			// row the message names are counted as the reference counts them.
			// Only rows= too small is worded otherwise: the stream encoder
			// refuses the row past the count as it comes, before it could know
			// how many rows the section holds.
			var g, w *spec.Error
			if errors.As(err, &g) && errors.As(want, &w) && *g != *w && c.name != "rows= too small [META-4]" {
				t.Errorf("stream encoder: %v\nreference:      %v", err, want)
			}
		})
	}
}

// Comments Encode cannot place are refused with reference.Encode's very
// error [CMT-3], message included, also where valid comments come before
// them and a later section holds the defect.
func TestEncodeMisplacedComments(t *testing.T) {
	section := func(places ...int) spec.Section {
		s := spec.Section{Tool: "t", Fields: []string{"a"}, Rows: [][]string{{"1"}, {"2"}}}
		for _, row := range places {
			s.Comments = append(s.Comments, spec.Comment{Row: row, Text: "c"})
		}
		return s
	}
	cases := map[string]spec.Payload{
		"out of order among rows": {Sections: []spec.Section{section(1, 0)}},
		"out of order at the end": {Sections: []spec.Section{section(2, 1)}},
		"beyond the rows":         {Sections: []spec.Section{section(0, 3)}},
		"negative":                {Sections: []spec.Section{section(-1)}},
		"in a later section":      {Sections: []spec.Section{section(0, 2), section(1, 1, 0)}},
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			_, want := reference.Encode(&p)
			got := Encode(io.Discard, &p)
			var g, w *spec.Error
			if !errors.As(got, &g) || !errors.As(want, &w) || *g != *w || w.Rule != "CMT-3" {
				t.Errorf("Encode: %v\nreference: %v", got, want)
			}
		})
	}
}

func ruleOf(err error) string {
	var e *spec.Error
	if errors.As(err, &e) {
		return e.Rule
	}
	return ""
}

// A row or comment before any header has nowhere to go [PAY-2] [CMT-2]; an
// Encoder refuses it, stays refused, and refuses use after Close.
func TestEncoderSequence(t *testing.T) {
	e := NewEncoder(io.Discard)
	if err := e.WriteRow([]string{"x"}); ruleOf(err) != "PAY-2" {
		t.Errorf("row before header: %v", err)
	}
	if err := e.WriteHeader(&Header{Tool: "t", Fields: []string{"a"}}); ruleOf(err) != "PAY-2" {
		t.Errorf("error not sticky: %v", err)
	}
	e = NewEncoder(io.Discard)
	if err := e.WriteComment("x"); ruleOf(err) != "CMT-2" {
		t.Errorf("comment before header: %v", err)
	}
	e = NewEncoder(io.Discard)
	if err := e.WriteHeader(&Header{Tool: "t", Fields: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRow([]string{"x"}); err == nil {
		t.Error("WriteRow after Close succeeded")
	}

	// A row beyond rows= is refused when it is written, not at the end
	// [META-4].
	e = NewEncoder(io.Discard)
	if err := e.WriteHeader(&Header{Tool: "t", Fields: []string{"a"}, Meta: []spec.Meta{{Key: "rows", Value: "1"}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRow([]string{"x"}); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRow([]string{"y"}); ruleOf(err) != "META-4" {
		t.Errorf("row beyond rows=1: %v", err)
	}
}

// The writer's own error comes back from Flush or Close, and sticks.
func TestEncoderWriterError(t *testing.T) {
	e := NewEncoder(failingWriter{})
	if err := e.WriteHeader(&Header{Tool: "t", Fields: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != errWriterBroke {
		t.Errorf("Close = %v, want the writer's error", err)
	}
	if err := e.WriteRow([]string{"x"}); err != errWriterBroke {
		t.Errorf("WriteRow after a write error = %v", err)
	}
}

var errWriterBroke = errors.New("test writer broke down")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWriterBroke }

// TestPropertyEncodeMatchesReference: for every valid payload the stream
// encoder writes exactly reference.Encode's bytes [CAN-1] [CAN-2], and the
// decoder reads them back to the same model.
func TestPropertyEncodeMatchesReference(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		want, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("reference.Encode: %v", err)
		}
		var got bytes.Buffer
		if err := Encode(&got, p); err != nil {
			t.Fatalf("stream encoder: %v", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("stream encoder wrote\n%q\nreference wrote\n%q", got.Bytes(), want)
		}
		back, err := Decode(bytes.NewReader(got.Bytes()), spec.DefaultLimits)
		if err != nil {
			t.Fatalf("decoding the encoder's output: %v", err)
		}
		if diff := diffEvents(flatten(back), flatten(p)); diff != "" {
			t.Fatalf("round trip differs:\n%s", diff)
		}
	})
}

// breakModel gives a valid payload one defect, mostly one that leaves it
// without a spelling.
func breakModel(t *rapid.T, p *spec.Payload) {
	s := &p.Sections[rapid.IntRange(0, len(p.Sections)-1).Draw(t, "section")]
	defect := rapid.IntRange(0, 14).Draw(t, "defect")
	if len(s.Fields) == 0 && (defect == 3 || defect == 4 || defect == 11) {
		return // an earlier defect took the fields these need
	}
	switch defect {
	case 0:
		p.Sections = nil
	case 1:
		s.Tool = rapid.SampledFrom([]string{"", "my tool", "a=b", "é"}).Draw(t, "tool")
	case 2:
		s.Fields = nil
	case 3:
		s.Fields = append(s.Fields, s.Fields[rapid.IntRange(0, len(s.Fields)-1).Draw(t, "twin")])
	case 4:
		s.Fields[rapid.IntRange(0, len(s.Fields)-1).Draw(t, "field")] = "\xff"
	case 5:
		key := rapid.SampledFrom([]string{"tool", "fields", "a b", "", "k=v"}).Draw(t, "key")
		s.Meta = append(s.Meta, spec.Meta{Key: key, Value: "v"})
	case 6:
		s.Meta = append(s.Meta, spec.Meta{Key: "x-bad", Value: "\xc3("})
	case 7:
		s.Meta = append(s.Meta, spec.Meta{Key: "truncated", Value: "yes"})
		s.Meta = append(s.Meta, spec.Meta{Key: "x-bad2", Value: "1"})
	case 8:
		s.Meta = append([]spec.Meta{{Key: "total", Value: "-1"}}, s.Meta...)
	case 9:
		s.Meta = setRows(s.Meta, len(s.Rows)+rapid.SampledFrom([]int{-1, 1, 2}).Draw(t, "off-by"))
	case 10:
		if len(s.Rows) == 0 {
			s.Rows = append(s.Rows, nil)
			s.Meta = setRows(s.Meta, 1)
		}
		r := rapid.IntRange(0, len(s.Rows)-1).Draw(t, "row")
		s.Rows[r] = append(append([]string(nil), s.Rows[r]...), "extra")
	case 11:
		if len(s.Rows) == 0 {
			s.Rows = append(s.Rows, make([]string, len(s.Fields)))
			s.Meta = setRows(s.Meta, 1)
		}
		r := rapid.IntRange(0, len(s.Rows)-1).Draw(t, "row")
		row := append([]string(nil), s.Rows[r]...)
		row[rapid.IntRange(0, len(row)-1).Draw(t, "value")] = "ok\xe2\x82"
		s.Rows[r] = row
	case 12:
		s.Comments = append(s.Comments, spec.Comment{Row: len(s.Rows), Text: rapid.SampledFrom([]string{"a\nb", "\r", "\xff"}).Draw(t, "comment")})
	case 13:
		s.Meta = append(s.Meta, spec.Meta{Key: "rows", Value: strconv.Itoa(len(s.Rows))})
		s.Meta = append(s.Meta, spec.Meta{Key: "rows", Value: strconv.Itoa(len(s.Rows))})
	case 14:
		// A comment beyond the rows, before row 0, or before the row of
		// the comment ahead of it [CMT-3].
		places := []int{len(s.Rows) + 1, -1}
		if n := len(s.Comments); n > 0 && s.Comments[n-1].Row > 0 {
			places = append(places, s.Comments[n-1].Row-1)
		}
		row := rapid.SampledFrom(places).Draw(t, "misplaced")
		s.Comments = append(s.Comments, spec.Comment{Row: row, Text: "c"})
	}
}

// setRows sets rows= to n (dropped when n is negative), keeping its place.
func setRows(meta []spec.Meta, n int) []spec.Meta {
	out := append([]spec.Meta(nil), meta...)
	for i := range out {
		if out[i].Key == spec.KeyRows {
			if n < 0 {
				return append(out[:i], out[i+1:]...)
			}
			out[i].Value = strconv.Itoa(n)
			return out
		}
	}
	if n < 0 {
		return out
	}
	return append(out, spec.Meta{Key: spec.KeyRows, Value: strconv.Itoa(n)})
}

// TestPropertyEncodeRefusesLikeReference: given a model with one to three
// defects, the stream encoder refuses it with a model error naming the rule
// reference.Encode names, the first in the order [CAN-3] settles, and
// accepts what reference.Encode accepts.
func TestPropertyEncodeRefusesLikeReference(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		for range rapid.IntRange(1, 3).Draw(t, "defects") {
			if len(p.Sections) > 0 {
				breakModel(t, p)
			}
		}
		_, want := reference.Encode(p)
		got := Encode(io.Discard, p)
		if want == nil {
			if got != nil {
				t.Fatalf("reference encodes the model, stream encoder refuses: %v", got)
			}
			return
		}
		if !errors.Is(got, spec.ErrModel) || ruleOf(got) != ruleOf(want) {
			t.Fatalf("stream encoder: %v\nreference: %v", got, want)
		}
	})
}

// TestReleaseKeepsBuffersUpToMaxPooled: release hands back a buffer of up
// to maxPooled bytes, the bound included, and leaves a bigger one, grown
// for a very long line, to the collector.
func TestReleaseKeepsBuffersUpToMaxPooled(t *testing.T) {
	cases := []struct {
		name     string
		capacity int
		pooled   bool
	}{
		{"small", 64, true},
		{"at maxPooled", maxPooled, true},
		{"one over maxPooled", maxPooled + 1, false},
	}
	for _, c := range cases {
		e := NewEncoder(io.Discard)
		e.buf = make([]byte, 0, c.capacity)
		e.release()
		// release takes the buffer from e exactly when it hands it back.
		if handed := e.buf == nil; handed != c.pooled {
			t.Errorf("%s: a buffer of %d bytes handed back %v, want %v", c.name, c.capacity, handed, c.pooled)
		}
	}
}
