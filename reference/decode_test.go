package reference

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/spec"
)

// Headers most cases start with; their lengths matter for the offsets below.
const (
	h1 = "GCX1 tool=t fields=a\n"   // 21 bytes: line 2 starts at offset 21
	h2 = "GCX1 tool=t fields=a,b\n" // 23 bytes: line 2 starts at offset 23
)

// draftHeader is the header of the draft's own example: six fields, while its
// rows carry five values.
const draftHeader = "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=5 total=5 truncated=false\n"

var decodeTests = []struct {
	name string
	in   string
	want *spec.Payload
}{
	{
		name: "HDR-1 ROW-1 the brief's example",
		in:   "GCX1 tool=search_symbols fields=id,kind rows=2 total=2\na\tfunction\nb\t\n",
		want: payload(spec.Section{
			Tool: "search_symbols", Fields: fields("id", "kind"), Meta: meta("rows", "2", "total", "2"),
			Rows: rows(row("a", "function"), row("b", "")),
		}),
	},
	{
		name: "HDR-1 header with no rows",
		in:   h1,
		want: payload(spec.Section{Tool: "t", Fields: fields("a")}),
	},
	{
		name: "META-4 rows=0 on a section without rows",
		in:   "GCX1 tool=t fields=a rows=0\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("rows", "0")}),
	},
	{
		name: "ROW-1 an empty line is one empty value",
		in:   h1 + "\nz\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row(""), row("z"))}),
	},
	{
		name: "ROW-1 a TAB alone is two empty values",
		in:   h2 + "\t\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("", ""))}),
	},
	{
		name: "ROW-3 trailing empty values are written out",
		in:   "GCX1 tool=t fields=a,b,c\nx\t\t\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b", "c"), Rows: rows(row("x", "", ""))}),
	},
	{
		name: "VAL-1 the four value escapes",
		in:   h1 + `a\\b\tc\nd\re` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("a\\b\tc\nd\re"))}),
	},
	{
		name: `VAL-1 backslash and t as two characters of data are written \\t`,
		in:   h2 + `\\t` + "\t" + `x\\ty` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row(`\t`, `x\ty`))}),
	},
	{
		name: "VAL-1 an escaped first value",
		in:   h1 + `\\#` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row(`\#`))}),
	},
	{
		name: "ROW-4 guard before a first value starting with #",
		in:   h2 + `\#x` + "\t1\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("#x", "1"))}),
	},
	{
		name: "ROW-4 guard before a first value starting with GCX",
		in:   h2 + `\GCX1 hi` + "\t1\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("GCX1 hi", "1"))}),
	},
	{
		name: "ROW-4 guard before a first value that is exactly # or GCX",
		in:   h1 + `\#` + "\n" + `\GCX` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("#"), row("GCX"))}),
	},
	{
		name: "ROW-4 # and GCX are raw in later values",
		in:   "GCX1 tool=t fields=a,b,c\nx\t#y\tGCX1 z\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b", "c"), Rows: rows(row("x", "#y", "GCX1 z"))}),
	},
	{
		name: "ROW-4 LINE-2 first values G, GC, Go, GCx and GC followed by an escape are rows",
		in:   h1 + "G\nGC\nGo\nGCx\nGC\\t\nGC#\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"),
			Rows: rows(row("G"), row("GC"), row("Go"), row("GCx"), row("GC\t"), row("GC#"))}),
	},
	{
		name: "CMT-1 comment text is raw: TAB, backslash and # need no escape",
		in:   h1 + "#x\t1 \\q #\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Comments: comments(comment(0, "x\t1 \\q #"))}),
	},
	{
		name: "CMT-1 an empty comment",
		in:   h1 + "#\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Comments: comments(comment(0, ""))}),
	},
	{
		name: "CMT-2 CMT-3 comments straight after the header, between rows and after the last row",
		in:   h1 + "#first\nx\n#second\n#third\ny\n#last\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("x"), row("y")),
			Comments: comments(comment(0, "first"), comment(1, "second"), comment(1, "third"), comment(2, "last"))}),
	},
	{
		name: "CMT-3 comments are not counted by rows=",
		in:   "GCX1 tool=t fields=a rows=1\n#c\nx\n#d\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("rows", "1"), Rows: rows(row("x")),
			Comments: comments(comment(0, "c"), comment(1, "d"))}),
	},
	{
		name: "CMT-3 a comment that looks like a header or a row",
		in:   h1 + "#GCX2 tool=t fields=a\n#\\#x\tGCX\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"),
			Comments: comments(comment(0, "GCX2 tool=t fields=a"), comment(0, "\\#x\tGCX"))}),
	},
	{
		name: "PAY-2 PAY-3 sections are independent and tool names may repeat",
		in:   h1 + "x\n#c\nGCX1 tool=t fields=b,c rows=1\ny\tz\n" + h1,
		want: payload(
			spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("x")), Comments: comments(comment(1, "c"))},
			spec.Section{Tool: "t", Fields: fields("b", "c"), Meta: meta("rows", "1"), Rows: rows(row("y", "z"))},
			spec.Section{Tool: "t", Fields: fields("a")},
		),
	},
	{
		name: "PAY-2 nodes and edges sections",
		in: "GCX1 tool=get_callers.nodes fields=id,name rows=2\nn1\tmain\nn2\trun\n" +
			"GCX1 tool=get_callers.edges fields=from,to rows=1\nn1\tn2\n",
		want: payload(
			spec.Section{Tool: "get_callers.nodes", Fields: fields("id", "name"), Meta: meta("rows", "2"),
				Rows: rows(row("n1", "main"), row("n2", "run"))},
			spec.Section{Tool: "get_callers.edges", Fields: fields("from", "to"), Meta: meta("rows", "1"),
				Rows: rows(row("n1", "n2"))},
		),
	},
	{
		name: "HDR-3 tool names use every name byte",
		in:   "GCX1 tool=aZ09_-. fields=a\n",
		want: payload(spec.Section{Tool: "aZ09_-.", Fields: fields("a")}),
	},
	{
		name: "HDR-4 fields= declares one empty field name",
		in:   "GCX1 tool=t fields=\n\n",
		want: payload(spec.Section{Tool: "t", Fields: fields(""), Rows: rows(row(""))}),
	},
	{
		name: "HDR-4 an empty field name among others",
		in:   "GCX1 tool=t fields=,a\n\tx\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("", "a"), Rows: rows(row("", "x"))}),
	},
	{
		name: "HDR-5 the six field-name escapes",
		in:   `GCX1 tool=t fields=a\sb,c\,d,e\\f,g\th,i\nj,k\rl` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a b", "c,d", `e\f`, "g\th", "i\nj", "k\rl")}),
	},
	{
		name: "HDR-5 = # G and non-ASCII are raw in field names",
		in:   "GCX1 tool=t fields=a=b,#c,GCX1,é日😀,\x01\x7f\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a=b", "#c", "GCX1", "é日😀", "\x01\x7f")}),
	},
	{
		name: "HDR-7 the five meta value escapes, with , and = raw",
		in:   `GCX1 tool=t fields=a k=a\sb\\c\td\ne\rf,g=h` + "\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("k", "a b\\c\td\ne\rf,g=h")}),
	},
	{
		name: "HDR-7 an empty meta value",
		in:   "GCX1 tool=t fields=a k=\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("k", "")}),
	},
	{
		name: "HDR-9 unknown meta keys are kept in wire order",
		in:   "GCX1 tool=t fields=a zeta=1 alpha=2 next_cursor=abc .=- Rows=x\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"),
			Meta: meta("zeta", "1", "alpha", "2", "next_cursor", "abc", ".", "-", "Rows", "x")}),
	},
	{
		name: "META-5 reserved keys are optional and may stand anywhere among the meta",
		in:   "GCX1 tool=t fields=a truncated=true k=v total=5 rows=1\nx\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"),
			Meta: meta("truncated", "true", "k", "v", "total", "5", "rows", "1"), Rows: rows(row("x"))}),
	},
	{
		name: "META-2 total= is informative and may be below the row count",
		in:   "GCX1 tool=t fields=a total=0 truncated=false\nx\ny\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("total", "0", "truncated", "false"),
			Rows: rows(row("x"), row("y"))}),
	},
	{
		name: "META-1 the largest int64 is a count",
		in:   "GCX1 tool=t fields=a total=9223372036854775807\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Meta: meta("total", "9223372036854775807")}),
	},
	{
		name: "ENC-4 NUL, controls, DEL, U+2028, U+FEFF, U+FFFD and 4-byte characters are data",
		in:   "GCX1 tool=t fields=\x00,\u2028 k=\x1f\uFEFF\n\x00\x01\x0b\x0c\x0e\x1f\x7f\t\u2028\uFEFF\uFFFD😀\n#\x00\uFEFF\u2028\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("\x00", "\u2028"), Meta: meta("k", "\x1f\uFEFF"),
			Rows:     rows(row("\x00\x01\x0b\x0c\x0e\x1f\x7f", "\u2028\uFEFF\uFFFD😀")),
			Comments: comments(comment(1, "\x00\uFEFF\u2028"))}),
	},
	{
		name: "ENC-4 a U+FEFF at the start of a row is data",
		in:   h1 + "\uFEFFx\n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("\uFEFFx"))}),
	},
	{
		name: "LINE-3 spaces around values and in comments are kept",
		in:   h2 + "  x  \t \n#  c  \n",
		want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("  x  ", " ")),
			Comments: comments(comment(1, "  c  "))}),
	},
	{
		name: "LINE-2 a line starting with GCX begins a section, # a comment, anything else a row",
		in:   h1 + "#c\nG\nGCX1 tool=u fields=b\n",
		want: payload(
			spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("G")), Comments: comments(comment(0, "c"))},
			spec.Section{Tool: "u", Fields: fields("b")},
		),
	},
}

