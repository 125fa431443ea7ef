package proxy

import (
	"bytes"
	"testing"

	"github.com/gcxwire/gcx/internal/propcheck"
	"pgregory.net/rapid"
)

// countValueBytes counts what three passes of bytes.Count count, on texts
// dense in the three bytes and their neighbours, of any length and at any
// offset, so that the 32-byte steps and the tail are both tried.
func TestPropertyCountValueBytesAsEach(t *testing.T) {
	propcheck.Check(t, 2000, func(t *rapid.T) {
		alphabet := rapid.SampledFrom([]string{",[{", `,[{]}"a`, "\x00\xff,+-[{|zZ", "abc"}).Draw(t, "alphabet")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		at := rapid.IntRange(0, 40).Draw(t, "at")
		buf := make([]byte, at+n+40)
		for i := range buf {
			buf[i] = alphabet[rapid.IntRange(0, len(alphabet)-1).Draw(t, "byte")]
		}
		msg := buf[at : at+n]
		want := 0
		for _, c := range msg {
			if c == ',' || c == '[' || c == '{' {
				want++
			}
		}
		if got, each := countValueBytes(msg), countValueBytesEach(msg); got != want || each != want {
			t.Fatalf("counted %d, by bytes.Count %d, want %d in %q", got, each, want, msg)
		}
	})
}

// tooDense counts a message over FewValues and one value per
// MinBytesPerValue bytes as too dense, and one at the bound as not.
func TestTooDenseBound(t *testing.T) {
	for _, c := range []struct {
		msg  []byte
		want bool
	}{
		{bytes.Repeat([]byte(","), FewValues), false},
		{bytes.Repeat([]byte(","), FewValues+1), true},
		{append(bytes.Repeat([]byte("{"), FewValues), bytes.Repeat([]byte("a"), 15*FewValues)...), false},
		{append(bytes.Repeat([]byte("[,{"), 2*FewValues), bytes.Repeat([]byte(" "), 16*6*FewValues-6*FewValues)...), false},
		{append(bytes.Repeat([]byte("[,{"), 2*FewValues), bytes.Repeat([]byte(" "), 16*6*FewValues-6*FewValues-16)...), true},
	} {
		if got := tooDense(c.msg); got != c.want {
			t.Errorf("%d bytes, %d of them value bytes: tooDense %v, want %v", len(c.msg), countValueBytesEach(c.msg), got, c.want)
		}
	}
}
