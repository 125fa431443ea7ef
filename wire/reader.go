package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
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

// target receives a view's payload section by section.
type target interface {
	section(tool string, fields []string, meta []spec.Meta, rows, comments *records) error
	end() error
}

// itemTarget receives a payload item by item, in payload order, as
// streaming.Encoder takes it.
type itemTarget interface {
	header(tool string, fields []string, meta []spec.Meta) error
	row(values []string) error
	comment(text string) error
}

// viewReader reads a wire view token by token.
type viewReader struct {
	jr      *jsontext.Reader
	keepAll bool // hold every section in memory: the caller keeps the model anyway
	section int  // 1-based number of the section being read
}

func newViewReader(r io.Reader) *viewReader {
	jr := jsontext.NewReader(r)
	jr.RejectDuplicateNames = true
	return &viewReader{jr: jr}
}

// fail returns a WIRE-2 error at p.
func (v *viewReader) fail(p jsontext.Pos, msg string) *spec.Error {
	if v.section > 0 {
		msg = fmt.Sprintf("section %d: %s", v.section, msg)
	}
	return &spec.Error{Class: spec.ErrModel, Line: p.Line, Column: p.Column, Offset: p.Offset,
		Production: "wire-view", Rule: "WIRE-2", Msg: "wire view: " + msg}
}

// jsonErr turns an error of the JSON reader into a WIRE-2 error at its
// place; a reader's own failure passes through.
func (v *viewReader) jsonErr(err error) error {
	var je *jsontext.Error
	if errors.As(err, &je) {
		return v.fail(jsontext.Pos{Offset: je.Offset, Line: je.Line, Column: je.Column}, je.Msg)
	}
	return err
}

