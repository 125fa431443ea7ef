package streaming

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
)

// A line that breaks a rule of [CAN-3] and exceeds a limit is refused for
// the rule; a line that exceeds a limit before a later one breaks a rule
// is refused for the limit [LIM-4].
func TestEncoderLimitAfterLineRules(t *testing.T) {
	long := strings.Repeat("v", 30)
	cases := []struct {
		name   string
		limits spec.Limits
		rows   [][]string
		class  error
		rule   string
	}{
		{"too long and too wide", spec.Limits{MaxLineBytes: 20}, [][]string{{long, "x"}}, spec.ErrModel, "ROW-2"},
		{"beyond the row limit and too wide", spec.Limits{MaxRows: 1}, [][]string{{"a"}, {"b", "c"}}, spec.ErrModel, "ROW-2"},
		{"too long, then too wide", spec.Limits{MaxLineBytes: 20}, [][]string{{long}, {"b", "c"}}, spec.ErrLimit, "LIM-4"},
		{"beyond the row limit, then too wide", spec.Limits{MaxRows: 1}, [][]string{{"a"}, {"b"}, {"c", "d"}}, spec.ErrLimit, "LIM-4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Rows: c.rows}}}
			err := EncodeLimits(io.Discard, &p, c.limits)
			if !errors.Is(err, c.class) || ruleOf(err) != c.rule {
				t.Errorf("EncodeLimits: %v, want %v [%s]", err, c.class, c.rule)
			}
		})
	}
}

// The encoder refuses, with a limit error naming LIM-4, each thing a
// decoder under the same limits refuses [LIM-4] [LIM-3].
func TestEncoderLimits(t *testing.T) {
	section := func(fields int, rows ...string) spec.Section {
		s := spec.Section{Tool: "t"}
		for i := range fields {
			s.Fields = append(s.Fields, string(rune('a'+i)))
		}
		for _, r := range rows {
			s.Rows = append(s.Rows, strings.Split(r, ","))
		}
		return s
	}
	cases := []struct {
		name   string
		limits spec.Limits
		p      spec.Payload
		refuse bool
	}{
		{"row at the line limit", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{""}, Rows: [][]string{{"abcdefghijklmnopqrst"}}}}}, false},
		{"row over the line limit", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{""}, Rows: [][]string{{"abcdefghijklmnopqrstu"}}}}}, true},
		{"escapes count", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{""}, Rows: [][]string{{"abcdefghijklmnopq\tr"}}}}}, false},
		{"escapes count over", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{""}, Rows: [][]string{{"abcdefghijklmnopq\t\tr"}}}}}, true},
		{"guard counts", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{""}, Rows: [][]string{{"#abcdefghijklmnopqrs"}}}}}, true},
		{"header over the line limit", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{section(2)}}, true},
		{"comment at the line limit", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Comments: []spec.Comment{{Text: strings.Repeat("c", 19)}}}}}, false},
		{"comment over the line limit", spec.Limits{MaxLineBytes: 20}, spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Comments: []spec.Comment{{Text: strings.Repeat("c", 20)}}}}}, true},
		{"fields at the limit", spec.Limits{MaxFields: 3}, spec.Payload{Sections: []spec.Section{section(3)}}, false},
		{"fields over the limit", spec.Limits{MaxFields: 3}, spec.Payload{Sections: []spec.Section{section(4)}}, true},
		{"sections at the limit", spec.Limits{MaxSections: 2}, spec.Payload{Sections: []spec.Section{section(1), section(1)}}, false},
		{"sections over the limit", spec.Limits{MaxSections: 2}, spec.Payload{Sections: []spec.Section{section(1), section(1), section(1)}}, true},
		{"rows at the limit", spec.Limits{MaxRows: 2}, spec.Payload{Sections: []spec.Section{section(1, "x", "y"), section(1, "z", "w")}}, false},
		{"rows over the limit", spec.Limits{MaxRows: 2}, spec.Payload{Sections: []spec.Section{section(1, "x", "y", "z")}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := EncodeLimits(io.Discard, &c.p, c.limits)
			var se *spec.Error
			switch {
			case c.refuse && (!errors.As(err, &se) || se.Rule != "LIM-4" || !errors.Is(err, spec.ErrLimit)):
				t.Fatalf("got %v, want a limit error naming LIM-4", err)
			case !c.refuse && err != nil:
				t.Fatalf("refused: %v", err)
			}
			checkAgreesWithDecoder(t, &c.p, c.limits, err)
		})
	}
	if NewEncoder(io.Discard).Limits != spec.DefaultLimits {
		t.Error("NewEncoder does not apply spec.DefaultLimits")
	}
}

