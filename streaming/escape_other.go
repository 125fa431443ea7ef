//go:build !amd64 || purego

package streaming

// escapeASCII is escapeASCIIWords where there is no scanner in assembly.
func escapeASCII(dst *byte, room int, src *byte, n int) (read, written int) {
	return escapeASCIIWords(dst, room, src, n)
}
