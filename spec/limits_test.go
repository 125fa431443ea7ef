package spec_test

import (
	"errors"
	"fmt"
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
