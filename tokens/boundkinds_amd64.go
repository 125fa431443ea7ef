//go:build !purego

package tokens

import "golang.org/x/sys/cpu"

// kindsInAsm is set where asciiKinds is in assembly, and cl100kLowerBound
// then bounds the text's ASCII blocks through it (see boundChunk).
const kindsInAsm = true

// kindsWide: this processor runs asciiKinds's AVX2 steps.
var kindsWide = cpu.X86.HasAVX2

// asciiKinds writes, for each of the blocks of 64 bytes at p, four words:
// three whose bit i stands for the block's byte i, the ASCII letters, the
// ASCII digits and the ASCII white space (boundKind's kinds), and a fourth
// that is not zero when the block holds a byte of 0x80 or more, as
// asciiKindsGo does. It is SSE2, 16 bytes classed with four compares and
// their bits taken by PMOVMSKB, or AVX2, 32 bytes, when wide is set.
//
//go:noescape
func asciiKinds(p *byte, blocks int, out *uint64, wide bool)
