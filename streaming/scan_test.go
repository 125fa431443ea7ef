package streaming

import (
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

// scanBytes are what the word-at-a-time tests must tell apart: the bytes a
// value escapes [VAL-1], the controls next to them that are data [ENC-4],
// DEL, and the first bytes of UTF-8 sequences, whole or broken [ENC-1].
var scanBytes = []byte("ab#\t\n\r\\\x00\x08\x0b\x0c\x0e\x1f\x7f\xc3\xa9\xe2\x82\xac\xff\xed")

// TestPropertyPlainASCII: plainASCII agrees with a byte-by-byte test on
// strings of every short length, where its overlapping loads differ.
func TestPropertyPlainASCII(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.SampledFrom(scanBytes), 0, 40).Draw(t, "s"))
		want := true
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x0E || c == '\\' || c >= utf8.RuneSelf {
				want = false
			}
		}
		if got := plainASCII(s); got != want {
			t.Fatalf("plainASCII(%q) = %v", s, got)
		}
	})
}

// TestPropertyValidPrefix: validPrefix stops where decoding rune by rune
// first fails, as the reference's peek does [ENC-1].
func TestPropertyValidPrefix(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.SampledFrom(scanBytes), 0, 40).Draw(t, "b")
		want := 0
		for want < len(b) {
			r, size := utf8.DecodeRune(b[want:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			want += size
		}
		if got := validPrefix(b); got != want {
			t.Fatalf("validPrefix(%q) = %d, want %d", b, got, want)
		}
	})
}
