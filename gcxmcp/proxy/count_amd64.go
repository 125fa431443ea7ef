//go:build !purego

package proxy

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// countWide: the processor counts a message's value bytes in AVX2.
var countWide = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

// countValueBytes is how many bytes of msg are ',', '[' or '{' (tooDense):
// in one pass of 32 bytes a step where the processor has AVX2, where three
// passes of bytes.Count read the message three times.
func countValueBytes(msg []byte) int {
	if !countWide || len(msg) == 0 {
		return countValueBytesEach(msg)
	}
	return countValueBytesAVX2(unsafe.SliceData(msg), len(msg))
}

//go:noescape
func countValueBytesAVX2(p *byte, n int) int