// TestDecode checks the model each valid payload decodes to, and that the
// encoder writes the same bytes back [CAN-1].
func TestDecode(t *testing.T) {
	for _, tc := range decodeTests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.in))
			if err != nil {
				t.Fatalf("Decode(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decode(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
			out, err := Encode(got)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if !bytes.Equal(out, []byte(tc.in)) {
				t.Errorf("CAN-1: Encode(Decode(b)) = %q, want %q", out, tc.in)
			}
		})
	}
}

// TestDecodeModelConventions pins the shape of decoded models, which the
// round-trip properties compare exactly: absent meta, rows and comments are
// nil, never empty slices; rows are never nil.
func TestDecodeModelConventions(t *testing.T) {
	got, err := Decode([]byte(h1 + "GCX1 tool=u fields=b k=v\n\n#c\n"))
	if err != nil {
		t.Fatal(err)
	}
	first, second := got.Sections[0], got.Sections[1]
	if first.Meta != nil || first.Rows != nil || first.Comments != nil {
		t.Errorf("a bare section decodes with non-nil slices: %#v", first)
	}
	if second.Rows[0] == nil || len(second.Rows[0]) != 1 {
		t.Errorf("an empty line decodes to %#v, want one empty value", second.Rows[0])
	}
}

var decodeErrorTests = []struct {
	name   string
	in     string
	limits *spec.Limits // nil means spec.DefaultLimits
	want   wantErr
}{
	// The input is not GCX at all.
	{name: "PAY-1 empty payload", in: "", want: notGCX("PAY-1")},
	{name: "PAY-1 JSON", in: `{"tool":"t"}`, want: notGCX("PAY-1")},
	{name: "PAY-1 GC is too short to be a header", in: "GC", want: notGCX("PAY-1")},
	{name: "PAY-1 lower-case gcx1", in: "gcx1 tool=t fields=a\n", want: notGCX("PAY-1")},
	{name: "PAY-1 LINE-3 a leading LF is not skipped", in: "\n" + h1, want: notGCX("PAY-1")},
	{name: "PAY-1 LINE-3 a leading SP is not trimmed", in: " " + h1, want: notGCX("PAY-1")},
	{name: "ENC-2 a leading byte-order mark", in: "\uFEFF" + h1 + "x\n", want: notGCX("ENC-2")},
	{name: "CMT-2 a comment before the first header", in: "#c\n" + h1, want: notGCX("PAY-1")},
	{name: "ENC-1 PAY-1 invalid UTF-8 before any header", in: "\xffGCX1", want: notGCX("PAY-1")},

	// Other versions [VER-1] [VER-2] [VER-4] [VER-6].
	{name: "VER-2 VER-5 GCX2 first: typed error to fall back on", in: "GCX2 tool=t fields=a\nx\n",
		want: unsupportedAt("VER-2", "GCX2", at{1, 1, 0})},
	{name: "VER-2 GCX10 is not GCX1", in: "GCX10 tool=t fields=a\nx\n",
		want: unsupportedAt("VER-2", "GCX10", at{1, 1, 0})},
	{name: "VER-2 GCX12 is reported as a version, not a header token", in: "GCX12 tool=t fields=a\nx\n",
		want: unsupportedAt("VER-2", "GCX12", at{1, 1, 0})},
	{name: "VER-6 GCX1-stream is reserved", in: "GCX1-stream tool=t fields=a\nx\n",
		want: unsupportedAt("VER-2", "GCX1-stream", at{1, 1, 0})},
	{name: "VER-2 GCX1.1", in: "GCX1.1 tool=t fields=a\n",
		want: unsupportedAt("VER-2", "GCX1.1", at{1, 1, 0})},
	{name: "VER-1 a tag may end at LF", in: "GCX2\n",
		want: unsupportedAt("VER-2", "GCX2", at{1, 1, 0})},
	{name: "VER-1 a tag may end at the end of input", in: "GCX2",
		want: unsupportedAt("VER-2", "GCX2", at{1, 1, 0})},
	{name: "VER-1 a 32-byte tag is well-formed", in: "GCX" + strings.Repeat("a", 29) + " x\n",
		want: unsupportedAt("VER-2", "GCX"+strings.Repeat("a", 29), at{1, 1, 0})},
	{name: "VER-2 ERR-3 the version is classified before the rest of the line", in: "GCX2 \xff\r\n",
		want: unsupportedAt("VER-2", "GCX2", at{1, 1, 0})},
	{name: "VER-4 GCX2 in a later section rejects the whole payload", in: h1 + "x\nGCX2 tool=t fields=a\ny\n",
		want: unsupportedAt("VER-4", "GCX2", at{3, 1, 23})},
	{name: "VER-4 GCX10 in a later section", in: h1 + "GCX10 tool=t fields=a\n",
		want: unsupportedAt("VER-4", "GCX10", at{2, 1, 21})},
	{name: "VER-4 VER-6 GCX1-stream in a later section", in: h1 + "x\n#c\nGCX1-stream tool=t fields=a\n",
		want: unsupportedAt("VER-4", "GCX1-stream", at{4, 1, 26})},
	{name: "VER-4 LINE-2 a row-looking line starting with GCX is a header", in: h1 + "GCXa b\n",
		want: unsupportedAt("VER-4", "GCXa", at{2, 1, 21})},
	{name: "VER-3 LINE-2 a line GCXa TAB b is a header with a malformed tag", in: h1 + "GCXa\tb\n",
		want: syntaxAt("VER-3", at{2, 5, 25})},

	// Malformed tags [VER-3].
	{name: "VER-3 GCX SP", in: "GCX tool=t fields=a\n", want: syntaxAt("VER-3", at{1, 4, 3})},
	{name: "VER-3 GCX LF", in: "GCX\n", want: syntaxAt("VER-3", at{1, 4, 3})},
	{name: "VER-3 GCX at the end of input", in: "GCX", want: syntaxAt("VER-3", at{1, 4, 3})},
	{name: "VER-3 a 33-byte tag (30 tag characters)", in: "GCX" + strings.Repeat("a", 30) + " x\n",
		want: syntaxAt("VER-3", at{1, 33, 32})},
	{name: "VER-3 a tag ended by TAB", in: "GCX1\ttool=t fields=a\n", want: syntaxAt("VER-3", at{1, 5, 4})},
	{name: "VER-3 a tag ended by CR", in: "GCX1\r\n", want: syntaxAt("VER-3", at{1, 5, 4})},
	{name: "VER-3 a byte outside the tag set", in: "GCX1+ tool=t fields=a\n", want: syntaxAt("VER-3", at{1, 5, 4})},
	{name: "VER-3 invalid UTF-8 after GCX", in: "GCX\xff", want: syntaxAt("VER-3", at{1, 4, 3})},
	{name: "VER-3 a malformed tag in a later section", in: h1 + "GCX\n", want: syntaxAt("VER-3", at{2, 4, 24})},

	// Header syntax [HDR-1] [HDR-2] [HDR-3] [HDR-5] [HDR-7].
	{name: "HDR-1 GCX1 and LF", in: "GCX1\n", want: syntaxAt("HDR-1", at{1, 5, 4})},
	{name: "HDR-1 LINE-1 GCX1 and the end of input", in: "GCX1", want: syntaxAt("LINE-1", at{1, 5, 4})},
	{name: "HDR-1 two SPs: a stray SP where tool= is due", in: "GCX1  tool=t fields=a\n",
		want: syntaxAt("HDR-1", at{1, 6, 5})},
	{name: "HDR-1 TAB between header parts", in: "GCX1 tool=t\tfields=a\n", want: syntaxAt("HDR-1", at{1, 12, 11})},
	{name: "HDR-1 trailing SP: no SP before LF", in: "GCX1 tool=t fields=a \n",
		want: syntaxAt("HDR-1", at{1, 22, 21})},
	{name: "HDR-1 a meta without =", in: "GCX1 tool=t fields=a k\n", want: syntaxAt("HDR-1", at{1, 23, 22})},
	{name: "HDR-2 tool= missing", in: "GCX1 fields=a\n", want: syntaxAt("HDR-2", at{1, 6, 5})},
	{name: "HDR-2 fields before tool", in: "GCX1 fields=a tool=t\n", want: syntaxAt("HDR-2", at{1, 6, 5})},
	{name: "HDR-2 fields= last, as the draft EBNF has it, is rejected", in: "GCX1 tool=t rows=1 fields=a\nx\n",
		want: syntaxAt("HDR-2", at{1, 13, 12})},
	{name: "HDR-2 fields= missing", in: "GCX1 tool=t\n", want: syntaxAt("HDR-1", at{1, 12, 11})},
	{name: "HDR-3 empty tool name", in: "GCX1 tool= fields=a\n", want: syntaxAt("HDR-3", at{1, 11, 10})},
	{name: "HDR-3 a tool name with SP: fields= expected at its second word", in: "GCX1 tool=my tool fields=a\n",
		want: syntaxAt("HDR-2", at{1, 14, 13})},
	{name: "HDR-3 tool names have no escapes", in: `GCX1 tool=a\sb fields=a` + "\n",
		want: syntaxAt("HDR-3", at{1, 12, 11})},
	{name: "HDR-3 a slash in a tool name", in: "GCX1 tool=a/b fields=a\n", want: syntaxAt("HDR-3", at{1, 12, 11})},
	{name: "HDR-1 two SPs before fields=", in: "GCX1 tool=t  fields=a\n", want: syntaxAt("HDR-1", at{1, 13, 12})},
	{name: "HDR-3 a non-ASCII tool name", in: "GCX1 tool=é fields=a\n", want: syntaxAt("HDR-3", at{1, 11, 10})},
	{name: "HDR-3 an empty meta key", in: "GCX1 tool=t fields=a =v\n", want: syntaxAt("HDR-3", at{1, 22, 21})},
	{name: "HDR-3 a meta key with a byte outside the name set",
		in: "GCX1 tool=t fields=a k!=v\n", want: syntaxAt("HDR-3", at{1, 23, 22})},
	{name: "HDR-5 a raw SP in a field name starts a meta", in: "GCX1 tool=t fields=a b\n",
		want: syntaxAt("HDR-1", at{1, 23, 22})},
	{name: "HDR-5 a raw TAB in a field name", in: "GCX1 tool=t fields=a\tb\n", want: syntaxAt("HDR-1", at{1, 21, 20})},
	{name: `HDR-5 \x is not a field-name escape`, in: `GCX1 tool=t fields=a\x` + "\n",
		want: syntaxAt("HDR-5", at{1, 22, 21})},
	{name: `HDR-5 \# is not a field-name escape`, in: `GCX1 tool=t fields=\#` + "\n",
		want: syntaxAt("HDR-5", at{1, 21, 20})},
	{name: "HDR-5 a backslash before LF in a field name", in: "GCX1 tool=t fields=a\\\n",
		want: syntaxAt("HDR-5", at{1, 22, 21})},
	{name: `HDR-7 \, is not a meta value escape`, in: `GCX1 tool=t fields=a k=a\,b` + "\n",
		want: syntaxAt("HDR-7", at{1, 26, 25})},
	{name: `HDR-7 \x is not a meta value escape`, in: `GCX1 tool=t fields=a k=\x` + "\n",
		want: syntaxAt("HDR-7", at{1, 25, 24})},
	{name: "HDR-7 a raw TAB in a meta value", in: "GCX1 tool=t fields=a k=a\tb\n",
		want: syntaxAt("HDR-1", at{1, 25, 24})},

	// Header constraints [HDR-6] [HDR-8] [META-1] [META-3] [META-4].
	{name: "HDR-6 a duplicate field name, at its second occurrence", in: "GCX1 tool=t fields=a,b,a\n",
		want: constraintAt("HDR-6", at{1, 24, 23})},
	{name: "HDR-6 two empty field names", in: "GCX1 tool=t fields=,\n", want: constraintAt("HDR-6", at{1, 21, 20})},
	{name: "HDR-6 duplicates compare decoded names", in: `GCX1 tool=t fields=\t,x,\t` + "\n",
		want: constraintAt("HDR-6", at{1, 25, 24})},
	{name: "HDR-8 tool= reused as a meta key", in: "GCX1 tool=t fields=a tool=u\n",
		want: constraintAt("HDR-8", at{1, 22, 21})},
	{name: "HDR-8 fields= reused as a meta key", in: "GCX1 tool=t fields=a fields=b\n",
		want: constraintAt("HDR-8", at{1, 22, 21})},
	{name: "HDR-8 a duplicate meta key", in: "GCX1 tool=t fields=a k=1 k=2\n",
		want: constraintAt("HDR-8", at{1, 26, 25})},
	{name: "HDR-8 a duplicate rows= key", in: "GCX1 tool=t fields=a rows=0 rows=0\n",
		want: constraintAt("HDR-8", at{1, 29, 28})},
	{name: "META-1 rows=01 has a leading zero", in: "GCX1 tool=t fields=a rows=01\n",
		want: constraintAt("META-1", at{1, 27, 26})},
	{name: "META-1 rows=-1 has a sign", in: "GCX1 tool=t fields=a rows=-1\n",
		want: constraintAt("META-1", at{1, 27, 26})},
	{name: "META-1 rows=+1 has a sign", in: "GCX1 tool=t fields=a rows=+1\n",
		want: constraintAt("META-1", at{1, 27, 26})},
	{name: "META-1 rows=99999999999999999999 does not fit int64", in: "GCX1 tool=t fields=a rows=99999999999999999999\n",
		want: constraintAt("META-1", at{1, 27, 26})},
	{name: "META-1 total=9223372036854775808 does not fit int64", in: "GCX1 tool=t fields=a total=9223372036854775808\n",
		want: constraintAt("META-1", at{1, 28, 27})},
	{name: "META-1 an empty rows= value", in: "GCX1 tool=t fields=a rows=\n",
		want: constraintAt("META-1", at{1, 27, 26})},
	{name: "META-1 total=1.0", in: "GCX1 tool=t fields=a k=v total=1.0\n",
		want: constraintAt("META-1", at{1, 32, 31})},
	{name: "META-3 truncated=True", in: "GCX1 tool=t fields=a truncated=True\n",
		want: constraintAt("META-3", at{1, 32, 31})},
	{name: "META-3 truncated=1", in: "GCX1 tool=t fields=a truncated=1\n",
		want: constraintAt("META-3", at{1, 32, 31})},
	{name: "META-4 rows= above the row count, reported at the rows= value", in: "GCX1 tool=t fields=a k=v rows=2\nx\n",
		want: constraintAt("META-4", at{1, 31, 30})},
	{name: "META-4 rows= below the row count", in: "GCX1 tool=t fields=a rows=0\nx\n",
		want: constraintAt("META-4", at{1, 27, 26})},
	{name: "META-4 CMT-3 comments are not rows", in: "GCX1 tool=t fields=a rows=1\n#c\n",
		want: constraintAt("META-4", at{1, 27, 26})},
	{name: "META-4 a mismatch in the second section points into its header", in: h1 + "x\nGCX1 tool=u fields=a rows=3\ny\n",
		want: constraintAt("META-4", at{3, 27, 49})},

	// Rows [ROW-1] [ROW-2] [ROW-4] [VAL-2] [VAL-3].
	{name: "ROW-2 too many values: at the TAB before the first extra", in: h2 + "x\ty\tz\tw\n",
		want: constraintAt("ROW-2", at{2, 4, 26})},
	{name: "ROW-2 too few values: at the LF", in: h2 + "x\n", want: constraintAt("ROW-2", at{2, 2, 24})},
	{name: "ROW-1 ROW-2 an empty line is one value, too few for two fields", in: h2 + "\n",
		want: constraintAt("ROW-2", at{2, 1, 23})},
	{name: "ROW-2 the draft's example: six fields, five values", in: draftHeader +
		"internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\n",
		want: constraintAt("ROW-2", at{2, 79, 168})},
	{name: `VAL-2 \q is not an escape`, in: h1 + `x\qy` + "\n", want: syntaxAt("VAL-2", at{2, 3, 23})},
	{name: `VAL-2 \s is not a value escape`, in: h1 + `\s` + "\n", want: syntaxAt("VAL-2", at{2, 2, 22})},
	{name: `VAL-2 \, is not a value escape`, in: h1 + `a\,` + "\n", want: syntaxAt("VAL-2", at{2, 3, 23})},
	{name: `VAL-2 \u is not an escape`, in: h1 + `\u0041` + "\n", want: syntaxAt("VAL-2", at{2, 2, 22})},
	{name: `VAL-2 \x is not an escape`, in: h1 + `\x41` + "\n", want: syntaxAt("VAL-2", at{2, 2, 22})},
	{name: "VAL-2 a lone trailing backslash before LF", in: h1 + "x\\\n", want: syntaxAt("VAL-2", at{2, 3, 23})},
	{name: "VAL-2 LINE-1 a lone trailing backslash at the end of input", in: h1 + "x\\",
		want: syntaxAt("LINE-1", at{2, 3, 23})},
	{name: "VAL-2 a backslash before TAB", in: h2 + "x\\\ty\n", want: syntaxAt("VAL-2", at{2, 3, 25})},
	{name: `VAL-2 ROW-4 \# is a guard only at the start of the first value`, in: h2 + "x\t\\#y\n",
		want: syntaxAt("VAL-2", at{2, 4, 26})},
	{name: `VAL-2 ROW-4 \GCX is a guard only at the start of the first value`, in: h2 + "x\t\\GCX\n",
		want: syntaxAt("VAL-2", at{2, 4, 26})},
	{name: `VAL-2 ROW-4 \# inside the first value`, in: h1 + "x\\#\n", want: syntaxAt("VAL-2", at{2, 3, 23})},
	{name: `ROW-4 \G must go on with CX`, in: h1 + "\\Gx\n", want: syntaxAt("ROW-4", at{2, 3, 23})},
	{name: `ROW-4 \GC must go on with X`, in: h1 + "\\GC\n", want: syntaxAt("ROW-4", at{2, 4, 24})},
	{name: "VAL-3 ENC-3 a raw CR in a value", in: h1 + "x\ry\n", want: syntaxAt("ENC-3", at{2, 2, 22})},
	{name: "ENC-3 CRLF line ending on a row", in: h1 + "x\r\n", want: syntaxAt("ENC-3", at{2, 2, 22})},
	{name: "ENC-3 CRLF line ending on a header", in: "GCX1 tool=t fields=a\r\n", want: syntaxAt("ENC-3", at{1, 21, 20})},
	{name: "ENC-3 a raw CR in a meta value", in: "GCX1 tool=t fields=a k=a\r\n", want: syntaxAt("ENC-3", at{1, 25, 24})},
	{name: "ENC-3 CMT-4 a raw CR in a comment", in: h1 + "#a\rb\n", want: syntaxAt("ENC-3", at{2, 3, 23})},

	// Invalid UTF-8 [ENC-1], wherever it stands.
	{name: "ENC-1 overlong encoding of NUL", in: h1 + "a\xc0\x80\n", want: syntaxAt("ENC-1", at{2, 2, 22})},
	{name: "ENC-1 overlong encoding of /", in: h1 + "\xe0\x80\xaf\n", want: syntaxAt("ENC-1", at{2, 1, 21})},
	{name: "ENC-1 an encoded surrogate", in: h1 + "\xed\xa0\x80\n", want: syntaxAt("ENC-1", at{2, 1, 21})},
	{name: "ENC-1 a truncated sequence before LF", in: h1 + "a\xe2\x82\n", want: syntaxAt("ENC-1", at{2, 2, 22})},
	{name: "ENC-1 a truncated sequence at the end of input", in: h1 + "a\xe2\x82", want: syntaxAt("ENC-1", at{2, 2, 22})},
	{name: "ENC-1 a lone continuation byte", in: h1 + "\x80\n", want: syntaxAt("ENC-1", at{2, 1, 21})},
	{name: "ENC-1 a code point above U+10FFFF", in: h1 + "\xf4\x90\x80\x80\n", want: syntaxAt("ENC-1", at{2, 1, 21})},
	{name: "ENC-1 0xFF in a later value", in: h2 + "x\ty\xff\n", want: syntaxAt("ENC-1", at{2, 4, 26})},
	{name: "ENC-1 in a guarded first value", in: h1 + "\\#\xff\n", want: syntaxAt("ENC-1", at{2, 3, 23})},
	{name: "ENC-1 in a tool name", in: "GCX1 tool=\xff fields=a\n", want: syntaxAt("ENC-1", at{1, 11, 10})},
	{name: "ENC-1 in a field name", in: "GCX1 tool=t fields=a\xff\n", want: syntaxAt("ENC-1", at{1, 21, 20})},
	{name: "ENC-1 in a meta value", in: "GCX1 tool=t fields=a k=\xc3\n", want: syntaxAt("ENC-1", at{1, 24, 23})},
	{name: "ENC-1 in a comment", in: h1 + "#\xed\xbf\xbf\n", want: syntaxAt("ENC-1", at{2, 2, 22})},

	// Missing final LF: the payload was cut short [LINE-1].
	{name: "LINE-1 no LF after the last row", in: h1 + "x", want: syntaxAt("LINE-1", at{2, 2, 22})},
	{name: "LINE-1 no LF after the only header", in: "GCX1 tool=t fields=a", want: syntaxAt("LINE-1", at{1, 21, 20})},
	{name: "LINE-1 no LF after a header's meta", in: "GCX1 tool=t fields=a rows=0", want: syntaxAt("LINE-1", at{1, 28, 27})},
	{name: "LINE-1 no LF after a comment", in: h1 + "#c", want: syntaxAt("LINE-1", at{2, 3, 23})},
	{name: "LINE-1 cut inside tool=", in: "GCX1 too", want: syntaxAt("LINE-1", at{1, 9, 8})},
	{name: "LINE-1 cut inside a guard", in: h1 + "\\GC", want: syntaxAt("LINE-1", at{2, 4, 24})},

	// Reporting order [ERR-3].
	{name: "ERR-3 a rows= mismatch is reported before a later header's syntax error",
		in: "GCX1 tool=t fields=a rows=2\nx\nGCX1 tool=\n", want: constraintAt("META-4", at{1, 27, 26})},
	{name: "ERR-3 a rows= mismatch is reported before a later unsupported version",
		in: "GCX1 tool=t fields=a rows=2\nx\nGCX2\n", want: constraintAt("META-4", at{1, 27, 26})},
	{name: "ERR-3 a syntax error inside the section comes before its rows= check",
		in: "GCX1 tool=t fields=a rows=2\nx\\q\n", want: syntaxAt("VAL-2", at{2, 3, 30})},
	{name: "ERR-3 a header's syntax error comes before an earlier duplicate field",
		in: "GCX1 tool=t fields=a,a k=\\q\n", want: syntaxAt("HDR-7", at{1, 27, 26})},
	{name: "ERR-3 header rules in column order: HDR-6 before HDR-8",
		in: "GCX1 tool=t fields=a,a tool=x\n", want: constraintAt("HDR-6", at{1, 22, 21})},
	{name: "ERR-3 header rules in column order: META-1 before a later HDR-8",
		in: "GCX1 tool=t fields=a rows=01 rows=1\n", want: constraintAt("META-1", at{1, 27, 26})},
	{name: "ERR-3 a row's syntax error comes before its width", in: h1 + "x\ty\tz\\q\n",
		want: syntaxAt("VAL-2", at{2, 7, 27})},
	{name: "ERR-3 a row's width is checked before the next row", in: h2 + "x\ny\\q\n",
		want: constraintAt("ROW-2", at{2, 2, 24})},

	// Limits [LIM-1] [LIM-3].
	{name: "LIM-3 line limit: at byte max+1 of a row", limits: &spec.Limits{MaxLineBytes: 20},
		in: h1 + strings.Repeat("x", 26) + "\n", want: limitAt(at{2, 21, 41})},
	{name: "LIM-3 line limit: at byte max+1 of a header", limits: &spec.Limits{MaxLineBytes: 10},
		in: h1, want: limitAt(at{1, 11, 10})},
	{name: "LIM-3 line limit: at byte max+1 of a comment", limits: &spec.Limits{MaxLineBytes: 20},
		in: h1 + "#" + strings.Repeat("c", 20) + "\n", want: limitAt(at{2, 21, 41})},
	{name: "LIM-3 LIM-1 line limit on an unterminated last line", limits: &spec.Limits{MaxLineBytes: 20},
		in: h1 + strings.Repeat("x", 25), want: limitAt(at{2, 21, 41})},
	{name: "ERR-3 a line that is too long and has a bad escape: the limit first", limits: &spec.Limits{MaxLineBytes: 20},
		in: h1 + `x\q` + strings.Repeat("x", 30) + "\n", want: limitAt(at{2, 21, 41})},
	{name: "ERR-3 an unsupported version before the line limit", limits: &spec.Limits{MaxLineBytes: 10},
		in: "GCX2 tool=t fields=a\n", want: unsupportedAt("VER-2", "GCX2", at{1, 1, 0})},
	{name: "ERR-3 a malformed tag before the line limit", limits: &spec.Limits{MaxLineBytes: 3},
		in: "GCX tool=t fields=a\n", want: syntaxAt("VER-3", at{1, 4, 3})},
	{name: "LIM-3 field limit: at the first byte of field max+1", limits: &spec.Limits{MaxFields: 2},
		in: "GCX1 tool=t fields=a,b,c\n", want: limitAt(at{1, 24, 23})},
	{name: "LIM-3 field limit: an empty extra field name", limits: &spec.Limits{MaxFields: 2},
		in: "GCX1 tool=t fields=a,b,\n", want: limitAt(at{1, 24, 23})},
	{name: "ERR-3 field limit before a later duplicate field", limits: &spec.Limits{MaxFields: 2},
		in: "GCX1 tool=t fields=a,b,a\n", want: limitAt(at{1, 24, 23})},
	{name: "ERR-3 a duplicate field before the field limit", limits: &spec.Limits{MaxFields: 2},
		in: "GCX1 tool=t fields=a,a,b\n", want: constraintAt("HDR-6", at{1, 22, 21})},
	{name: "ERR-3 a header's syntax error before the field limit", limits: &spec.Limits{MaxFields: 1},
		in: "GCX1 tool=t fields=a,b k=\\q\n", want: syntaxAt("HDR-7", at{1, 27, 26})},
	{name: "LIM-3 section limit: at column 1 of header max+1", limits: &spec.Limits{MaxSections: 2},
		in: h1 + "x\n" + h1 + h1, want: limitAt(at{4, 1, 44})},
	{name: "ERR-3 a rows= mismatch before the section limit", limits: &spec.Limits{MaxSections: 1},
		in: "GCX1 tool=t fields=a rows=1\n" + h1, want: constraintAt("META-4", at{1, 27, 26})},
	{name: "ERR-3 the section limit before the version tag", limits: &spec.Limits{MaxSections: 1},
		in: h1 + "GCX2\n", want: limitAt(at{2, 1, 21})},
	{name: "LIM-3 row limit: at column 1 of row max+1", limits: &spec.Limits{MaxRows: 2},
		in: h1 + "a\nb\nc\n", want: limitAt(at{4, 1, 25})},
	{name: "LIM-3 CMT-3 comments do not count toward the row limit", limits: &spec.Limits{MaxRows: 1},
		in: h1 + "a\n#c\n#d\nb\n", want: limitAt(at{5, 1, 29})},
	{name: "LIM-3 the row limit applies per section", limits: &spec.Limits{MaxRows: 1},
		in: h1 + "a\n" + h1 + "b\nc\n", want: limitAt(at{5, 1, 46})},
	{name: "ERR-3 the row limit before the line limit", limits: &spec.Limits{MaxRows: 1, MaxLineBytes: 20},
		in: h1 + "a\n" + strings.Repeat("x", 30) + "\n", want: limitAt(at{3, 1, 23})},
	{name: "ERR-3 the row limit before the row's syntax", limits: &spec.Limits{MaxRows: 1},
		in: h1 + "a\nb\\q\n", want: limitAt(at{3, 1, 23})},
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range decodeErrorTests {
		t.Run(tc.name, func(t *testing.T) {
			limits := spec.DefaultLimits
			if tc.limits != nil {
				limits = *tc.limits
			}
			in := []byte(tc.in)
			got, err := DecodeLimits(in, limits)
			checkDecodeError(t, in, got, err, tc.want)
		})
	}
}

