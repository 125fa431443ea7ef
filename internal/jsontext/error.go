package jsontext

import (
	"strconv"
	"unicode/utf8"
)

// Error is a fault in a JSON text: where it is and what is wrong.
type Error struct {
	Offset int64 // 0-based byte offset of the offending byte
	Line   int   // 1-based line
	Column int   // 1-based byte column within the line
	Msg    string
	// Limit is true when the text may be valid JSON that a bound of the
	// reader refused: nesting deeper than MaxDepth, a token longer than
	// MaxTokenBytes.
	Limit bool
	// LongString is true when the bound was Reader.LimitString's.
	LongString bool
}

func (e *Error) Error() string {
	return "json: line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Msg
}

// Pos is where a token begins.
type Pos struct {
	Offset int64 // 0-based byte offset
	Line   int   // 1-based line
	Column int   // 1-based byte column
}

// QuoteLimit is the number of bytes of an input QuotePrefix quotes.
const QuoteLimit = 64

// QuotePrefix returns s as a JSON string literal for a message: whole when
// it is at most QuoteLimit bytes long, else its first QuoteLimit bytes (cut
// back to a character boundary), "…" and the total length, so that an error
// never copies a long input.
func QuotePrefix(s string) string {
	if len(s) <= QuoteLimit {
		return string(AppendString(nil, s))
	}
	cut := QuoteLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	b := AppendString(nil, s[:cut])
	b = append(b, "… ("...)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, " bytes)"...)
	return string(b)
}

// describe names the byte at src[i] for a message: "end of input", a
// character in quotes, or an invalid byte in hex.
func describe(src []byte, i int) string {
	if i >= len(src) {
		return "end of input"
	}
	r, size := utf8.DecodeRune(src[i:])
	if r == utf8.RuneError && size <= 1 {
		return "byte 0x" + string(hexDigits[src[i]>>4]) + string(hexDigits[src[i]&0xF])
	}
	return strconv.QuoteRune(r)
}
