package jsontext

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// DefaultMaxDepth is the nesting bound a new Reader applies.
const DefaultMaxDepth = 10000

// A Reader reads one JSON text token by token and checks it against the
// syntax in the package documentation as it goes.
//
// NextToken returns the tokens in order: ObjectStart, then a Name and a
// value for each member, then ObjectEnd; ArrayStart, the elements,
// ArrayEnd; or a single scalar. After the last token of the text it checks
// that only whitespace follows and returns io.EOF. Errors are sticky.
//
// As with encoding/csv.Reader, the exported fields are options: set them
// before the first call and leave them alone afterwards.
type Reader struct {
	// MaxDepth bounds the nesting of arrays and objects; 0 means no
	// bound. The constructors set it to DefaultMaxDepth.
	MaxDepth int
	// RejectDuplicateNames makes an object that repeats a member name an
	// error, at the second occurrence. The reader then holds the names of
	// every open object, so memory grows with the largest object.
	RejectDuplicateNames bool
	// MaxTokenBytes bounds the bytes of one token (a string literal with
	// its quotes and escapes, a number); 0 means no bound. A longer token
	// is an error with Limit set, unless an earlier byte of it is wrong.
	MaxTokenBytes int
	// CheckCompact makes the reader note whether the text is in compact
	// form, for Compact: it checks the escapes of every string that has
	// some a second time.
	CheckCompact bool
	// InternNames makes Name tokens of equal text share one string, kept
	// for the reader's life (up to maxInterned of them): the member names
	// of a table's rows repeat, and each would be a new string.
	InternNames bool
	// Arena, when not nil, takes the bytes of the Text of String and
	// Number tokens read from a stream, which then share them instead of
	// each being a new string. A caller that reads values one at a time
	// empties it (keeping its capacity) once it no longer uses their
	// texts: until then they stay as they were. Unlike the other options
	// it may be changed between calls. Names never share it.
	Arena *[]byte

	r     io.Reader // nil when the input is held whole
	rerr  error     // the reader's error once it returned one, io.EOF included
	text  string    // the whole input, when held whole
	whole bool

	buf       []byte // buf[pos:end] is unread; held whole, text's bytes, never written
	pos, end  int
	base      int64 // input offset of buf[0]
	line      int
	lineStart int64 // input offset of the first byte of the current line

	state    state
	stack    []byte   // the open containers, '{' or '['
	names    []string // member names of the open objects, innermost last
	nameFrom []int    // per open object: where its names begin in names
	sets     []map[string]struct{}
	scratch  []byte
	shifted  int // how far the last call of more moved the unread bytes

	lastPos Pos   // where the token NextToken returned last begins
	lastEnd int64 // the input offset just past it
	peeked  bool
	peekTok Token
	peekEnd int64
	peekErr error
	err     error

	interned map[string]string
	recent   *[nameSlots]string // interned names keepName met last (nameSlot)

	loose bool // whitespace or an escape compact form does not write was read
	mode  readMode
	// literalClosed: a literal reader met the literal's closing quote,
	// at end.
	literalClosed bool
	decoded       []byte // a literal reader's strings with escapes (keepDecoded)
	limitNext     bool   // LimitString applies to the next string scanned
	stringLimit   int

	// The first arrays of stack, nameFrom, sets and names, in the reader
	// itself: a reader of a small text (a JSON-RPC envelope, an id)
	// allocates nothing for the containers it opens. A reader is only
	// ever used through its pointer, never copied.
	stackInit    [8]byte
	nameFromInit [4]int
	setsInit     [4]map[string]struct{}
	namesInit    [8]string
}

type state uint8

const (
	stBegin     state = iota // nothing read
	stValue                  // a value is due
	stFirstElem              // after '[': a value or ']'
	stFirstName              // after '{': a name or '}'
	stName                   // after ',' in an object: a name
	stColon                  // after a name: ':' and a value
	stAfter                  // after a value: ',', a closing bracket or the end
	stDone                   // the end has been read
)

const initialBuffer = 4 << 10

// maxEmptyReads is how many reads in a row may return nothing before the
// reader gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

var errBadRead = errors.New("jsontext: reader returned an invalid byte count")

// NewReader returns a Reader that reads from r, holding one token at a
// time: its buffer grows only to hold the longest token.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, MaxDepth: DefaultMaxDepth, line: 1}
}

// NewReaderSize is NewReader with a buffer of size bytes from the start,
// for a caller whose r is unbuffered: the reader then reads from it in
// pieces of that size, with no buffered reader copying the input again.
func NewReaderSize(r io.Reader, size int) *Reader {
	jr := NewReader(r)
	jr.buf = make([]byte, max(size, initialBuffer))
	return jr
}

// NewStringReader returns a Reader over a whole text. The Text of every
// Name and String token without escapes, and of every Number, is a
// substring of text.
func NewStringReader(text string) *Reader {
	r := new(Reader)
	r.ResetString(text)
	return r
}

