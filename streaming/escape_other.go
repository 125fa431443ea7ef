//go:build !amd64 || purego

package streaming

import "unsafe"

// escapeASCII is escapeASCIIWords where there is no scanner in assembly.
func escapeASCII(dst *byte, room int, src *byte, n int) (read, written int) {
	return escapeASCIIWords(dst, room, src, n)
}

// plainFirst: WriteRow tests each value with plainASCII and copies a plain
// one whole, which in portable Go costs less than the word scanner.
const plainFirst = true

// escapeRow writes the n values at vals to dst spelled as a row's values,
// TAB between them, until it meets a byte that is not ASCII; see the
// amd64 version, which does it in one vector pass.
func escapeRow(dst *byte, vals *string, n int) (k, read, written int) {
	j := 0
	for k, v := range unsafe.Slice(vals, n) {
		if k > 0 {
			*at(dst, j) = '\t'
			j++
		}
		if plainFirst && plainASCII(v) {
			copy(unsafe.Slice(at(dst, j), len(v)), v)
			j += len(v)
			continue
		}
		r, w := escapeASCIIWords(at(dst, j), 2*len(v)+valueSlack, unsafe.StringData(v), len(v))
		j += w
		if r < len(v) {
			return k, r, j
		}
	}
	return n, 0, j
}
