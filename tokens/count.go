package tokens

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
)

// A pieceCache remembers the token counts of pieces recently seen. Tool
// results repeat their pieces (keys, separators, common words) many times,
// and a hit costs one hash and one compare against a slot that is likely
// in the processor's cache, where the rank table is not. Each is a fixed
// size, and a cacheSet holds a few per encoding.
type pieceCache struct {
	small smallCache
	short [1 << shortBits]cacheSlot
	long  [1 << longBits]longSlot
	merge merger
}

// The caches hold 16384 pieces of up to 16 bytes, which the key of the
// rank table packs, in sets of two by hash, and 4096 longer ones, in sets
// of four, the newest first: 640 KiB. Long pieces, the identifiers of a
// result, come in hundreds, and a set that three of them shared missed
// all three every time a result that cycles through them was counted
// again. A hit in a long set moves nothing: moving the piece found to the
// front, so that the set kept the one used last, cost a copy of up to
// three slots on a third of the hits when counting a tool result.
//
// In front of them, a direct-mapped cache of 8192 pieces of up to eight
// bytes, most of the pieces of tool results, keyed by the word that holds
// each: 128 KiB.
const (
	smallBits = 13
	shortBits = 14
	longBits  = 12
	longWays  = 4
)

type cacheSlot struct {
	lo, hi uint64
	n      uint32 // piece length; 0 for an empty slot
	count  uint32
}

// longSlot holds a piece of maxPacked+1 to maxLongCached bytes in one
// cache line.
type longSlot struct {
	n, count uint32
	piece    [maxLongCached]byte
}

const maxLongCached = 56

// A cacheSet lends pieceCaches to counts: each cache serves the counts that
// follow one another, never two at once. It holds up to one cache per
// processor (GOMAXPROCS when first used), each made when first lent and
// kept for the life of the process, unlike a sync.Pool's, which every
// garbage collection empties; a count that finds them all lent (its
// goroutines were descheduled holding them) borrows from a sync.Pool of
// spares.
type cacheSet struct {
	init   sync.Once
	slots  []cacheSlotLock
	spares sync.Pool // of *pieceCache
}

type cacheSlotLock struct {
	busy  atomic.Bool
	cache *pieceCache
	_     [48]byte // keeps two slots' flags off one cache line
}

// acquire lends a cache, and the slot to release, nil for a spare.
func (s *cacheSet) acquire() (*pieceCache, *cacheSlotLock) {
	s.init.Do(func() { s.slots = make([]cacheSlotLock, runtime.GOMAXPROCS(0)) })
	// The lowest free slot: counts that follow one another, the usual
	// case, all use the first cache, which stays in the processor's
	// caches. Spreading them over every slot made each count read a
	// cache the last count had not touched, of about the size of the
	// processor's second-level cache.
	for i := range s.slots {
		if slot := &s.slots[i]; slot.busy.CompareAndSwap(false, true) {
			// A slot's cache is made by its first borrower: a process
			// that counts one small text, as gcx encode does, clears one
			// cache's memory, not one per processor.
			if slot.cache == nil {
				slot.cache = new(pieceCache)
			}
			return slot.cache, slot
		}
	}
	if spare, _ := s.spares.Get().(*pieceCache); spare != nil {
		return spare, nil
	}
	return new(pieceCache), nil
}

func (s *cacheSet) release(cache *pieceCache, slot *cacheSlotLock) {
	if slot == nil {
		s.spares.Put(cache)
		return
	}
	slot.busy.Store(false)
}

// counter counts the pieces of one text.
type counter struct {
	tab   *table
	piece func(text []byte, i int) int
	cache *pieceCache
	words bool // count with countWords: the encoding is cl100k_base
}

// count returns the tokens of text, stopping as soon as the count passes
// limit: the count is exact when it is at most limit.
func (c *counter) count(text []byte, limit int) int {
	if !utf8.Valid(text) {
		text = replaceInvalid(text)
	}
	if c.words {
		return c.countWords(text, limit)
	}
	n := 0
	for i := 0; i < len(text); {
		end := c.piece(text, i)
		n += c.tokens(text, i, end)
		if n > limit {
			return n
		}
		i = end
	}
	return n
}