// ResetString makes r what NewStringReader(text) returns, whatever it
// held before, for a caller that keeps a Reader in a value of its own or
// reads text after text with one: it allocates nothing. It lets go of
// every buffer r held, never writing them again, so that the tokens of a
// text read before stay as they were.
func (r *Reader) ResetString(text string) {
	*r = Reader{
		text: text, whole: true, MaxDepth: DefaultMaxDepth, line: 1,
		buf: unsafe.Slice(unsafe.StringData(text), len(text)), end: len(text), rerr: io.EOF,
	}
}

// NextToken returns the next token, or io.EOF after the last one once only
// whitespace is left.
func (r *Reader) NextToken() (Token, error) {
	if r.peeked || r.err != nil {
		return r.heldToken()
	}
	k, text, p, err := r.scanToken()
	if err := r.took(p, err); err != nil {
		return Token{}, err
	}
	return Token{Kind: k, Text: text, Pos: p}, nil
}

// NextText is NextToken for a caller that uses only the kind and text of
// the tokens, as a parser building values does: it returns them, and Pos
// still reports where the token begins. A Token is too large for the
// compiler to keep in registers, and a caller that reads one token after
// another would otherwise spend much of its time copying them.
func (r *Reader) NextText() (Kind, string, error) {
	if r.peeked || r.err != nil {
		tok, err := r.heldToken()
		return tok.Kind, tok.Text, err
	}
	k, text, p, err := r.scanToken()
	if err := r.took(p, err); err != nil {
		return 0, "", err
	}
	return k, text, nil
}

// took notes the outcome of scanning the token that begins at p: the
// error that stops the reader, or where the token lies.
func (r *Reader) took(p Pos, err error) error {
	if err != nil {
		r.err = err
		return err
	}
	r.lastPos, r.lastEnd = p, r.base+int64(r.pos)
	return nil
}

// heldToken is the next token when the reader already holds it: the
// token Peek read, or the error that stopped the reader.
func (r *Reader) heldToken() (Token, error) {
	if !r.peeked {
		return Token{}, r.err
	}
	r.peeked = false
	if r.peekErr != nil {
		return Token{}, r.peekErr
	}
	r.lastPos, r.lastEnd = r.peekTok.Pos, r.peekEnd
	return r.peekTok, nil
}

// Peek returns the kind of the token NextToken will return next, or its
// error, without consuming it.
func (r *Reader) Peek() (Kind, error) {
	if !r.peeked {
		if r.err != nil {
			r.peekTok, r.peekErr = Token{}, r.err
		} else {
			k, text, p, err := r.scanToken()
			r.peekTok, r.peekErr = Token{Kind: k, Text: text, Pos: p}, err
			if err != nil {
				r.err = err
			}
		}
		r.peekEnd = r.offset()
		r.peeked = true
	}
	return r.peekTok.Kind, r.peekErr
}

// Compact reports, for a reader with CheckCompact set, whether the text
// read so far is exactly what AppendString and the compact form of the
// other kinds write: no whitespace before, between or after the tokens,
// strings with only the escapes AppendString writes, and numbers and
// literals as they stand. Once the whole text is read without error, it
// is the compact form of its value exactly when Compact is true.
func (r *Reader) Compact() bool { return r.CheckCompact && !r.loose }

// Pos returns where the token NextToken returned last begins.
func (r *Reader) Pos() Pos { return r.lastPos }

// InputOffset returns the input offset just past the token NextToken
// returned last.
func (r *Reader) InputOffset() int64 { return r.lastEnd }

// Depth returns the number of arrays and objects open after the token
// NextToken returned last.
func (r *Reader) Depth() int {
	if r.peeked && r.peekErr == nil {
		switch r.peekTok.Kind {
		case ObjectStart, ArrayStart:
			return len(r.stack) - 1
		case ObjectEnd, ArrayEnd:
			return len(r.stack) + 1
		}
	}
	return len(r.stack)
}

// ReadString reads a token that must be a string value and returns it.
func (r *Reader) ReadString() (string, error) {
	tok, err := r.Expect(String)
	return tok.Text, err
}

// ExpectObjectName reads the next member name of the object being read,
// or the end of the object: it returns the name and true, or "" and false
// after consuming the closing '}'. Any other token is an error.
func (r *Reader) ExpectObjectName() (string, bool, error) {
	tok, err := r.NextToken()
	switch {
	case err != nil:
		return "", false, r.unexpectedEOF(err, "a member name or '}'")
	case tok.Kind == Name:
		return tok.Text, true, nil
	case tok.Kind == ObjectEnd:
		return "", false, nil
	}
	return "", false, r.fail(tok.Pos, "expected a member name or '}', found "+tok.Kind.String())
}

