package jsontext

import (
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// A JSON text is often carried in a string literal of another — an MCP
// tool result's text block — escaped once more. A literal reader reads
// that text straight from the literal's bytes, resolving the outer
// escapes as it goes, so that the text is never decoded into a copy and
// its plain strings and numbers share the literal's bytes. It reads the
// forms JSON encoders write: the text's quotes as \", its whitespace as
// spaces and the escapes \n, \t and \r, and the escapes of its strings
// doubled (\\n, \\\", \\\\, \\u00e9). Every rule it applies is the
// Reader's own: the tokens, nesting, member names, numbers and what
// Compact reports; the escapes of the text's strings, and of the literal
// within them (\u003c for '<', as Go's encoding/json writes it, or \/),
// are read by escape.

// readMode says how a Reader reads its input.
type readMode uint8

const (
	plain     readMode = iota
	inLiteral          // NewLiteralReader: the input is a literal's bytes
)

// errLiteralForm is a literal reader's error for what it does not read:
// a byte that breaks a rule, or a form it leaves to decoding.
const errLiteralForm = "not JSON, or a form of the literal the literal reader does not read"

// NewLiteralReader returns a Reader over the JSON text held in a JSON
// string literal, given as text, which begins with the literal's bytes
// after its opening quote, as they stand, and may go on after its closing
// quote: the first quote not part of an escape, where the reader finds
// the end of its input (LiteralEnd). It reads exactly the texts
// NewStringReader reads in the decoded literal, with the same tokens and
// the same Compact, as long as the literal writes the text's quotes as
// \", its whitespace as spaces or the escapes \n, \t and \r, its other
// characters as themselves, each escape of its strings with its
// backslash (and a quote or backslash after it) escaped, and any other
// character of its strings as itself or as an escape \u or \/; the Text
// of a string with no escape, and of every number, is a substring of
// text. Any other literal — an escape \u, \/, \b or \f outside the
// text's strings, a quote or backslash of a string written as \u, a raw
// control — is an error, as is a text that is not JSON: an error says
// only that the literal must be decoded and read with NewStringReader to
// know which. A text read to its end without error is one of a literal
// that is a JSON string. Its positions are offsets in text. MaxTokenBytes
// and LimitString are not applied: with either set, every string is an
// error.
func NewLiteralReader(text string) *Reader {
	r := new(Reader)
	r.ResetLiteral(text)
	return r
}

// ResetLiteral makes r what NewLiteralReader(text) returns, whatever it
// held before, as ResetString does for NewStringReader.
func (r *Reader) ResetLiteral(text string) {
	r.ResetString(text)
	r.mode = inLiteral
}

// LiteralEnd returns, for a literal reader that has read to the end of
// the text without error (End), the offset of the literal's closing
// quote, and -1 when the input ended without one.
func (r *Reader) LiteralEnd() int {
	if r.mode != inLiteral || !r.literalClosed || r.err != nil && r.err != io.EOF {
		return -1
	}
	return r.end
}

// literalSpaces is skipSpace in a literal reader: it passes the spaces
// and the escapes \n, \t and \r, counting lines, and returns the byte
// after them — '"' at \", a string's opening quote, with pos at its
// backslash for str; '\' at any other escape, which no state of the
// reader accepts; ok false at the literal's closing quote, the end of its
// text, and at the end of the input, which a literal reader holds whole.
// The spaces come first: a pretty-printed text indents with them.
func (r *Reader) literalSpaces() (c byte, ok bool) {
	b, i := r.buf[:r.end], r.pos
	for i < len(b) {
		c := b[i]
		if c == ' ' {
			i++
			r.loose = true
			continue
		}
		if c != '\\' || i+1 >= len(b) {
			r.pos = i
			if c == '"' {
				r.literalClosed = true // the literal's closing quote: the end of its text
				r.end = i
				return 0, false
			}
			return c, true // a token, or a raw control: a fault wherever it stands
		}
		switch b[i+1] {
		case 'n':
			i += 2
			r.loose = true
			r.line++
			r.lineStart = r.base + int64(i)
		case 't', 'r':
			i += 2
			r.loose = true
		case '"':
			r.pos = i
			return '"', true
		default:
			r.pos = i
			return '\\', true
		}
	}
	r.pos = i
	return 0, false
}

// strOfMode is str in a mode other than plain.
func (r *Reader) strOfMode() (string, error) {
	return r.literalStr()
}

// literalStr reads, in a literal reader, the string whose opening quote,
// written \", is at pos. Between it and its closing \", every character
// stands as itself, or is an escape of the string written with its
// backslash escaped: \\ and the escape's letter, itself escaped when it
// is a quote or a backslash, and the hex digits of \u as they are.
func (r *Reader) literalStr() (string, error) {
	src := r.buf[:r.end]
	start := r.pos
	if r.limitNext || r.MaxTokenBytes > 0 || start+1 >= len(src) || src[start] != '\\' || src[start+1] != '"' {
		r.limitNext = false
		return "", r.errAt(start, errLiteralForm)
	}
	from := start + 2
	i := from
	var d []byte     // the string's bytes, once an escape is met
	run := from      // the plain bytes not yet in d begin here
	var esc [12]byte // an escape of the string, its outer escapes resolved
	for {
		i = plainRun(src, i)
		if i >= len(src) {
			return "", r.errAt(i, errLiteralForm)
		}
		c := src[i]
		if c >= utf8.RuneSelf {
			ch, size := utf8.DecodeRune(src[i:])
			if ch == utf8.RuneError && size <= 1 {
				return "", r.errAt(i, errLiteralForm)
			}
			i += size
			continue
		}
		if c != '\\' || i+1 >= len(src) {
			return "", r.errAt(i, errLiteralForm) // a raw quote or control
		}
		switch src[i+1] {
		case '"': // the closing quote
			r.pos = i + 2
			if d == nil {
				return r.text[from:i], nil
			}
			return r.keepDecoded(append(d, src[run:i]...)), nil
		case 'u', '/':
			// A character of the string written as an escape of the
			// literal, as Go's encoding/json writes '<' (\u003c): the
			// character itself, unless it is one that would be the
			// string's end or an escape of it, or a control the
			// string cannot hold, which are left to decoding.
			var ch rune
			next, f, _ := escape(src, i, false, &ch)
			if f != faultNone || ch < 0x20 || ch == '"' || ch == '\\' {
				return "", r.errAt(i, errLiteralForm)
			}
			if d == nil {
				d = r.decodeRoom()
			}
			d = append(d, src[run:i]...)
			d = utf8.AppendRune(d, ch)
			i, run = next, next
			continue
		case '\\':
		default:
			// \n, \t and the like: a control the string cannot hold.
			return "", r.errAt(i, errLiteralForm)
		}
		// An escape of the string: \\ and what follows, resolved into
		// esc as far as escape may read (twelve bytes for a surrogate
		// pair), each byte's end in src noted.
		var ends [12]int
		n, k := 1, i+2
		esc[0], ends[0] = '\\', k
		for n < len(esc) && k < len(src) && (n < 2 || esc[1] == 'u') {
			b := src[k]
			switch {
			case b == '\\' && k+1 < len(src) && (src[k+1] == '\\' || src[k+1] == '"'):
				b, k = src[k+1], k+2
			case b > 0x20 && b < utf8.RuneSelf && b != '\\' && b != '"':
				k++
			default:
				k = -1
			}
			if k < 0 {
				break
			}
			esc[n], ends[n] = b, k
			n++
		}
		var ch rune
		next, f, _ := escape(esc[:n], 0, false, &ch)
		if f != faultNone {
			return "", r.errAt(i, errLiteralForm)
		}
		if r.CheckCompact && !r.loose {
			var again rune
			if _, f, _ := escape(esc[:n], 0, true, &again); f != faultNone {
				r.loose = true
			}
		}
		if d == nil {
			d = r.decodeRoom()
		}
		d = append(d, src[run:i]...)
		d = utf8.AppendRune(d, ch)
		i = ends[next-1]
		run = i
	}
}

// Unquote returns the string of a JSON string literal lit, quotes
// included, and false when lit is not one. A literal without escapes
// gives a substring of lit; one with escapes, a string of its own.
func Unquote(lit string) (string, bool) {
	src := unsafe.Slice(unsafe.StringData(lit), len(lit))
	if len(src) < 2 || src[0] != '"' {
		return "", false
	}
	var d []byte
	end, escaped, f, _ := scanString(src, 0, false, &d)
	switch {
	case f != faultNone || end != len(src):
		return "", false
	case !escaped:
		return lit[1 : len(lit)-1], true
	case len(d) < handOverFrom:
		return strings.Clone(unsafe.String(unsafe.SliceData(d), len(d))), true
	}
	return unsafe.String(unsafe.SliceData(d), len(d)), true
}

// A literal reader decodes a string with escapes in place, in the room
// at the end of a buffer it fills with them (decodeRoom), so that the
// strings of a text take an allocation now and then, not one each, and
// are written once. A full buffer is left to the strings that share it.

// minDecodeRoom is the least room decodeRoom leaves for a string: less,
// and it starts a new buffer.
const minDecodeRoom = 64

// decodeRoom returns the empty room at the end of r.decoded, where a
// string with escapes is decoded; keepDecoded keeps it.
func (r *Reader) decodeRoom() []byte {
	if cap(r.decoded)-len(r.decoded) < minDecodeRoom {
		r.decoded = make([]byte, 0, max(2*cap(r.decoded), 512))
	}
	return r.decoded[len(r.decoded):len(r.decoded)]
}

// keepDecoded returns a string of b's bytes, a string decoded in the room
// decodeRoom gave: kept in r.decoded when it fit there, and when it
// outgrew it, in the array append made of b, which nothing else holds.
func (r *Reader) keepDecoded(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	n := len(r.decoded)
	if cap(b) == cap(r.decoded)-n && unsafe.SliceData(b) == unsafe.SliceData(r.decoded[n:]) {
		r.decoded = r.decoded[:n+len(b)]
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
