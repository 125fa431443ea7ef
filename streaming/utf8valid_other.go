//go:build !amd64 || purego

package streaming

// haveUTF8Vector: there is no vector validator here.
const haveUTF8Vector = false

// validUTF8Vector is never called where haveUTF8Vector is false; it exists
// so that validUTF8 compiles everywhere, and gives the portable answer.
func validUTF8Vector(b []byte) bool { return validUTF8Portable(b) }
