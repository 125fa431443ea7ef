package jsonmap_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
)

// checkParseShared checks ParseShared on one text against Parse and
// AppendCompact: the same value, and compact exactly when the text is the
// compact form, byte for byte. It returns the compact flag.
func checkParseShared(t fataler, text []byte) bool {
	t.Helper()
	want, wantErr := jsonmap.Parse(text)
	v, compact, err := jsonmap.ParseShared(text)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("ParseShared(%q) error %v, Parse's %v", text, err, wantErr)
	}
	if err != nil {
		if compact {
			t.Fatalf("ParseShared(%q) failed and said compact", text)
		}
		return false
	}
	if !jsonmap.Equal(v, want) {
		t.Fatalf("ParseShared(%q) = %s, Parse %s", text, v.AppendCompact(nil), want.AppendCompact(nil))
	}
	if isCompact := bytes.Equal(v.AppendCompact(nil), text); compact != isCompact {
		t.Fatalf("ParseShared(%q) says compact %v; its compact form is %q", text, compact, v.AppendCompact(nil))
	}
	return compact
}

// fataler is what checkParseShared needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// TestParseSharedCompact: the texts that are their own compact form
// [MAP-3], and those that are not: whitespace anywhere, escapes the
// compact form does not write, in upper-case hex or for characters it
// writes as themselves.
func TestParseSharedCompact(t *testing.T) {
	cases := []struct {
		in      string
		compact bool
	}{
		{`{"a":[1,2.50,-0,1E+5],"b":{}}`, true},
		{`{"a":1}`, true},
		{` {"a":1}`, false},
		{`{"a":1} `, false},
		{"{\"a\":1}\n", false},
		{`{"a" :1}`, false},
		{`{"a": 1}`, false},
		{`[1, 2]`, false},
		{"[1,\t2]", false},
		{`[]`, true},
		{`[[],{},""]`, true},
		{`null`, true},
		{`true`, true},
		{`12345678901234567890123456789`, true},
		{`"café é"`, true},
		{`"caf\u00e9"`, false},
		{`"\u0041"`, false},
		{`"\/"`, false},
		{`"/"`, true},
		{`"\u001F"`, false},
		{`"\u001f"`, true},
		{`"\u0001\b\f\n\r\t\"\\"`, true},
		{`"\u0008"`, false},
		{`"\u000a"`, false},
		{"\"\x7f\"", true},
		{`"\u007f"`, false},
		{"\"\u2028\"", true},
		{`"\u2028"`, false},
		{`"😀"`, true},
		{`"\ud83d\ude00"`, false},
		{`{"k\"ey":"v\\al"}`, true},
		{`{"k\u0065y":"v"}`, false},
		{`"` + strings.Repeat("abcdefghij", 50000) + `"`, true},
		{` "` + strings.Repeat("abcdefghij", 50000) + `"`, false},
	}
	for _, c := range cases {
		if got := checkParseShared(t, []byte(c.in)); got != c.compact {
			t.Errorf("ParseShared(%.40q) compact = %v, want %v", c.in, got, c.compact)
		}
	}
	for _, in := range []string{"", " ", "\uFEFF1", `{"a":1,"a":2}`, `"\ud800"`, `[1,]`, "\"\xff\""} {
		if _, compact, err := jsonmap.ParseShared([]byte(in)); err == nil || compact || !errors.Is(err, jsonmap.ErrInvalidJSON) {
			t.Errorf("ParseShared(%q) = compact %v, %v; want an error of class ErrInvalidJSON", in, compact, err)
		}
	}
}

// TestPropertyParseSharedCompact: on every value in every spelling, and on
// its compact form, ParseShared reads what Parse reads and says compact
// exactly when the text is the compact form.
func TestPropertyParseSharedCompact(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		checkParseShared(t, jsongen.Text(t, v))
		if !checkParseShared(t, v.AppendCompact(nil)) {
			t.Fatalf("the compact form %q is not compact", v.AppendCompact(nil))
		}
	})
}
