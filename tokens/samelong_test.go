package tokens

import "testing"

// TestSameLong: sameLong tells a long cache slot's piece from one that
// differs in any one byte, at every length it is called with, and finds it
// equal to itself.
func TestSameLong(t *testing.T) {
	for n := maxPacked + 1; n <= maxLongCached; n++ {
		var piece [maxLongCached]byte
		for k := range piece {
			piece[k] = byte('a' + k%26)
		}
		p := append([]byte(nil), piece[:n]...)
		if !sameLong(&piece, p) {
			t.Fatalf("sameLong of %d bytes: not equal to itself", n)
		}
		for k := range n {
			p[k] ^= 0x20
			if sameLong(&piece, p) {
				t.Fatalf("sameLong of %d bytes: equal with byte %d changed", n, k)
			}
			p[k] ^= 0x20
		}
	}
}