// TestDecodeWithinLimits checks inputs that sit exactly at a limit, and that
// a zero limit means none [LIM-1].
func TestDecodeWithinLimits(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		limits spec.Limits
	}{
		{"LIM-3 a row of exactly MaxLineBytes bytes", h1 + strings.Repeat("x", 20) + "\n", spec.Limits{MaxLineBytes: 20}},
		{"LIM-3 a header of exactly MaxLineBytes bytes", h1, spec.Limits{MaxLineBytes: 20}},
		{"LIM-3 exactly MaxFields fields", "GCX1 tool=t fields=a,b\n", spec.Limits{MaxFields: 2}},
		{"LIM-3 exactly MaxSections sections", h1 + h1, spec.Limits{MaxSections: 2}},
		{"LIM-3 exactly MaxRows rows in each section", h1 + "a\nb\n#c\n" + h1 + "c\nd\n", spec.Limits{MaxRows: 2}},
		{"LIM-1 zero limits mean none", "GCX1 tool=t fields=" + fieldList(5000) + "\n", spec.Unlimited},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := DecodeLimits([]byte(tc.in), tc.limits); err != nil {
				t.Errorf("DecodeLimits: %v", err)
			}
		})
	}
}

// TestDecodeLimitMinimums checks that the default limits accept what every
// conforming decoder must [LIM-2], and a line beyond the 4 MiB ceiling that
// the published decoder had.
func TestDecodeLimitMinimums(t *testing.T) {
	for _, c := range []struct {
		name           string
		limit, minimum int
	}{
		{"MaxLineBytes", spec.DefaultLimits.MaxLineBytes, spec.MinLineBytes},
		{"MaxFields", spec.DefaultLimits.MaxFields, spec.MinFields},
		{"MaxSections", spec.DefaultLimits.MaxSections, spec.MinSections},
		{"MaxRows", spec.DefaultLimits.MaxRows, spec.MinRows},
	} {
		if c.limit != 0 && c.limit < c.minimum {
			t.Errorf("LIM-2: DefaultLimits.%s = %d, below the minimum %d", c.name, c.limit, c.minimum)
		}
	}

	tests := []struct {
		name string
		in   string
		want func(*spec.Payload) bool
	}{
		{"LIM-2 a line of 1 MiB", h1 + strings.Repeat("x", spec.MinLineBytes) + "\n",
			func(p *spec.Payload) bool { return len(p.Sections[0].Rows[0][0]) == spec.MinLineBytes }},
		{"LIM-2 LIM-1 a line of 5 MiB, beyond the published decoder's 4 MiB", h1 + strings.Repeat("x", 5<<20) + "\n",
			func(p *spec.Payload) bool { return len(p.Sections[0].Rows[0][0]) == 5<<20 }},
		{"LIM-2 1024 fields", "GCX1 tool=t fields=" + fieldList(spec.MinFields) + "\n",
			func(p *spec.Payload) bool { return len(p.Sections[0].Fields) == spec.MinFields }},
		{"LIM-2 256 sections", strings.Repeat(h1, spec.MinSections),
			func(p *spec.Payload) bool { return len(p.Sections) == spec.MinSections }},
		{"LIM-2 2^20 rows", h1 + strings.Repeat("\n", spec.MinRows),
			func(p *spec.Payload) bool { return len(p.Sections[0].Rows) == spec.MinRows }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.in))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !tc.want(got) {
				t.Error("decoded payload does not hold what was written")
			}
		})
	}
}

