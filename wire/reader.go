package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// A view is read with the strict JSON reader of package jsontext, so what
// the view must be is checked where it is read [WIRE-2]: exactly the keys
// of WIRE-1, none repeated, none null, strings valid UTF-8 without lone
// surrogate escapes, a comment's row a JSON integer without fraction or
// exponent. Every refusal is an *spec.Error of class spec.ErrModel citing
// WIRE-2, with the line, column and offset of the offending token.
//
// A section's keys may come in any order, and its comments — which stand
// between its rows in the payload — come in a list of their own, after the
// rows as Marshal writes them, or before. So a section is read whole before
// any of it is handed on: its rows and comments wait in a spill, in memory
// up to 1 MiB and in a temporary file beyond, and memory stays bounded by
// the longest string.

// target receives a view's payload section by section, with where each
// part of it stands in the view.
type target interface {
	section(tool string, fields []string, meta []spec.Meta, at *sectionPos, rows, comments *records) error
	end(sections jsontext.Pos) error
}

// itemTarget receives a payload item by item, in payload order, as
// streaming.Encoder takes it.
type itemTarget interface {
	row(r *record) error
	comment(r *record) error
}

// sectionPos is where a section object and the parts of its header stand
// in the view, so that a refusal of the model can point at the JSON value
// at fault [WIRE-3].
type sectionPos struct {
	section, tool, fieldList jsontext.Pos
	fields                   []jsontext.Pos
	keys, values             []jsontext.Pos // of the meta pairs
}

// headerText is the least a header line holds before a field name or a
// meta pair: "GCX1 tool=" and " fields=" [HDR-1]. Before the tool name it
// holds only toolText: " fields=" follows the name, so it does not count
// against it [WIRE-3], and a name the line holds up to the limit is left
// to the Encoder, which places the refusal where the line passes it.
const (
	headerText = len(spec.Version + " tool= fields=")
	toolText   = len(spec.Version + " tool=")
)

// longestKey is the longest key a view's objects have ("comments"): a
// longer member name is unknown whatever it says, and is refused without
// being read whole.
const longestKey = len("comments")

// viewReader reads a wire view token by token.
type viewReader struct {
	jr      *jsontext.Reader
	keepAll bool // hold every section in memory: the caller keeps the model anyway
	section int  // 1-based number of the section being read
	inView  bool // inside a section, when false: at the view's own level

	// lineLimit is the encoder's line limit (0 for none): a string that
	// would make a line longer by itself is refused as soon as that much of
	// it has been read, without holding it [LIM-4]. stringLimit is the
	// bound for the next string, -1 for none, and long names what that
	// string is, for the message.
	lineLimit   int
	stringLimit int
	long        longPart
}

// longPart names the string being read under a bound, for the message of
// its refusal, which alone spells it out.
type longPart struct {
	what     string // "tool name", "row", "comment", ...
	row, col int    // a row's number and a value's, or a comment's number
}

func newViewReader(r io.Reader) *viewReader {
	jr := jsontext.NewReader(r)
	jr.RejectDuplicateNames = true
	return &viewReader{jr: jr, stringLimit: -1}
}

// fail returns a WIRE-2 error at p, naming the section being read, if
// any.
func (v *viewReader) fail(p jsontext.Pos, msg string) *spec.Error {
	if v.inView {
		msg = fmt.Sprintf("section %d: %s", v.section, msg)
	}
	return &spec.Error{Class: spec.ErrModel, Line: p.Line, Column: p.Column, Offset: p.Offset,
		Production: "wire-view", Rule: "WIRE-2", Msg: "wire view: " + msg}
}

// jsonErr turns an error of the JSON reader into a WIRE-2 error at its
// place, or the limit error of a string too long for its line; a reader's
// own failure passes through.
func (v *viewReader) jsonErr(err error) error {
	var je *jsontext.Error
	if !errors.As(err, &je) {
		return err
	}
	p := jsontext.Pos{Offset: je.Offset, Line: je.Line, Column: je.Column}
	if je.LongString {
		return at(&spec.Error{Class: spec.ErrLimit, Rule: "LIM-4",
			Msg: v.longName() + ": " + v.lineFault(v.lineLimit+1).Msg}, p)
	}
	return v.fail(p, je.Msg)
}

