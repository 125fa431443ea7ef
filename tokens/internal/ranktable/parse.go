package ranktable

import "fmt"

// Parse reads a tiktoken rank file, one "base64-token rank" line per
// token, as the tokens Build lays out. Only go generate and the test that
// holds the generated tables to their source parse: counting never does.
func Parse(name string, text []byte) ([]Token, error) {
	var tokens []Token
	var token [256]byte
	for line := 1; len(text) > 0; line++ {
		n, rest, ok := decodeBase64(token[:], text)
		if !ok || len(rest) < 2 || rest[0] != ' ' || n == 0 {
			return nil, fmt.Errorf("%s:%d: not a base64 token, a space and a rank", name, line)
		}
		rest = rest[1:]
		var rank uint32
		digits := 0
		for ; digits < len(rest) && rest[digits] != '\n'; digits++ {
			c := rest[digits] - '0'
			if c > 9 || digits == 9 {
				return nil, fmt.Errorf("%s:%d: bad rank", name, line)
			}
			rank = rank*10 + uint32(c)
		}
		if digits == 0 {
			return nil, fmt.Errorf("%s:%d: bad rank", name, line)
		}
		text = rest[min(digits+1, len(rest)):]
		tokens = append(tokens, Token{Bytes: append([]byte(nil), token[:n]...), Rank: rank})
	}
	return tokens, nil
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
