package tokens

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// A table maps every token of an encoding, as bytes, to its rank: the order
// in which BPE merges produce it, lower first.
//
// Tokens of at most 16 bytes (all but a few thousand) live in one open
// addressing table whose slots hold the token bytes themselves, packed into
// two words, so a lookup is a hash, usually one probe, and two compares:
// no pointer to follow. Longer tokens live in a map.
type table struct {
	longest int // bytes of the longest token
	slots   []slot
	mask    uint64
	long    map[string]uint32
	// pair holds the rank of every two-byte token, indexed by its bytes,
	// and noRank for the others: the first round of every merge.
	pair []uint32
}

// slot is one entry of table.slots: a token of n bytes packed by pack,
// n == 0 for an empty slot.
type slot struct {
	lo, hi uint64
	rank   uint32
	n      uint32
}

// noRank marks a byte sequence that is not a token.
const noRank = ^uint32(0)

// maxPacked is the longest token the packed slots hold.
const maxPacked = 16

// pack returns the key of b, len(b) <= 16: two words that, together with
// len(b), determine b. Short inputs read overlapping or repeated bytes, so
// no byte outside b is read.
func pack(b []byte) (lo, hi uint64) {
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

// hashKey mixes a packed key and its length into a well-spread word.
func hashKey(lo, hi uint64, n int) uint64 {
	h, l := bits.Mul64(lo^0x9e3779b97f4a7c15, hi^0xd1b54a32d192ed03^uint64(n)<<56)
	return h ^ l
}

// rank returns the rank of b, or noRank when b is not a token.
func (t *table) rank(b []byte) uint32 {
	if len(b) > maxPacked {
		if len(b) > t.longest {
			return noRank
		}
		if r, ok := t.long[string(b)]; ok {
			return r
		}
		return noRank
	}
	lo, hi := pack(b)
	return t.rankPacked(lo, hi, len(b), hashKey(lo, hi, len(b)))
}

// rankPacked is rank for a key pack and hashKey have made.
func (t *table) rankPacked(lo, hi uint64, n int, h uint64) uint32 {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.lo == lo && s.hi == hi && s.n == uint32(n) {
			return s.rank
		}
		if s.n == 0 {
			return noRank
		}
	}
}

// loadTable reads a tiktoken rank file, one "base64-token rank" line per
// token, from the tables tiktoken-go-loader compiles into the binary.
func loadTable(file string) (*table, error) {
	text, err := assets.Assets.ReadFile(file)
	if err != nil {
		return nil, err
	}
	lines := bytes.Count(text, []byte{'\n'}) + 1
	size := 1
	for size < 2*lines {
		size <<= 1
	}
	t := &table{
		slots: make([]slot, size),
		mask:  uint64(size - 1),
		long:  map[string]uint32{},
		pair:  make([]uint32, 1<<16),
	}
	for i := range t.pair {
		t.pair[i] = noRank
	}
	var token [256]byte
	for line := 1; len(text) > 0; line++ {
		end := bytes.IndexByte(text, '\n')
		if end < 0 {
			end = len(text)
		}
		entry := text[:end]
		text = text[min(end+1, len(text)):]
		if len(entry) == 0 {
			continue
		}
		space := bytes.IndexByte(entry, ' ')
		if space < 0 || base64.StdEncoding.DecodedLen(space) > len(token) {
			return nil, fmt.Errorf("%s:%d: not a token and a rank", file, line)
		}
		n, err := base64.StdEncoding.Decode(token[:], entry[:space])
		if err != nil || n == 0 {
			return nil, fmt.Errorf("%s:%d: bad token: %v", file, line, err)
		}
		rank, ok := parseRank(entry[space+1:])
		if !ok {
			return nil, fmt.Errorf("%s:%d: bad rank %q", file, line, entry[space+1:])
		}
		if !t.insert(token[:n], rank) {
			return nil, fmt.Errorf("%s:%d: token listed twice", file, line)
		}
	}
	return t, nil
}

// parseRank reads a decimal rank below noRank.
func parseRank(b []byte) (uint32, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	var r uint32
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		r = r*10 + uint32(c-'0')
	}
	return r, true
}

// insert adds a token; it reports false when the token is there already.
func (t *table) insert(b []byte, rank uint32) bool {
	t.longest = max(t.longest, len(b))
	if len(b) == 2 {
		t.pair[int(b[0])<<8|int(b[1])] = rank
	}
	if len(b) > maxPacked {
		if _, dup := t.long[string(b)]; dup {
			return false
		}
		t.long[string(b)] = rank
		return true
	}
	lo, hi := pack(b)
	for i := hashKey(lo, hi, len(b)) & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		if s.n == 0 {
			*s = slot{lo: lo, hi: hi, rank: rank, n: uint32(len(b))}
			return true
		}
		if s.lo == lo && s.hi == hi && s.n == uint32(len(b)) {
			return false
		}
	}
}
