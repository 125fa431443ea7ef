// Package tokens counts model tokens the way a client's bill does, with the
// cl100k_base and o200k_base encodings of tiktoken.
//
// The counts are tiktoken's, exactly (the tests hold them against
// tiktoken-go on generated text and on the scorecard corpus), in time
// O(n log n) in the text however it is cut into pieces, and without
// building the token list. The BPE tables are tiktoken's rank files (from
// github.com/pkoukk/tiktoken-go-loader), laid out by go generate as hash
// tables that are embedded in the binary and read where they lie: loading
// one parses nothing, and counting never touches the network. Only encoders and the benchmark import this
// package; no decoder does, so a GCX1 client does not carry the tables.
package tokens

import (
	"fmt"
	"sync"
)

// Encoding names.
const (
	CL100K = "cl100k_base"
	O200K  = "o200k_base"
)

// An Encoding counts the tokens of one BPE encoding. Its methods are safe
// for concurrent use.
type Encoding struct {
	name       string
	piece      func(text []byte, i int) int
	lowerBound func(text []byte, limit int) int
	words      bool // count with countWords

	load   sync.Once
	tab    *table
	err    error
	caches cacheSet
}

var encodings = []*Encoding{
	{name: CL100K, piece: cl100kPiece, lowerBound: cl100kLowerBound, words: true},
	{name: O200K, piece: o200kPiece},
}

// Get returns the named encoding, loading its table on first use.
func Get(name string) (*Encoding, error) {
	for _, e := range encodings {
		if e.name == name {
			e.load.Do(func() {
				if e.tab, e.err = loadTable(name); e.err != nil {
					e.err = fmt.Errorf("tokens: loading %s: %w", name, e.err)
				}
			})
			return e, e.err
		}
	}
	return nil, fmt.Errorf("tokens: no encoding named %q", name)
}

// MustGet is Get for an encoding whose table is embedded here (CL100K,
// O200K): loading it reads a table compiled into the binary, which the
// package's tests open, so it cannot fail at run time, and callers have
// no error to handle. A failure, a corrupt build or an unknown name,
// panics, as regexp.MustCompile does.
func MustGet(name string) *Encoding {
	e, err := Get(name)
	if err != nil {
		panic(err)
	}
	return e
}

// Name returns the encoding's name.
func (e *Encoding) Name() string { return e.name }

// Count returns the number of tokens text takes. Special-token markers such
// as "<|endoftext|>" count as the ordinary text they are, as they would
// inside a tool response.
func (e *Encoding) Count(text string) int {
	return e.count(bytesOf(text), noLimit)
}

// CountBytes is Count for text held in bytes.
func (e *Encoding) CountBytes(text []byte) int {
	return e.count(text, noLimit)
}

// CountUpTo counts the tokens of text but stops as soon as the count is
// known to pass limit. It returns the exact count and true when that is at
// most limit, and otherwise a lower bound above limit and false: enough to
// know that text costs more than limit, for less work. For cl100k_base it
// first takes a bound that reads each byte once and looks nothing up (see
// cl100kLowerBound), and counts only if that does not settle it.
func (e *Encoding) CountUpTo(text []byte, limit int) (int, bool) {
	if e.lowerBound != nil {
		if n := e.lowerBound(text, limit); n > limit {
			return n, false
		}
	}
	n := e.count(text, limit)
	return n, n <= limit
}

func (e *Encoding) count(text []byte, limit int) int {
	cache, slot := e.caches.acquire()
	c := counter{tab: e.tab, piece: e.piece, cache: cache, words: e.words}
	n := c.count(text, limit)
	e.caches.release(cache, slot)
	return n
}

// Count returns the number of tokens text takes in the named encoding.
func Count(name, text string) (int, error) {
	e, err := Get(name)
	if err != nil {
		return 0, err
	}
	return e.Count(text), nil
}

// CL100KCount is Count with cl100k_base, the encoding GCX1 is tuned for. It
// panics only if the compiled-in table is missing, which is a build defect.
func CL100KCount(text string) int {
	n, err := Count(CL100K, text)
	if err != nil {
		panic(err)
	}
	return n
}
