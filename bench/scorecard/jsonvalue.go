package scorecard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// A JSON value is handled here as the sequence of tokens encoding/json reads
// from it: delimiters, object keys and strings (unescaped), literals, and
// numbers as their exact literal text. Two texts are the same JSON value, for
// the scorecard's round-trip check, exactly when their token sequences are
// equal: same types, same object key order, same number spelling ("1.0" is
// not "1"), while the spelling of string escapes ("\u00e9" or "é") does not
// matter.

// tokens returns the token sequence of one JSON value, rejecting invalid
// JSON, invalid UTF-8 and trailing data.
func jsonTokens(text []byte) ([]json.Token, error) {
	if !utf8.Valid(text) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var toks []json.Token
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF && depth == 0 {
			break
		}
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			break
		}
	}
	if len(toks) == 0 {
		return nil, errors.New("no JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return toks, nil
}

// SameValue reports whether a and b are the same JSON value in the sense
// above; if not, the error says where they first differ.
func SameValue(a, b []byte) error {
	ta, err := jsonTokens(a)
	if err != nil {
		return fmt.Errorf("first value: %w", err)
	}
	tb, err := jsonTokens(b)
	if err != nil {
		return fmt.Errorf("second value: %w", err)
	}
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if !sameToken(ta[i], tb[i]) {
			return fmt.Errorf("token %d differs: %s, want %s", i, describe(tb[i]), describe(ta[i]))
		}
	}
	if len(ta) != len(tb) {
		return fmt.Errorf("value has %d tokens, want %d", len(tb), len(ta))
	}
	return nil
}

func sameToken(a, b json.Token) bool {
	switch a := a.(type) {
	case json.Delim, bool, string, json.Number:
		return a == b
	case nil:
		return b == nil
	}
	return false
}

func describe(t json.Token) string {
	switch t := t.(type) {
	case json.Delim:
		return string(t)
	case string:
		return fmt.Sprintf("string %q", t)
	case json.Number:
		return "number " + string(t)
	case nil:
		return "null"
	}
	return fmt.Sprint(t)
}

// Canonical returns the compact and the pretty spelling of a JSON value, as
// JSON.stringify(v) and JSON.stringify(v, null, 2) write them: object member
// order and number literals kept as they are, strings re-quoted with only the
// quote, the backslash and control characters escaped, everything else raw
// UTF-8. Fixtures may spell their strings any way they like; the JSON the
// scorecard measures is always spelled like this.
func Canonical(text []byte) (compact, pretty []byte, err error) {
	toks, err := jsonTokens(text)
	if err != nil {
		return nil, nil, err
	}
	var c, p bytes.Buffer
	w := canonWriter{toks: toks}
	w.value(&c, "", false)
	w = canonWriter{toks: toks}
	w.value(&p, "\n", true)
	return c.Bytes(), p.Bytes(), nil
}

type canonWriter struct {
	toks []json.Token
	pos  int
}

func (w *canonWriter) next() json.Token {
	t := w.toks[w.pos]
	w.pos++
	return t
}

func (w *canonWriter) peekEnd() bool {
	d, ok := w.toks[w.pos].(json.Delim)
	return ok && (d == '}' || d == ']')
}

// value writes the value starting at the current token. nl is the newline
// plus the indentation of the current line, used when indent is set.
func (w *canonWriter) value(b *bytes.Buffer, nl string, indent bool) {
	switch t := w.next().(type) {
	case json.Delim:
		open, close := byte(t), byte('}')
		if t == '[' {
			close = ']'
		}
		b.WriteByte(open)
		inner := nl + "  "
		first := true
		for !w.peekEnd() {
			if !first {
				b.WriteByte(',')
			}
			first = false
			if indent {
				b.WriteString(inner)
			}
			if open == '{' {
				quote(b, w.next().(string))
				b.WriteByte(':')
				if indent {
					b.WriteByte(' ')
				}
			}
			w.value(b, inner, indent)
		}
		w.next()
		if indent && !first {
			b.WriteString(nl)
		}
		b.WriteByte(close)
	case string:
		quote(b, t)
	case json.Number:
		b.WriteString(string(t))
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	}
}

var quoteReplacer = func() *strings.Replacer {
	pairs := []string{`"`, `\"`, `\`, `\\`, "\b", `\b`, "\f", `\f`, "\n", `\n`, "\r", `\r`, "\t", `\t`}
	for c := 0; c < 0x20; c++ {
		switch c {
		case '\b', '\f', '\n', '\r', '\t':
			continue
		}
		pairs = append(pairs, string(rune(c)), fmt.Sprintf(`\u%04x`, c))
	}
	return strings.NewReplacer(pairs...)
}()

func quote(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	quoteReplacer.WriteString(b, s)
	b.WriteByte('"')
}
