package spec_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"

	"github.com/gcxwire/gcx/spec"
)

// Each alphabet decodes what it encodes, and escapes exactly the bytes its
// rule lists [VAL-1] [HDR-5] [HDR-7].
func TestEscapeAlphabets(t *testing.T) {
	cases := []struct {
		escapes *spec.Escapes
		raw     string // the bytes that must be escaped
		rule    string // what a bad escape breaks
	}{
		{spec.ValueEscapes, "\\\t\n\r", "VAL-2"},
		{spec.FieldEscapes, "\\\t\n\r ,", "HDR-5"},
		{spec.MetaEscapes, "\\\t\n\r ", "HDR-7"},
	}
	for _, c := range cases {
		for b := 0; b < 256; b++ {
			letter := c.escapes.Letter(byte(b))
			if want := strings.IndexByte(c.raw, byte(b)) >= 0; (letter != 0) != want {
				t.Errorf("%s: byte %#x escaped = %v, want %v", c.rule, b, letter != 0, want)
			}
			if letter == 0 {
				continue
			}
			if got, ok := c.escapes.Decode(letter); !ok || got != byte(b) {
				t.Errorf("%s: letter %q decodes to %#x, %v; want %#x", c.rule, letter, got, ok, b)
			}
		}
		if c.escapes.Rule != c.rule {
			t.Errorf("alphabet for %s names rule %s", c.rule, c.escapes.Rule)
		}
		if _, ok := c.escapes.Decode('q'); ok {
			t.Errorf("%s: \\q decodes", c.rule)
		}
	}
}

// Append and Len agree, and escaping is undone by reading the pairs back.
func TestPropertyEscapesRoundTrip(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		s := rapid.StringOf(rapid.RuneFrom([]rune("ab \t\n\r\\,#é"))).Draw(t, "s")
		for _, e := range []*spec.Escapes{spec.ValueEscapes, spec.FieldEscapes, spec.MetaEscapes} {
			out := e.Append(nil, s)
			if len(out) != e.Len(s) {
				t.Fatalf("Len(%q) = %d, Append wrote %d bytes", s, e.Len(s), len(out))
			}
			var back []byte
			for i := 0; i < len(out); i++ {
				if out[i] == '\\' {
					c, ok := e.Decode(out[i+1])
					if !ok {
						t.Fatalf("Append(%q) wrote an escape it cannot read: %q", s, out)
					}
					back = append(back, c)
					i++
					continue
				}
				if e.Letter(out[i]) != 0 {
					t.Fatalf("Append(%q) left byte %q raw", s, out[i])
				}
				back = append(back, out[i])
			}
			if string(back) != s {
				t.Fatalf("read back %q, want %q", back, s)
			}
		}
	})
}

// The guard goes before a first value that would read as a comment or a
// header [ROW-4] [LINE-2].
func TestNeedsGuard(t *testing.T) {
	for s, want := range map[string]bool{"#x": true, "#": true, "GCX": true, "GCX1 tool=t": true,
		"GC": false, "gcx": false, "x#": false, "": false, " #": false} {
		if got := spec.NeedsGuard(s); got != want {
			t.Errorf("NeedsGuard(%q) = %v", s, got)
		}
		if got := spec.IsHeaderLine([]byte(s)); got != strings.HasPrefix(s, "GCX") {
			t.Errorf("IsHeaderLine(%q) = %v", s, got)
		}
	}
}

// A row line begins with the guard when a backslash stands before "#" or
// "G" [ROW-4]; any other escape at the start is no guard.
func TestStartsGuard(t *testing.T) {
	for line, want := range map[string]bool{`\#x`: true, `\#`: true, `\GCX1`: true, `\G`: true,
		`\t`: false, `\\#`: false, `#`: false, `\`: false, ``: false, `x\#`: false} {
		if got := spec.StartsGuard([]byte(line)); got != want {
			t.Errorf("StartsGuard(%q) = %v", line, got)
		}
	}
}

// Which rule a byte breaks where the grammar did not expect it [ERR-2].
func TestUnexpected(t *testing.T) {
	cases := []struct {
		rest, production, rule string
		wantRule, wantFound    string
	}{
		{"", "row", "ROW-1", "LINE-1", "end of input"},
		{"\n", "row", "ROW-1", "ROW-1", "LF"},
		{"\rx", "row", "ROW-1", "ENC-3", "CR"},
		{"\xffx", "row", "ROW-1", "ENC-1", "invalid UTF-8 byte 0xff"},
		{"\t", "header", "HDR-2", "HDR-2", "TAB"},
		{" x", "header", "HDR-2", "HDR-1", "SP"},
		{" x", "meta", "HDR-1", "HDR-1", "SP"},
		{"é", "name", "HDR-3", "HDR-3", `'é'`},
	}
	for _, c := range cases {
		f := spec.Unexpected(7, []byte(c.rest), c.production, c.rule, "something")
		if f.Rule != c.wantRule || f.Col != 7 || f.Class != spec.ErrSyntax || !strings.HasSuffix(f.Msg, "found "+c.wantFound) {
			t.Errorf("Unexpected(%q, %s, %s) = %+v; want rule %s, found %s", c.rest, c.production, c.rule, f, c.wantRule, c.wantFound)
		}
	}
}

