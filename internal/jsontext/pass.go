package jsontext

import (
	"bytes"
	"errors"
)

// ErrCannotPass is PassValue's refusal: the reader does not hold its text
// whole, or no value is due where it stands.
var ErrCannotPass = errors.New("jsontext: no value to pass over here")

// PassValue moves past the next value of a text held whole
// (NewStringReader), which the caller has read itself: the n bytes that
// follow the ':' after the member name NextToken returned last (with no
// whitespace before them), or that begin where an element is due. The
// reader then stands after that value, as if it had returned its tokens.
//
// It checks nothing of those bytes: the caller vouches that they are one
// JSON value in the compact form Compact speaks of, nested no deeper than
// MaxDepth allows there and repeating no member name within an object —
// a caller that found them to be exactly AppendCompact's writing of a
// value it holds knows as much. A text's other values are read and
// checked as ever, so that one large value can be compared with what the
// caller holds without being read twice.
func (r *Reader) PassValue(n int) error {
	if !r.whole || r.mode != plain || r.peeked || r.err != nil || n <= 0 {
		return ErrCannotPass
	}
	pos := r.pos
	switch r.state {
	case stColon:
		if pos >= r.end || r.buf[pos] != ':' {
			return ErrCannotPass
		}
		pos++
	case stValue, stFirstElem:
	default:
		return ErrCannotPass
	}
	if n > r.end-pos {
		return ErrCannotPass
	}
	passed := r.buf[pos : pos+n]
	start := r.posAt(pos)
	if bytes.IndexByte(passed, '\n') >= 0 {
		k := bytes.LastIndexByte(passed, '\n')
		// Not compact after all; keep the lines right for later errors.
		r.loose = true
		r.line += bytes.Count(passed, []byte{'\n'})
		r.lineStart = r.base + int64(pos+k+1)
	}
	r.pos = pos + n
	r.state = stAfter
	r.lastPos, r.lastEnd = start, r.offset()
	return nil
}

// PassString moves past the next value of a text held whole, which must
// be a string, as PassValue does, and returns its literal as it stands,
// quotes included: it finds the literal's closing quote, the first quote
// after an even number of backslashes, but checks nothing else of it and
// decodes nothing. The caller vouches that it checks the literal: it
// reads it whole (NewLiteralReader) or decodes it (Unquote), and holds the
// text for no JSON text unless the literal is one. A literal that does
// not close is an error.
func (r *Reader) PassString() (string, error) {
	if !r.whole || r.mode != plain || r.peeked || r.err != nil {
		return "", ErrCannotPass
	}
	pos := r.pos
	switch r.state {
	case stColon:
		if pos >= r.end || r.buf[pos] != ':' {
			return "", ErrCannotPass
		}
		pos++
	case stValue, stFirstElem:
	default:
		return "", ErrCannotPass
	}
	if pos >= r.end || r.buf[pos] != '"' {
		return "", ErrCannotPass
	}
	end := pos + 1 + spanToQuote(r.buf[:r.end], pos+1)
	if end >= r.end {
		r.err = r.errAt(end, faultUnclosed.message(r.buf[:r.end], end))
		return "", r.err
	}
	start := r.posAt(pos)
	r.pos = end + 1
	r.state = stAfter
	r.lastPos, r.lastEnd = start, r.offset()
	return r.text[pos:r.pos], nil
}

// SetCompact sets what Compact reports of the text read so far, for a
// caller that reads one token (a string it will write anew) whose form it
// does not hold the text to: it notes Compact before it, sets it, reads
// the token, notes Compact again, and sets it back.
func (r *Reader) SetCompact(compact bool) { r.loose = !compact }

// DecodeEscape decodes the escape whose backslash is src[i] in a string
// literal, a surrogate pair whole: the character and the index just past
// the escape; ok is false when there is no valid escape there.
func DecodeEscape(src []byte, i int) (r rune, next int, ok bool) {
	next, f, _ := escape(src, i, false, &r)
	return r, next, f == faultNone
}