// longName names the part being read under a bound.
func (v *viewReader) longName() string {
	switch l := v.long; l.what {
	case "row":
		return fmt.Sprintf("section %d, row %d, value %d", v.section, l.row, l.col)
	case "comment":
		return fmt.Sprintf("section %d, comment %d", v.section, l.row)
	default:
		return fmt.Sprintf("section %d, %s", v.section, l.what)
	}
}

func (v *viewReader) lineFault(n int) *spec.Fault {
	l := spec.Limits{MaxLineBytes: v.lineLimit}
	return l.LineFault(n)
}

// bound makes the next string read refused once more than n of its bytes
// are read, n being what is left of the line limit for it; what names it
// in the message. Without a line limit it does nothing.
func (v *viewReader) bound(n int, what longPart) {
	if v.lineLimit > 0 {
		v.stringLimit, v.long = max(n, 0), what
	}
}

func (v *viewReader) unbound() { v.stringLimit = -1 }

// next reads the next token under the bound set for it.
func (v *viewReader) next() (jsontext.Token, error) {
	v.jr.LimitString(v.stringLimit)
	return v.jr.NextToken()
}

// at gives e the position p in the view.
func at(e *spec.Error, p jsontext.Pos) *spec.Error {
	e.Line, e.Column, e.Offset = p.Line, p.Column, p.Offset
	return e
}

// expect reads a token of kind k; what stood there instead is named in the
// error with what was wanted.
func (v *viewReader) expect(k jsontext.Kind, what string) (jsontext.Token, error) {
	tok, err := v.next()
	return tok, v.check(tok, err, k, what)
}

// element reads the next element of the array that began at open, which
// must hold one more, of kind k: an array that ends first is too short and
// is refused at its '[', an element of another kind at the element
// [WIRE-3].
func (v *viewReader) element(open jsontext.Pos, k jsontext.Kind, what string) (jsontext.Token, error) {
	tok, err := v.next()
	if err == nil && tok.Kind == jsontext.ArrayEnd {
		return tok, v.fail(open, "expected "+what+", found ']': the array is too short")
	}
	return tok, v.check(tok, err, k, what)
}

// check refuses a token read, or the error reading it, unless it is of
// kind k, named what in messages. The token lies inside the view's value,
// so err is never io.EOF, which NextToken returns only after that value:
// a view cut short is jsontext's own error.
func (v *viewReader) check(tok jsontext.Token, err error, k jsontext.Kind, what string) error {
	if err != nil {
		return v.jsonErr(err)
	}
	if tok.Kind != k {
		return v.fail(tok.Pos, "expected "+what+", found "+found(tok.Kind))
	}
	return nil
}

// endPos is where the input ended.
func (v *viewReader) endPos() jsontext.Pos {
	if _, err := v.jr.Peek(); err != nil {
		var je *jsontext.Error
		if errors.As(err, &je) {
			return jsontext.Pos{Offset: je.Offset, Line: je.Line, Column: je.Column}
		}
	}
	p := v.jr.Pos()
	return p
}

// members reads the members of the object being read up to its '}',
// calling member with each name; member reads the value.
func (v *viewReader) members(member func(name string) error) error {
	for {
		v.jr.LimitString(longestKey)
		name, more, err := v.jr.ExpectObjectName()
		v.jr.LimitString(-1) // not consumed at the '}'
		var je *jsontext.Error
		if errors.As(err, &je) && je.LongString {
			return v.fail(jsontext.Pos{Offset: je.Offset, Line: je.Line, Column: je.Column},
				fmt.Sprintf("unknown key of more than %d bytes", longestKey))
		}
		if err != nil {
			return v.jsonErr(err)
		}
		if !more {
			return nil
		}
		if err := member(name); err != nil {
			return err
		}
	}
}

// elements reads an array, named what in messages, whose elements all
// begin with a token of kind k, which is an element of the array's kind
// described by elem; it calls each with that token, and each reads the
// rest of the element.
func (v *viewReader) elements(what string, k jsontext.Kind, elem string, each func(tok jsontext.Token) error) (jsontext.Pos, error) {
	open, err := v.expect(jsontext.ArrayStart, "'[' beginning "+what)
	if err != nil {
		return open.Pos, err
	}
	return open.Pos, v.rest(what, k, elem, each)
}

