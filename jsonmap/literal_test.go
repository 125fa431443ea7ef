package jsonmap_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"pgregory.net/rapid"
)

// Reading a text's value from the string literal that carries it gives
// what decoding the literal and parsing the text gives: the same value
// and compact flag whenever it reads one, and a refusal whenever the
// decoded text is refused. It reads every JSON text the mapping reads
// whose literal is as encoders write it.
func TestPropertyParseLiteralAsDecoded(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		text := jsongen.LiteralText(t)
		lit := jsongen.Literal(t, text)
		decoded, ok := jsontext.Unquote(lit)
		if !ok || decoded != text {
			t.Fatalf("the literal %s does not hold the text %q", lit, text)
		}
		want, wantCompact, err := jsonmap.ParseShared([]byte(decoded))
		// The literal's bytes after its opening quote, and what a
		// message may hold after it.
		after := rapid.SampledFrom([]string{"", `}]}`, `,"x":"\"y\""}`}).Draw(t, "after")
		got, gotCompact, n, read := jsonmap.ParseLiteral([]byte(lit[1:] + after))
		if read && n != len(lit)-2 {
			t.Fatalf("the literal %s closes at %d, not %d", lit, len(lit)-2, n)
		}
		switch {
		case read && err != nil:
			t.Fatalf("read %#v from %s, whose text is refused: %v", got, lit, err)
		case read && (!jsonmap.Equal(got, want) || gotCompact != wantCompact):
			t.Fatalf("read %#v (compact %v) from %s, whose text holds %#v (compact %v)", got, gotCompact, lit, want, wantCompact)
		case !read && err == nil && jsongen.EncodersLiteral(lit, text):
			t.Fatalf("left the literal %s, as encoders write it, to decoding", lit)
		}
	})
}

// The literal's plain strings and numbers are shared, not copied.
func TestParseLiteralShares(t *testing.T) {
	lit := []byte(`{\"name\": \"plain\", \"n\": 12, \"e\": \"a\\nb\"}"`)
	v, compact, _, ok := jsonmap.ParseLiteral(lit)
	if !ok || compact {
		t.Fatalf("ParseLiteral: ok %v, compact %v", ok, compact)
	}
	if got := v.GoString(); got != `{"name":"plain","n":12,"e":"a\nb"}` {
		t.Fatalf("read %s", got)
	}
	for _, m := range v.Members[:2] {
		s := m.Value.Text
		if i := strings.Index(string(lit), s); i < 0 || &lit[i] != unsafe.StringData(s) {
			t.Errorf("%q is a copy", s)
		}
	}
}

// A value read from a literal stays as it was read while later literals
// are read, with the same reader or another (ParseLiteral reuses them).
func TestParseLiteralValuesKept(t *testing.T) {
	var kept []jsonmap.Value
	var texts []string
	for i := range 40 {
		esc := strings.Repeat(`x\\n`, i*7)
		lit := `{\"s\": \"` + esc + `\", \"t\": [\"a\\tb\", ` + strings.Repeat("1", i%5+1) + `]}"`
		v, _, _, ok := jsonmap.ParseLiteral([]byte(lit))
		if !ok {
			t.Fatalf("not read: %s", lit)
		}
		kept, texts = append(kept, v), append(texts, v.GoString())
	}
	for i, v := range kept {
		if got := v.GoString(); got != texts[i] {
			t.Fatalf("value %d read as %s, now %s", i, texts[i], got)
		}
	}
}
