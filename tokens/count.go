package tokens

import (
	"math"
	"unicode/utf8"
	"unsafe"
)

// A pieceCache remembers the token counts of pieces recently seen. Tool
// results repeat their pieces (keys, separators, common words) many times,
// and a hit costs one hash and one compare against a slot that is likely
// in the processor's cache, where the rank table is not. Caches live in a
// sync.Pool per encoding, so they are shared by the calls that follow one
// another and never by two calls at once; each is a fixed size.
type pieceCache struct {
	slots [cacheSlots]cacheSlot
	merge merger
}

// cacheSlots is the number of pieces a cache holds, direct-mapped by hash.
const cacheSlots = 1 << 12

type cacheSlot struct {
	lo, hi uint64
	n      uint32 // piece length; 0 for an empty slot
	count  uint32
}

// counter counts the pieces of one text.
type counter struct {
	tab   *table
	piece func(text []byte, i int) int
	cache *pieceCache
}

// count returns the tokens of text, stopping as soon as the count passes
// limit: the count is exact when it is at most limit.
func (c *counter) count(text []byte, limit int) int {
	if !utf8.Valid(text) {
		text = replaceInvalid(text)
	}
	n := 0
	for i := 0; i < len(text); {
		end := c.piece(text, i)
		n += c.pieceTokens(text[i:end])
		if n > limit {
			return n
		}
		i = end
	}
	return n
}

// pieceTokens counts the tokens of one piece.
func (c *counter) pieceTokens(p []byte) int {
	if len(p) > maxPacked {
		if c.tab.rank(p) != noRank {
			return 1
		}
		return c.merge(p)
	}
	lo, hi := pack(p)
	h := hashKey(lo, hi, len(p))
	s := &c.cache.slots[h>>(64-12)]
	if s.n == uint32(len(p)) && s.lo == lo && s.hi == hi {
		return int(s.count)
	}
	n := 1
	if c.tab.rankPacked(lo, hi, len(p), h) == noRank {
		n = c.merge(p)
	}
	*s = cacheSlot{lo: lo, hi: hi, n: uint32(len(p)), count: uint32(n)}
	return n
}

func (c *counter) merge(p []byte) int {
	if len(p) <= smallPiece {
		return c.tab.mergeSmall(p)
	}
	return c.tab.mergeLarge(p, &c.cache.merge)
}

// replaceInvalid returns text with every byte that is not part of valid
// UTF-8 replaced by U+FFFD, as converting it to runes does: tiktoken-go
// counts the text that way.
func replaceInvalid(text []byte) []byte {
	out := make([]byte, 0, len(text)+len(text)/2)
	for len(text) > 0 {
		r, w := utf8.DecodeRune(text)
		out = utf8.AppendRune(out, r)
		text = text[w:]
	}
	return out
}

// noLimit is the limit of a count that never stops early.
const noLimit = math.MaxInt

// bytesOf returns the bytes of s without copying them; no caller writes to
// them.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
