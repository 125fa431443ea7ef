//go:build !purego

package tokens

// asciiBlocks returns how many of the blocks of 64 bytes at p, from the
// first, hold only ASCII: counter.count's check of UTF-8 need not read
// them. It is SSE2, a block a step.
//
//go:noescape
func asciiBlocks(p *byte, blocks int) int

// blocksInAsm: asciiBlocks is in assembly here.
const blocksInAsm = true
