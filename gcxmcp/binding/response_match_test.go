package binding

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/internal/propcheck"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"pgregory.net/rapid"
)

// matchCompact's loop over an object's members, which compares names and
// string values that lie in the text in line (quoted), finds what name
// and value find member by member: the same length, depth, strings in
// another form and match, on the compact form of a value parsed from a
// text's literal as ReadResponse parses it, Go's escapes of it, a byte of
// it changed, it cut short, and another value.
func TestPropertyMatchMembersAsByName(t *testing.T) {
	propcheck.Check(t, 2000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		compact := v.AppendCompact(nil)
		text := compact
		if rapid.Bool().Draw(t, "pretty") {
			var b bytes.Buffer
			json.Indent(&b, compact, "", "  ")
			text = b.Bytes()
		}
		// The text as a literal in a message, followed as in one.
		lit := append(jsontext.AppendString(nil, string(text)), `}]}`...)
		parsed, _, end, ok := jsonmap.ParseLiteral(lit[1:])
		shared := lit[1 : end+1]
		if !ok {
			parsed, _, _ = jsonmap.ParseShared(text)
			shared = text
		}
		b := compact
		switch rapid.IntRange(0, 4).Draw(t, "form") {
		case 1:
			var h bytes.Buffer
			json.HTMLEscape(&h, compact)
			b = h.Bytes()
		case 2:
			if len(b) > 0 {
				b = bytes.Clone(b)
				b[rapid.IntRange(0, len(b)-1).Draw(t, "at")] = rapid.SampledFrom([]byte(`"\:,{}[]ax0<`)).Draw(t, "byte")
			}
		case 3:
			b = b[:rapid.IntRange(0, len(b)).Draw(t, "cut")]
		case 4:
			b = jsongen.Value().Draw(t, "other").AppendCompact(nil)
		}
		b = append(bytes.Clone(b), rapid.SampledFrom([]string{"", "}", ",1]"}).Draw(t, "after")...)
		run := func(slow bool) (int, int, []stringAt, bool) {
			m := compactMatcher{b: b, base: 7, text: shared, slow: slow}
			if !m.value(&parsed, 0) {
				return 0, 0, nil, false
			}
			return m.i, m.depth, m.fixes, true
		}
		n, depth, fixes, ok := run(false)
		wn, wdepth, wfixes, wok := run(true)
		if n != wn || depth != wdepth || ok != wok || len(fixes) != len(wfixes) {
			t.Fatalf("matched %v, %d bytes, depth %d, %d fixes; by name %v, %d, %d, %d\nvalue %s\nb %s", ok, n, depth, len(fixes), wok, wn, wdepth, len(wfixes), compact, b)
		}
		for i := range fixes {
			if fixes[i] != wfixes[i] {
				t.Fatalf("fix %d: %+v, by name %+v", i, fixes[i], wfixes[i])
			}
		}
	})
}

// A string that does not lie in the text is matched by strOther in any
// form, and noted to be written anew exactly when its literal is not the
// one AppendString writes: an escape of a character compact form writes
// as it is, or another escape of one it escapes.
func TestStrOtherNotesOtherForms(t *testing.T) {
	for _, c := range []struct {
		s, lit     string
		match, fix bool
	}{
		{"a<b", `"a<b"`, true, false},
		{"a<b", `"a\u003cb"`, true, true},
		{"a\nb", `"a\nb"`, true, false},
		{"a\nb", `"a\u000ab"`, true, true},
		{"a\nb", `"a\u000Ab"`, true, true},
		{`a"b`, `"a\"b"`, true, false},
		{`a"b`, `"a\u0022b"`, true, true},
		{`a\b`, `"a\\b"`, true, false},
		{"a/b", `"a\/b"`, true, true},
		{"\x01", `"\u0001"`, true, false},
		{"é", `"é"`, true, false},
		{"é", `"\u00e9"`, true, true},
		{"a\n<", `"a\n\u003c"`, true, true},
		{"a\n<", `"a\n<"`, true, false},
		{"a<b", `"a<c"`, false, false},
		{"a\nb", "\"a\nb\"", false, false},
		{"a<b", `"a\u003cbc"`, false, false},
	} {
		v := jsonmap.Value{Kind: jsonmap.String, Text: c.s}
		n, _, fixes, ok := matchCompact([]byte(c.lit+"]"), 10, &v, nil, nil)
		if ok != c.match || ok && (n != len(c.lit) || (len(fixes) == 1) != c.fix || len(fixes) > 1) {
			t.Errorf("%q as %s: matched %v (%d bytes), %d strings to write anew; want %v, written anew %v", c.s, c.lit, ok, n, len(fixes), c.match, c.fix)
		}
		if len(fixes) == 1 && fixes[0] != (stringAt{10, 10 + len(c.lit), c.s}) {
			t.Errorf("%q as %s: noted %+v", c.s, c.lit, fixes[0])
		}
	}
}
