package tokens

import (
	"testing"
	"unicode/utf8"
)

// TestASCIIBlocks: asciiBlocks stops at the block that holds a byte of
// 0x80 or more, wherever it lies, and passes every block when none does;
// validUTF8 is utf8.Valid on texts of every length around the blocks,
// ASCII but for a rune, an invalid byte or a rune cut at each place.
func TestASCIIBlocks(t *testing.T) {
	for _, odd := range []string{"é", "日", "\xff", "\xc3", "\xe6\x97", "\x80"} {
		for size := 0; size <= 200; size++ {
			for at := -1; at < size; at++ {
				text := make([]byte, size)
				for k := range text {
					text[k] = byte('a' + k%26)
				}
				want := size / 64
				if at >= 0 {
					text = append(text[:at], append([]byte(odd), text[at:]...)...)
					want = min(at/64, len(text)/64)
				}
				if len(text) >= 64 && blocksInAsm {
					if got := asciiBlocks(&text[0], len(text)/64); got != want {
						t.Fatalf("asciiBlocks of %d bytes, %q at %d = %d, want %d", len(text), odd, at, got, want)
					}
				}
				if got, want := validUTF8(text), utf8.Valid(text); got != want {
					t.Fatalf("validUTF8 of %d bytes, %q at %d = %v, utf8.Valid %v", len(text), odd, at, got, want)
				}
			}
		}
	}
}
