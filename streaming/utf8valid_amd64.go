//go:build !purego

package streaming

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// haveUTF8Vector: the module is built for GOAMD64=v1, which does not
// promise SSSE3 (PSHUFB, PALIGNR), so the vector validator is chosen when
// the program starts.
var haveUTF8Vector = cpu.X86.HasSSSE3

// validUTF8Vector is validUTF8 by validUTF8SSSE3. The assembly reads
// whole 16-byte blocks only, so the last len(b)%16 bytes go to it as a
// copy padded with zero bytes: it never reads past the slice, and a
// sequence cut short by the end of b meets a NUL, which is as invalid
// there as the end itself.
func validUTF8Vector(b []byte) bool {
	whole := len(b) &^ 15
	var last [16]byte
	copy(last[:], b[whole:])
	return validUTF8SSSE3(unsafe.SliceData(b), whole, &last)
}

// validUTF8SSSE3 reports whether the n bytes at p followed by the 16 at
// last are valid UTF-8; n must be a multiple of 16.
//
// It follows the method of Keiser and Lemire, "Validating UTF-8 in less
// than one instruction per byte" (Software: Practice and Experience, 2021):
// three 16-entry tables, indexed by the high and low half of the byte
// before each byte and the high half of the byte itself, each give the set
// of errors that pair might make; where all three agree on one, the pair
// is invalid. The same vector marks continuation bytes that follow
// another continuation, which must be exactly those two or three places
// after a lead byte of three or four; a lead byte in the last three places
// of a block must be continued by the next block.
//
//go:noescape
func validUTF8SSSE3(p *byte, n int, last *[16]byte) bool
