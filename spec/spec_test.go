package spec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// Version tags [VER-1] [VER-2] [VER-3] [VER-6].
func TestReadTag(t *testing.T) {
	long := "GCX" + strings.Repeat("1", 29) // 32 bytes: the longest tag
	cases := []struct {
		line string
		tag  string
		kind spec.TagKind
		n    int
	}{
		{"GCX1 tool=t", "GCX1", spec.TagGCX1, 4},
		{"GCX1\n", "GCX1", spec.TagGCX1, 4},
		{"GCX1", "GCX1", spec.TagGCX1, 4},
		{"GCX2 tool=t", "GCX2", spec.TagOther, 4},
		{"GCX10 tool=t", "GCX10", spec.TagOther, 5},
		{"GCX12\n", "GCX12", spec.TagOther, 5},
		{"GCX1-stream tool=t", "GCX1-stream", spec.TagOther, 11},
		{"GCX1.1 ", "GCX1.1", spec.TagOther, 6},
		{"GCXa ", "GCXa", spec.TagOther, 4},
		{long + " ", long, spec.TagOther, 32},
		{long + "1 ", "", spec.TagMalformed, 32},
		{"GCX tool=t", "", spec.TagMalformed, 3},
		{"GCX\n", "", spec.TagMalformed, 3},
		{"GCX", "", spec.TagMalformed, 3},
		{"GCX1\ttool=t", "", spec.TagMalformed, 4},
		{"GCX1\r\n", "", spec.TagMalformed, 4},
		{"GCX1=", "", spec.TagMalformed, 4},
		{"GCX1é", "", spec.TagMalformed, 4},
		{"gcx1 tool=t", "", spec.TagNotGCX, 0},
		{"GC", "", spec.TagNotGCX, 0},
		{"", "", spec.TagNotGCX, 0},
		{"\uFEFFGCX1 ", "", spec.TagNotGCX, 0},
		{`{"a":1}`, "", spec.TagNotGCX, 0},
	}
	for _, c := range cases {
		tag, kind, n := spec.ReadTag([]byte(c.line))
		if tag != c.tag || kind != c.kind || n != c.n {
			t.Errorf("ReadTag(%q) = %q, %d, %d; want %q, %d, %d", c.line, tag, kind, n, c.tag, c.kind, c.n)
		}
	}
}

// Count and boolean syntax of the reserved keys [META-1] [META-3].
func TestReservedValues(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "1": true, "10": true, "9223372036854775807": true,
		"": false, "01": false, "-1": false, "+1": false, " 1": false, "1.0": false, "1e3": false,
		"9223372036854775808": false, "١": false,
	} {
		if got := spec.ValidCount(s); got != want {
			t.Errorf("ValidCount(%q) = %v", s, got)
		}
	}
	for s, want := range map[string]bool{"true": true, "false": true, "True": false, "1": false, "": false, "yes": false} {
		if got := spec.ValidBool(s); got != want {
			t.Errorf("ValidBool(%q) = %v", s, got)
		}
	}
	if rule, _ := spec.CheckMeta("rows", "01"); rule != "META-1" {
		t.Errorf("rows=01: rule %q", rule)
	}
	if rule, _ := spec.CheckMeta("total", "x"); rule != "META-1" {
		t.Errorf("total=x: rule %q", rule)
	}
	if rule, _ := spec.CheckMeta("truncated", "no"); rule != "META-3" {
		t.Errorf("truncated=no: rule %q", rule)
	}
	// Unknown keys take any value [HDR-9]; total is not related to rows [META-2].
	if rule, _ := spec.CheckMeta("cursor", "01 -x"); rule != "" {
		t.Errorf("unknown key: rule %q", rule)
	}
}

// Error values wrap their class and print position and rule [ERR-1] [ERR-2].
func TestErrorValue(t *testing.T) {
	e := &spec.Error{Class: spec.ErrSyntax, Line: 2, Column: 3, Offset: 24, Rule: "VAL-2", Msg: `expected one of \ t n r`}
	if !errors.Is(e, spec.ErrSyntax) || errors.Is(e, spec.ErrConstraint) {
		t.Error("errors.Is does not follow the class")
	}
	if got, want := e.Error(), `gcx: line 2, column 3: syntax error: expected one of \ t n r [VAL-2]`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	// [MAP-1]: the mapping's refusal of its input gives the byte offset too.
	j := &spec.Error{Class: spec.ErrInvalidJSON, Line: 1, Column: 5, Offset: 4, Rule: "MAP-1", Msg: "expected a JSON value"}
	if got, want := j.Error(), "gcx: line 1, column 5, byte offset 4: invalid JSON: expected a JSON value [MAP-1]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	m := &spec.Error{Class: spec.ErrModel, Rule: "HDR-3", Msg: "bad name"}
	if got, want := m.Error(), "gcx: model cannot be encoded: bad name [HDR-3]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	for err, name := range map[error]string{
		nil: "", spec.ErrNotGCX: "not-gcx", spec.ErrUnsupportedVersion: "unsupported-version", e: "syntax",
		spec.ErrConstraint: "constraint", spec.ErrLimit: "limit", m: "model", errors.New("disk"): "io",
	} {
		if got := spec.ClassName(err); got != name {
			t.Errorf("ClassName(%v) = %q, want %q", err, got, name)
		}
	}
}

