// Package gen holds the rapid generators shared by the module's property
// tests: escape-heavy strings, valid payload models, and mutations of encoded
// payloads that are sometimes still valid and mostly not.
//
// It is internal: the generators are test equipment, tuned to reach the
// corners of GCX1 (guards, escapes, empty values, trailing empty values,
// comments, several sections), not a public API.
package gen

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/propcheck"

	"github.com/gcxwire/gcx/spec"
)

// Check runs prop with at least min cases (propcheck.Check).
func Check(t *testing.T, min int, prop func(*rapid.T)) {
	t.Helper()
	propcheck.Check(t, min, prop)
}

// fragments are the pieces escape-heavy strings are built from: every byte
// GCX1 escapes, the two characters "\" "t" side by side, what a header or a
// comment starts with, the header's own punctuation, multi-byte UTF-8 and
// controls.
var fragments = []string{
	"", "a", "x", "Go", "G", "GC", "GCX", "GCX1", "GCX1 ", "GCX10", "GCX2", "C", "X",
	"#", "##", "# note", "\\", `\t`, `\n`, `\r`, `\\`, `\s`, `\,`, `\#`, `\G`,
	"\t", "\n", "\r", "\r\n", "\t\t", " ", "  ", ",", "=", "tool=", "fields=", "rows=1",
	"é", "日本語", "😀", "\u2028", "\uFEFF", "\uFFFD", "\x00", "\x01", "\x1f", "\x7f",
	"func(a int, b string) error", "internal/mcp/server.go", "62",
}

// Text draws a string built from fragments and the odd arbitrary rune.
func Text() *rapid.Generator[string] {
	piece := rapid.OneOf(
		rapid.SampledFrom(fragments),
		rapid.SampledFrom(fragments),
		rapid.SampledFrom(fragments),
		rapid.Map(rapid.Rune(), func(r rune) string {
			if !utf8.ValidRune(r) {
				return "?"
			}
			return string(r)
		}),
	)
	return rapid.Map(rapid.SliceOfN(piece, 0, 6), func(ps []string) string {
		return strings.Join(ps, "")
	})
}

// CommentText draws a string with neither LF nor CR, as comments need.
func CommentText() *rapid.Generator[string] {
	return rapid.Map(Text(), func(s string) string {
		return strings.NewReplacer("\n", "", "\r", "").Replace(s)
	})
}

var nameBytes = []rune("abcxyzABCZ0189_-.")

// Name draws a tool name or meta key: one or more name bytes [HDR-3].
func Name() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"search_symbols", "find_usages", "get_callers.nodes",
			"get_callers.edges", "t", "a-b_c.d", "0", "_", "."}),
		rapid.StringOfN(rapid.RuneFrom(nameBytes), 1, 8, -1),
	)
}

// Section draws a valid section.
func Section() *rapid.Generator[spec.Section] {
	return rapid.Custom(func(t *rapid.T) spec.Section {
		var s spec.Section
		s.Tool = Name().Draw(t, "tool")
		s.Fields = rapid.SliceOfNDistinct(Text(), 1, 6, rapid.ID[string]).Draw(t, "fields")
		nrows := rapid.IntRange(0, 8).Draw(t, "rows")
		for i := 0; i < nrows; i++ {
			s.Rows = append(s.Rows, rapid.SliceOfN(Text(), len(s.Fields), len(s.Fields)).Draw(t, "row"))
		}
		s.Meta = meta(t, nrows)
		ncomments := rapid.IntRange(0, 3).Draw(t, "comments")
		if rapid.IntRange(0, 2).Draw(t, "with-comments") == 0 {
			ncomments = 0
		}
		at := 0
		for i := 0; i < ncomments; i++ {
			at = rapid.IntRange(at, nrows).Draw(t, "comment-row")
			s.Comments = append(s.Comments, spec.Comment{Row: at, Text: CommentText().Draw(t, "comment")})
		}
		return s
	})
}

// meta draws the pairs after fields=: reserved keys with valid values (rows=
// equal to the row count) mixed with other keys and escape-heavy values.
func meta(t *rapid.T, nrows int) []spec.Meta {
	keys := rapid.SliceOfNDistinct(
		rapid.OneOf(rapid.SampledFrom([]string{spec.KeyRows, spec.KeyTotal, spec.KeyTruncated, "lang", "next_cursor"}), Name()),
		0, 5, rapid.ID[string]).Draw(t, "meta-keys")
	var out []spec.Meta
	for _, k := range keys {
		var v string
		switch k {
		case spec.KeyTool, spec.KeyFields:
			continue
		case spec.KeyRows:
			v = strconv.Itoa(nrows)
		case spec.KeyTotal:
			v = strconv.Itoa(nrows + rapid.IntRange(0, 1000).Draw(t, "total"))
		case spec.KeyTruncated:
			v = rapid.SampledFrom([]string{"true", "false"}).Draw(t, "truncated")
		default:
			v = Text().Draw(t, "meta-value")
		}
		out = append(out, spec.Meta{Key: k, Value: v})
	}
	return out
}

// Payload draws a valid payload of one to four sections.
func Payload() *rapid.Generator[*spec.Payload] {
	return rapid.Custom(func(t *rapid.T) *spec.Payload {
		return &spec.Payload{Sections: rapid.SliceOfN(Section(), 1, 4).Draw(t, "sections")}
	})
}

// insertions are what Mutate splices into a payload: the bytes that matter
// to the grammar, broken UTF-8, and whole header lines of this and other
// versions.
var insertions = []string{
	"\t", "\n", "\r", "\\", "#", "G", "GCX", "GCX1", "GCX2 ", "GCX10 ", "GCX1-stream ", " ", ",", "=",
	"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\\x", "\\s", "\\,", "\\#", "\\G", "\\t", "\x00",
	"\uFEFF", "GCX1 tool=x fields=y\n", "GCX1 tool=x fields=y rows=1\n", "rows=", " rows=0", " k=v",
	"tool=", "fields=", "\n\n", "#c\n",
}

// Mutate applies one to four random edits to b: splice in a fragment, delete
// a span, overwrite a byte, cut the tail, or repeat a line. About a tenth of
// the results are still valid, which is what a differential test wants.
func Mutate(t *rapid.T, b []byte) []byte {
	out := append([]byte(nil), b...)
	n := rapid.IntRange(1, 4).Draw(t, "edits")
	for i := 0; i < n; i++ {
		at := 0
		if len(out) > 0 {
			at = rapid.IntRange(0, len(out)).Draw(t, "at")
		}
		switch rapid.IntRange(0, 4).Draw(t, "edit") {
		case 0:
			frag := rapid.SampledFrom(insertions).Draw(t, "insert")
			out = append(out[:at], append([]byte(frag), out[at:]...)...)
		case 1:
			end := rapid.IntRange(at, min(len(out), at+4)).Draw(t, "delete-end")
			out = append(out[:at], out[end:]...)
		case 2:
			if at < len(out) {
				out[at] = rapid.Byte().Draw(t, "byte")
			}
		case 3:
			out = out[:at]
		case 4:
			lines := strings.SplitAfter(string(out), "\n")
			if len(lines) > 0 {
				k := rapid.IntRange(0, len(lines)-1).Draw(t, "line")
				lines = append(lines[:k+1], lines[k:]...)
				out = []byte(strings.Join(lines, ""))
			}
		}
	}
	return out
}

// Describe renders bytes for a failure message.
func Describe(b []byte) string { return fmt.Sprintf("%q", b) }
