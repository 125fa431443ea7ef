package tokens

import "github.com/gcxwire/gcx/tokens/internal/ranktable"

// A table maps every token of an encoding, as bytes, to its rank: the order
// in which BPE merges produce it, lower first. It is the embedded layout of
// package ranktable (ranks.go), read where it lies.
type table struct {
	ranktable.Table
}

// noRank marks a byte sequence that is not a token.
const noRank = ranktable.NoRank

// maxPacked is the longest token found by a key of two words.
const maxPacked = ranktable.MaxPacked