// rest is elements for an array whose '[' has been read.
func (v *viewReader) rest(what string, k jsontext.Kind, elem string, each func(tok jsontext.Token) error) error {
	for {
		tok, err := v.next()
		if err != nil {
			return v.eofOr(err, elem+" or ']' in "+what)
		}
		if tok.Kind == jsontext.ArrayEnd {
			return nil
		}
		if tok.Kind != k {
			return v.fail(tok.Pos, "expected "+elem+" or ']' in "+what+", found "+found(tok.Kind))
		}
		if err := each(tok); err != nil {
			return err
		}
	}
}

// found names what stood where something else was expected.
func found(k jsontext.Kind) string {
	if k == jsontext.Null {
		return "null, which a wire view never holds"
	}
	return k.String()
}

func (v *viewReader) eofOr(err error, expected string) error {
	if err == io.EOF {
		return v.fail(v.endPos(), "expected "+expected+", found end of input")
	}
	return v.jsonErr(err)
}

// read reads a whole view and hands its payload to t, section by section.
func (v *viewReader) read(t target) error {
	open, err := v.expect(jsontext.ObjectStart, `'{' beginning the view {"sections":[...]}`)
	if err != nil {
		return err
	}
	seen := false
	var sections jsontext.Pos
	err = v.members(func(name string) error {
		if name != "sections" {
			return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a view has only "sections"`, jsontext.QuotePrefix(name)))
		}
		seen = true
		var err error
		sections, err = v.elements(`"sections"`, jsontext.ObjectStart, "a section", func(tok jsontext.Token) error {
			v.section++
			v.inView = true
			defer func() { v.inView = false }()
			return v.readSection(t, tok.Pos)
		})
		return err
	})
	if err != nil {
		return err
	}
	if !seen {
		return v.fail(open.Pos, `missing key "sections"`) // at the object that lacks it [WIRE-3]
	}
	if err := v.jr.End(); err != nil {
		return v.jsonErr(err)
	}
	return t.end(sections)
}

// readSection reads the rest of one section object, which began at start,
// and hands it to t.
func (v *viewReader) readSection(t target, start jsontext.Pos) error {
	var (
		tool           *string
		fields         []string
		meta           []spec.Meta
		rows, comments records
		pos            = sectionPos{section: start}
		// What the header line holds of the parts read so far, in line
		// order: the tool name, the field names with their commas, the
		// meta pairs with their spaces and '='. A part not yet read counts
		// nothing, so each is a lower bound.
		toolBytes, fieldBytes, metaBytes int
	)
	// passed refuses, at p, the header string just read when with it the
	// line holds n bytes, more than the limit: the line passes the limit
	// there [LIM-4] [WIRE-3], and a later string must not be refused
	// first as too long by itself.
	passed := func(n int, p jsontext.Pos) error {
		if v.lineLimit > 0 && n > v.lineLimit {
			return at(&spec.Error{Class: spec.ErrLimit, Rule: "LIM-4", Msg: v.longName() + ": " + v.lineFault(n).Msg}, p)
		}
		return nil
	}
	defer rows.reset()
	defer comments.reset()
	rows.keepInMemory, comments.keepInMemory = v.keepAll, v.keepAll
	err := v.members(func(name string) error {
		switch name {
		case "tool":
			v.bound(v.lineLimit-toolText, longPart{what: "tool name"})
			s, err := v.expect(jsontext.String, `a string for "tool"`)
			v.unbound()
			tool, pos.tool, toolBytes = &s.Text, s.Pos, len(s.Text)
			return err
		case "fields":
			fields = []string{}
			v.bound(v.lineLimit-headerText-toolBytes, longPart{what: "field name"})
			defer v.unbound()
			var err error
			pos.fieldList, err = v.elements(`"fields"`, jsontext.String, "a string", func(tok jsontext.Token) error {
				fields = append(fields, tok.Text)
				pos.fields = append(pos.fields, tok.Pos)
				if len(fields) > 1 {
					fieldBytes++ // the comma
				}
				fieldBytes += spec.FieldEscapes.Len(tok.Text)
				used := headerText + toolBytes + fieldBytes
				if err := passed(used, tok.Pos); err != nil {
					return err
				}
				v.bound(v.lineLimit-used-1, longPart{what: "field name"})
				return nil
			})
			return err
		case "meta":
			defer v.unbound()
			_, err := v.elements(`"meta"`, jsontext.ArrayStart, "a [key, value] pair of strings", func(open jsontext.Token) error {
				// " key=value": each string bounded by what the line
				// holds before it.
				used := headerText + toolBytes + fieldBytes + metaBytes + 1
				v.bound(v.lineLimit-used, longPart{what: "meta pair"})
				key, err := v.element(open.Pos, jsontext.String, "the key of a meta pair, a string")
				if err != nil {
					return err
				}
				metaBytes += 1 + len(key.Text)
				if err := passed(used+len(key.Text), key.Pos); err != nil {
					return err
				}
				used += len(key.Text) + 1
				v.bound(v.lineLimit-used, longPart{what: "meta pair"})
				value, err := v.element(open.Pos, jsontext.String, "the value of a meta pair, a string")
				if err != nil {
					return err
				}
				metaBytes += 1 + spec.MetaEscapes.Len(value.Text)
				meta = append(meta, spec.Meta{Key: key.Text, Value: value.Text})
				pos.keys, pos.values = append(pos.keys, key.Pos), append(pos.values, value.Pos)
				if err := passed(headerText+toolBytes+fieldBytes+metaBytes, value.Pos); err != nil {
					return err
				}
				v.unbound()
				_, err = v.expect(jsontext.ArrayEnd, "']' closing the pair")
				return err
			})
			return err
		case "rows":
			var (
				values []string
				places []byte // of the row being read, as appendPlace writes them
				last   jsontext.Pos
				n      int
			)
			defer v.unbound()
			_, err := v.elements(`"rows"`, jsontext.ArrayStart, "a row, an array of strings,", func(open jsontext.Token) error {
				values, places = values[:0], appendPlace(places[:0], jsontext.Pos{}, open.Pos)
				last = open.Pos
				n++
				// The row's line holds at least its values escaped, a
				// guard, the TABs between them [VAL-1] [ROW-4]: what a
				// value may add without passing the limit is what is
				// left of it.
				used := 0
				v.bound(v.lineLimit, longPart{"row", n, 1})
				err := v.rest("a row", jsontext.String, "a string", func(tok jsontext.Token) error {
					values, places = append(values, tok.Text), appendPlace(places, last, tok.Pos)
					last = tok.Pos
					if v.lineLimit == 0 {
						return nil
					}
					if len(values) == 1 && spec.NeedsGuard(tok.Text) {
						used++
					}
					used += spec.ValueEscapes.Len(tok.Text) + 1
					if used-1 > v.lineLimit { // escapes took it past
						return at(&spec.Error{Class: spec.ErrLimit, Rule: "LIM-4",
							Msg: v.longName() + ": " + v.lineFault(used-1).Msg}, tok.Pos)
					}
					v.bound(v.lineLimit-used, longPart{"row", n, len(values) + 1})
					return nil
				})
				v.unbound()
				if err != nil {
					return err
				}
				return rows.putRow(values, places)
			})
			return err
		case "comments":
			_, err := v.elements(`"comments"`, jsontext.ArrayStart, "a [row, text] pair", func(open jsontext.Token) error {
				v.bound(v.lineLimit-1, longPart{"comment", int(comments.n) + 1, 0}) // "#" and the text [CMT-1]
				num, text, err := v.pair(open.Pos, jsontext.Number, "the row of a comment, an integer", "the text of a comment, a string")
				v.unbound()
				if err != nil {
					return err
				}
				row, ok := commentRow(num.Text)
				if !ok {
					return v.fail(num.Pos, fmt.Sprintf("comment row %s is not an integer written without fraction or exponent", jsontext.QuotePrefix(num.Text)))
				}
				return comments.putComment(row, num.Text, text.Text, num.Pos, text.Pos)
			})
			return err
		}
		return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a section has "tool", "fields", "meta", "rows" and "comments"`, jsontext.QuotePrefix(name)))
	})
	if err != nil {
		return err
	}
	if tool == nil || fields == nil {
		return v.fail(start, `"tool" and "fields" are required`)
	}
	return t.section(*tool, fields, meta, &pos, &rows, &comments)
}