// The first line decides whether the input is GCX at all [PAY-1] [ENC-2],
// and a header's tag whether it is this version [VER-2] [VER-3] [VER-4].
func TestNotGCXAndTagFault(t *testing.T) {
	for in, rule := range map[string]string{"": "PAY-1", "\n": "PAY-1", "{}": "PAY-1", "\uFEFFGCX1 ": "ENC-2", "GCX1 ": ""} {
		f := spec.NotGCX([]byte(in))
		if got := ""; f != nil {
			got = f.Rule
			if f.Class != spec.ErrNotGCX {
				t.Errorf("NotGCX(%q): class %v", in, f.Class)
			}
			if got != rule {
				t.Errorf("NotGCX(%q) = %s, want %s", in, got, rule)
			}
		} else if rule != "" {
			t.Errorf("NotGCX(%q) = nil, want %s", in, rule)
		}
	}
	if f := spec.TagFault([]byte("GCX1 tool=t"), 0); f != nil {
		t.Errorf("GCX1: %+v", f)
	}
	if f := spec.TagFault([]byte("GCX2 tool=t"), 0); f == nil || f.Rule != "VER-2" || f.Tag != "GCX2" || f.Class != spec.ErrUnsupportedVersion {
		t.Errorf("GCX2 first: %+v", f)
	}
	if f := spec.TagFault([]byte("GCX2 tool=t"), 1); f == nil || f.Rule != "VER-4" {
		t.Errorf("GCX2 later: %+v", f)
	}
	f := spec.TagFault([]byte("GCX! tool=t"), 0)
	if f == nil || f.Rule != "VER-3" || f.Col != 3 || !strings.Contains(f.Msg, "1 to 29") {
		t.Errorf("GCX!: %+v", f)
	}
}