// The model checks refuse what has no spelling [CAN-3]; each case names the
// rule it expects.
func TestCheck(t *testing.T) {
	ok := func() spec.Section {
		return spec.Section{Tool: "t", Fields: []string{"a", ""}, Meta: []spec.Meta{{Key: "rows", Value: "1"}},
			Rows: [][]string{{"x", ""}}, Comments: []spec.Comment{{Row: 0, Text: "c"}, {Row: 1, Text: "d\t\\"}}}
	}
	cases := []struct {
		name string
		edit func(*spec.Section)
		rule string
	}{
		{"valid", func(*spec.Section) {}, ""},
		{"tool with space", func(s *spec.Section) { s.Tool = "my tool" }, "HDR-3"},
		{"empty tool", func(s *spec.Section) { s.Tool = "" }, "HDR-3"},
		{"no fields", func(s *spec.Section) { s.Fields = nil; s.Rows = [][]string{{}} }, "HDR-4"},
		{"duplicate fields", func(s *spec.Section) { s.Fields = []string{"a", "a"} }, "HDR-6"},
		{"field not UTF-8", func(s *spec.Section) { s.Fields[0] = "\xff" }, "ENC-1"},
		{"meta key with =", func(s *spec.Section) { s.Meta = append(s.Meta, spec.Meta{Key: "a=b"}) }, "HDR-3"},
		{"meta key tool", func(s *spec.Section) { s.Meta = append(s.Meta, spec.Meta{Key: "tool", Value: "x"}) }, "HDR-8"},
		{"meta key fields", func(s *spec.Section) { s.Meta = append(s.Meta, spec.Meta{Key: "fields", Value: "x"}) }, "HDR-8"},
		{"meta key twice", func(s *spec.Section) { s.Meta = append(s.Meta, spec.Meta{Key: "rows", Value: "1"}) }, "HDR-8"},
		{"rows not a count", func(s *spec.Section) { s.Meta[0].Value = "one" }, "META-1"},
		{"truncated not a bool", func(s *spec.Section) { s.Meta = append(s.Meta, spec.Meta{Key: "truncated", Value: "1"}) }, "META-3"},
		{"rows disagrees", func(s *spec.Section) { s.Meta[0].Value = "2" }, "META-4"},
		{"short row", func(s *spec.Section) { s.Rows[0] = []string{"x"} }, "ROW-2"},
		// A row beyond the declared count is refused for its own fault
		// first, in payload order, then for the count.
		{"one row too many, itself short", func(s *spec.Section) { s.Rows = append(s.Rows, []string{"y"}) }, "ROW-2"},
		{"one row too many", func(s *spec.Section) { s.Rows = append(s.Rows, []string{"y", "z"}) }, "META-4"},
		{"value not UTF-8", func(s *spec.Section) { s.Rows[0][1] = "\xc3" }, "ENC-1"},
		{"comment with LF", func(s *spec.Section) { s.Comments[0].Text = "a\nb" }, "CMT-4"},
		{"comment with CR", func(s *spec.Section) { s.Comments[0].Text = "a\rb" }, "CMT-4"},
		{"comment past the rows", func(s *spec.Section) { s.Comments[1].Row = 2 }, "CMT-3"},
		{"comments out of order", func(s *spec.Section) { s.Comments[0].Row = 1; s.Comments[1].Row = 0 }, "CMT-3"},
	}
	for _, c := range cases {
		s := ok()
		c.edit(&s)
		err := (&spec.Payload{Sections: []spec.Section{s}}).Check()
		var e *spec.Error
		switch {
		case c.rule == "" && err != nil:
			t.Errorf("%s: unexpected error %v", c.name, err)
		case c.rule != "" && (!errors.As(err, &e) || e.Rule != c.rule || !errors.Is(err, spec.ErrModel)):
			t.Errorf("%s: got %v, want a model error citing %s", c.name, err, c.rule)
		}
	}
	if err := (&spec.Payload{}).Check(); spec.ClassName(err) != "model" {
		t.Errorf("empty payload: %v [PAY-1]", err)
	}
}

// TestCheckMessagesNamePlace: a refusal's message names the 1-based
// section, row and value it is about, and a number as written when it is
// short, quoted and cut when it is long.
func TestCheckMessagesNamePlace(t *testing.T) {
	long := strings.Repeat("9", 100)
	cases := []struct {
		name string
		err  error
		want string // a part of the message
	}{
		{"value not UTF-8", spec.CheckRow(1, 2, 3, []string{"a", "b", "\xff"}), "section 2, row 3, value 3 is not valid UTF-8"},
		{"row too short", spec.CheckRow(1, 2, 3, []string{"a"}), "section 2, row 3: 1 value for 3 fields"},
		{"first row too long", spec.CheckRow(0, 0, 1, []string{"a", "b"}), "section 1, row 1: 2 values for 1 field"},
		{"first value not UTF-8", spec.CheckRow(0, 0, 2, []string{"\xff", "b"}), "section 1, row 1, value 1 is not valid UTF-8"},
		{"short comment place", spec.CommentPlaceError(0, 1, "7", 2, 5), "section 1: comment 2 is placed before row 7, outside 2..5"},
		{"long comment place", spec.CommentPlaceError(0, 0, long, 0, 5), `before row "` + long[:64] + `"… (100 bytes), outside`},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want a message with %q", c.name, c.err, c.want)
		}
	}
}