// NextElement reports whether the array being read has another element,
// which the next token begins; at the array's end it consumes the ']' and
// reports false. Any other token is an error. It makes a loop over an
// array's elements read like one over an object's members:
//
//	for more, err := r.NextElement(); more || err != nil; more, err = r.NextElement() { ... }
func (r *Reader) NextElement() (bool, error) {
	k, err := r.Peek()
	switch {
	case err != nil:
		return false, r.unexpectedEOF(err, "an element or ']'")
	case k == ArrayEnd:
		_, err := r.NextToken()
		return false, err
	case k.IsValue():
		return true, nil
	}
	return false, r.fail(r.peekTok.Pos, "expected an element or ']', found "+k.String())
}

// Expect reads the next token and returns it if it is of kind k, and an
// error at the token otherwise.
func (r *Reader) Expect(k Kind) (Token, error) {
	tok, err := r.NextToken()
	if err != nil {
		return Token{}, r.unexpectedEOF(err, k.String())
	}
	if tok.Kind != k {
		return Token{}, r.fail(tok.Pos, "expected "+k.String()+", found "+tok.Kind.String())
	}
	return tok, nil
}

// SkipValue reads the next value whole and discards it.
func (r *Reader) SkipValue() error {
	depth := 0
	for {
		tok, err := r.NextToken()
		if err != nil {
			return r.unexpectedEOF(err, "a JSON value")
		}
		switch tok.Kind {
		case ObjectStart, ArrayStart:
			depth++
		case ObjectEnd, ArrayEnd:
			depth--
		case Name:
			continue
		}
		if depth <= 0 {
			return nil
		}
	}
}

// End reads what follows the last token of the text and returns nil when
// it is only whitespace; it is an error to call it before the text ends.
func (r *Reader) End() error {
	tok, err := r.NextToken()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	return r.fail(tok.Pos, "expected the end of the JSON value, found "+tok.Kind.String())
}

// Fail returns an error at p with msg, as the reader's own errors are:
// for a caller that finds a token it cannot use.
func (r *Reader) Fail(p Pos, msg string) *Error { return r.fail(p, msg) }

func (r *Reader) fail(p Pos, msg string) *Error {
	return &Error{Offset: p.Offset, Line: p.Line, Column: p.Column, Msg: msg}
}

// unexpectedEOF turns the io.EOF of a text that ended early into an error
// that says what was due.
func (r *Reader) unexpectedEOF(err error, expected string) error {
	if err != io.EOF {
		return err
	}
	return r.fail(r.posAt(r.pos), "expected "+expected+", found end of input")
}

func (r *Reader) offset() int64 { return r.base + int64(r.pos) }

// posAt returns the position of buf[i], which lies on the current line.
func (r *Reader) posAt(i int) Pos {
	off := r.base + int64(i)
	return Pos{Offset: off, Line: r.line, Column: int(off-r.lineStart) + 1}
}

func (r *Reader) errAt(i int, msg string) *Error {
	p := r.posAt(i)
	return &Error{Offset: p.Offset, Line: p.Line, Column: p.Column, Msg: msg}
}

var bom = []byte("\uFEFF")

