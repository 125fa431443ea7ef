package jsontext

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcxwire/gcx/internal/propcheck"
	"pgregory.net/rapid"
)

// stringPieces are the characters strings are drawn from: plain ASCII in
// runs long and short, so that escapes fall at every offset within and
// across the eight-byte words AppendString, NeedsEscape and scanString
// test, and every kind of byte those tests mark.
var stringPieces = []string{"a", "bcdefgh", "0123456789abcdef", " ", "\"", "\\", "/", "\n", "\t", "\x00", "\x1f",
	"\x7f", "é", "€", "😀", "~"}

func drawString(t *rapid.T) string {
	var b strings.Builder
	for range rapid.IntRange(0, 40).Draw(t, "n") {
		b.WriteString(rapid.SampledFrom(stringPieces).Draw(t, "piece"))
	}
	return b.String()
}

// TestPropertyStringEscapes: AppendString writes each byte as the rule
// says one at a time (the oracle below), NeedsEscape says whether it
// escaped any, and a reader decodes what AppendString wrote, and any
// other escaped form of the string, back to the string, as
// encoding/json does.
func TestPropertyStringEscapes(t *testing.T) {
	propcheck.Check(t, 2000, func(t *rapid.T) {
		s := drawString(t)
		var want []byte
		escapes := false
		want = append(want, '"')
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"' || c == '\\':
				want, escapes = append(want, '\\', c), true
			case c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				want, escapes = append(want, '\\', map[byte]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}[c]), true
			case c < 0x20:
				want, escapes = fmt.Appendf(want, `\u%04x`, c), true
			default:
				want = append(want, c)
			}
		}
		want = append(want, '"')
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		// After a prefix, in a buffer with some room or none: it writes
		// in place past the prefix (eight bytes at a time, unchecked)
		// and grows the buffer as it goes, never past its capacity,
		// which guard bytes beyond it show.
		prefix := strings.Repeat("p", rapid.IntRange(0, 20).Draw(t, "prefix"))
		room := rapid.IntRange(0, 2*len(want)).Draw(t, "room")
		const guard = 16
		whole := make([]byte, len(prefix)+room+guard)
		for i := range whole {
			whole[i] = '#'
		}
		dst := append(whole[:0:len(prefix)+room], prefix...)
		if got := AppendString(dst, s); string(got) != prefix+string(want) {
			t.Fatalf("AppendString(%q, %q) with capacity %d = %s, want %s%s", prefix, s, cap(dst), got, prefix, want)
		}
		if tail := string(whole[len(prefix)+room:]); tail != strings.Repeat("#", guard) {
			t.Fatalf("AppendString(%q, %q) with capacity %d wrote past it: %q", prefix, s, cap(dst), tail)
		}
		if NeedsEscape(s) != escapes {
			t.Fatalf("NeedsEscape(%q) = %v", s, !escapes)
		}
		run := 0
		for run < len(s) && s[run] >= 0x20 && s[run] != '"' && s[run] != '\\' {
			run++
		}
		if got := UnescapedRun([]byte(s)); got != run {
			t.Fatalf("UnescapedRun(%q) = %d, want %d", s, got, run)
		}
		// Another form: some characters as \u escapes, '/' as \/.
		var other strings.Builder
		other.WriteByte('"')
		for _, r := range s {
			switch {
			case r == '/' && rapid.Bool().Draw(t, "solidus"):
				other.WriteString(`\/`)
			case r < 0x10000 && rapid.IntRange(0, 3).Draw(t, "u") == 0:
				fmt.Fprintf(&other, `\u%04X`, r)
			default:
				other.Write(AppendString(nil, string(r))[1 : len(AppendString(nil, string(r)))-1])
			}
		}
		other.WriteByte('"')
		for _, lit := range []string{string(want), other.String()} {
			var wantText string
			if err := json.Unmarshal([]byte(lit), &wantText); err != nil || !utf8.ValidString(s) {
				continue
			}
			// Behind a prefix and before a suffix, so that the literal
			// does not begin or end where the text does.
			r := NewStringReader(`["` + strings.Repeat("x", len(s)%9) + `",` + lit + `,"tail"]`)
			r.NextToken()
			r.NextToken()
			tok, err := r.NextToken()
			if err != nil || tok.Text != wantText {
				t.Fatalf("%s read as %q (%v), want %q", lit, tok.Text, err, wantText)
			}
		}
	})
}