// checkAgreesWithDecoder checks [LIM-4] for one payload: the encoder under
// limits refused it (encErr) exactly when a decoder under the same limits
// refuses its unlimited encoding, and then with a limit error.
func checkAgreesWithDecoder(t interface{ Fatalf(string, ...any) }, p *spec.Payload, limits spec.Limits, encErr error) {
	var all bytes.Buffer
	if err := EncodeLimits(&all, p, spec.Unlimited); err != nil {
		t.Fatalf("unlimited encoder: %v", err)
	}
	_, decErr := Decode(bytes.NewReader(all.Bytes()), limits)
	switch {
	case encErr == nil && decErr != nil:
		t.Fatalf("the encoder wrote under %+v what the decoder refuses: %v\n%q", limits, decErr, all.Bytes())
	case encErr != nil && decErr == nil:
		t.Fatalf("the encoder refused under %+v what the decoder reads: %v\n%q", limits, encErr, all.Bytes())
	case decErr != nil && !errors.Is(decErr, spec.ErrLimit):
		t.Fatalf("the decoder refused a valid payload with a non-limit error: %v", decErr)
	}
}

// TestPropertyEncoderLimits: under any limits L the encoder writes a
// payload exactly when a decoder under L reads it [LIM-4].
func TestPropertyEncoderLimits(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		limit := func(name string, hi int) int { return rapid.IntRange(0, hi).Draw(t, name) }
		limits := spec.Limits{MaxLineBytes: limit("line", 60), MaxFields: limit("fields", 5), MaxSections: limit("sections", 4), MaxRows: limit("rows", 4)}
		err := EncodeLimits(io.Discard, p, limits)
		if err != nil && !errors.Is(err, spec.ErrLimit) {
			t.Fatalf("refused a valid model: %v", err)
		}
		checkAgreesWithDecoder(t, p, limits, err)
	})
}

// The position accessors give, for every row and header, the places the
// decoder's own errors would name [ERR-2], whatever pieces the input
// arrives in.
func TestPositionAccessors(t *testing.T) {
	payload := "GCX1 tool=t fields=a\\sb,c,d json=x k=v\\sw\n" +
		"#comment\n" +
		"1\t\\t2\t\n" +
		"\\#x\ty\tz\n" +
		"GCX1 tool=u fields=q\n" +
		"\n"
	type row struct {
		line   int
		offset int64
		cols   []int
	}
	want := []row{{3, 51, []int{1, 3, 7}}, {4, 58, []int{2, 5, 7}}, {6, 87, []int{1}}}
	for _, how := range []string{"whole", "one-byte", "portable"} {
		var r io.Reader = strings.NewReader(payload)
		if how == "one-byte" {
			r = iotest.OneByteReader(r)
		}
		d := NewDecoder(r)
		d.portable = how == "portable"
		d.ReuseRecord = true
		var rows []row
		headers := 0
		for {
			kind, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			switch kind {
			case KindHeader:
				headers++
				if headers == 1 && (d.LineOffset() != 0 || d.FieldsColumn() != 20 || d.MetaColumn(0) != 34 || d.MetaColumn(1) != 38) {
					t.Errorf("%s: header 1 at %d, fields at %d, meta at %d, %d", how, d.LineOffset(), d.FieldsColumn(), d.MetaColumn(0), d.MetaColumn(1))
				}
				if headers == 2 && (d.LineOffset() != 66 || d.Line() != 5 || d.FieldsColumn() != 20) {
					t.Errorf("%s: header 2 at %d, line %d, fields at %d", how, d.LineOffset(), d.Line(), d.FieldsColumn())
				}
			case KindRow:
				got := row{line: d.Line(), offset: d.LineOffset()}
				for i := range d.Row() {
					got.cols = append(got.cols, d.ValueColumn(i))
				}
				rows = append(rows, got)
			}
		}
		if len(rows) != len(want) {
			t.Fatalf("%s: %d rows", how, len(rows))
		}
		for i := range want {
			g, w := rows[i], want[i]
			if g.line != w.line || g.offset != w.offset || len(g.cols) != len(w.cols) || !equalInts(g.cols, w.cols) {
				t.Errorf("%s: row %d at %+v, want %+v", how, i+1, g, w)
			}
			if payload[w.offset-1] != '\n' {
				t.Fatalf("the case is wrong: offset %d is not a line start", w.offset)
			}
		}
	}
}

