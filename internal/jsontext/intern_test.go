package jsontext

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/gcxwire/gcx/internal/propcheck"
	"pgregory.net/rapid"
)

// TestPropertyInternedNamesShared: with InternNames, every Name token of
// a text, streamed with an Arena as jsonmap reads a table, has its own
// text, and the names that are equal are one string, whatever the order
// of names that share keepName's slots (few letters and lengths make
// them share often), the empty name among them.
func TestPropertyInternedNamesShared(t *testing.T) {
	propcheck.Check(t, 300, func(t *rapid.T) {
		name := rapid.StringMatching(`[ab]{0,3}|x[ab]{0,2}y`)
		names := rapid.SliceOfN(name, 1, 60).Draw(t, "names")
		var text strings.Builder
		text.WriteByte('[')
		for i, n := range names {
			if i > 0 {
				text.WriteByte(',')
			}
			text.WriteString(`{"` + n + `":1}`)
		}
		text.WriteByte(']')
		r := NewReader(&chunker{s: text.String(), n: 5})
		r.InternNames = true
		var arena []byte
		r.Arena = &arena
		first := map[string]unsafe.Pointer{}
		i := 0
		for {
			k, s, err := r.NextText()
			if err != nil {
				break
			}
			if k != Name {
				continue
			}
			if s != names[i] {
				t.Fatalf("name %d: %q, want %q", i, s, names[i])
			}
			p := unsafe.Pointer(unsafe.StringData(s))
			if q, ok := first[s]; ok && q != p && s != "" {
				t.Fatalf("name %d: %q is not the string read first", i, s)
			}
			first[s] = p
			i++
		}
		if i != len(names) {
			t.Fatalf("%d names read, want %d", i, len(names))
		}
		if len(r.interned) != len(first) {
			t.Fatalf("%d names kept, want %d", len(r.interned), len(first))
		}
	})
}
