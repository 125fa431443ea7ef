package reference

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/spec"
)

var encodeTests = []struct {
	name  string
	model *spec.Payload
	want  string
}{
	{
		name: "CAN-2 header order: tool=, fields=, then meta in model order",
		model: payload(spec.Section{Tool: "search_symbols", Fields: fields("id", "kind"),
			Meta: meta("truncated", "false", "rows", "1", "total", "7"), Rows: rows(row("a", "function"))}),
		want: "GCX1 tool=search_symbols fields=id,kind truncated=false rows=1 total=7\na\tfunction\n",
	},
	{
		name:  "HDR-5 field names escape SP , TAB LF CR and backslash, nothing else",
		model: payload(spec.Section{Tool: "t", Fields: fields("a b", "c,d", `e\f`, "g\th", "i\nj", "k\rl", "=#é\x00")}),
		want:  `GCX1 tool=t fields=a\sb,c\,d,e\\f,g\th,i\nj,k\rl,=#é` + "\x00\n",
	},
	{
		name:  "HDR-5 the published encoder's field names a,b and c stay two fields",
		model: payload(spec.Section{Tool: "my_tool", Fields: fields("a,b", "c"), Rows: rows(row("1", "2"))}),
		want:  `GCX1 tool=my_tool fields=a\,b,c` + "\n1\t2\n",
	},
	{
		name:  "HDR-4 one empty field name is written fields=",
		model: payload(spec.Section{Tool: "t", Fields: fields(""), Rows: rows(row(""), row("x"))}),
		want:  "GCX1 tool=t fields=\n\nx\n",
	},
	{
		name:  "HDR-4 empty field names among others",
		model: payload(spec.Section{Tool: "t", Fields: fields("a", "")}),
		want:  "GCX1 tool=t fields=a,\n",
	},
	{
		name:  "HDR-7 meta values escape SP TAB LF CR and backslash; , and = stay raw",
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("k", "a b\\c\td\ne\rf,g=h", "e", "")}),
		want:  `GCX1 tool=t fields=a k=a\sb\\c\td\ne\rf,g=h e=` + "\n",
	},
	{
		name:  "VAL-1 values escape backslash TAB LF CR; SP , = stay raw",
		model: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("x\\y\tz", "1\n2\r3 ,=\\"))}),
		want:  "GCX1 tool=t fields=a,b\n" + `x\\y\tz` + "\t" + `1\n2\r3 ,=\\` + "\n",
	},
	{
		name:  `VAL-1 backslash and t as data are written \\t`,
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row(`\t`))}),
		want:  h1 + `\\t` + "\n",
	},
	{
		name:  "ROW-4 guard before first values starting with # or GCX",
		model: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("#x", "1"), row("GCX1 hi", "#"), row("#", "GCX"))}),
		want:  h2 + `\#x` + "\t1\n" + `\GCX1 hi` + "\t#\n" + `\#` + "\tGCX\n",
	},
	{
		name:  "ROW-4 no guard for G, GC, GCx or a first value escaped anyway",
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("G"), row("GC"), row("GCx"), row("\\#"), row("\tGCX"))}),
		want:  h1 + "G\nGC\nGCx\n" + `\\#` + "\n" + `\tGCX` + "\n",
	},
	{
		name:  "ROW-1 ROW-3 one empty value is an empty line; trailing empty values are written",
		model: payload(spec.Section{Tool: "t", Fields: fields("a", "b", "c"), Rows: rows(row("", "", ""), row("x", "", ""))}),
		want:  "GCX1 tool=t fields=a,b,c\n\t\t\nx\t\t\n",
	},
	{
		name: "CAN-2 CMT-3 comments go before the row they precede, the rest after the last row",
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("x"), row("y")),
			Comments: comments(comment(0, "a"), comment(0, "b"), comment(1, "c"), comment(2, "d"), comment(2, "e"))}),
		want: h1 + "#a\n#b\nx\n#c\ny\n#d\n#e\n",
	},
	{
		name:  "CMT-1 CMT-2 comment text is raw, also in a section without rows",
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Comments: comments(comment(0, "a\tb\\q #GCX1"))}),
		want:  h1 + "#a\tb\\q #GCX1\n",
	},
	{
		name: "PAY-2 PAY-3 sections are concatenated; tool names may repeat",
		model: payload(
			spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("x"))},
			spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("rows", "0")},
		),
		want: h1 + "x\nGCX1 tool=t fields=a rows=0\n",
	},
	{
		name: "ENC-4 controls, DEL, U+2028 and U+FEFF pass through",
		model: payload(spec.Section{Tool: "t", Fields: fields("\uFEFF"), Meta: meta("k", "\x00\u2028"),
			Rows: rows(row("\x00\x1f\x7f\u2028\uFEFF")), Comments: comments(comment(1, "\x01\uFEFF"))}),
		want: "GCX1 tool=t fields=\uFEFF k=\x00\u2028\n\x00\x1f\x7f\u2028\uFEFF\n#\x01\uFEFF\n",
	},
	{
		name: "CAN-2 empty slices are written like absent ones",
		model: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: []spec.Meta{}, Rows: [][]string{},
			Comments: []spec.Comment{}}),
		want: h1,
	},
}