// Header rules in column order, the field limit first [ERR-3] [LIM-3]
// [HDR-6] [HDR-8] [META-1] [META-3].
func TestHeaderFault(t *testing.T) {
	marks := func(texts ...string) []spec.Mark {
		m := make([]spec.Mark, len(texts))
		for i, s := range texts {
			m[i] = spec.Mark{Col: 10 * (i + 1), Text: s}
		}
		return m
	}
	cases := []struct {
		fields, keys, values []string
		limits               spec.Limits
		rule                 string
		col                  int
	}{
		{[]string{"a", "b"}, nil, nil, spec.DefaultLimits, "", 0},
		{[]string{"a", "a"}, nil, nil, spec.DefaultLimits, "HDR-6", 20},
		{[]string{"a", "a"}, nil, nil, spec.Limits{MaxFields: 1}, "LIM-3", 20},
		{[]string{"a"}, []string{"k", "k"}, []string{"1", "2"}, spec.DefaultLimits, "HDR-8", 20},
		{[]string{"a"}, []string{"fields"}, []string{"b"}, spec.DefaultLimits, "HDR-8", 10},
		{[]string{"a"}, []string{"rows"}, []string{"01"}, spec.DefaultLimits, "META-1", 10},
		{[]string{"a"}, []string{"truncated"}, []string{"yes"}, spec.DefaultLimits, "META-3", 10},
		// Names that share their length and first byte, or whose bits
		// for the quick test collide, are told apart by their text.
		{[]string{"ab", "ac", "c12", "a"}, []string{"k", "kk", "kl"}, []string{"1", "2", "3"}, spec.DefaultLimits, "", 0},
		{[]string{"ab", "ac", "ab"}, nil, nil, spec.DefaultLimits, "HDR-6", 30},
		{[]string{"", "x", ""}, nil, nil, spec.DefaultLimits, "HDR-6", 30},
		{[]string{"a"}, []string{"kl", "kk", "kl"}, []string{"1", "2", "3"}, spec.DefaultLimits, "HDR-8", 30},
		{[]string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f3"}, nil, nil, spec.DefaultLimits, "HDR-6", 100},
		{[]string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f1"}, nil, nil, spec.DefaultLimits, "HDR-6", 100},
		// More than pairwise keys go through the map, every one of them
		// entered in it, the first too, whose bit for the quick test was
		// not yet set.
		{[]string{"a"}, []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k1"},
			[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, spec.DefaultLimits, "HDR-8", 100},
	}
	for _, c := range cases {
		f := spec.HeaderFault(marks(c.fields...), marks(c.keys...), marks(c.values...), c.limits)
		switch {
		case c.rule == "" && f != nil:
			t.Errorf("%v %v: %+v", c.fields, c.keys, f)
		case c.rule != "" && (f == nil || f.Rule != c.rule || f.Col != c.col):
			t.Errorf("%v %v: %+v, want %s at %d", c.fields, c.keys, f, c.rule, c.col)
		}
	}
}

// HeaderFault finds the first repeated field name, and only a repeated
// one, in every list of up to four names of at most two bytes over a small
// alphabet, chosen so that many share their length and first byte.
func TestHeaderFaultRepeatsAgainstPairs(t *testing.T) {
	var names []string
	for _, a := range []string{"", "a", "b", "c"} {
		for _, b := range []string{"", "a", "b"} {
			if a != "" || b == "" {
				names = append(names, a+b)
			}
		}
	}
	var list []string
	var walk func()
	walk = func() {
		want := 0 // the 0-based index of the first name an earlier one has, plus one
	find:
		for k := range list {
			for i := range k {
				if list[i] == list[k] {
					want = k + 1
					break find
				}
			}
		}
		marks := make([]spec.Mark, len(list))
		for i, s := range list {
			marks[i] = spec.Mark{Col: i + 1, Text: s}
		}
		f := spec.HeaderFault(marks, nil, nil, spec.DefaultLimits)
		switch {
		case want == 0 && f != nil:
			t.Fatalf("%q: %+v", list, f)
		case want != 0 && (f == nil || f.Rule != "HDR-6" || f.Col != want):
			t.Fatalf("%q: %+v, want HDR-6 at %d", list, f, want)
		}
		if len(list) == 4 {
			return
		}
		for _, s := range names {
			list = append(list, s)
			walk()
			list = list[:len(list)-1]
		}
	}
	walk()
}

// Limit faults stand where LIM-3 says, and only past the limit; a zero
// limit is none [LIM-1].
func TestLimitFaults(t *testing.T) {
	l := spec.Limits{MaxLineBytes: 10, MaxFields: 2, MaxSections: 3, MaxRows: 4}
	if l.LineFault(10) != nil || l.SectionFault(2) != nil || l.RowFault(3) != nil || l.FieldFault(1, 5) != nil {
		t.Error("a fault within the limits")
	}
	for _, f := range []*spec.Fault{l.LineFault(11), l.SectionFault(3), l.RowFault(4), l.FieldFault(2, 5)} {
		if f == nil || f.Rule != "LIM-3" || f.Class != spec.ErrLimit {
			t.Errorf("limit fault %+v", f)
		}
	}
	if f := l.LineFault(11); f.Col != 10 {
		t.Errorf("line fault at %d, want 10 (column 11)", f.Col)
	}
	if f := l.FieldFault(2, 5); f.Col != 5 {
		t.Errorf("field fault at %d, want 5", f.Col)
	}
	// A row or a header past its limit is refused at its first byte.
	if f := l.SectionFault(3); f.Col != 0 || !strings.Contains(f.Msg, "limit of 3 sections") {
		t.Errorf("section fault %+v, want at 0 (column 1), naming the limit of 3 sections", f)
	}
	if f := l.RowFault(4); f.Col != 0 || !strings.Contains(f.Msg, "limit of 4 rows") {
		t.Errorf("row fault %+v, want at 0 (column 1), naming the limit of 4 rows", f)
	}
	var none spec.Limits
	if none.LineFault(math.MaxInt) != nil || none.RowFault(math.MaxInt) != nil {
		t.Error("a zero limit refused")
	}
}

// The rows= check [META-4].
func TestRowCountFault(t *testing.T) {
	if spec.RowCountFault("3", 3) != nil {
		t.Error("rows=3 with 3 rows refused")
	}
	if f := spec.RowCountFault("3", 2); f == nil || f.Rule != "META-4" || f.Class != spec.ErrConstraint {
		t.Errorf("rows=3 with 2 rows: %+v", f)
	}
	if v, ok := spec.RowCountValue([]spec.Meta{{Key: "total", Value: "9"}, {Key: "rows", Value: "2"}}); !ok || v != "2" {
		t.Errorf("RowCountValue = %q, %v", v, ok)
	}
}

// A section's end compares its row count with rows= digit by digit: a
// count agrees with exactly its own decimal spelling, whatever the two
// look like [META-4].
func TestPropertyRowCountFaultSpellsTheCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		held := rapid.OneOf(rapid.IntRange(0, 1000), rapid.IntRange(0, math.MaxInt)).Draw(t, "held")
		value := rapid.OneOf(
			rapid.Just(strconv.Itoa(held)),
			rapid.Map(rapid.IntRange(-3, 3), func(d int) string { return strconv.Itoa(held + d) }),
			rapid.StringMatching(`0*[0-9]{0,20}`),
		).Draw(t, "value")
		if got, want := spec.RowCountFault(value, held) == nil, value == strconv.Itoa(held); got != want {
			t.Fatalf("RowCountFault(%q, %d) agrees: %v, want %v", value, held, got, want)
		}
	})
}

// Messages quote at most a short prefix of an input.
func TestQuoteShort(t *testing.T) {
	if got := spec.QuoteShort("abc"); got != `"abc"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("é", 1<<20)
	got := spec.QuoteShort(long)
	if len(got) > 100 || !strings.Contains(got, "(2097152 bytes)") || !utf8.ValidString(got) {
		t.Errorf("long: %s", got)
	}
	_, msg := spec.CheckMeta("total", strings.Repeat("9", 10<<20))
	if len(msg) > 200 {
		t.Errorf("CheckMeta quotes %d bytes of a 10 MB value", len(msg))
	}
}
