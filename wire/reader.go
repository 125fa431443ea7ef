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
		found := tok.Kind.String()
		if tok.Kind == jsontext.Null {
			found = "null, which a wire view never holds"
		}
		return tok, v.fail(tok.Pos, "expected "+what+", found "+found)
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

// read reads a whole view and hands its payload to t, section by section.
func (v *viewReader) read(t target) error {
	if _, err := v.expect(jsontext.ObjectStart, `'{' beginning the view {"sections":[...]}`); err != nil {
		return err
	}
	seen := false
	for {
		name, more, err := v.jr.ExpectObjectName()
		if err != nil {
			return v.jsonErr(err)
		}
		if !more {
			break
		}
		if name != "sections" {
			return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a view has only "sections"`, jsontext.QuotePrefix(name)))
		}
		seen = true
		if _, err := v.expect(jsontext.ArrayStart, `'[' beginning the list of sections`); err != nil {
			return err
		}
		for {
			k, err := v.jr.Peek()
			if err != nil {
				return v.jsonErr(err)
			}
			if k == jsontext.ArrayEnd {
				v.jr.NextToken()
				break
			}
			v.section++
			if err := v.readSection(t); err != nil {
				return err
			}
		}
	}
	if !seen {
		return v.fail(v.jr.Pos(), `missing key "sections"`)
	}
	if err := v.jr.End(); err != nil {
		return v.jsonErr(err)
	}
	return t.end()
}

// readSection reads one section object and hands it to t.
func (v *viewReader) readSection(t target) error {
	start, err := v.expect(jsontext.ObjectStart, "'{' beginning a section")
	if err != nil {
		return err
	}
	var (
		tool           *string
		fields         []string
		haveFields     bool
		meta           []spec.Meta
		rows, comments records
	)
	defer rows.reset()
	defer comments.reset()
	rows.keepInMemory, comments.keepInMemory = v.keepAll, v.keepAll
	for {
		name, more, err := v.jr.ExpectObjectName()
		if err != nil {
			return v.jsonErr(err)
		}
		if !more {
			break
		}
		switch name {
		case "tool":
			s, err := v.expect(jsontext.String, `a string for "tool"`)
			if err != nil {
				return err
			}
			tool = &s.Text
		case "fields":
			if fields, err = v.strings(`"fields"`); err != nil {
				return err
			}
			haveFields = true
		case "meta":
			if meta, err = v.meta(); err != nil {
				return err
			}
		case "rows":
			if err := v.rows(&rows); err != nil {
				return err
			}
		case "comments":
			if err := v.comments(&comments); err != nil {
				return err
			}
		default:
			return v.fail(v.jr.Pos(), fmt.Sprintf(`unknown key %s; a section has "tool", "fields", "meta", "rows" and "comments"`, jsontext.QuotePrefix(name)))
		}
	}
	if tool == nil || !haveFields {
		return v.fail(start.Pos, `"tool" and "fields" are required`)
	}
	return t.section(*tool, fields, meta, &rows, &comments)
}

// strings reads an array of strings.
func (v *viewReader) strings(what string) ([]string, error) {
	if _, err := v.expect(jsontext.ArrayStart, "'[' beginning "+what); err != nil {
		return nil, err
	}
	list := []string{}
	for {
		tok, err := v.jr.NextToken()
		if err != nil {
			return nil, v.eofOr(err, "a string or ']' in "+what)
		}
		switch tok.Kind {
		case jsontext.ArrayEnd:
			return list, nil
		case jsontext.String:
			list = append(list, tok.Text)
		default:
			return nil, v.fail(tok.Pos, "expected a string or ']' in "+what+", found "+tok.Kind.String())
		}
	}
}

func (v *viewReader) eofOr(err error, expected string) error {
	if err == io.EOF {
		return v.fail(v.endPos(), "expected "+expected+", found end of input")
	}
	return v.jsonErr(err)
}

// meta reads the list of [key, value] pairs.
func (v *viewReader) meta() ([]spec.Meta, error) {
	if _, err := v.expect(jsontext.ArrayStart, `'[' beginning "meta"`); err != nil {
		return nil, err
	}
	var meta []spec.Meta
	for {
		tok, err := v.jr.NextToken()
		if err != nil {
			return nil, v.eofOr(err, `a [key, value] pair or ']' in "meta"`)
		}
		if tok.Kind == jsontext.ArrayEnd {
			return meta, nil
		}
		if tok.Kind != jsontext.ArrayStart {
			return nil, v.fail(tok.Pos, `expected a [key, value] pair of strings in "meta", found `+tok.Kind.String())
		}
		key, err := v.expect(jsontext.String, "the key of a meta pair, a string")
		if err != nil {
			return nil, err
		}
		value, err := v.expect(jsontext.String, "the value of a meta pair, a string")
		if err != nil {
			return nil, err
		}
		if _, err := v.expect(jsontext.ArrayEnd, "']' closing a [key, value] pair"); err != nil {
			return nil, err
		}
		meta = append(meta, spec.Meta{Key: key.Text, Value: value.Text})
	}
}

// rows reads the list of rows into items.
func (v *viewReader) rows(items *records) error {
	if _, err := v.expect(jsontext.ArrayStart, `'[' beginning "rows"`); err != nil {
		return err
	}
	var values []string
	for {
		tok, err := v.jr.NextToken()
		if err != nil {
			return v.eofOr(err, `a row or ']' in "rows"`)
		}
		if tok.Kind == jsontext.ArrayEnd {
			return nil
		}
		if tok.Kind != jsontext.ArrayStart {
			return v.fail(tok.Pos, `expected a row, an array of strings, found `+tok.Kind.String())
		}
		values = values[:0]
		for {
			tok, err := v.jr.NextToken()
			if err != nil {
				return v.eofOr(err, "a string or ']' in a row")
			}
			if tok.Kind == jsontext.ArrayEnd {
				break
			}
			if tok.Kind != jsontext.String {
				return v.fail(tok.Pos, "expected a string or ']' in a row, found "+tok.Kind.String())
			}
			values = append(values, tok.Text)
		}
		if err := items.putRow(values); err != nil {
			return err
		}
	}
}

// comments reads the list of [row, text] pairs into items.
func (v *viewReader) comments(items *records) error {
	if _, err := v.expect(jsontext.ArrayStart, `'[' beginning "comments"`); err != nil {
		return err
	}
	for {
		tok, err := v.jr.NextToken()
		if err != nil {
			return v.eofOr(err, `a [row, text] pair or ']' in "comments"`)
		}
		if tok.Kind == jsontext.ArrayEnd {
			return nil
		}
		if tok.Kind != jsontext.ArrayStart {
			return v.fail(tok.Pos, `expected a [row, text] pair in "comments", found `+tok.Kind.String())
		}
		num, err := v.expect(jsontext.Number, "the row of a comment, an integer")
		if err != nil {
			return err
		}
		row, ok := commentRow(num.Text)
		if !ok {
			return v.fail(num.Pos, fmt.Sprintf("comment row %s is not an integer written without fraction or exponent", jsontext.QuotePrefix(num.Text)))
		}
		text, err := v.expect(jsontext.String, "the text of a comment, a string")
		if err != nil {
			return err
		}
		if _, err := v.expect(jsontext.ArrayEnd, "']' closing a [row, text] pair"); err != nil {
			return err
		}
		if err := items.putComment(row, num.Text, text.Text); err != nil {
			return err
		}
	}
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