// scanToken reads the next token and returns its parts, which NextToken
// and Peek make a Token of. The scanning functions all return a token so,
// never a Token: a Token is too large for the compiler to keep in
// registers, and each copy of one just written, from one function's
// result to the next, stalls on the bytes written a word at a time.
// On an error the parts are zero.
func (r *Reader) scanToken() (Kind, string, Pos, error) {
	if r.state == stBegin {
		if err := r.ensure(len(bom)); err != nil {
			return noToken(err)
		}
		if r.end-r.pos >= len(bom) && string(r.buf[r.pos:r.pos+len(bom)]) == string(bom) {
			return noToken(r.errAt(r.pos, "JSON text begins with a byte-order mark"))
		}
		r.state = stValue
	}
	for {
		var c byte
		var ok bool
		if r.pos < r.end && !isSpace(r.buf[r.pos]) && r.mode != inLiteral {
			c, ok = r.buf[r.pos], true
		} else if r.mode == inLiteral {
			c, ok = r.literalSpaces()
		} else {
			var err error
			if c, ok, err = r.skipSpace(); err != nil {
				return noToken(err)
			}
		}
		switch r.state {
		case stDone:
			return noToken(io.EOF)
		case stAfter:
			if len(r.stack) == 0 {
				if !ok {
					r.state = stDone
					return noToken(io.EOF)
				}
				return noToken(r.errFound(r.pos, "expected end of input after the JSON value, found "))
			}
			open := r.stack[len(r.stack)-1]
			switch {
			case ok && c == ',':
				r.pos++
				r.state = stValue
				if open == '{' {
					r.state = stName
				}
				continue
			case ok && c == closer(open):
				k, p := r.close()
				return k, "", p, nil
			case open == '[':
				return noToken(r.errFound(r.pos, "expected ',' or ']' in an array, found "))
			default:
				return noToken(r.errFound(r.pos, "expected ',' or '}' in an object, found "))
			}
		case stColon:
			if !ok || c != ':' {
				return noToken(r.errFound(r.pos, "expected ':' after a member name, found "))
			}
			r.pos++
			r.state = stValue
			continue
		case stFirstName, stName:
			if ok && c == '}' && r.state == stFirstName {
				k, p := r.close()
				return k, "", p, nil
			}
			if !ok || c != '"' {
				return noToken(r.errFound(r.pos, "expected a member name in quotes, found "))
			}
			return r.name()
		default: // stValue, stFirstElem
			if ok && c == ']' && r.state == stFirstElem {
				k, p := r.close()
				return k, "", p, nil
			}
			if !ok {
				return noToken(r.errAt(r.pos, "expected a JSON value, found end of input"))
			}
			return r.value(c)
		}
	}
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// noToken returns err with a token's parts zero, for the scanning
// functions' errors: Peek keeps what they return as its token.
func noToken(err error) (k Kind, text string, p Pos, _ error) { return k, text, p, err }

// close reads the closing bracket at pos.
func (r *Reader) close() (Kind, Pos) {
	p := r.posAt(r.pos)
	r.pos++
	kind := ArrayEnd
	if r.stack[len(r.stack)-1] == '{' {
		kind = ObjectEnd
		if r.RejectDuplicateNames {
			n := len(r.nameFrom) - 1
			r.names = r.names[:r.nameFrom[n]]
			r.nameFrom, r.sets = r.nameFrom[:n], r.sets[:n]
		}
	}
	r.stack = r.stack[:len(r.stack)-1]
	r.state = stAfter
	return kind, p
}

func (r *Reader) open(c byte) (Kind, string, Pos, error) {
	if r.MaxDepth > 0 && len(r.stack) >= r.MaxDepth {
		e := r.errAt(r.pos, "arrays and objects nested deeper than "+strconv.Itoa(r.MaxDepth))
		e.Limit = true
		return noToken(e)
	}
	p := r.posAt(r.pos)
	r.pos++
	if r.stack == nil {
		r.stack = r.stackInit[:0]
	}
	r.stack = append(r.stack, c)
	if c == '[' {
		r.state = stFirstElem
		return ArrayStart, "", p, nil
	}
	if r.RejectDuplicateNames {
		if r.nameFrom == nil {
			r.nameFrom, r.sets, r.names = r.nameFromInit[:0], r.setsInit[:0], r.namesInit[:0]
		}
		r.nameFrom = append(r.nameFrom, len(r.names))
		r.sets = append(r.sets, nil)
	}
	r.state = stFirstName
	return ObjectStart, "", p, nil
}

func (r *Reader) value(c byte) (Kind, string, Pos, error) {
	switch {
	case c == '{' || c == '[':
		return r.open(c)
	case c == '"':
		p := r.posAt(r.pos)
		s, err := r.str()
		if err != nil {
			return noToken(err)
		}
		r.state = stAfter
		return String, s, p, nil
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	case c == 't':
		return r.literal(True, "true")
	case c == 'f':
		return r.literal(False, "false")
	case c == 'n':
		return r.literal(Null, "null")
	}
	return noToken(r.errFound(r.pos, "expected a JSON value, found "))
}

func (r *Reader) name() (Kind, string, Pos, error) {
	p := r.posAt(r.pos)
	s, err := r.str()
	if err != nil {
		return noToken(err)
	}
	if r.Arena != nil || r.InternNames {
		s = r.keepName(s)
	}
	if r.RejectDuplicateNames && !r.addName(s) {
		return noToken(r.fail(p, "member name "+QuotePrefix(s)+" appears twice in one object"))
	}
	r.state = stColon
	return Name, s, p, nil
}

// maxInterned bounds the names InternNames keeps: past it, names are
// strings of their own, as without the option.
const maxInterned = 4096

// nameSlots is how many interned names keepName holds in front of the
// map, one per slot of nameSlot: the names of a table's rows come back in
// turn, and a comparison with the name last met in a slot costs less than
// hashing the name to look it up.
const nameSlots = 32

// nameSlot picks the slot of a name that is not empty from its length and
// first and last bytes, which set apart most of the names of one row.
func nameSlot(s string) int {
	return ((int(s[0])*31+int(s[len(s)-1]))*7 + len(s)) & (nameSlots - 1)
}

// keepName returns a string equal to s that the Arena does not share: the
// interned one, or a copy. The slots hold only names the map holds, so a
// name found there is the one the map would return.
func (r *Reader) keepName(s string) string {
	var slot int
	if r.recent != nil && s != "" {
		slot = nameSlot(s)
		if t := r.recent[slot]; t == s {
			return t
		}
	}
	if t, ok := r.interned[s]; ok {
		// The map and the slots are made together. An empty name
		// goes in slot 0, where no other name is equal to it.
		r.recent[slot] = t
		return t
	}
	t := strings.Clone(s)
	if r.InternNames && len(r.interned) < maxInterned {
		if r.interned == nil {
			r.interned = make(map[string]string)
			r.recent = new([nameSlots]string)
		}
		r.interned[t] = t
	}
	return t
}

// own returns a string of b's bytes: in the Arena when there is one.
func (r *Reader) own(b []byte) string {
	if r.Arena == nil || len(b) == 0 {
		return string(b)
	}
	start := len(*r.Arena)
	*r.Arena = append(*r.Arena, b...)
	return unsafe.String(&(*r.Arena)[start], len(b))
}

// handOverFrom is the length from which a string decoded in scratch takes
// scratch's bytes instead of a copy of them.
const handOverFrom = 32 << 10

// ownScratch returns the string decoded in scratch. A long one takes
// scratch's bytes, which the reader then gives up: scanString sized them
// once to the literal, so a copy would only double what a long string
// holds at its peak. A short one, or one that would leave much of a
// larger buffer unused, is copied, and scratch is kept for the next.
func (r *Reader) ownScratch() string {
	b := r.scratch
	if r.Arena != nil || len(b) < handOverFrom || cap(b)-len(b) > len(b)/2 {
		return r.own(b)
	}
	r.scratch = nil
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// addName records a name of the innermost object and reports whether it
// is new there: a scan while the object is small, a set once it grows.
func (r *Reader) addName(s string) bool {
	n := len(r.nameFrom) - 1
	own := r.names[r.nameFrom[n]:]
	set := r.sets[n]
	if set == nil && len(own) < setFrom {
		for _, name := range own {
			if name == s {
				return false
			}
		}
		r.names = append(r.names, s)
		return true
	}
	if set == nil {
		set = make(map[string]struct{}, 2*len(own))
		for _, name := range own {
			set[name] = struct{}{}
		}
		r.sets[n] = set
	}
	if _, dup := set[s]; dup {
		return false
	}
	set[s] = struct{}{}
	r.names = append(r.names, s)
	return true
}

// LimitString bounds the next string the reader scans, a value or a
// member name, to n bytes once its escapes are resolved. A longer string
// is an error with Limit and LongString set at its opening quote, met as
// soon as the reader has decoded n+1 bytes of it: a stream reads no
// further and holds no more of it than that (and a few bytes to place a
// fault). A fault among the bytes read comes first, so a stream and a
// held-whole text agree. The bound lapses with that string; call again
// before each token to bound each. A negative n lifts the bound.
func (r *Reader) LimitString(n int) {
	r.limitNext, r.stringLimit = n >= 0, n
}

// str reads the string literal at pos and returns its string.
func (r *Reader) str() (string, error) {
	if r.mode != plain {
		return r.strOfMode()
	}
	// The common case first, as the scans below would find it: an
	// unbound literal the buffer holds up to its closing quote, with only
	// printable ASCII before it. Otherwise the scans below start past the
	// plain bytes found (run counts them and the quote, from pos, wherever
	// more moves them).
	run := 1
	if !r.limitNext {
		src := r.buf[:r.end]
		q := plainRun(src, r.pos+1)
		if q < len(src) && src[q] == '"' {
			start := r.pos
			if err := r.checkToken(start, q+1, faultNone, 0, true); err != nil {
				return "", err
			}
			r.pos = q + 1
			if r.whole {
				return r.text[start+1 : q], nil
			}
			return r.own(src[start+1 : q]), nil
		}
		run = q - r.pos
	}
	limited := r.limitNext
	r.limitNext = false
	if limited {
		// The common case: the literal closes within as many raw bytes as
		// the bound, so it fits whatever its escapes; one scan reads it.
		if end, escaped, f, _ := scanString(r.buf[:r.boundEnd()], r.pos, false, &r.scratch); f == faultNone {
			if err := r.checkToken(r.pos, end, faultNone, 0, true); err != nil {
				return "", err
			}
			return r.strEnd(r.pos, end, escaped), nil
		}
	}
	closes := limited && r.closesWithin(r.stringLimit)
	if limited && !closes {
		over, closed, err := r.stringOver(r.stringLimit)
		if err != nil {
			return "", err
		}
		closes = closed
		if over >= 0 {
			if _, _, f, at := scanString(r.buf[:r.end], r.pos, false, nil); f != faultNone && at < over {
				r.fullRuneAt(&at)
				return "", r.errAt(at, f.message(r.buf[:r.end], at))
			}
			e := r.errAt(r.pos, "string longer than "+strconv.Itoa(r.stringLimit)+" bytes")
			e.Limit, e.LongString = true, true
			return "", e
		}
	}
	if !r.whole && !limited {
		// The common case in a stream: the buffer holds the whole
		// literal, and one scan finds it clean up to its closing quote.
		// Any other outcome may come of the buffer's end cutting it (an
		// unclosed string, a character or escape cut in two), so the
		// literal is made whole first, as if this scan had not been.
		if end, escaped, f, _ := scanStringFrom(r.buf[:r.end], r.pos, r.pos+run, false, &r.scratch); f == faultNone {
			if err := r.checkToken(r.pos, end, faultNone, 0, true); err != nil {
				return "", err
			}
			return r.strEnd(r.pos, end, escaped), nil
		}
	}
	complete := true
	if !r.whole && !closes {
		var err error
		if complete, err = r.completeString(); err != nil {
			return "", err
		}
	}
	start := r.pos
	end, escaped, f, at := scanStringFrom(r.buf[:r.end], start, start+run, false, &r.scratch)
	if err := r.checkToken(start, end, f, at, complete); err != nil {
		return "", err
	}
	return r.strEnd(start, end, escaped), nil
}

// boundEnd is where the buffer's bytes end for the bound string at pos:
// just past a closing quote that leaves it the bound's number of raw
// bytes, or at the end of the buffer if that comes first.
func (r *Reader) boundEnd() int {
	if r.stringLimit < r.end-r.pos-1 {
		return r.pos + 1 + r.stringLimit + 1
	}
	return r.end
}

// strEnd moves past the string literal that the scan from start found to
// end at end, and returns its string, decoded in scratch when escaped.
func (r *Reader) strEnd(start, end int, escaped bool) string {
	r.pos = end
	switch {
	case escaped:
		if r.CheckCompact && !r.loose {
			// The same literal read again, refusing the escapes
			// AppendString does not write.
			_, _, f, _ := scanString(r.buf[:r.end], start, true, nil)
			r.loose = f != faultNone
		}
		return r.ownScratch()
	case r.whole:
		return r.text[start+1 : end-1]
	}
	return r.own(r.buf[start+1 : end-1])
}

// checkToken turns what a scan of the token at start found into the error
// to report, if any. A token longer than MaxTokenBytes is refused unless a
// fault comes within its first MaxTokenBytes bytes, so that a held-whole
// text and a stream, which stops reading a long token there, agree.
// complete is false when the buffer holds only the start of the token.
func (r *Reader) checkToken(start, end int, f fault, at int, complete bool) error {
	limit := r.MaxTokenBytes
	tooLong := limit > 0 && (f != faultNone && at >= start+limit || f == faultNone && (!complete || end-start > limit))
	switch {
	case tooLong:
		e := r.errAt(start, "token longer than the limit of "+strconv.Itoa(limit)+" bytes")
		e.Limit = true
		return e
	case f != faultNone:
		r.fullRuneAt(&at)
		return r.errAt(at, f.message(r.buf[:r.end], at))
	}
	return nil
}

// fullRuneAt makes the buffer hold the whole character that begins at
// buf[*i], if the input has it, for a message that names it; *i follows
// the bytes if they move.
func (r *Reader) fullRuneAt(i *int) {
	if r.whole || *i >= r.end || utf8.FullRune(r.buf[*i:r.end]) {
		return
	}
	rel := *i - r.pos
	r.ensure(rel + utf8.UTFMax)
	*i = r.pos + rel
}

// errFound returns an error at buf[i] whose message is prefix followed by
// a description of what stands there.
func (r *Reader) errFound(i int, prefix string) *Error {
	r.fullRuneAt(&i)
	return r.errAt(i, prefix+describe(r.buf[:r.end], i))
}

// completeString makes the buffer hold the whole string literal at pos, up
// to its closing quote, or up to the end of the input. It reports false
// when it stopped at MaxTokenBytes instead.
func (r *Reader) completeString() (bool, error) {
	scanned := r.pos + 1
	for {
		if r.closingQuote(scanned, r.end) {
			return true, nil
		}
		scanned = r.end
		switch err := r.more(); err {
		case nil:
			scanned -= r.shifted
		case io.EOF:
			return true, nil // scanString reports the string unclosed
		case errTooLong:
			return false, nil
		default:
			return false, err
		}
	}
}

// closesWithin reports whether the buffer already holds the closing quote
// of the string literal at pos within n bytes of it: a string of n raw
// bytes decodes to n bytes or fewer, so it needs no closer look.
func (r *Reader) closesWithin(n int) bool {
	return r.closingQuote(r.pos+1, min(r.end, r.pos+1+n+1))
}

// closingQuote reports whether buf[from:to] holds the closing quote of the
// string literal at pos: a quote after an even number of backslashes,
// counted back no further than the literal's opening quote, so from may
// be anywhere after it.
func (r *Reader) closingQuote(from, to int) bool {
	for from < to {
		q := bytes.IndexByte(r.buf[from:to], '"')
		if q < 0 {
			return false
		}
		q += from
		backslashes := 0
		for k := q - 1; k > r.pos && r.buf[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return true
		}
		from = q + 1
	}
	return false
}

// stringOver reads the string literal at pos up to its closing quote, the
// end of the input, or the byte at which more than n bytes of it have
// been decoded. It returns the index in buf just past that byte, with
// lookahead bytes after it where the input has them so that scanString
// can place a fault before it, or -1 when the string decodes to at most n
// bytes (or breaks off) and buf holds it whole; closed reports that buf
// holds its closing quote.
func (r *Reader) stringOver(n int) (over int, closed bool, err error) {
	// A literal that closes within n raw bytes fits: its closing quote
	// is looked for first, in as many bytes as the count would read.
	closed, atEOF, err := r.closesWithinRead(n)
	if closed || atEOF || err != nil {
		return -1, closed, err
	}
	d, count := r.pos+1, 0
	for {
		src := r.buf[:r.end]
		for d < len(src) {
			// Eight bytes at a time, within the bound: a word without
			// a quote whose backslashes each begin an escape of two
			// bytes (no two together, none before a 'u') decodes to a
			// byte less for each (a backslash last is left for the next
			// word, with the byte before it); another is read up to its first quote or
			// backslash, and from there one escape or byte at a time.
			if d+8 <= len(src) && count+8 <= n {
				w := binary.LittleEndian.Uint64(src[d:])
				q, b := zeroBytes(w^('"'*lowBits)), zeroBytes(w^('\\'*lowBits))
				k := 8
				if b>>63 != 0 { // an escape across the word's end: take seven bytes
					k, b = 7, b&^(1<<63)
				}
				if q == 0 && b&(b<<8) == 0 && b>>(8*k-1) == 0 && (b<<8)&zeroBytes(w^('u'*lowBits)) == 0 {
					d, count = d+k, count+k-bits.OnesCount64(b)
					continue
				}
				plain := bits.TrailingZeros64(q|b) >> 3
				d, count = d+plain, count+plain
			}
			raw, decoded := 1, 1
			switch src[d] {
			case '"':
				return -1, true, nil
			case '\\':
				if d+1 < len(src) && src[d+1] != 'u' {
					raw = 2 // a short escape, one byte
					break
				}
				var ok bool
				if raw, decoded, ok = escapeWidth(src, d, atEOF); !ok {
					goto more
				}
			}
			d += raw
			if count += decoded; count > n {
				over, err = r.withLookahead(d)
				return over, false, err
			}
		}
	more:
		if atEOF {
			return -1, false, nil
		}
		err := r.more()
		d -= r.shifted // the unread bytes may have moved, whatever more returned
		switch err {
		case nil:
		case io.EOF:
			atEOF = true
		default:
			// errTooLong: MaxTokenBytes decides. A read error: the
			// caller meets it again (more keeps it) after what the bytes
			// read decide, as an unbound read does: a closing quote
			// within a \u escape the read cut is a fault, not the error.
			return -1, false, nil
		}
	}
}

// escapeWidth returns the raw and decoded bytes of the escape whose
// backslash is src[d], counting a surrogate escape as half of the four
// bytes its pair decodes to; ok is false when src ends inside it and more
// input may follow. A malformed escape counts as one byte: the scan that
// follows reports it.
func escapeWidth(src []byte, d int, atEOF bool) (raw, decoded int, ok bool) {
	switch {
	case d+1 < len(src) && src[d+1] != 'u':
		return 2, 1, true
	case d+6 <= len(src):
		u, f, _ := hex4(src, d+2)
		switch {
		case f != faultNone:
			return 2, 1, true
		case utf16.IsSurrogate(u):
			return 6, 2, true
		}
		return 6, utf8.RuneLen(u), true
	case atEOF:
		return len(src) - d, 1, true
	}
	return 0, 0, false
}

// closesWithinRead is closesWithin reading more input as needed: it
// reports whether the literal at pos closes within n raw bytes, or else
// whether the input ended (or MaxTokenBytes was reached) first.
func (r *Reader) closesWithinRead(n int) (closed, ended bool, err error) {
	scanned := r.pos + 1
	for {
		full := n < r.end-r.pos-1 // the buffer holds n raw bytes and more
		to := r.end
		if full {
			to = r.pos + 1 + n + 1
		}
		if r.closingQuote(scanned, to) {
			return true, false, nil
		}
		scanned = to
		if full {
			return false, false, nil
		}
		if r.whole {
			return false, true, nil
		}
		switch err := r.more(); err {
		case nil:
			scanned -= r.shifted
		case io.EOF, errTooLong:
			return false, true, nil
		default:
			return false, false, err
		}
	}
}

// zeroBytes returns the high bit of each byte of w that is zero.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// withLookahead makes the buffer hold lookahead bytes past buf[i], where
// the input has them, and returns i as it stands after the bytes moved.
func (r *Reader) withLookahead(i int) (int, error) {
	rel := i - r.pos
	for r.end-(r.pos+rel) < lookahead {
		if err := r.more(); err != nil {
			if err == io.EOF || err == errTooLong {
				break
			}
			return -1, err
		}
	}
	return r.pos + rel, nil
}

func (r *Reader) number() (Kind, string, Pos, error) {
	p := r.posAt(r.pos)
	complete := true
	start := r.pos
	// In a stream, a number the buffer holds with a byte after it needs
	// no more input: one scan reads it.
	end, f, at := scanNumber(r.buf[:r.end], start)
	if !r.whole && !(f == faultNone && end < r.end) {
		var err error
		if complete, err = r.completeRun(isNumberByte); err != nil {
			return noToken(err)
		}
		start = r.pos
		end, f, at = scanNumber(r.buf[:r.end], start)
	}
	if f == faultNone && end < r.end {
		complete = true // the literal ended before the run of number bytes did
	}
	if err := r.checkToken(start, end, f, at, complete); err != nil {
		return noToken(err)
	}
	r.pos = end
	r.state = stAfter
	if r.whole {
		return Number, r.text[start:end], p, nil
	}
	return Number, r.own(r.buf[start:end]), p, nil
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// completeRun makes the buffer hold the run of bytes at pos for which in
// is true, and the byte after it, or up to the end of the input. It
// reports false when it stopped at MaxTokenBytes instead.
func (r *Reader) completeRun(in func(byte) bool) (bool, error) {
	scanned := r.pos
	for {
		for scanned < r.end && in(r.buf[scanned]) {
			scanned++
		}
		if scanned < r.end {
			return true, nil
		}
		switch err := r.more(); err {
		case nil:
			scanned -= r.shifted
		case io.EOF:
			return true, nil
		case errTooLong:
			return false, nil
		default:
			return false, err
		}
	}
}

func (r *Reader) literal(kind Kind, word string) (Kind, string, Pos, error) {
	p := r.posAt(r.pos)
	if err := r.ensure(len(word)); err != nil {
		return noToken(err)
	}
	if bad := literal(r.buf[:r.end], r.pos, word); bad >= 0 {
		return noToken(r.errFound(bad, "expected "+strconv.Quote(word)+", found "))
	}
	r.pos += len(word)
	r.state = stAfter
	return kind, "", p, nil
}

// skipSpace moves past whitespace, counting lines, and returns the byte
// after it, or ok false at the end of the input. A literal reader's
// whitespace is another (literalSpaces).
func (r *Reader) skipSpace() (c byte, ok bool, err error) {
	for {
		for r.pos < r.end {
			c := r.buf[r.pos]
			if c > ' ' {
				return c, true, nil // what most calls meet first
			}
			switch c {
			case ' ', '\t', '\r':
				r.pos++
				r.loose = true
			case '\n':
				r.pos++
				r.loose = true
				r.line++
				r.lineStart = r.base + int64(r.pos)
			default:
				return c, true, nil
			}
		}
		if err := r.more(); err != nil {
			if err == io.EOF || err == errTooLong {
				return 0, false, nil
			}
			return 0, false, err
		}
	}
}

var errTooLong = errors.New("token too long")

// lookahead is the most bytes past a fault that scanString may need to
// place it (a surrogate pair is twelve), so a stream stops reading a long
// token this far past MaxTokenBytes and still finds its faults where a
// held-whole text does.
const lookahead = 16

// ensure makes the buffer hold n bytes at pos, or every byte left.
func (r *Reader) ensure(n int) error {
	for r.end-r.pos < n {
		if err := r.more(); err != nil {
			if err == io.EOF || err == errTooLong {
				return nil
			}
			return err
		}
	}
	return nil
}

// more reads more input into the buffer, moving the unread bytes to its
// front first (shifted says by how much) and growing it only when they
// fill it. It returns io.EOF at the end of the input, the reader's error,
// or errTooLong when the unread bytes already exceed MaxTokenBytes.
func (r *Reader) more() error {
	r.shifted = 0
	if r.rerr != nil {
		return r.rerr
	}
	if r.MaxTokenBytes > 0 && r.end-r.pos > r.MaxTokenBytes+lookahead {
		return errTooLong
	}
	if r.pos > 0 {
		r.shifted = r.pos
		copy(r.buf, r.buf[r.pos:r.end])
		r.end -= r.pos
		r.base += int64(r.pos)
		r.pos = 0
	}
	if r.end == len(r.buf) {
		bigger := make([]byte, max(2*len(r.buf), initialBuffer))
		copy(bigger, r.buf[:r.end])
		r.buf = bigger
	}
	for range maxEmptyReads {
		n, err := r.r.Read(r.buf[r.end:])
		if n < 0 || n > len(r.buf)-r.end {
			r.rerr = errBadRead
			return r.rerr
		}
		r.end += n
		if err != nil {
			r.rerr = err
			if n > 0 {
				return nil
			}
			return err
		}
		if n > 0 {
			return nil
		}
	}
	r.rerr = io.ErrNoProgress
	return r.rerr
}