// tokens returns the tokens of the piece text[i:end].
func (c *counter) tokens(text []byte, i, end int) int {
	if size := end - i; size <= 8 && len(text)-i >= 8 {
		// A piece of at most eight bytes is its word of text, masked to
		// its length: one load, one multiply and one compare find it in
		// the small cache, with no call.
		word := binary.LittleEndian.Uint64(text[i:]) & wordMask[size]
		slot := &c.cache.small[smallIndex(word, size)]
		if slot.word != word || slot.size != uint32(size) {
			slot.word, slot.size, slot.count = word, uint32(size), uint32(c.pieceTokens(text[i:end]))
		}
		return int(slot.count)
	}
	return c.pieceTokens(text[i:end])
}

// wordMask[n] keeps the low n bytes of a word.
var wordMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

// smallCache is the direct-mapped cache of pieces of up to eight bytes.
type smallCache [1 << smallBits]smallSlot

// smallIndex is the index in the small cache of the piece of size bytes,
// at most eight, held in word.
func smallIndex(word uint64, size int) uint64 {
	return (word ^ uint64(size)) * 0x9e3779b97f4a7c15 >> (64 - smallBits)
}

// shortSlot is the newest slot of the short cache's set of the piece of
// size bytes, nine to 16, whose first and last words are lo and hi, if it
// holds that piece; else nil.
func (pc *pieceCache) shortSlot(lo, hi uint64, size int) *cacheSlot {
	if s := &pc.short[shortSet(ranktable.HashKey(lo, hi, size))]; s.holds(lo, hi, size) {
		return s
	}
	return nil
}

// smallSlot is a piece of at most eight bytes, as the word that holds it,
// and its count.
type smallSlot struct {
	word        uint64
	size, count uint32
}

// pieceTokens counts the tokens of one piece.
func (c *counter) pieceTokens(p []byte) int {
	if len(p) > maxPacked {
		return c.longPieceTokens(p)
	}
	lo, hi := ranktable.Pack(p)
	h := ranktable.HashKey(lo, hi, len(p))
	set := c.cache.short[shortSet(h):][:2]
	if set[0].holds(lo, hi, len(p)) {
		return int(set[0].count)
	}
	if s := set[1]; s.holds(lo, hi, len(p)) {
		set[0], set[1] = s, set[0]
		return int(s.count)
	}
	n := 1
	if c.tab.RankPacked(lo, hi, len(p), h) == noRank {
		n = c.merge(p)
	}
	set[1] = set[0]
	set[0] = cacheSlot{lo: lo, hi: hi, n: uint32(len(p)), count: uint32(n)}
	return n
}

// shortSet is the index in the short cache of the set of a piece whose
// packed key hashes to h.
func shortSet(h uint64) uint64 { return h >> (64 - shortBits) &^ 1 }

// holds reports whether the slot holds the piece of n bytes packed as lo
// and hi.
func (s *cacheSlot) holds(lo, hi uint64, n int) bool {
	return s.n == uint32(n) && s.lo == lo && s.hi == hi
}

// longPieceTokens is pieceTokens for a piece longer than maxPacked.
func (c *counter) longPieceTokens(p []byte) int {
	if len(p) > maxLongCached {
		if c.tab.Rank(p) != noRank {
			return 1
		}
		return c.merge(p)
	}
	set := c.cache.long[ranktable.LongHash(p)>>(64-longBits)&^(longWays-1):][:longWays]
	for k := range set {
		if s := &set[k]; s.n == uint32(len(p)) && sameLong(&s.piece, p) {
			return int(s.count)
		}
	}
	n := 1
	if c.tab.Rank(p) == noRank {
		n = c.merge(p)
	}
	copy(set[1:], set[:len(set)-1])
	set[0].n, set[0].count = uint32(len(p)), uint32(n)
	copy(set[0].piece[:], p)
	return n
}

// sameLong reports whether the slot's piece begins with p, of maxPacked+1
// to maxLongCached bytes: a word at a time in line, the last word read
// at len(p)-8, where a call to compare cost about as much as the lookup.
func sameLong(piece *[maxLongCached]byte, p []byte) bool {
	a, b := unsafe.Pointer(piece), unsafe.Pointer(unsafe.SliceData(p))
	last := len(p) - 8
	for k := 0; k < last; k += 8 {
		if word8(unsafe.Add(a, k)) != word8(unsafe.Add(b, k)) {
			return false
		}
	}
	return word8(unsafe.Add(a, last)) == word8(unsafe.Add(b, last))
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