// TestEncode checks the canonical bytes of each model [CAN-2] and that they
// decode back to the model [CAN-1].
func TestEncode(t *testing.T) {
	for _, tc := range encodeTests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.model)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("Encode = %q, want %q", got, tc.want)
			}
			back, err := Decode(got)
			if err != nil {
				t.Fatalf("Decode(Encode(p)): %v", err)
			}
			if diff := cmp.Diff(tc.model, back, equateEmptyModel); diff != "" {
				t.Errorf("CAN-1: Decode(Encode(p)) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// valid returns a section that has a spelling, for the error cases to break.
func valid() spec.Section {
	return spec.Section{Tool: "t", Fields: fields("a", "b"), Meta: meta("rows", "2", "k", "v"),
		Rows: rows(row("1", "2"), row("3", "4")), Comments: comments(comment(0, "c"), comment(2, "d"))}
}

var encodeErrorTests = []struct {
	name  string
	model *spec.Payload
	rule  string
}{
	{"PAY-1 a nil payload", nil, "PAY-1"},
	{"PAY-1 no sections", &spec.Payload{}, "PAY-1"},
	{"HDR-3 an empty tool name", edit(func(s *spec.Section) { s.Tool = "" }), "HDR-3"},
	{"HDR-3 a tool name with SP, as the published encoder wrote it", edit(func(s *spec.Section) { s.Tool = "my tool" }), "HDR-3"},
	{"HDR-3 a tool name with =", edit(func(s *spec.Section) { s.Tool = "a=b" }), "HDR-3"},
	{"HDR-3 a non-ASCII tool name", edit(func(s *spec.Section) { s.Tool = "é" }), "HDR-3"},
	{"HDR-3 ENC-1 a tool name that is not UTF-8", edit(func(s *spec.Section) { s.Tool = "a\xff" }), "HDR-3"},
	{"HDR-4 nil fields", edit(func(s *spec.Section) { s.Fields = nil; s.Rows = nil; s.Meta = nil; s.Comments = nil }), "HDR-4"},
	{"HDR-4 an empty field list", edit(func(s *spec.Section) { s.Fields = []string{}; s.Rows = nil; s.Meta = nil }), "HDR-4"},
	{"HDR-6 duplicate field names", edit(func(s *spec.Section) { s.Fields = fields("a", "a") }), "HDR-6"},
	{"HDR-6 two empty field names", edit(func(s *spec.Section) { s.Fields = fields("", "") }), "HDR-6"},
	{"HDR-3 an empty meta key", edit(func(s *spec.Section) { s.Meta = meta("", "v") }), "HDR-3"},
	{"HDR-3 a meta key with SP", edit(func(s *spec.Section) { s.Meta = meta("a b", "v") }), "HDR-3"},
	{"HDR-3 a meta key with =", edit(func(s *spec.Section) { s.Meta = meta("a=b", "v") }), "HDR-3"},
	{"HDR-3 a meta key that is not UTF-8", edit(func(s *spec.Section) { s.Meta = meta("\xc3", "v") }), "HDR-3"},
	{"HDR-8 meta key tool", edit(func(s *spec.Section) { s.Meta = meta("tool", "u") }), "HDR-8"},
	{"HDR-8 meta key fields", edit(func(s *spec.Section) { s.Meta = meta("fields", "b") }), "HDR-8"},
	{"HDR-8 a duplicate meta key", edit(func(s *spec.Section) { s.Meta = meta("k", "1", "k", "1") }), "HDR-8"},
	{"META-1 rows=01", edit(func(s *spec.Section) { s.Meta = meta("rows", "02") }), "META-1"},
	{"META-1 rows=-1", edit(func(s *spec.Section) { s.Meta = meta("rows", "-1") }), "META-1"},
	{"META-1 rows beyond int64", edit(func(s *spec.Section) { s.Meta = meta("rows", "99999999999999999999") }), "META-1"},
	{"META-1 total=x", edit(func(s *spec.Section) { s.Meta = meta("total", "x") }), "META-1"},
	{"META-3 truncated=True", edit(func(s *spec.Section) { s.Meta = meta("truncated", "True") }), "META-3"},
	{"META-4 rows= disagrees with the rows", edit(func(s *spec.Section) { s.Meta = meta("rows", "3") }), "META-4"},
	{"META-4 rows=0 on a section with rows", edit(func(s *spec.Section) { s.Meta = meta("rows", "0") }), "META-4"},
	{"ROW-2 a row with too few values", edit(func(s *spec.Section) { s.Rows[1] = row("3") }), "ROW-2"},
	{"ROW-2 a row with too many values", edit(func(s *spec.Section) { s.Rows[0] = row("1", "2", "") }), "ROW-2"},
	{"ROW-2 a nil row", edit(func(s *spec.Section) { s.Rows[0] = nil }), "ROW-2"},
	{"ROW-2 the draft's example: six fields, five values", payload(spec.Section{Tool: "search_symbols",
		Fields: fields("id", "kind", "name", "path", "line", "sig"),
		Rows:   rows(row("internal/mcp/server.go::NewServer", "function", "NewServer", "internal/mcp/server.go", "62"))}), "ROW-2"},
	{"CMT-4 a comment with LF", edit(func(s *spec.Section) { s.Comments[0].Text = "a\nb" }), "CMT-4"},
	{"CMT-4 a comment with CR", edit(func(s *spec.Section) { s.Comments[1].Text = "a\r" }), "CMT-4"},
	{"CMT-3 a comment placed before row -1", edit(func(s *spec.Section) { s.Comments[0].Row = -1 }), "CMT-3"},
	{"CMT-3 a comment placed after a row that does not exist", edit(func(s *spec.Section) { s.Comments[1].Row = 3 }), "CMT-3"},
	{"CMT-3 comments out of order", edit(func(s *spec.Section) { s.Comments[0].Row = 2; s.Comments[1].Row = 1 }), "CMT-3"},
	{"ENC-1 a field name that is not UTF-8", edit(func(s *spec.Section) { s.Fields[1] = "\xed\xa0\x80" }), "ENC-1"},
	{"ENC-1 a meta value that is not UTF-8", edit(func(s *spec.Section) { s.Meta[1].Value = "\xc0\x80" }), "ENC-1"},
	{"ENC-1 a value that is not UTF-8", edit(func(s *spec.Section) { s.Rows[1][1] = "4\xe2\x82" }), "ENC-1"},
	{"ENC-1 a comment that is not UTF-8", edit(func(s *spec.Section) { s.Comments[1].Text = "\x80" }), "ENC-1"},
	{"CAN-3 an error in a later section is found too", &spec.Payload{Sections: []spec.Section{valid(),
		{Tool: "u", Fields: fields("a"), Rows: rows(row("x", "y"))}}}, "ROW-2"},
}

// edit returns a one-section payload made from valid() and changed by f.
func edit(f func(*spec.Section)) *spec.Payload {
	s := valid()
	f(&s)
	return payload(s)
}

// TestEncodeModelErrors checks that the encoder refuses every model without
// a spelling, writing nothing, with a model error naming the rule [CAN-3].
func TestEncodeModelErrors(t *testing.T) {
	if _, err := Encode(payload(valid())); err != nil {
		t.Fatalf("the base model of the cases does not encode: %v", err)
	}
	for _, tc := range encodeErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.model)
			if err == nil {
				t.Fatalf("Encode succeeded with %q; want a model error [%s]", got, tc.rule)
			}
			if got != nil {
				t.Errorf("Encode returned bytes with its error: %q", got)
			}
			checkModelError(t, err, tc.rule)
		})
	}
}

// checkModelError checks that err is a position-less *spec.Error of class
// ErrModel citing rule [ERR-1].
func checkModelError(t *testing.T, err error, rule string) {
	t.Helper()
	var e *spec.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *spec.Error", err, err)
	}
	if !errors.Is(err, spec.ErrModel) || spec.ClassName(err) != "model" {
		t.Errorf("class = %s, want model (%v)", spec.ClassName(err), err)
	}
	if rule != "" && e.Rule != rule {
		t.Errorf("rule = %s, want %s (%v)", e.Rule, rule, err)
	}
	if e.Rule == "" {
		t.Errorf("model error cites no rule: %v", err)
	}
	if e.Line != 0 || e.Column != 0 || e.Offset != 0 {
		t.Errorf("model error has a position %d:%d @%d", e.Line, e.Column, e.Offset)
	}
	if !strings.Contains(e.Error(), "section") && e.Rule != "PAY-1" {
		t.Errorf("model error does not name the section: %v", err)
	}
}
