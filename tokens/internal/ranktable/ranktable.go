// Package ranktable lays out a BPE encoding's rank table as bytes that
// counting reads where they lie. A table is built once, by Build, from the
// tiktoken rank file (Parse), and written by go generate into package
// tokens, which embeds it in the binary: loading it is checking a header
// and taking a few slices of the embedded bytes, with no parse, no
// allocation per token and nothing read from outside the binary. The
// operating system pages in only the parts a count touches.
//
// Tokens live in three open addressing tables, linear probing from a home
// slot the token's hash picks, with no wrap-around (Build leaves an empty
// slot after the last full one):
//
//   - short: tokens of at most 8 bytes, packed into one word (16-byte slots);
//   - mid: tokens of 9 to 16 bytes, packed into two words (24-byte slots);
//   - long: longer tokens, by their hash, offset and length in a string of
//     their bytes.
//
// A slot holds the token's bytes (or their hash) beside its rank, so a
// lookup is a hash, usually one probe, and a compare: no pointer to follow.
// Beside them, pair gives the rank of every two-byte sequence directly, the
// first round of every merge.
package ranktable

import (
	"encoding/binary"
	"math/bits"
)

// NoRank marks a byte sequence that is not a token.
const NoRank = ^uint32(0)

// MaxShort is the longest token the short table holds; MaxPacked the
// longest the mid table holds.
const (
	MaxShort  = 8
	MaxPacked = 16
)

// Short is a slot of the short table: a token of N bytes packed by Pack
// into Key, N == 0 for an empty slot.
type Short struct {
	Key     uint64
	Rank, N uint32
}

// Mid is a slot of the mid table: a token of N bytes packed by Pack, N == 0
// for an empty slot.
type Mid struct {
	Lo, Hi  uint64
	Rank, N uint32
}

// Long is a slot of the long table: a token of N bytes at Off in the
// table's string of long tokens, with its LongHash, which is never 0;
// Hash == 0 for an empty slot.
type Long struct {
	Hash       uint64
	Off, N     uint32
	Rank, _pad uint32
}

// Table is an encoding's rank table. Its slices may be the embedded bytes
// themselves: they are read, never written.
type Table struct {
	Longest int      // bytes of the longest token
	Tokens  int      // tokens in the table
	Pair    []uint32 // rank of every two-byte sequence a<<8|b, or NoRank
	short   []Short
	mid     []Mid
	long    []Long
	longs   string // the bytes of the long tokens
	// The home slots of each table: the slots a hash picks from. The
	// slots past them hold what overflowed, and an empty one last.
	shortHome, midHome, longHome int
}

// Pack returns the key of b, len(b) <= 16: two words that, together with
// len(b), determine b. Short inputs read overlapping or repeated bytes, so
// no byte outside b is read. For len(b) <= 8 the second word is 0 or, at
// 8, the first.
func Pack(b []byte) (lo, hi uint64) {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32, 0
	case n > 0:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
	return 0, 0
}

// HashKey mixes a packed key and its length into a well-spread word.
func HashKey(lo, hi uint64, n int) uint64 {
	h, l := bits.Mul64(lo^0x9e3779b97f4a7c15, hi^0xd1b54a32d192ed03^uint64(n)<<56)
	return h ^ l
}

// LongHash hashes a byte sequence longer than MaxPacked by its length and
// its first 8 and last 16 bytes, never 0.
func LongHash(b []byte) uint64 {
	lo, hi := Pack(b[len(b)-16:])
	first := binary.LittleEndian.Uint64(b)
	return HashKey(first^lo, hi, len(b)) | 1
}

// home returns the slot a hash starts probing from in a table of size home
// slots: the hash's high bits scaled to size, so that size need not be a
// power of two.
func home(h uint64, size int) int {
	i, _ := bits.Mul64(h, uint64(size))
	return int(i)
}

// Rank returns the rank of b, or NoRank when b is not a token.
func (t *Table) Rank(b []byte) uint32 {
	if len(b) > MaxPacked {
		if len(b) > t.Longest {
			return NoRank
		}
		return t.rankLong(b)
	}
	lo, hi := Pack(b)
	return t.RankPacked(lo, hi, len(b), HashKey(lo, hi, len(b)))
}

// RankPacked is Rank for a sequence of n <= MaxPacked bytes, given its
// Pack and HashKey.
func (t *Table) RankPacked(lo, hi uint64, n int, h uint64) uint32 {
	if n <= MaxShort {
		short := t.short
		for i := home(h, t.shortHome); ; i++ {
			s := &short[i]
			if s.N == 0 {
				return NoRank
			}
			if s.Key == lo && s.N == uint32(n) {
				return s.Rank
			}
		}
	}
	mid := t.mid
	for i := home(h, t.midHome); ; i++ {
		s := &mid[i]
		if s.N == 0 {
			return NoRank
		}
		if s.Lo == lo && s.Hi == hi && s.N == uint32(n) {
			return s.Rank
		}
	}
}

func (t *Table) rankLong(b []byte) uint32 {
	h := LongHash(b)
	long := t.long
	for i := home(h, t.longHome); ; i++ {
		s := &long[i]
		if s.Hash == h && s.N == uint32(len(b)) && t.longs[s.Off:s.Off+s.N] == string(b) {
			return s.Rank
		}
		if s.Hash == 0 {
			return NoRank
		}
	}
}