func equalInts(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// Reset starts a new payload with the same buffer and limits.
func TestEncoderReset(t *testing.T) {
	var a, b bytes.Buffer
	e := NewEncoder(&a)
	e.Limits = spec.Limits{MaxRows: 1}
	e.WriteHeader(&Header{Tool: "t", Fields: []string{"a"}})
	e.WriteRow([]string{"x"})
	if err := e.WriteRow([]string{"y"}); err == nil {
		t.Fatal("the row limit was not applied")
	}
	e.Reset(&b)
	if err := e.WriteHeader(&Header{Tool: "u", Fields: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	e.WriteRow([]string{"z"})
	if err := e.WriteRow([]string{"w"}); err == nil {
		t.Fatal("Reset dropped the limits")
	}
	e.Reset(&b)
	e.WriteHeader(&Header{Tool: "u", Fields: []string{"b"}})
	if err := e.Close(); err != nil || b.String() != "GCX1 tool=u fields=b\n" || a.Len() != 0 {
		t.Fatalf("after Reset: %v, wrote %q and %q", err, b.String(), a.String())
	}
}

// TestEncoderLineLimitNamesRow: a row over the line limit is refused with
// its own 1-based number and length, so the message leads to the row.
func TestEncoderLineLimitNamesRow(t *testing.T) {
	p := spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a"}, Rows: [][]string{{"ok"}, {strings.Repeat("v", 30)}}}}}
	err := EncodeLimits(io.Discard, &p, spec.Limits{MaxLineBytes: 20})
	var e *spec.Error
	if !errors.As(err, &e) || e.Rule != "LIM-4" || !strings.HasPrefix(e.Msg, "section 1, row 2 of 30 bytes: ") {
		t.Fatalf("EncodeLimits: %v, want LIM-4 for section 1, row 2 of 30 bytes", err)
	}
}

// TestEncoderHeaderLimitNamesSection: a header refused for the section or
// the field limit is named by its own 1-based section number, the one it
// would have begun, so the message leads to it.
func TestEncoderHeaderLimitNamesSection(t *testing.T) {
	one := spec.Section{Tool: "t", Fields: []string{"a"}}
	wide := spec.Section{Tool: "t", Fields: []string{"a", "b", "c"}}
	cases := []struct {
		name   string
		limits spec.Limits
		p      spec.Payload
		prefix string
	}{
		{"third section over two", spec.Limits{MaxSections: 2}, spec.Payload{Sections: []spec.Section{one, one, one}}, "section 3: "},
		{"first section over the field limit", spec.Limits{MaxFields: 2}, spec.Payload{Sections: []spec.Section{wide}}, "section 1: "},
		{"second section over the field limit", spec.Limits{MaxFields: 2}, spec.Payload{Sections: []spec.Section{one, wide}}, "section 2: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := EncodeLimits(io.Discard, &c.p, c.limits)
			var e *spec.Error
			if !errors.As(err, &e) || e.Rule != "LIM-4" || !strings.HasPrefix(e.Msg, c.prefix) {
				t.Fatalf("EncodeLimits: %v, want LIM-4 beginning %q", err, c.prefix)
			}
		})
	}
}
