package tokens

import (
	"bytes"
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
	// longSeen holds longHash of every token longer than maxPacked, in
	// open addressing, so the rare long byte sequence that is a token is
	// told from the many that are not without hashing it in full.
	longSeen []uint64
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
		if len(b) > t.longest || !t.maybeLong(longHash(b)) {
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

// longHash hashes a byte sequence longer than maxPacked by its length and
// its first 8 and last 16 bytes, never 0.
func longHash(b []byte) uint64 {
	lo, hi := pack(b[len(b)-16:])
	first := binary.LittleEndian.Uint64(b)
	return hashKey(first^lo, hi, len(b)) | 1
}

// maybeLong reports whether a token longer than maxPacked has hash h.
func (t *table) maybeLong(h uint64) bool {
	mask := uint64(len(t.longSeen) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch t.longSeen[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
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
// token, from the tables tiktoken-go-loader compiles into the binary. It
// decodes by hand in one pass: this is the first-call cost of counting.
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
		n, rest, ok := decodeBase64(token[:], text)
		if !ok || len(rest) < 2 || rest[0] != ' ' || n == 0 {
			return nil, fmt.Errorf("%s:%d: not a base64 token, a space and a rank", file, line)
		}
		rest = rest[1:]
		var rank uint32
		digits := 0
		for ; digits < len(rest) && rest[digits] != '\n'; digits++ {
			c := rest[digits] - '0'
			if c > 9 || digits == 9 {
				return nil, fmt.Errorf("%s:%d: bad rank", file, line)
			}
			rank = rank*10 + uint32(c)
		}
		if digits == 0 {
			return nil, fmt.Errorf("%s:%d: bad rank", file, line)
		}
		text = rest[min(digits+1, len(rest)):]
		if !t.insert(token[:n], rank) {
			return nil, fmt.Errorf("%s:%d: token listed twice", file, line)
		}
	}
	seen := 1
	for seen < 4*len(t.long) {
		seen <<= 1
	}
	t.longSeen = make([]uint64, seen)
	for token := range t.long {
		h := longHash([]byte(token))
		i := h & uint64(seen-1)
		for t.longSeen[i] != 0 && t.longSeen[i] != h {
			i = (i + 1) & uint64(seen-1)
		}
		t.longSeen[i] = h
	}
	return t, nil
}

// base64Value maps a byte of standard base64 to its six bits, and any other
// byte to 0xff.
var base64Value = func() (v [256]byte) {
	for i := range v {
		v[i] = 0xff
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		v[c] = byte(i)
	}
	return v
}()

// decodeBase64 decodes the padded standard base64 at the start of text,
// up to the first byte that is not base64, into out; it returns the bytes
// written and the rest of text.
func decodeBase64(out []byte, text []byte) (int, []byte, bool) {
	n := 0
	for len(text) >= 4 {
		a, b, c, d := base64Value[text[0]], base64Value[text[1]], base64Value[text[2]], base64Value[text[3]]
		if a|b == 0xff {
			break
		}
		switch {
		case c|d != 0xff:
			if n+3 > len(out) {
				return 0, nil, false
			}
			out[n], out[n+1], out[n+2] = a<<2|b>>4, b<<4|c>>2, c<<6|d
			n += 3
			text = text[4:]
			continue
		case c != 0xff && text[3] == '=':
			if n+2 > len(out) {
				return 0, nil, false
			}
			out[n], out[n+1] = a<<2|b>>4, b<<4|c>>2
			return n + 2, text[4:], true
		case text[2] == '=' && text[3] == '=':
			if n+1 > len(out) {
				return 0, nil, false
			}
			out[n] = a<<2 | b>>4
			return n + 1, text[4:], true
		}
		return 0, nil, false
	}
	return n, text, true
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
