package spec_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// The default limits are the ones the gcx command, every codec and the
// streaming decoder apply when not told otherwise, and the help text
// prints: each is pinned at its boundary (the payload at the limit decodes,
// one step beyond is a limit error at the place [LIM-3] gives), and each is
// at least the minimum a conforming decoder accepts [LIM-2]. A drift of a
// default, by one or by a factor, fails here.
func TestDefaultLimitsAtTheirBoundary(t *testing.T) {
	d := spec.DefaultLimits
	if d.MaxLineBytes != 16<<20 || d.MaxFields != 4096 || d.MaxSections != 4096 || d.MaxRows != 0 {
		t.Errorf("DefaultLimits = %+v; the documented defaults are 16 MiB lines, 4096 fields, 4096 sections, no row limit", d)
	}
	for _, c := range []struct {
		name           string
		value, minimum int
	}{
		{"MaxLineBytes", d.MaxLineBytes, spec.MinLineBytes},
		{"MaxFields", d.MaxFields, spec.MinFields},
		{"MaxSections", d.MaxSections, spec.MinSections},
		{"MaxRows", d.MaxRows, spec.MinRows},
	} {
		if c.value != 0 && c.value < c.minimum {
			t.Errorf("DefaultLimits.%s = %d, below the minimum %d every decoder accepts [LIM-2]", c.name, c.value, c.minimum)
		}
	}

	fields := func(n int) string {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprint("f", i)
		}
		return "GCX1 tool=t fields=" + strings.Join(names, ",") + "\n"
	}
	sections := func(n int) string { return strings.Repeat("GCX1 tool=t fields=a\n", n) }
	line := func(n int) string { // a row line of n bytes, its LF not counted
		return "GCX1 tool=t fields=a\n" + strings.Repeat("x", n) + "\n"
	}
	rows := func(n int) string { return "GCX1 tool=t fields=a\n" + strings.Repeat("1\n", n) }
	cases := []struct {
		name      string
		at, over  string
		line, col int // where the payload beyond the limit is refused
	}{
		// The first byte of field name MaxFields+1: after the header's LF-less
		// text at the limit and a comma.
		{"fields", fields(d.MaxFields), fields(d.MaxFields + 1), 1, len(fields(d.MaxFields)) - 1 + len(",") + 1},
		{"sections", sections(d.MaxSections), sections(d.MaxSections + 1), d.MaxSections + 1, 1},
		{"line bytes", line(d.MaxLineBytes), line(d.MaxLineBytes + 1), 2, d.MaxLineBytes + 1},
	}
	for _, c := range cases {
		if _, err := streaming.Decode(strings.NewReader(c.at), spec.DefaultLimits); err != nil {
			t.Errorf("%s: at the default limit: %v", c.name, err)
		}
		_, err := streaming.Decode(strings.NewReader(c.over), spec.DefaultLimits)
		var e *spec.Error
		if !errors.As(err, &e) || e.Class != spec.ErrLimit || e.Line != c.line || e.Column != c.col {
			t.Errorf("%s: one beyond the default limit gave %v; want a limit error at line %d, column %d", c.name, err, c.line, c.col)
		}
	}
	// No row limit: more rows than any minimum still decode.
	if _, err := streaming.Decode(strings.NewReader(rows(spec.MinRows+1)), spec.DefaultLimits); err != nil {
		t.Errorf("rows: %d rows under the default limits: %v", spec.MinRows+1, err)
	}
}

// TestMinimumsAreTheSpecs: the minimums every conforming decoder accepts
// are the figures [LIM-2] states in docs/wire-format.md, so the vectors and
// codecs held to spec.MinimumLimits are held to the text. A minimum
// changed in one place and not the other fails here.
func TestMinimumsAreTheSpecs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rule, ok := strings.Cut(string(doc), "**[LIM-2]**")
	if !ok {
		t.Fatal("docs/wire-format.md does not define [LIM-2]")
	}
	rule, _, _ = strings.Cut(rule, "\n\n")
	rule = strings.Join(strings.Fields(rule), " ")
	grouped := func(n int) string { // 1048576 as 1,048,576
		s := strconv.Itoa(n)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	for _, want := range []string{
		grouped(spec.MinLineBytes) + " bytes",
		grouped(spec.MinFields) + " fields",
		grouped(spec.MinSections) + " sections",
		grouped(spec.MinRows) + " rows",
	} {
		if !strings.Contains(rule, want) {
			t.Errorf("[LIM-2] in docs/wire-format.md does not state %q: %s", want, rule)
		}
	}
}
