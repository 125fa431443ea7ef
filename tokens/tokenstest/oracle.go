// Package tokenstest holds the oracle that the tests of package tokens, and
// of the packages that count with it, hold their counts against:
// tiktoken-go (github.com/pkoukk/tiktoken-go) with its offline tables, the
// counter package tokens replaced. It is test equipment: the gcx binary
// does not link it.
package tokenstest

import (
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	setLoader sync.Once
	mu        sync.Mutex
	encodings = map[string]*tiktoken.Tiktoken{}
)

// Count returns the number of tokens tiktoken-go encodes text into with the
// named encoding, special-token markers counted as ordinary text
// (EncodeOrdinary). Its merge is quadratic in the length of one piece:
// give it pieces of some kilobytes at most.
func Count(name, text string) (int, error) {
	setLoader.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
	mu.Lock()
	enc, ok := encodings[name]
	if !ok {
		var err error
		if enc, err = tiktoken.GetEncoding(name); err != nil {
			mu.Unlock()
			return 0, err
		}
		encodings[name] = enc
	}
	mu.Unlock()
	return len(enc.EncodeOrdinary(text)), nil
}
