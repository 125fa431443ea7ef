package ranktable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// The file Build writes, all numbers little-endian:
//
//	header  64 bytes: magic "GCXRANK1", then uint32 tokens, longest,
//	        shortHome, shortLen, midHome, midLen, longHome, longLen,
//	        longsLen, and zeros
//	pair    65536 uint32
//	short   shortLen Short slots: uint64 Key, uint32 Rank, uint32 N
//	mid     midLen Mid slots: uint64 Lo, uint64 Hi, uint32 Rank, uint32 N
//	long    longLen Long slots: uint64 Hash, uint32 Off, N, Rank, 0
//	longs   longsLen bytes
//
// Every section starts at a multiple of 8 bytes, so on a little-endian
// machine the slots are Go's own layout of Short, Mid and Long, and Open
// takes them where they lie.
const (
	magic      = "GCXRANK1"
	headerSize = 64
	pairs      = 1 << 16
	shortSize  = 16
	midSize    = 24
	longSize   = 24
)

// loadFactor bounds the full slots of each table, in tenths: a miss, which
// most lookups of a merge are, probes about 1/(1-load)² slots.
const loadFactor = 6

// Token is one entry of a rank file.
type Token struct {
	Bytes []byte
	Rank  uint32
}

// Build lays out tokens as the file Open reads. It is deterministic: the
// same tokens in the same order give the same bytes. It fails on an empty
// token, a token listed twice, or a table too large for the file's 32-bit
// fields.
func Build(tokens []Token) ([]byte, error) {
	var (
		short   []Short
		mid     []Mid
		long    []Long
		longs   []byte
		longest int
	)
	nShort, nMid, nLong := 0, 0, 0
	for _, tok := range tokens {
		switch n := len(tok.Bytes); {
		case n == 0:
			return nil, errors.New("ranktable: an empty token")
		case n <= MaxShort:
			nShort++
		case n <= MaxPacked:
			nMid++
		default:
			nLong++
		}
	}
	shortHome, midHome, longHome := homes(nShort), homes(nMid), homes(nLong)
	short = make([]Short, shortHome+1)
	mid = make([]Mid, midHome+1)
	long = make([]Long, longHome+1)
	pair := make([]uint32, pairs)
	for i := range pair {
		pair[i] = NoRank
	}
	for _, tok := range tokens {
		b, n := tok.Bytes, len(tok.Bytes)
		longest = max(longest, n)
		if tok.Rank == NoRank {
			return nil, fmt.Errorf("ranktable: token %q has rank %d, the mark of no rank", b, tok.Rank)
		}
		if n == 2 {
			pair[int(b[0])<<8|int(b[1])] = tok.Rank
		}
		dup := false
		switch {
		case n <= MaxShort:
			lo, hi := Pack(b)
			i := home(HashKey(lo, hi, n), shortHome)
			for ; short[i].N != 0; i++ {
				dup = dup || short[i].Key == lo && short[i].N == uint32(n)
			}
			short[i] = Short{Key: lo, Rank: tok.Rank, N: uint32(n)}
			if i == len(short)-1 {
				short = append(short, Short{})
			}
		case n <= MaxPacked:
			lo, hi := Pack(b)
			i := home(HashKey(lo, hi, n), midHome)
			for ; mid[i].N != 0; i++ {
				dup = dup || mid[i].Lo == lo && mid[i].Hi == hi && mid[i].N == uint32(n)
			}
			mid[i] = Mid{Lo: lo, Hi: hi, Rank: tok.Rank, N: uint32(n)}
			if i == len(mid)-1 {
				mid = append(mid, Mid{})
			}
		default:
			h := LongHash(b)
			i := home(h, longHome)
			for ; long[i].Hash != 0; i++ {
				s := long[i]
				dup = dup || s.Hash == h && string(longs[s.Off:s.Off+s.N]) == string(b)
			}
			long[i] = Long{Hash: h, Off: uint32(len(longs)), N: uint32(n), Rank: tok.Rank}
			longs = append(longs, b...)
			if i == len(long)-1 {
				long = append(long, Long{})
			}
		}
		if dup {
			return nil, fmt.Errorf("ranktable: token %q listed twice", b)
		}
	}
	if int64(len(longs)) > 1<<31 || int64(len(tokens)) > 1<<31 {
		return nil, errors.New("ranktable: too many tokens for the file's fields")
	}
	for len(longs)%8 != 0 {
		longs = append(longs, 0)
	}

	out := make([]byte, 0, headerSize+4*pairs+shortSize*len(short)+midSize*len(mid)+longSize*len(long)+len(longs))
	out = append(out, magic...)
	for _, v := range []int{len(tokens), longest, shortHome, len(short), midHome, len(mid), longHome, len(long), len(longs)} {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	out = append(out, make([]byte, headerSize-len(out))...)
	for _, r := range pair {
		out = binary.LittleEndian.AppendUint32(out, r)
	}
	for _, s := range short {
		out = binary.LittleEndian.AppendUint64(out, s.Key)
		out = binary.LittleEndian.AppendUint32(out, s.Rank)
		out = binary.LittleEndian.AppendUint32(out, s.N)
	}
	for _, s := range mid {
		out = binary.LittleEndian.AppendUint64(out, s.Lo)
		out = binary.LittleEndian.AppendUint64(out, s.Hi)
		out = binary.LittleEndian.AppendUint32(out, s.Rank)
		out = binary.LittleEndian.AppendUint32(out, s.N)
	}
	for _, s := range long {
		out = binary.LittleEndian.AppendUint64(out, s.Hash)
		out = binary.LittleEndian.AppendUint32(out, s.Off)
		out = binary.LittleEndian.AppendUint32(out, s.N)
		out = binary.LittleEndian.AppendUint32(out, s.Rank)
		out = binary.LittleEndian.AppendUint32(out, 0)
	}
	return append(out, longs...), nil
}

// homes returns the home slots for n tokens at the load factor, at least 1.
func homes(n int) int {
	return max(1, n*10/loadFactor)
}

// ErrFormat is the error of Open on bytes that are not a table Build wrote.
var ErrFormat = errors.New("ranktable: not a rank table")

// Open returns the table laid out in data, which must stay unchanged while
// the table is used. On a little-endian machine, with data aligned to 8
// bytes, the table's slices are data itself; otherwise Open copies the
// slots out.
func Open(data string) (*Table, error) {
	return open(data, !inPlace(data))
}

// inPlace reports whether the slots of data can be read as Go values where
// they lie.
func inPlace(data string) bool {
	one := uint16(1)
	little := *(*byte)(unsafe.Pointer(&one)) == 1
	return little && uintptr(unsafe.Pointer(unsafe.StringData(data)))%8 == 0 &&
		unsafe.Sizeof(Short{}) == shortSize && unsafe.Sizeof(Mid{}) == midSize && unsafe.Sizeof(Long{}) == longSize
}

func open(data string, copySlots bool) (*Table, error) {
	if len(data) < headerSize || data[:len(magic)] != magic {
		return nil, ErrFormat
	}
	var field [9]int
	for k := range field {
		field[k] = int(u32(data, len(magic)+4*k))
	}
	t := &Table{Tokens: field[0], Longest: field[1], shortHome: field[2], midHome: field[4], longHome: field[6]}
	shortLen, midLen, longLen, longsLen := field[3], field[5], field[7], field[8]
	size := headerSize + 4*pairs + shortSize*shortLen + midSize*midLen + longSize*longLen + longsLen
	if size != len(data) || t.shortHome >= shortLen || t.midHome >= midLen || t.longHome >= longLen {
		return nil, ErrFormat
	}
	at := headerSize
	section := func(n int) string {
		s := data[at : at+n]
		at += n
		return s
	}
	pair, short, mid, long := section(4*pairs), section(shortSize*shortLen), section(midSize*midLen), section(longSize*longLen)
	t.longs = section(longsLen)
	if copySlots {
		t.Pair = make([]uint32, pairs)
		for i := range t.Pair {
			t.Pair[i] = u32(pair, 4*i)
		}
		t.short = make([]Short, shortLen)
		for i := range t.short {
			at := shortSize * i
			t.short[i] = Short{Key: u64(short, at), Rank: u32(short, at+8), N: u32(short, at+12)}
		}
		t.mid = make([]Mid, midLen)
		for i := range t.mid {
			at := midSize * i
			t.mid[i] = Mid{Lo: u64(mid, at), Hi: u64(mid, at+8), Rank: u32(mid, at+16), N: u32(mid, at+20)}
		}
		t.long = make([]Long, longLen)
		for i := range t.long {
			at := longSize * i
			t.long[i] = Long{Hash: u64(long, at), Off: u32(long, at+8), N: u32(long, at+12), Rank: u32(long, at+16)}
		}
	} else {
		t.Pair = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.StringData(pair))), pairs)
		t.short = unsafe.Slice((*Short)(unsafe.Pointer(unsafe.StringData(short))), shortLen)
		t.mid = unsafe.Slice((*Mid)(unsafe.Pointer(unsafe.StringData(mid))), midLen)
		t.long = unsafe.Slice((*Long)(unsafe.Pointer(unsafe.StringData(long))), longLen)
	}
	// Every probe stops at an empty slot before it runs off its table.
	if t.short[shortLen-1].N != 0 || t.mid[midLen-1].N != 0 || t.long[longLen-1].Hash != 0 {
		return nil, ErrFormat
	}
	return t, nil
}

// u32 and u64 read a little-endian number at s[i:].
func u32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func u64(s string, i int) uint64 {
	return uint64(u32(s, i)) | uint64(u32(s, i+4))<<32
}