// expect reads a token of kind k; what stood there instead is named in the
// error with what was wanted.
func (v *viewReader) expect(k jsontext.Kind, what string) (jsontext.Token, error) {
	tok, err := v.jr.NextToken()
	if err == io.EOF {
		return tok, v.fail(v.endPos(), "expected "+what+", found end of input")
	}
	if err != nil {
		return tok, v.jsonErr(err)
	}
	if tok.Kind != k {
		return tok, v.fail(tok.Pos, "expected "+what+", found "+found(tok.Kind))
	}
	return tok, nil
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
		name, more, err := v.jr.ExpectObjectName()
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
func (v *viewReader) elements(what string, k jsontext.Kind, elem string, each func(tok jsontext.Token) error) error {
	if _, err := v.expect(jsontext.ArrayStart, "'[' beginning "+what); err != nil {
		return err
	}
	return v.rest(what, k, elem, each)
}

// rest is elements for an array whose '[' has been read.
func (v *viewReader) rest(what string, k jsontext.Kind, elem string, each func(tok jsontext.Token) error) error {
	for {
		tok, err := v.jr.NextToken()
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
	if _, err := v.expect(jsontext.ObjectStart, `'{' beginning the view {"sections":[...]}`); err != nil {
		return err
	}
	seen := false
	err := v.members(func(name string) error {
		if name != "sections" {
			return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a view has only "sections"`, jsontext.QuotePrefix(name)))
		}
		seen = true
		return v.elements(`"sections"`, jsontext.ObjectStart, "a section", func(tok jsontext.Token) error {
			v.section++
			return v.readSection(t, tok.Pos)
		})
	})
	if err != nil {
		return err
	}
	if !seen {
		return v.fail(v.jr.Pos(), `missing key "sections"`)
	}
	if err := v.jr.End(); err != nil {
		return v.jsonErr(err)
	}
	return t.end()
}

// readSection reads the rest of one section object, which began at start,
// and hands it to t.
func (v *viewReader) readSection(t target, start jsontext.Pos) error {
	var (
		tool           *string
		fields         []string
		meta           []spec.Meta
		rows, comments records
	)
	defer rows.reset()
	defer comments.reset()
	rows.keepInMemory, comments.keepInMemory = v.keepAll, v.keepAll
	err := v.members(func(name string) error {
		switch name {
		case "tool":
			s, err := v.expect(jsontext.String, `a string for "tool"`)
			tool = &s.Text
			return err
		case "fields":
			fields = []string{}
			return v.elements(`"fields"`, jsontext.String, "a string", func(tok jsontext.Token) error {
				fields = append(fields, tok.Text)
				return nil
			})
		case "meta":
			return v.elements(`"meta"`, jsontext.ArrayStart, "a [key, value] pair of strings", func(jsontext.Token) error {
				key, value, err := v.pair(jsontext.String, "the key of a meta pair, a string", "the value of a meta pair, a string")
				meta = append(meta, spec.Meta{Key: key.Text, Value: value.Text})
				return err
			})
		case "rows":
			var values []string
			return v.elements(`"rows"`, jsontext.ArrayStart, "a row, an array of strings,", func(jsontext.Token) error {
				values = values[:0]
				err := v.rest("a row", jsontext.String, "a string", func(tok jsontext.Token) error {
					values = append(values, tok.Text)
					return nil
				})
				if err != nil {
					return err
				}
				return rows.putRow(values)
			})
		case "comments":
			return v.elements(`"comments"`, jsontext.ArrayStart, "a [row, text] pair", func(jsontext.Token) error {
				num, text, err := v.pair(jsontext.Number, "the row of a comment, an integer", "the text of a comment, a string")
				if err != nil {
					return err
				}
				row, ok := commentRow(num.Text)
				if !ok {
					return v.fail(num.Pos, fmt.Sprintf("comment row %s is not an integer written without fraction or exponent", jsontext.QuotePrefix(num.Text)))
				}
				return comments.putComment(row, num.Text, text.Text)
			})
		}
		return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a section has "tool", "fields", "meta", "rows" and "comments"`, jsontext.QuotePrefix(name)))
	})
	if err != nil {
		return err
	}
	if tool == nil || fields == nil {
		return v.fail(start, `"tool" and "fields" are required`)
	}
	return t.section(*tool, fields, meta, &rows, &comments)
}

// pair reads the rest of a two-element array whose '[' has been read: a
// token of kind first, a string, and ']'.
func (v *viewReader) pair(first jsontext.Kind, firstWhat, secondWhat string) (a, b jsontext.Token, err error) {
	if a, err = v.expect(first, firstWhat); err != nil {
		return
	}
	if b, err = v.expect(jsontext.String, secondWhat); err != nil {
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
func replay(t itemTarget, rows, comments *records) error {
	placed, prev := 0, 0 // comments handed on; the row of the last one
	pending, err := comments.next()
	// place hands on every pending comment that stands before row n.
	place := func(n int, last bool) error {
		for err == nil && (pending.row <= n || last) {
			if pending.row < prev || pending.row > n {
				return placeErr(placed, pending, prev, n)
			}
			if err := t.comment(pending.text); err != nil {
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
		if err := t.row(r.values); err != nil {
			return err
		}
		n++
	}
	return place(n, true)
}

// placeErr refuses comment c (0-based) of a section, placed at r.row.
func placeErr(c int, r *record, prev, rows int) error {
	return &spec.Error{Class: spec.ErrModel, Rule: "CMT-3", Msg: fmt.Sprintf(
		"comment %d is placed before row %s, outside %d..%d or before the comment ahead of it", c+1, spec.QuoteShort(r.rowText), prev, rows)}
}

// record is one row or comment of a spill.
type record struct {
	values  []string // a row's values
	row     int      // a comment's row
	rowText string   // and as written
	text    string   // a comment's text
}

// records holds a section's rows and comments in a spill, in order. A
// record is a kind byte, then varints and length-prefixed strings.
type records struct {
	spill
	r       byteReader // set once reading has begun
	scratch []byte
	rec     record
	rowBuf  []byte // the bytes of the row being read
	ends    []int  // where each of its values ends in rowBuf
}

const (
	recordRow     = 'r'
	recordComment = 'c'
)

func (s *records) putRow(values []string) error {
	b := append(s.scratch[:0], recordRow)
	b = binary.AppendUvarint(b, uint64(len(values)))
	for _, v := range values {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	s.scratch = b
	return s.write(b)
}

func (s *records) putComment(row int, rowText, text string) error {
	b := append(s.scratch[:0], recordComment)
	b = binary.AppendVarint(b, int64(row))
	for _, t := range []string{rowText, text} {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	s.scratch = b
	return s.write(b)
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
	rec := &s.rec
	if kind == recordComment {
		row, err := binary.ReadVarint(s.r)
		if err != nil {
			return nil, unexpected(err)
		}
		rec.row = int(row)
		if rec.rowText, err = readString(s.r); err != nil {
			return nil, err
		}
		rec.text, err = readString(s.r)
		return rec, err
	}
	n, err := binary.ReadUvarint(s.r)
	if err != nil {
		return nil, unexpected(err)
	}
	// The row's values are read into one buffer and become one string,
	// which they share: one allocation a row.
	buf, ends := s.rowBuf[:0], s.ends[:0]
	for range n {
		size, err := binary.ReadUvarint(s.r)
		if err != nil {
			return nil, unexpected(err)
		}
		from := len(buf)
		buf = append(buf, make([]byte, size)...)
		if _, err := io.ReadFull(s.r, buf[from:]); err != nil {
			return nil, unexpected(err)
		}
		ends = append(ends, len(buf))
	}
	s.rowBuf, s.ends = buf, ends
	all := string(buf)
	rec.values = rec.values[:0]
	from := 0
	for _, to := range ends {
		rec.values = append(rec.values, all[from:to])
		from = to
	}
	return rec, nil
}

func (s *records) reset() {
	s.spill.reset()
	s.r = nil
}

type byteReader interface {
	io.Reader
	io.ByteReader
}

func readString(r byteReader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return "", unexpected(err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", unexpected(err)
	}
	return string(b), nil
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

func (m *model) section(tool string, fields []string, meta []spec.Meta, rows, comments *records) error {
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

func (m *model) end() error { return nil }

// Encode reads a wire view from r and writes the canonical GCX1 bytes of
// the payload it describes to w through a streaming.Encoder under the
// given limits [CAN-2] [LIM-4]; a model without a GCX1 spelling is refused as the
// Encoder refuses it [CAN-3], and comments out of place as
// streaming.Encode refuses them [CMT-3]. Memory stays bounded by a
// string of the view and 1 MiB of each section's rows and comments; the
// rest waits in a temporary file. On error w may hold the start of the
// payload, which the caller must discard [ERR-4].
func Encode(w io.Writer, r io.Reader, limits spec.Limits) error {
	enc := streaming.NewEncoder(w)
	enc.Limits = limits
	return newViewReader(r).read(&encoding{enc: enc})
}

// encoding hands a view's items to a streaming.Encoder.
type encoding struct {
	enc *streaming.Encoder
}

func (e *encoding) section(tool string, fields []string, meta []spec.Meta, rows, comments *records) error {
	if err := e.header(tool, fields, meta); err != nil {
		return err
	}
	return replay(e, rows, comments)
}

func (e *encoding) header(tool string, fields []string, meta []spec.Meta) error {
	return e.enc.WriteHeader(&streaming.Header{Tool: tool, Fields: fields, Meta: meta})
}

func (e *encoding) row(values []string) error { return e.enc.WriteRow(values) }

func (e *encoding) comment(text string) error { return e.enc.WriteComment(text) }

func (e *encoding) end() error { return e.enc.Close() }