// pair reads the rest of a two-element array whose '[' has been read, at
// open: a token of kind first, a string, and ']'.
func (v *viewReader) pair(open jsontext.Pos, first jsontext.Kind, firstWhat, secondWhat string) (a, b jsontext.Token, err error) {
	if a, err = v.element(open, first, firstWhat); err != nil {
		return
	}
	if b, err = v.element(open, jsontext.String, secondWhat); err != nil {
		return
	}
	_, err = v.expect(jsontext.ArrayEnd, "']' closing the pair")
	return
}

// commentRow reads a comment's row: a JSON integer without fraction or
// exponent [WIRE-2]. One beyond int's range is well-formed; it names a row
// no section has, which the placement check refuses [CMT-3], so it is kept
// as the furthest row on its side.
func commentRow(lit string) (int, bool) {
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; (c < '0' || c > '9') && !(i == 0 && c == '-') {
			return 0, false
		}
	}
	n, err := strconv.Atoi(lit)
	if err != nil {
		n = math.MaxInt
		if lit[0] == '-' {
			n = math.MinInt
		}
	}
	return n, true
}

// replay hands a section's rows and comments to t in payload order: each
// comment before the row it precedes [CMT-3]. Comments out of order, or
// beyond the last row, are refused as streaming.Encode refuses them.
func replay(t itemTarget, section int, rows, comments *records) error {
	placed, prev := 0, 0 // comments handed on; the row of the last one
	pending, err := comments.next()
	// place hands on every pending comment that stands before row n.
	place := func(n int, last bool) error {
		for err == nil && (pending.row <= n || last) {
			if pending.row < prev || pending.row > n {
				return placeErr(section, placed, pending, prev, rows.n)
			}
			if err := t.comment(pending); err != nil {
				return err
			}
			prev = pending.row
			placed++
			pending, err = comments.next()
		}
		if err != io.EOF {
			return err
		}
		return nil
	}
	n := 0
	for {
		r, rerr := rows.next()
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
		if err := place(n, false); err != nil {
			return err
		}
		if err := t.row(r); err != nil {
			return err
		}
		n++
	}
	return place(n, true)
}

