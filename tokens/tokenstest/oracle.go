// Package tokenstest holds the oracle that the tests of package tokens, and
// of the packages that count with it, hold their counts against:
// tiktoken-go (github.com/pkoukk/tiktoken-go) with its offline tables, the
// counter package tokens replaced. It is test equipment: the gcx binary
// does not link it.
package tokenstest

import (
	"errors"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
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

// The pre-tokenizers' expressions, as tiktoken publishes them for each
// encoding: the definition package tokens' hand-written splitters follow.
var expressions = map[string]string{
	"cl100k_base": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	"o200k_base": strings.Join([]string{
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
		`\p{N}{1,3}`,
		` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
		`\s*[\r\n]+`,
		`\s+(?!\S)`,
		`\s+`,
	}, "|"),
}

var (
	compiled   sync.Map // encoding name: *regexp2.Regexp
	errUnknown = errors.New("tokenstest: no expression for this encoding")
)

// Pieces cuts text, which must be valid UTF-8, into the pieces the named
// encoding's pre-tokenizer expression matches, left to right, as the
// expression engine tiktoken-go uses (regexp2) finds them. A piece-level
// oracle sees a wrong cut that the token count may not: two pieces whose
// tokens add up to what their join costs.
func Pieces(name, text string) ([]string, error) {
	re, ok := compiled.Load(name)
	if !ok {
		expr, known := expressions[name]
		if !known {
			return nil, errUnknown
		}
		r, err := regexp2.Compile(expr, regexp2.None)
		if err != nil {
			return nil, err
		}
		re, _ = compiled.LoadOrStore(name, r)
	}
	var pieces []string
	m, err := re.(*regexp2.Regexp).FindStringMatch(text)
	for ; m != nil && err == nil; m, err = re.(*regexp2.Regexp).FindNextMatch(m) {
		pieces = append(pieces, m.String())
	}
	return pieces, err
}
