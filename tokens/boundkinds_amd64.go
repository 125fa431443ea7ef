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

// pieceKinds writes, for each of the blocks of 64 bytes at p, eight words
// whose bit i stands for the block's byte i (see pieceKindsGo): the ASCII
// letters, digits and white space, the bytes of 0x80 or more, the line
// feeds, the spaces, the carriage returns and quotes, and 0. It has AVX2
// steps only: countWords cuts blocks from them where kindsWide is set.
//
//go:noescape
func pieceKinds(p *byte, blocks int, out *uint64)

// blockRules writes the starts of each of blocks blocks whose kinds (from
// pieceKinds) follow the block at kinds, and returns the bits of those
// whose pieces its rules do not cut, as blockRulesGo does.
//
//go:noescape
func blockRules(kinds *uint64, blocks int, starts *uint64) uint32