// placeErr refuses comment c (0-based) of a section (0-based), placed at
// r.row, at its place in the view [CMT-3].
func placeErr(section, c int, r *record, prev int, rows int64) error {
	e := spec.CommentPlaceError(section, c, r.rowText, prev, int(rows))
	return at(e, r.pos())
}

// record is one row or comment of a spill, with where it stands in the
// view.
type record struct {
	values  []string // a row's values
	row     int      // a comment's row
	rowText string   // and as written
	text    string   // a comment's text

	// places holds where the record stands in the view, as appendPlaces
	// wrote them; they are read only for a refusal (positions).
	places []byte
}

// positions returns where the record stands in the view: a row's '[' and
// then each of its values, or a comment's row and then its text.
func (r *record) positions() []jsontext.Pos {
	var ps []jsontext.Pos
	var prev jsontext.Pos
	for b := r.places; len(b) > 0; {
		var n [3]uint64
		for i := range n {
			v, k := binary.Uvarint(b)
			if k <= 0 {
				return ps // not written by appendPlaces: cannot happen
			}
			n[i], b = v, b[k:]
		}
		p := jsontext.Pos{Offset: prev.Offset + int64(n[0]), Line: prev.Line + int(n[1]), Column: int(n[2])}
		if n[1] == 0 {
			p.Column += prev.Column
		}
		ps = append(ps, p)
		prev = p
	}
	return ps
}

// pos is where the record begins in the view: a row's '[', a comment's
// row.
func (r *record) pos() jsontext.Pos {
	if ps := r.positions(); len(ps) > 0 {
		return ps[0]
	}
	return jsontext.Pos{}
}

// appendPlace appends position p as three varints from prev, the
// position before it in the view (the zero Pos for the first): its offset,
// its line, and its column, also from prev's when on the same line. A
// row's places take about three bytes a value.
func appendPlace(b []byte, prev, p jsontext.Pos) []byte {
	offset, line, col := uint64(p.Offset-prev.Offset), uint64(p.Line-prev.Line), uint64(p.Column)
	if line == 0 {
		col -= uint64(prev.Column)
	}
	if offset|line|col < 0x80 { // the common case, one byte each
		return append(b, byte(offset), byte(line), byte(col))
	}
	return binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(b, offset), line), col)
}

