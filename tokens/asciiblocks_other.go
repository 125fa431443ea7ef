//go:build !amd64 || purego

package tokens

// asciiBlocks has no assembly here: it passes over no block, and
// counter.count's check of UTF-8 reads the whole text.
func asciiBlocks(p *byte, blocks int) int { return 0 }

// blocksInAsm: asciiBlocks is not in assembly here.
const blocksInAsm = false