// fieldList returns n distinct field names joined by commas.
func fieldList(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "f" + strconv.Itoa(i)
	}
	return strings.Join(names, ",")
}

// TestDecodeErrorClasses checks that each class is told apart from the
// others [ERR-1], that messages carry the position and rule [ERR-2], and
// that no data comes with an error [ERR-4].
func TestDecodeErrorClasses(t *testing.T) {
	classes := []error{spec.ErrNotGCX, spec.ErrUnsupportedVersion, spec.ErrSyntax, spec.ErrConstraint, spec.ErrLimit, spec.ErrModel}
	tests := []struct {
		name   string
		in     string
		limits spec.Limits
		class  error
		msg    string
	}{
		{"ERR-1 ERR-2 ERR-4 not-gcx", "{}", spec.DefaultLimits, spec.ErrNotGCX,
			"gcx: line 1, column 1: not a GCX payload: input does not begin with GCX [PAY-1]"},
		{"ERR-1 ERR-2 ERR-4 VER-5 unsupported-version names the tag", "GCX2\n", spec.DefaultLimits, spec.ErrUnsupportedVersion,
			"gcx: line 1, column 1: unsupported GCX version: version tag GCX2 is not GCX1; re-issue the call without the GCX format [VER-2]"},
		{"ERR-1 ERR-2 ERR-4 syntax", h1 + `\q` + "\n", spec.DefaultLimits, spec.ErrSyntax,
			`gcx: line 2, column 2: syntax error: expected one of \ t n r after "\" in a value, found 'q' [VAL-2]`},
		{"ERR-1 ERR-2 ERR-4 constraint", h2 + "x\n", spec.DefaultLimits, spec.ErrConstraint,
			"gcx: line 2, column 2: constraint violated: row has 1 values but the section declares 2 fields [ROW-2]"},
		{"ERR-1 ERR-2 ERR-4 limit", h1 + strings.Repeat("x", 21) + "\n", spec.Limits{MaxLineBytes: 20}, spec.ErrLimit,
			"gcx: line 2, column 21: limit exceeded: line is longer than the limit of 20 bytes [LIM-3]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeLimits([]byte(tc.in), tc.limits)
			if got != nil {
				t.Errorf("ERR-4: a payload came with the error: %+v", got)
			}
			for _, c := range classes {
				if errors.Is(err, c) != (c == tc.class) {
					t.Errorf("errors.Is(%v, %v) = %v", err, c, errors.Is(err, c))
				}
			}
			if err == nil || err.Error() != tc.msg {
				t.Errorf("message = %v\nwant      %s", err, tc.msg)
			}
		})
	}
}

