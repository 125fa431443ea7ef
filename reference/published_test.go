package reference

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/spec"
)

// TestPublishedDecoderEdgeCases replays the inputs on which the package
// published with the draft lost data or failed vaguely, and pins what GCX1
// does instead. Each case names what the published package did.
func TestPublishedDecoderEdgeCases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *spec.Payload // nil when an error is wanted
		err  wantErr
	}{
		{
			// Published: the row was dropped as a comment.
			name: "CMT-1 LINE-2 a line #x TAB 1 is a comment, kept in the model, not a row",
			in:   h2 + "#x\t1\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Comments: comments(comment(0, "x\t1"))}),
		},
		{
			name: "ROW-4 the row #x, 1 is written with the guard and decodes",
			in:   h2 + "\\#x\t1\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("#x", "1"))}),
		},
		{
			// Published: decode failed, the row read as a new header.
			name: "LINE-2 HDR-2 a line GCX1 hi TAB 1 is a header, so it is a header syntax error",
			in:   h2 + "GCX1 hi\t1\n",
			err:  syntaxAt("HDR-2", at{2, 6, 28}),
		},
		{
			name: "ROW-4 the row GCX1 hi, 1 is written with the guard and decodes",
			in:   h2 + "\\GCX1 hi\t1\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a", "b"), Rows: rows(row("GCX1 hi", "1"))}),
		},
		{
			// Published: the empty row was skipped, only z came back.
			name: "ROW-1 an empty line is a row of one empty value",
			in:   h1 + "\nz\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row(""), row("z"))}),
		},
		{
			// Published: an error about a header token "2".
			name: "VER-2 GCX12 is an unsupported version named GCX12",
			in:   "GCX12 tool=t fields=a\nx\n",
			err:  unsupportedAt("VER-2", "GCX12", at{1, 1, 0}),
		},
		{
			// Published: a generic "expected header prefix" error.
			name: "VER-2 VER-5 GCX2 is a typed unsupported-version error to fall back on",
			in:   "GCX2 tool=t fields=a\nx\n",
			err:  unsupportedAt("VER-2", "GCX2", at{1, 1, 0}),
		},
		{
			// Published: decoded as xqy.
			name: `VAL-2 the unknown escape \q is a syntax error at the q`,
			in:   h1 + `x\qy` + "\n",
			err:  syntaxAt("VAL-2", at{2, 3, 23}),
		},
		{
			// Published: decoded as x\ (with the backslash).
			name: "VAL-2 a lone trailing backslash is a syntax error at the LF",
			in:   h1 + "x\\\n",
			err:  syntaxAt("VAL-2", at{2, 3, 23}),
		},
		{
			// Published: the CR was dropped, x came back.
			name: "ENC-3 x CR LF is a syntax error at the CR",
			in:   h1 + "x\r\n",
			err:  syntaxAt("ENC-3", at{2, 2, 22}),
		},
		{
			// Published: the encoder deleted every CR in values.
			name: `ENC-3 VAL-1 a CR in data travels as \r`,
			in:   h1 + `x\r` + "\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row("x\r"))}),
		},
		{
			// Published: fields= last in the draft EBNF.
			name: "HDR-2 the draft grammar's fields-last header is rejected",
			in:   "GCX1 tool=t rows=1 total=1 fields=a\nx\n",
			err:  syntaxAt("HDR-2", at{1, 13, 12}),
		},
		{
			// Draft example: six fields declared, five values written.
			name: "ROW-2 the draft example's rows are one value short",
			in: draftHeader +
				"internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\n",
			err: constraintAt("ROW-2", at{2, 79, 168}),
		},
		{
			// Published: bufio.Scanner failed on lines over 4 MiB.
			name: "LIM-2 a 5 MiB line decodes under the default limits",
			in:   h1 + strings.Repeat("v", 5<<20) + "\n",
			want: payload(spec.Section{Tool: "t", Fields: fields("a"), Rows: rows(row(strings.Repeat("v", 5<<20)))}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			got, err := Decode(in)
			if tc.want == nil {
				checkDecodeError(t, in, got, err, tc.err)
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPublishedEncoderEdgeCases pins what the GCX1 encoder does with the
// models the published encoder spelled wrongly.
func TestPublishedEncoderEdgeCases(t *testing.T) {
	// Published: tool=my tool fields=a,b,c, which its decoder rejected.
	_, err := Encode(payload(spec.Section{Tool: "my tool", Fields: fields("a,b", "c")}))
	checkModelError(t, err, "HDR-3")

	// With a tool name that has a spelling, the comma in a field name is
	// escaped and the header still declares two fields [HDR-5].
	out, err := Encode(payload(spec.Section{Tool: "my_tool", Fields: fields("a,b", "c"), Rows: rows(row("x\r", "#"))}))
	if err != nil {
		t.Fatal(err)
	}
	if want := "GCX1 tool=my_tool fields=a\\,b,c\nx\\r\t#\n"; string(out) != want {
		t.Errorf("Encode = %q, want %q", out, want)
	}
}
