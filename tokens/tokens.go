// Package tokens counts model tokens the way a client's bill does, with the
// cl100k_base and o200k_base encodings of tiktoken.
//
// The BPE tables come from github.com/pkoukk/tiktoken-go-loader, compiled
// into the binary: counting never touches the network. Only encoders and the
// benchmark import this package; no decoder does, so a GCX1 client does not
// carry the tables.
package tokens

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names.
const (
	CL100K = "cl100k_base"
	O200K  = "o200k_base"
)

var (
	setLoader sync.Once
	mu        sync.Mutex
	encodings = map[string]*tiktoken.Tiktoken{}
)

// encoding returns the named encoding, loading its table on first use.
func encoding(name string) (*tiktoken.Tiktoken, error) {
	setLoader.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
	mu.Lock()
	defer mu.Unlock()
	if enc, ok := encodings[name]; ok {
		return enc, nil
	}
	enc, err := tiktoken.GetEncoding(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: loading %s: %w", name, err)
	}
	encodings[name] = enc
	return enc, nil
}

// Count returns the number of tokens text takes in the named encoding.
// Special-token markers such as "<|endoftext|>" count as the ordinary text
// they are, as they would inside a tool response.
func Count(name, text string) (int, error) {
	enc, err := encoding(name)
	if err != nil {
		return 0, err
	}
	return len(enc.EncodeOrdinary(text)), nil
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