// records holds a section's rows and comments in a spill, in order. A
// record is a kind byte and the length of its body, a varint; a row's body
// is its places (length-prefixed), the number of its values and each
// length-prefixed; a comment's its places, its row (a signed varint) and
// its row as written and its text, length-prefixed. A record is read with
// one read of its body, and its places are decoded only for a refusal.
type records struct {
	spill
	r       byteReader // set once reading has begun
	scratch []byte
	body    []byte // the body being written or read
	rec     record
}

const (
	recordRow     = 'r'
	recordComment = 'c'
)

// putRow writes a row: its values and its places, as appendPlace wrote
// them (its '[' and then each value).
func (s *records) putRow(values []string, places []byte) error {
	size := uvarintLen(len(places)) + len(places) + uvarintLen(len(values))
	for _, v := range values {
		size += uvarintLen(len(v)) + len(v)
	}
	b := s.head(recordRow, size, places)
	b = binary.AppendUvarint(b, uint64(len(values)))
	for _, v := range values {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	s.scratch = b
	return s.write(b)
}

func (s *records) putComment(row int, rowText, text string, pos, tpos jsontext.Pos) error {
	places := appendPlace(appendPlace(s.body[:0], jsontext.Pos{}, pos), pos, tpos)
	s.body = places
	size := uvarintLen(len(places)) + len(places) + varintLen(row)
	for _, t := range []string{rowText, text} {
		size += uvarintLen(len(t)) + len(t)
	}
	b := s.head(recordComment, size, places)
	b = binary.AppendVarint(b, int64(row))
	for _, t := range []string{rowText, text} {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	s.scratch = b
	return s.write(b)
}

// head begins a record in s.scratch: its kind, the size of its body, and
// the body's places, length-prefixed.
func (s *records) head(kind byte, size int, places []byte) []byte {
	b := append(s.scratch[:0], kind)
	b = binary.AppendUvarint(b, uint64(size))
	b = binary.AppendUvarint(b, uint64(len(places)))
	return append(b, places...)
}

func uvarintLen(n int) int {
	k := 1
	for ; n >= 0x80; n >>= 7 {
		k++
	}
	return k
}

func varintLen(n int) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutVarint(b[:], int64(n))
}

// next returns the next record, valid until the next call, or io.EOF.
func (s *records) next() (*record, error) {
	if s.r == nil {
		r, err := s.open()
		if err != nil {
			return nil, err
		}
		s.r = r.(byteReader)
	}
	kind, err := s.r.ReadByte()
	if err != nil {
		return nil, err // io.EOF at the end
	}
	size, err := binary.ReadUvarint(s.r)
	if err != nil {
		return nil, unexpected(err)
	}
	if uint64(cap(s.body)) < size {
		s.body = make([]byte, size)
	}
	b := s.body[:size]
	if _, err := io.ReadFull(s.r, b); err != nil {
		return nil, unexpected(err)
	}
	rec := &s.rec
	places, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < places {
		return nil, errCorruptSpill
	}
	rec.places, b = b[k:k+int(places)], b[k+int(places):]
	if kind == recordComment {
		row, k := binary.Varint(b)
		if k <= 0 {
			return nil, errCorruptSpill
		}
		rec.row, b = int(row), b[k:]
		var texts [2][]byte
		for i := range texts {
			if texts[i], b, err = cutString(b); err != nil {
				return nil, err
			}
		}
		rec.rowText, rec.text = string(texts[0]), string(texts[1])
		return rec, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, errCorruptSpill
	}
	b = b[k:]
	// The row's values become one string, which they share, lengths
	// and all: one allocation a row.
	all := string(b)
	rec.values = rec.values[:0]
	at := 0
	for range n {
		size, k := binary.Uvarint(b[at:])
		if k <= 0 || uint64(len(b)-at-k) < size {
			return nil, errCorruptSpill
		}
		at += k
		rec.values = append(rec.values, all[at:at+int(size)])
		at += int(size)
	}
	return rec, nil
}

// errCorruptSpill is a record that does not read as records.put wrote it:
// the temporary file changed under the reader.
var errCorruptSpill = errors.New("wire: a section's spill does not read back as written")

// cutString cuts a length-prefixed string off b.
func cutString(b []byte) (s, rest []byte, err error) {
	size, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < size {
		return nil, nil, errCorruptSpill
	}
	return b[k : k+int(size)], b[k+int(size):], nil
}

func (s *records) reset() {
	s.spill.reset()
	s.r = nil
}

type byteReader interface {
	io.Reader
	io.ByteReader
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Unmarshal reads a whole wire view [WIRE-2] and returns the model it
// describes, as it is: the model is not checked against the GCX1 rules,
// which is an encoder's job [CAN-3]. Empty lists come back nil, as the
// decoders leave them, so a model read from a view compares equal to the
// decoded one.
func Unmarshal(view []byte) (*spec.Payload, error) {
	v := newViewReader(bytes.NewReader(view))
	v.keepAll = true
	m := &model{}
	if err := v.read(m); err != nil {
		return nil, err
	}
	return &m.p, nil
}

// model builds the payload a view describes.
type model struct{ p spec.Payload }

func (m *model) section(tool string, fields []string, meta []spec.Meta, _ *sectionPos, rows, comments *records) error {
	s := spec.Section{Tool: tool, Fields: fields, Meta: meta}
	for {
		r, err := rows.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		s.Rows = append(s.Rows, append([]string{}, r.values...))
	}
	for {
		r, err := comments.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		s.Comments = append(s.Comments, spec.Comment{Row: r.row, Text: r.text})
	}
	m.p.Sections = append(m.p.Sections, s)
	return nil
}

func (m *model) end(jsontext.Pos) error { return nil }

// Encode reads a wire view from r and writes the canonical GCX1 bytes of
// the payload it describes to w through a streaming.Encoder under the
// given limits [CAN-2] [LIM-4]; a model without a GCX1 spelling is refused as the
// Encoder refuses it [CAN-3], and comments out of place as
// streaming.Encode refuses them [CMT-3]. Every refusal gives the line,
// column and offset in the view of the JSON value at fault [WIRE-3]. A
// string that would make its line longer than the line limit by itself is
// refused as soon as that much of it has been read [LIM-4]. The model is
// judged only once the whole view is read: a view that is no wire view
// describes no model, so its own fault [WIRE-2] is the refusal wherever a
// fault of the model stands [WIRE-3]. Memory stays bounded by a line and
// 1 MiB of each section's rows and comments; the rest waits in a temporary
// file. On error w may hold the start of the payload, which the caller
// must discard [ERR-4].
func Encode(w io.Writer, r io.Reader, limits spec.Limits) error {
	enc := streaming.NewEncoder(w)
	enc.Limits = limits
	v := newViewReader(r)
	v.lineLimit = limits.MaxLineBytes
	return v.read(&viewFirst{encoding: &encoding{enc: enc, limits: limits}})
}

// viewFirst holds the Encoder's first refusal of the model [CAN-3] [LIM-4]
// until the view is read to its end, and hands nothing more on after it,
// so that a fault of the view met later is reported instead [WIRE-3]. The
// reader's own refusals, a string past the line limit among them, and
// failures to read or write pass at once.
type viewFirst struct {
	*encoding
	refused error
}

func (f *viewFirst) section(tool string, fields []string, meta []spec.Meta, at *sectionPos, rows, comments *records) error {
	if f.refused != nil {
		return nil
	}
	err := f.encoding.section(tool, fields, meta, at, rows, comments)
	if se := (*spec.Error)(nil); errors.As(err, &se) {
		f.refused = err
		return nil
	}
	return err
}

func (f *viewFirst) end(sections jsontext.Pos) error {
	if f.refused != nil {
		return f.refused
	}
	return f.encoding.end(sections)
}

// encoding hands a view's items to a streaming.Encoder, and places each
// refusal of the Encoder at the JSON value at fault.
type encoding struct {
	enc      *streaming.Encoder
	limits   spec.Limits
	sections int        // sections begun
	at       sectionPos // of the current section
	rowsAt   jsontext.Pos
	rows     int // rows written in the current section
	comments int // comments written in the current section
}

func (e *encoding) section(tool string, fields []string, meta []spec.Meta, at *sectionPos, rows, comments *records) error {
	if err := e.enc.WriteHeader(&streaming.Header{Tool: tool, Fields: fields, Meta: meta}); err != nil {
		return e.place(err, e.headerPart(err, tool, fields, meta, at))
	}
	e.sections++
	e.at, e.rows, e.comments = *at, 0, 0
	e.rowsAt = at.section
	for i, m := range meta {
		if m.Key == spec.KeyRows {
			e.rowsAt = at.values[i]
		}
	}
	return replay(e, e.sections-1, rows, comments)
}

func (e *encoding) row(r *record) error {
	if err := e.enc.WriteRow(r.values); err != nil {
		return e.place(err, e.rowPart(err, r))
	}
	e.rows++
	return nil
}

func (e *encoding) comment(r *record) error {
	if err := e.enc.WriteComment(r.text); err != nil {
		ps := r.positions()
		if len(ps) != 2 {
			return e.place(err, r.pos()) // cannot happen: as putComment wrote them
		}
		return e.place(err, ps[1]) // the comment's text
	}
	e.comments++
	return nil
}

func (e *encoding) end(sections jsontext.Pos) error {
	err := e.enc.Close()
	if e.sections == 0 {
		return e.place(err, sections) // no section [PAY-1]
	}
	return e.place(err, e.rowsAt) // the last section's rows= [META-4]
}

// place gives err, a refusal of the Encoder, the position p in the view;
// another error passes through.
func (e *encoding) place(err error, p jsontext.Pos) error {
	var se *spec.Error
	if !errors.As(err, &se) || se.Line > 0 {
		return err
	}
	return at(se, p)
}

// headerPart finds the part of a section header that the Encoder refused:
// it asks the rule the refusal names of each part in wire order.
func (e *encoding) headerPart(err error, tool string, fields []string, meta []spec.Meta, at *sectionPos) jsontext.Pos {
	var se *spec.Error
	if !errors.As(err, &se) {
		return at.section
	}
	switch se.Rule {
	case "META-4": // the section before ended short
		return e.rowsAt
	case "HDR-4":
		return at.fieldList
	case "LIM-4":
		l := e.limits
		switch {
		case l.SectionFault(e.sections) != nil:
			return at.section
		case l.FieldFault(len(fields)-1, 0) != nil:
			return at.fields[l.MaxFields]
		}
		// The line: the part at which it passes the limit.
		n := len(spec.Version+" tool=") + len(tool)
		if l.LineFault(n) != nil {
			return at.tool
		}
		n += len(" fields=") - 1
		for i, f := range fields {
			if n += 1 + spec.FieldEscapes.Len(f); l.LineFault(n) != nil {
				return at.fields[i]
			}
		}
		for i, m := range meta {
			if n += 2 + len(m.Key); l.LineFault(n) != nil {
				return at.keys[i]
			}
			if n += spec.MetaEscapes.Len(m.Value); l.LineFault(n) != nil {
				return at.values[i]
			}
		}
		return at.section
	}
	// A rule of the header's parts: the first part whose prefix of the
	// header breaks a rule. A prefix that breaks one stays broken as it
	// grows, so a binary search finds it in n log n.
	if se.Rule == "HDR-3" && !spec.IsName(tool) {
		return at.tool
	}
	if i := sort.Search(len(fields), func(i int) bool {
		return spec.CheckHeader(0, "t", fields[:i+1], nil) != nil
	}); i < len(fields) {
		return at.fields[i]
	}
	if len(fields) == 0 {
		return at.fieldList
	}
	i := sort.Search(len(meta), func(i int) bool {
		return spec.CheckHeader(0, "t", fields[:1], meta[:i+1]) != nil
	})
	if i == len(meta) {
		return at.section
	}
	if me, ok := spec.CheckHeader(0, "t", fields[:1], meta[:i+1]).(*spec.Error); ok && (me.Rule == "META-1" || me.Rule == "META-3") {
		return at.values[i]
	}
	return at.keys[i]
}

// rowPart finds the part of a row that the Encoder refused.
func (e *encoding) rowPart(err error, r *record) jsontext.Pos {
	ps := r.positions() // the row's '[', then its values
	if len(ps) != 1+len(r.values) {
		return r.pos() // cannot happen: the places are as putRow wrote them
	}
	cells := ps[1:]
	var se *spec.Error
	if !errors.As(err, &se) {
		return ps[0]
	}
	switch se.Rule {
	case "ROW-2":
		if w := len(e.at.fields); len(r.values) > w {
			return cells[w] // the first value beyond the fields
		}
	case "META-4":
		return e.rowsAt
	}
	// A row's LIM-4 is the row limit, at the row's '[': a row line past
	// the limit was refused while the view was read (the rows case of
	// read counts its bytes as the Encoder does), so it never reaches the
	// Encoder.
	return ps[0]
}
