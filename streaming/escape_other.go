//go:build !amd64 || purego

package streaming

// escapeASCII is escapeASCIIWords where there is no scanner in assembly.
func escapeASCII(dst *byte, room int, src *byte, n int) (read, written int) {
	return escapeASCIIWords(dst, room, src, n)
}

// plainFirst: WriteRow tests each value with plainASCII and copies a plain
// one whole, which in portable Go costs less than the word scanner.
const plainFirst = true
