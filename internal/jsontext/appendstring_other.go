//go:build !amd64 || purego

package jsontext

// appendEscaped is appendEscapedWords where there is no scanner in
// assembly; see the amd64 version for what it does.
func appendEscaped(dst *byte, room int, src *byte, n int) (read, written int) {
	return appendEscapedWords(dst, room, src, n)
}
