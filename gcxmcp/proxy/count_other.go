//go:build !amd64 || purego

package proxy

// countValueBytes is how many bytes of msg are ',', '[' or '{'
// (tooDense); there is no one-pass count in assembly here.
func countValueBytes(msg []byte) int { return countValueBytesEach(msg) }
