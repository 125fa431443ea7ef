package reference

import (
	"errors"
	"strconv"
	"strings"
	"testing"

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

// A zero limit means none [LIM-1]: something no vector can say, since a
// vector's limits are positive and apply on top of a decoder's own.
func TestDecodeZeroLimitsMeanNone(t *testing.T) {
	in := "GCX1 tool=t fields=" + fieldList(5000) + "\n"
	if _, err := DecodeLimits([]byte(in), spec.Unlimited); err != nil {
		t.Errorf("DecodeLimits: %v", err)
	}
	if _, err := DecodeLimits([]byte(in), spec.Limits{MaxFields: 4999}); !errors.Is(err, spec.ErrLimit) {
		t.Errorf("under a field limit: %v, want a limit error", err)
	}
}

// The default limits are at or above the minimums every conforming decoder
// accepts [LIM-2] (the lim-2-* vectors sit at those minimums), and a line
// of 5 MiB, beyond the published decoder's 4 MiB ceiling, decodes under
// them: this decoder takes the "accept" side of the vectors that allow a
// limit error instead [LIM-1].
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
	got, err := Decode([]byte(h1 + strings.Repeat("x", 5<<20) + "\n"))
	if err != nil || len(got.Sections[0].Rows[0][0]) != 5<<20 {
		t.Errorf("a line of 5 MiB: %v", err)
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
			"gcx: line 1, column 1: not GCX: input does not begin with GCX [PAY-1]"},
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