// TestCanonicalSpellingsOnly tries a second spelling of models that have a
// canonical one; the decoder must reject each, since every valid payload is
// canonical [CAN-1].
func TestCanonicalSpellingsOnly(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want wantErr
	}{
		{`CAN-1 SP in a value is raw: \s is no escape there`, h1 + `\s` + "\n", syntaxAt("VAL-2", at{2, 2, 22})},
		{`CAN-1 a guard before a first value that does not need it`, h1 + `\Go` + "\n", syntaxAt("ROW-4", at{2, 3, 23})},
		{`CAN-1 a guard before a later value that begins with #`, h2 + "x\t\\#\n", syntaxAt("VAL-2", at{2, 4, 26})},
		{`CAN-1 = in a field name is raw: \= is no escape`, `GCX1 tool=t fields=\=` + "\n", syntaxAt("HDR-5", at{1, 21, 20})},
		{`CAN-1 , in a meta value is raw: \, is no escape there`, `GCX1 tool=t fields=a k=\,` + "\n", syntaxAt("HDR-7", at{1, 25, 24})},
		{`CAN-1 counts have no leading zero`, "GCX1 tool=t fields=a rows=00\n", constraintAt("META-1", at{1, 27, 26})},
		{`CAN-1 one SP between meta pairs`, "GCX1 tool=t fields=a k=v  j=w\n", syntaxAt("HDR-1", at{1, 26, 25})},
		{`CAN-1 one order of header keys`, "GCX1 tool=t k=v fields=a\n", syntaxAt("HDR-2", at{1, 13, 12})},
		{`CAN-1 no CR before LF`, h1 + "x\r\n", syntaxAt("ENC-3", at{2, 2, 22})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			got, err := Decode(in)
			checkDecodeError(t, in, got, err, tc.want)
		})
	}
}
