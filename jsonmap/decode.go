package jsonmap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// Format names what an encoder wrote: a GCX1 payload or a JSON text
// [AUTO-1].
type Format string

// The two formats of a tool result.
const (
	FormatGCX  Format = "gcx"
	FormatJSON Format = "json"
)

// Decode returns the compact form [MAP-3] of the JSON value a GCX1 payload
// holds [MAP-7], read under spec.DefaultLimits. Errors are *spec.Error
// values: the payload's own GCX1 errors as streaming.Decoder reports them,
// and mapping errors of class spec.ErrConstraint (spec.ErrLimit for a cell
// nested too deep) pointing at the header, meta value or cell at fault
// [MAP-14].
func Decode(payload []byte) ([]byte, error) {
	return decodeBytes(payload, spec.DefaultLimits)
}

func decodeBytes(payload []byte, limits spec.Limits) ([]byte, error) {
	return decodeFrom(streaming.NewDecoder(bytes.NewReader(payload)), len(payload), limits)
}

// DecodeString is Decode of a payload held as a string, as a tool call's
// text block is: the decoder reads it in place
// (streaming.NewDecoderString) rather than a copy of it.
func DecodeString(payload string) ([]byte, error) {
	return decodeFrom(streaming.NewDecoderString(payload), len(payload), spec.DefaultLimits)
}

// DecodeValueString is DecodeString returning the value itself.
func DecodeValueString(payload string) (Value, error) {
	out, err := DecodeString(payload)
	if err != nil {
		return Value{}, err
	}
	return parse(bytesString(out))
}

// decodeFrom decodes a payload of size bytes with sd into a new buffer.
func decodeFrom(sd *streaming.Decoder, size int, limits spec.Limits) ([]byte, error) {
	out := &jsonOut{buf: make([]byte, 0, size+size/2+16)}
	if err := decode(out, sd, limits); err != nil {
		return nil, err
	}
	return out.buf, nil
}

// DecodeTo reads a GCX1 payload from r under the given limits and writes
// the compact form [MAP-3] of the JSON value it holds to w as it reads:
// each row of a table becomes an array element as soon as it is read, so
// memory stays bounded by a line [MAP-20]. Its errors are Decode's.
//
// On error, w may hold the beginning of the value, but never a whole JSON
// text: the last byte of the value is held back until the payload has
// ended cleanly, and a value that is a single cell (json=value) is written
// only then [MAP-21]. An error from r or w is returned as it is.
func DecodeTo(w io.Writer, r io.Reader, limits spec.Limits) error {
	return decode(&jsonOut{w: w}, streaming.NewDecoder(r), limits)
}

// DecodeValue is Decode returning the value itself.
func DecodeValue(payload []byte) (Value, error) {
	out, err := Decode(payload)
	if err != nil {
		return Value{}, err
	}
	return parse(bytesString(out))
}

// DecodePayload returns the JSON value a decoded payload holds. Positions
// in its errors are those of the payload's canonical bytes, which are the
// bytes it was decoded from [CAN-1]; a payload with no GCX1 spelling is
// refused with the rule streaming.Encode names [CAN-3], as a constraint
// error, since the payload was read rather than given to be written.
func DecodePayload(p *spec.Payload) (Value, error) {
	var b bytes.Buffer
	if err := streaming.EncodeLimits(&b, p, spec.Unlimited); err != nil {
		// p was read, not given to be written: a GCX1 rule it breaks is a
		// fault of the payload it came from (a row a draft's decoder
		// dropped leaves rows= wrong), reported as the constraint it is.
		var e *spec.Error
		if errors.As(err, &e) && errors.Is(err, spec.ErrModel) {
			read := *e
			read.Class = spec.ErrConstraint
			read.Msg = "the payload read breaks a GCX1 rule: " + e.Msg
			return Value{}, &read
		}
		return Value{}, err
	}
	out, err := decodeBytes(b.Bytes(), spec.Unlimited)
	if err != nil {
		return Value{}, err
	}
	return parse(bytesString(out))
}

// DecodeResponse returns the compact JSON value of a tool result that is
// either a GCX1 payload or a JSON text, as an auto-mode encoder writes it,
// and says which it was [AUTO-3]. A result that begins with "GCX" is read
// as GCX1 (and a GCX2 result is an unsupported-version error); one that
// begins with a byte-order mark and "GCX" is GCX1 written wrong, and
// refused as GCX1 refuses it [ENC-2]; any other is read as JSON.
func DecodeResponse(result []byte) ([]byte, Format, error) {
	if isGCX(result) {
		out, err := Decode(result)
		return out, FormatGCX, err
	}
	out, err := Compact(result)
	if err != nil {
		return nil, FormatJSON, readAsJSON(err)
	}
	return out, FormatJSON, nil
}

// DecodeResponseTo is DecodeResponse from r to w: a GCX1 result is decoded
// as DecodeTo decodes it, under the given limits; a JSON text is written
// in compact form a token at a time, under the same convention on error
// [MAP-21].
func DecodeResponseTo(w io.Writer, r io.Reader, limits spec.Limits) (Format, error) {
	br := bufio.NewReader(r)
	start, _ := br.Peek(len(bomGCX))
	if isGCX(start) {
		return FormatGCX, DecodeTo(w, br, limits)
	}
	if err := compactTo(&jsonOut{w: w}, br); err != nil {
		return FormatJSON, readAsJSON(err)
	}
	return FormatJSON, nil
}

var bomGCX = []byte("\uFEFF" + spec.TagPrefix)

// isGCX reports whether a result is to be read as GCX1 [AUTO-3]: it begins
// with GCX, or with a byte-order mark and GCX, which GCX1 refuses [ENC-2].
func isGCX(b []byte) bool {
	return bytes.HasPrefix(b, []byte(spec.TagPrefix)) || bytes.HasPrefix(b, bomGCX)
}

// readAsJSON says, in the error of a result read as JSON, why it was.
func readAsJSON(err error) error {
	var e *spec.Error
	if errors.As(err, &e) {
		e.Msg = "the input does not begin with GCX, so it was read as JSON: " + e.Msg
	}
	return err
}

// appendCompactToken appends tok to b as the compact form writes it
// [MAP-3]: the separator it needs after a token of kind prev (0 for none),
// then its text.
func appendCompactToken(b []byte, prev jsontext.Kind, tok jsontext.Token) []byte {
	if prev != 0 && prev != jsontext.ObjectStart && prev != jsontext.ArrayStart && tok.Kind != jsontext.ObjectEnd && tok.Kind != jsontext.ArrayEnd {
		if prev == jsontext.Name {
			b = append(b, ':')
		} else {
			b = append(b, ',')
		}
	}
	switch tok.Kind {
	case jsontext.ObjectStart:
		b = append(b, '{')
	case jsontext.ObjectEnd:
		b = append(b, '}')
	case jsontext.ArrayStart:
		b = append(b, '[')
	case jsontext.ArrayEnd:
		b = append(b, ']')
	case jsontext.Name, jsontext.String:
		b = jsontext.AppendString(b, tok.Text)
	case jsontext.Number:
		b = append(b, tok.Text...)
	case jsontext.True:
		b = append(b, "true"...)
	case jsontext.False:
		b = append(b, "false"...)
	case jsontext.Null:
		b = append(b, "null"...)
	}
	return b
}

// compactTo writes the compact form of the JSON text r holds to out, a
// token at a time, refusing what Parse refuses [MAP-1].
func compactTo(out *jsonOut, r io.Reader) error {
	jr := jsontext.NewReader(r)
	jr.MaxDepth = MaxDepth
	jr.RejectDuplicateNames = true
	prev := jsontext.Kind(0)
	for {
		tok, err := jr.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jsonError(err)
		}
		b := appendCompactToken(out.buf, prev, tok)
		out.buf = b
		prev = tok.Kind
		// A text that is a single scalar is written whole or not at all.
		if jr.Depth() > 0 || tok.Kind == jsontext.ObjectEnd || tok.Kind == jsontext.ArrayEnd {
			if err := out.flushSome(); err != nil {
				return err
			}
		}
	}
	return out.finish()
}

// jsonOut buffers the JSON a decoder writes. It hands the bytes to w in
// large pieces, always keeping the last byte back, so that nothing w
// receives before finish is a whole JSON text [MAP-21]; without w it keeps
// everything.
type jsonOut struct {
	w   io.Writer
	buf []byte
}

// flushAt is the size at which the buffer is handed to w.
const flushAt = 64 << 10

func (o *jsonOut) flushSome() error {
	if o.w == nil || len(o.buf) < flushAt {
		return nil
	}
	n := len(o.buf) - 1
	if _, err := o.w.Write(o.buf[:n]); err != nil {
		return err
	}
	o.buf[0] = o.buf[n]
	o.buf = o.buf[:1]
	return nil
}

// finish writes the rest, the last byte with it.
func (o *jsonOut) finish() error {
	if o.w == nil || len(o.buf) == 0 {
		return nil
	}
	_, err := o.w.Write(o.buf)
	o.buf = o.buf[:0]
	return err
}

// decode reads a payload with sd, a new streaming.Decoder, and writes its
// value to out as it goes.
//
// Mapping errors are reported in the order of [MAP-14], after any GCX1
// error: once one is found the decoder stops writing, but reads on to the
// end, because a GCX1 error anywhere comes first, and keeps counting rows
// and sections for the checks that only the end of a section or of the
// payload decides — a json=value section's single row, the sections a
// root announces. Each error carries the place the procedure of [MAP-14]
// would check it (its key), and the first by that order is reported.
func decode(out *jsonOut, sd *streaming.Decoder, limits spec.Limits) error {
	sd.Limits = limits
	sd.ReuseRecord = true
	d := &decoder{sd: sd, out: out, section: -1}
	for {
		kind, err := sd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch kind {
		case streaming.KindHeader:
			if d.section >= 0 {
				d.endSection()
			}
			d.section++
			d.rows = 0
			d.oneRow = nil
			if !d.failed {
				d.header(sd.Header())
			}
		case streaming.KindRow:
			d.rows++
			if !d.failed {
				d.row(sd.Row())
			}
		}
		if !d.failed {
			if err := out.flushSome(); err != nil {
				return err
			}
		}
	}
	d.endSection()
	for _, n := range d.needs {
		if d.section+1 < n.sections {
			d.fail(n.key, n.err)
		}
	}
	if d.pending != nil {
		return d.pending
	}
	out.buf = append(out.buf, d.tail...)
	return out.finish()
}

// decoder holds what decode knows about the value being read.
type decoder struct {
	sd  *streaming.Decoder
	out *jsonOut

	section int // index of the current section
	rows    int // rows read in it

	// How the current section's rows are read.
	mode  readMode
	cols  []tableColumn // modeTable
	part  *Part         // modeLayout
	keys  [][]byte      // modeLayout: each field's member name, quoted, with ':'
	first bool          // no row of the section written yet

	// The sections the value still needs, in order, and the JSON that
	// goes before each; tail is the JSON after the last.
	expect []expected
	tail   []byte

	oneRow  *rowCheck     // the current section must have exactly one row
	needs   []needSection // the payload must have this many sections
	failed  bool          // stop reading the value; only count
	pending *spec.Error   // the first mapping error by [MAP-14]'s order
	pendKey errKey
}

type readMode uint8

const (
	modeTable     readMode = iota // each row an object [MAP-8]
	modeList                      // each row an element [MAP-9]
	modeValue                     // the one row's cell is the value [MAP-9]
	modeRowObject                 // the one row holds the members [MAP-10]
	modeNoRows                    // a header-form root without a table [MAP-10]
	modeLayout                    // each row an object of a layout part [LAY-3]
)

// expected is a section the value still needs: a member's table [MAP-11]
// or a layout part [LAY-4].
type expected struct {
	before []byte // the JSON written when the section begins
	tool   string // the name it must have
	key    string // the member whose table it holds; "" for a layout part
	layout *Layout
	part   int
}

// errKey orders mapping errors as [MAP-14] checks them: in the order a
// single front-to-back reading decides them — section by section, line by
// line and column by column, with the checks that wait for a section's end
// after its last row, and those that wait for the payload's end after
// everything. The position an error reports is another matter: a check
// decided at a section's end still points at its header.
type errKey struct{ section, line, col int }

// payloadEndKey orders the checks decided when the payload ends: the
// sections that "@" members and layouts announce [MAP-11] [LAY-4].
var payloadEndKey = errKey{math.MaxInt, 0, 0}

// sectionEndKey orders the checks decided when the current section ends:
// its number of rows [MAP-9] [MAP-10] [LAY-2].
func (d *decoder) sectionEndKey() errKey { return errKey{d.section, math.MaxInt, 0} }

func (a errKey) less(b errKey) bool {
	if a.section != b.section {
		return a.section < b.section
	}
	if a.line != b.line {
		return a.line < b.line
	}
	return a.col < b.col
}

// rowCheck is a section's need of exactly one row, decided at its end.
type rowCheck struct {
	want int // the rows the section must hold
	key  errKey
	err  func(rows int) *spec.Error
}

// needSection is the payload's need of a number of sections, decided at
// its end.
type needSection struct {
	sections int
	key      errKey
	err      *spec.Error
}

// fail records a mapping error found at key and stops the value.
func (d *decoder) fail(key errKey, err *spec.Error) {
	d.failed = true
	if d.pending == nil || key.less(d.pendKey) {
		d.pending, d.pendKey = err, key
	}
}

// Positions [ERR-2]. The streaming decoder knows them: the header's
// columns as it read them, and a row's value columns from the row's
// bytes, which it looks at only when asked.

func (d *decoder) errAt(line int, lineOffset int64, col int, rule, msg string) *spec.Error {
	return &spec.Error{Class: spec.ErrConstraint, Line: line, Column: col, Offset: lineOffset + int64(col-1),
		Production: "json-mapping", Rule: rule, Msg: msg}
}

// headerKey is where a check of the current header stands in [MAP-14]'s
// order.
func (d *decoder) headerKey(col int) errKey { return errKey{d.section, d.sd.Line(), col} }

func (d *decoder) failHeader(col int, rule, msg string) {
	d.fail(d.headerKey(col), d.errAt(d.sd.Line(), d.sd.LineOffset(), col, rule, msg))
}

func (d *decoder) failMeta(i int, rule, msg string) {
	d.failHeader(d.sd.MetaColumn(i), rule, msg)
}

// cellKey and cellErr place an error at value c of the current row.
func (d *decoder) cellKey(c int) errKey { return errKey{d.section, d.sd.Line(), d.sd.ValueColumn(c)} }

func (d *decoder) cellErr(c int, rule, msg string) *spec.Error {
	return d.errAt(d.sd.Line(), d.sd.LineOffset(), d.sd.ValueColumn(c), rule, msg)
}

func (d *decoder) failCell(c int, rule, msg string) {
	d.fail(d.cellKey(c), d.cellErr(c, rule, msg))
}

// failDepth places the limit error of a text nested too deep [MAP-4].
func (d *decoder) failDepth(key errKey, at *spec.Error, err error) {
	at.Class, at.Rule = spec.ErrLimit, "MAP-4"
	var e *jsontext.Error
	if errors.As(err, &e) {
		at.Msg = e.Msg
	}
	d.fail(key, at)
}

// header reads a section's header: the root's decides the form of the
// value [MAP-7]; each later one must be a section the value needs.
func (d *decoder) header(h *streaming.Header) {
	if d.section == 0 {
		d.root(h)
		return
	}
	if len(d.expect) == 0 {
		d.failHeader(1, "MAP-7", fmt.Sprintf("section %d (tool=%s) is not part of the value the first section begins; a payload holds one JSON value", d.section+1, quotePrefixText(h.Tool)))
		return
	}
	x := d.expect[0]
	d.expect = d.expect[1:]
	if x.layout != nil {
		p := &x.layout.Parts[x.part]
		if h.Tool != p.Tool {
			d.failHeader(1, "LAY-4", fmt.Sprintf("the layout of %s needs section %d to be tool=%s, not tool=%s", x.layout.Tool, x.part+1, p.Tool, quotePrefixText(h.Tool)))
			return
		}
		d.out.buf = append(d.out.buf, x.before...)
		d.startPart(x.layout, x.part)
		return
	}
	if h.Tool != x.tool {
		d.failHeader(1, "MAP-11", fmt.Sprintf("section %d holds member %s and must be named tool=%s, not tool=%s", d.section+1, quote(x.key), quotePrefixText(x.tool), quotePrefixText(h.Tool)))
		return
	}
	// Only the root's json= decides how the rest is read; here it is a
	// pair like nest= and str=, checked in the header's order [MAP-14].
	cols, bad, err := d.columns(h)
	if i := metaIndex(h, KeyJSON); i >= 0 && (err == nil || i < bad) {
		d.failMeta(i, "MAP-11", "a section that holds a member's table carries no json= pair")
		return
	}
	if err != nil {
		d.failMeta(bad, pairRule(h.Meta[bad].Key), err.Error())
		return
	}
	d.out.buf = append(d.out.buf, x.before...)
	d.mode, d.cols, d.first = modeTable, cols, true
}

func metaIndex(h *streaming.Header, key string) int {
	return slices.IndexFunc(h.Meta, func(m spec.Meta) bool { return m.Key == key })
}

// root reads the first header [MAP-7].
func (d *decoder) root(h *streaming.Header) {
	form := metaIndex(h, KeyJSON)
	if form < 0 {
		if at, ok := partIndex[h.Tool]; ok {
			d.layout(&registry[at[0]], at[1])
			return
		}
		if l, ok := layoutOf(h.Tool); ok {
			d.failHeader(1, "LAY-4", fmt.Sprintf("tool=%s is declared, and its payload begins with tool=%s; a section with another shape must carry json=", h.Tool, l.Parts[0].Tool))
			return
		}
		d.startTable(h)
		return
	}
	switch h.Meta[form].Value {
	case FormRows:
		d.startTable(h)
	case FormObject:
		d.headerObject(h)
	case FormRow:
		d.mode = modeRowObject
		d.oneRow = &rowCheck{1, d.sectionEndKey(), d.rowsErr(1, "MAP-10", fmt.Sprintf("json=%s holds one object as one row", FormRow))}
	case FormArray:
		if len(h.Fields) != 1 {
			d.failHeader(d.sd.FieldsColumn(), "MAP-9", fmt.Sprintf("json=%s needs exactly one field, and the section declares %d", FormArray, len(h.Fields)))
			return
		}
		d.mode, d.first = modeList, true
		d.out.buf = append(d.out.buf, '[')
		d.tail = []byte{']'}
	case FormValue:
		col := d.sd.FieldsColumn()
		if len(h.Fields) != 1 {
			d.failHeader(col, "MAP-9", fmt.Sprintf("json=%s needs one field and one row, and the section declares %s", FormValue, plural.Count(len(h.Fields), "field")))
			return
		}
		d.mode = modeValue
		// A wrong row count is reported at column 1 of the header, as every
		// one is [MAP-14].
		d.oneRow = &rowCheck{1, d.sectionEndKey(), d.rowsErr(1, "MAP-9", fmt.Sprintf("json=%s holds one value as one row", FormValue))}
	default:
		d.failMeta(form, "MAP-7", fmt.Sprintf("json=%s names no form; the forms are rows, object, row, array and value", quotePrefixText(h.Meta[form].Value)))
	}
}

// RootIsTable reports whether h, the first header of a payload, begins a
// table whose pairs are not members of the value, as root reads it: the
// table form, with or without json=rows [MAP-7] [MAP-8], or a layout part
// of rows shape [MAP-13]. Only such a header has room for pairs of a
// caller's own, such as the MCP binding's total= and truncated= [MCP-7]:
// in the header form of an object every pair is a member [MAP-10].
func RootIsTable(h *streaming.Header) bool {
	if form := metaIndex(h, KeyJSON); form >= 0 {
		return h.Meta[form].Value == FormRows
	}
	if at, ok := partIndex[h.Tool]; ok {
		return registry[at[0]].Parts[at[1]].Shape == ShapeRows
	}
	return !declared(h.Tool)
}

// rowsErr returns the error of a section that must have one row and has
// another number, at column col of the current header.
func (d *decoder) rowsErr(col int, rule, msg string) func(int) *spec.Error {
	line, offset := d.sd.Line(), d.sd.LineOffset()
	return func(rows int) *spec.Error {
		return d.errAt(line, offset, col, rule, fmt.Sprintf("%s, and the section has %s", msg, plural.Count(rows, "row")))
	}
}

// endSection decides the checks that wait for a section's end.
func (d *decoder) endSection() {
	if c := d.oneRow; c != nil && d.rows != c.want {
		d.fail(c.key, c.err(d.rows))
	}
	d.oneRow = nil
}

// startTable reads a section of the table form [MAP-8].
func (d *decoder) startTable(h *streaming.Header) {
	cols, bad, err := d.columns(h)
	if err != nil {
		d.failMeta(bad, pairRule(h.Meta[bad].Key), err.Error())
		return
	}
	d.mode, d.cols, d.first = modeTable, cols, true
	d.out.buf = append(d.out.buf, '[')
	d.tail = []byte{']'}
}

// headerObject reads the header form of an object: each meta pair but
// json=, rows=, nest= and str= is a member, and "@" stands for a table —
// the root section's rows for the first, the next section, named tool.key,
// for each further one [MAP-10] [MAP-11]. The pairs are checked in order
// [MAP-14].
func (d *decoder) headerObject(h *streaming.Header) {
	cols, bad, colErr := d.columns(h)
	seg := []byte{'{'}
	members, tables := 0, 0
	for i, m := range h.Meta {
		switch m.Key {
		case KeyJSON, spec.KeyRows:
			continue
		case KeyNest, KeyStr:
			if colErr != nil && i == bad {
				d.failMeta(i, pairRule(m.Key), colErr.Error())
				return
			}
			continue
		}
		if members > 0 {
			seg = append(seg, ',')
		}
		members++
		seg = jsontext.AppendString(seg, m.Key)
		seg = append(seg, ':')
		switch m.Value {
		case tableMark:
			seg = append(seg, '[')
			if tables == 0 {
				d.out.buf = append(d.out.buf, seg...)
			} else {
				d.expect = append(d.expect, expected{before: seg, tool: h.Tool + "." + m.Key, key: m.Key})
				col := d.sd.MetaColumn(i)
				d.needs = append(d.needs, needSection{tables + 1, payloadEndKey, d.errAt(d.sd.Line(), d.sd.LineOffset(), col, "MAP-11",
					fmt.Sprintf("member %s is \"@\" and needs section %d, named %s, and the payload ends after %s", quote(m.Key), tables+1, quotePrefixText(h.Tool+"."+m.Key), plural.Count(tables, "section")))})
			}
			tables++
			seg = []byte{']'}
		case "":
			d.failMeta(i, "MAP-10", fmt.Sprintf("member %s= is empty; an object-form member always has a value (the empty string is written \"\")", quotePrefixText(m.Key)))
			return
		default:
			var err error
			if seg, err = appendSpelledText(seg, m.Value); err != nil {
				col := d.sd.MetaColumn(i)
				d.failDepth(d.headerKey(col), d.errAt(d.sd.Line(), d.sd.LineOffset(), col, "", ""), err)
				return
			}
		}
	}
	d.tail = append(seg, '}')
	if tables == 0 {
		d.mode = modeNoRows
		d.oneRow = &rowCheck{0, d.sectionEndKey(), d.rowsErr(1, "MAP-10", "in the header form no member is \"@\" to hold the section's rows")}
		return
	}
	d.mode, d.cols, d.first = modeTable, cols, true
}

// appendSpelledText appends the JSON of a non-empty spelled value [MAP-5]:
// the text itself when it is a compact form, else the string it is. The
// error is that of a text nested too deep to tell [MAP-4].
func appendSpelledText(b []byte, text string) ([]byte, error) {
	_, compact, err := spelledKind(text)
	if err != nil {
		return b, err
	}
	if compact {
		return append(b, text...), nil
	}
	return jsontext.AppendString(b, text), nil
}

// layout reads the first section of a declared tool's layout [LAY-4].
func (d *decoder) layout(l *Layout, part int) {
	if part != 0 {
		d.failHeader(1, "LAY-4", fmt.Sprintf("tool=%s is part %d of the layout of %s, whose payload begins with tool=%s", l.Parts[part].Tool, part+1, l.Tool, l.Parts[0].Tool))
		return
	}
	// The value is the part's own when there is one part, else an object
	// with a member per part: {"nodes":[...],"edges":[...]}.
	open := func(p Part) []byte {
		var b []byte
		if len(l.Parts) > 1 {
			b = append(jsontext.AppendString(b, p.Key), ':')
		}
		if p.Shape == ShapeRows {
			b = append(b, '[')
		}
		return b
	}
	closing := func(p Part) []byte {
		if p.Shape == ShapeRows {
			return []byte{']'}
		}
		return nil
	}
	first := open(l.Parts[0])
	if len(l.Parts) > 1 {
		first = append([]byte{'{'}, first...)
	}
	for i := 1; i < len(l.Parts); i++ {
		before := append(append(closing(l.Parts[i-1]), ','), open(l.Parts[i])...)
		d.expect = append(d.expect, expected{before: before, layout: l, part: i})
	}
	d.tail = closing(l.Parts[len(l.Parts)-1])
	if len(l.Parts) > 1 {
		d.tail = append(d.tail, '}')
	}
	d.out.buf = append(d.out.buf, first...)
	d.startPart(l, 0)
}

// startPart reads section part of a layout against its frozen part: the
// same fields, in order [LAY-5], no json=, nest= or str= [LAY-4], and for
// an object part one row [LAY-2], checked in that order. The part after it,
// if any, must follow [LAY-4].
func (d *decoder) startPart(l *Layout, part int) {
	h, p := d.sd.Header(), &l.Parts[part]
	if names := p.FieldNames(); !slices.Equal(h.Fields, names) {
		d.failHeader(d.sd.FieldsColumn(), "LAY-5", fmt.Sprintf("tool=%s has the frozen fields %s and this section declares %s; a GCX1 layout never changes (a section with other fields must carry json=)",
			p.Tool, strings.Join(names, ","), quotePrefixText(strings.Join(h.Fields, ","))))
		return
	}
	for i, m := range h.Meta {
		if m.Key == KeyJSON || m.Key == KeyNest || m.Key == KeyStr {
			d.failMeta(i, "LAY-4", fmt.Sprintf("section tool=%s is part of a declared layout and carries no %s= pair", p.Tool, m.Key))
			return
		}
	}
	if p.Shape == ShapeObject {
		d.oneRow = &rowCheck{1, d.sectionEndKey(), d.rowsErr(1, "LAY-2", fmt.Sprintf("tool=%s holds one object, as one row", p.Tool))}
	}
	if next := part + 1; next < len(l.Parts) {
		// Checked after this section's rows: its key is the next section's.
		d.needs = append(d.needs, needSection{next + 1, payloadEndKey, d.errAt(d.sd.Line(), d.sd.LineOffset(), 1, "LAY-4",
			fmt.Sprintf("the layout of %s needs section tool=%s after this one, and the payload ends", l.Tool, l.Parts[next].Tool))})
	}
	d.mode, d.part, d.first = modeLayout, p, true
	d.keys = make([][]byte, len(p.Fields))
	for i, f := range p.Fields {
		d.keys[i] = append(jsontext.AppendString(nil, f.Key), ':')
	}
}

// row reads one row of the current section.
func (d *decoder) row(values []string) {
	// A row beyond those the form allows decides the section's error at
	// once [MAP-14]: nothing in it is read, since it holds no part of the
	// value, and the section's end reports the count at the header.
	switch d.mode {
	case modeTable:
		d.tableRow(values)
	case modeList:
		d.listRow(values[0])
	case modeValue:
		if d.rows > 1 {
			d.failed = true // too many rows [MAP-9]
			return
		}
		if values[0] == "" {
			d.failCell(0, "MAP-9", "the cell is empty, which marks an absent member, and no member can be absent here; the empty string is written \"\"")
			return
		}
		var err error
		if d.tail, err = appendSpelledText(nil, values[0]); err != nil {
			d.failDepth(d.cellKey(0), d.cellErr(0, "", ""), err)
		}
	case modeRowObject:
		if d.rows > 1 {
			d.failed = true // too many rows [MAP-10]
			return
		}
		d.rowObject(values)
	case modeNoRows:
		d.failed = true // too many rows [MAP-10]
	case modeLayout:
		if d.part.Shape == ShapeObject && d.rows > 1 {
			d.failed = true // too many rows [LAY-2]
			return
		}
		d.layoutRow(values)
	}
}

// tableColumn says how to read one field of a table section [MAP-15].
type tableColumn struct {
	key   []byte // the member name, quoted, and ':'; for a nested field, the name within its owner
	bare  bool   // listed in str=
	owner string // the nest= member the field belongs to, if any
	group []int  // on the owner's first field: every field of the owner, in order
	outer []byte // on the owner's first field: the owner's name, quoted, and ':'
}

// columns reads the nest= and str= pairs of a table section and checks
// them [MAP-15], in the order the header holds them [MAP-14]; on error it
// also returns the index of the pair at fault.
func (d *decoder) columns(h *streaming.Header) ([]tableColumn, int, error) {
	cols := make([]tableColumn, len(h.Fields))
	var index map[string]int // field names, once a pair needs them
	var sorted []int         // field indices in the order of their names, for nest=
	for i, m := range h.Meta {
		if m.Key != KeyStr && m.Key != KeyNest {
			continue
		}
		if index == nil {
			index = make(map[string]int, len(h.Fields))
			for i, f := range h.Fields {
				index[f] = i
			}
		}
		var err error
		if m.Key == KeyStr {
			err = bareColumns(m.Value, cols, index)
		} else {
			if sorted == nil {
				sorted = make([]int, len(h.Fields))
				for k := range sorted {
					sorted[k] = k
				}
				slices.SortFunc(sorted, func(a, b int) int { return strings.Compare(h.Fields[a], h.Fields[b]) })
			}
			err = nestedColumns(m.Value, h.Fields, cols, index, sorted)
		}
		if err != nil {
			return nil, i, err
		}
	}
	// The quoted names of the plain fields share one buffer.
	var names []byte
	ends := make([]int, len(h.Fields))
	for i, f := range h.Fields {
		if cols[i].owner == "" {
			names = append(jsontext.AppendString(names, f), ':')
		}
		ends[i] = len(names)
	}
	from := 0
	for i := range cols {
		if cols[i].owner == "" {
			cols[i].key = names[from:ends[i]:ends[i]]
		}
		from = ends[i]
	}
	return cols, -1, nil
}

// pairRule is the rule a table's nest= or str= pair breaks when columns
// refuses it: nest= is [MAP-15], str= [MAP-16].
func pairRule(key string) string {
	if key == KeyStr {
		return "MAP-16"
	}
	return "MAP-15"
}

// bareColumns marks the fields str= lists as bare [MAP-16].
func bareColumns(list string, cols []tableColumn, index map[string]int) error {
	seen := map[string]bool{}
	for name := range strings.SplitSeq(list, ",") {
		i, ok := index[name]
		if !ok || seen[name] {
			return fmt.Errorf("str= names %s, which is not a field of the section or is named twice", quote(name))
		}
		seen[name] = true
		cols[i].bare = true
	}
	return nil
}

// nestedColumns gathers the fields of each member nest= lists [MAP-15].
// The fields that begin with p and a dot sort together, so each member's
// are found by a binary search among the sorted names and each field is
// looked at once per member it belongs to: a field claimed twice is an
// error at once.
func nestedColumns(list string, fields []string, cols []tableColumn, index map[string]int, sorted []int) error {
	seen := map[string]bool{}
	for owner := range strings.SplitSeq(list, ",") {
		if seen[owner] || owner == "" {
			return fmt.Errorf("nest= names %s twice or names the empty member", quote(owner))
		}
		seen[owner] = true
		if _, ok := index[owner]; ok {
			return fmt.Errorf("nest= names %s, which is also a field, so the member would appear twice", quote(owner))
		}
		prefix := owner + "."
		lo := sort.Search(len(sorted), func(k int) bool { return fields[sorted[k]] >= prefix })
		hi := lo
		for hi < len(sorted) && strings.HasPrefix(fields[sorted[hi]], prefix) {
			hi++
		}
		if lo == hi {
			return fmt.Errorf("nest= names %s, and no field begins with %s", quote(owner), quote(prefix))
		}
		group := slices.Clone(sorted[lo:hi])
		slices.Sort(group)
		for _, i := range group {
			if cols[i].owner != "" {
				return fmt.Errorf("field %s belongs to both %s and %s", quote(fields[i]), quote(cols[i].owner), quote(owner))
			}
		}
		for _, i := range group {
			cols[i].owner = owner
			cols[i].key = append(jsontext.AppendString(nil, fields[i][len(prefix):]), ':')
		}
		lead := &cols[group[0]]
		lead.group = group
		lead.outer = append(jsontext.AppendString(nil, owner), ':')
	}
	return nil
}

// tableRow writes one row of a table as an object: a member for each
// non-empty cell, in field order, the fields of a nest= member gathered
// where its first field stands [MAP-8] [MAP-15].
func (d *decoder) tableRow(row []string) {
	b := d.out.buf
	if !d.first {
		b = append(b, ',')
	}
	d.first = false
	b = append(b, '{')
	n := 0
	for c := range row {
		col := &d.cols[c]
		if col.owner == "" {
			if row[c] == "" {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			var ok bool
			if b, ok = d.appendCell(append(b, col.key...), row[c], col.bare, c); !ok {
				return
			}
			continue
		}
		if col.group == nil {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(append(b, col.outer...), '{')
		inner := 0
		for _, g := range col.group {
			if row[g] == "" {
				continue
			}
			if inner > 0 {
				b = append(b, ',')
			}
			inner++
			var ok bool
			if b, ok = d.appendCell(append(b, d.cols[g].key...), row[g], d.cols[g].bare, g); !ok {
				return
			}
		}
		b = append(b, '}')
	}
	d.out.buf = append(b, '}')
}

// appendCell appends the value of a non-empty table cell: bare in a str=
// column, else spelled [MAP-5]. It reports false after recording the
// error of a cell nested too deep [MAP-4].
func (d *decoder) appendCell(b []byte, cell string, bare bool, c int) ([]byte, bool) {
	if bare {
		return jsontext.AppendString(b, cell), true
	}
	b, err := appendSpelledText(b, cell)
	if err != nil {
		d.failDepth(d.cellKey(c), d.cellErr(c, "", ""), err)
		return b, false
	}
	return b, true
}

// listRow writes one element of the array form; the cell may not be empty
// [MAP-9].
func (d *decoder) listRow(cell string) {
	if cell == "" {
		d.failCell(0, "MAP-9", "the cell is empty, which marks an absent member, and no member can be absent here; the empty string is written \"\"")
		return
	}
	b := d.out.buf
	if !d.first {
		b = append(b, ',')
	}
	d.first = false
	b, ok := d.appendCell(b, cell, false, 0)
	if ok {
		d.out.buf = b
	}
}

// rowObject reads the row of the row form: the fields are the member
// names and the cells their values; an empty cell is an absent member and
// "@" a table in the next section, named tool.key [MAP-10] [MAP-11]. The
// cells are checked from left to right, then the tables' sections
// [MAP-14].
func (d *decoder) rowObject(row []string) {
	h := d.sd.Header()
	seg := []byte{'{'}
	members, tables := 0, 0
	for c, cell := range row {
		if cell == "" {
			continue
		}
		if members > 0 {
			seg = append(seg, ',')
		}
		members++
		key := h.Fields[c]
		seg = append(jsontext.AppendString(seg, key), ':')
		if cell != tableMark {
			var ok bool
			if seg, ok = d.appendCell(seg, cell, false, c); !ok {
				return
			}
			continue
		}
		tables++
		d.expect = append(d.expect, expected{before: append(seg, '['), tool: h.Tool + "." + key, key: key})
		d.needs = append(d.needs, needSection{tables + 1, payloadEndKey, d.cellErr(c, "MAP-11",
			fmt.Sprintf("member %s is \"@\" and needs section %d, named %s, and the payload ends after %s", quote(key), tables+1, quotePrefixText(h.Tool+"."+key), plural.Count(tables, "section")))})
		seg = []byte{']'}
	}
	d.tail = append(seg, '}')
}

// layoutRow writes one object of a layout part: a member for each
// non-empty cell, named as the part declares, of the field's type [LAY-3].
func (d *decoder) layoutRow(row []string) {
	b := d.out.buf
	if d.part.Shape == ShapeRows && !d.first {
		b = append(b, ',')
	}
	d.first = false
	b = append(b, '{')
	n := 0
	for c, cell := range row {
		f := &d.part.Fields[c]
		if cell == "" {
			if f.Optional {
				continue
			}
			d.failCell(c, "LAY-3", fmt.Sprintf("field %s (member %s) is required and the cell is empty", f.Name, quote(f.Key)))
			return
		}
		kind, compact, err := spelledKind(cell)
		if err != nil {
			d.failDepth(d.cellKey(c), d.cellErr(c, "", ""), err)
			return
		}
		if !f.Type.holdsKind(kind, cell) {
			d.failCell(c, "LAY-3", fmt.Sprintf("field %s (member %s) is typed %s and the cell holds %s", f.Name, quote(f.Key), f.Type, kindPhrase(kind)))
			return
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, d.keys[c]...)
		if compact {
			b = append(b, cell...)
		} else {
			b = jsontext.AppendString(b, cell)
		}
	}
	d.out.buf = append(b, '}')
}

// quote quotes a name or value for a message, at most a short prefix of
// it.
func quote(s string) string { return jsontext.QuotePrefix(s) }

// quotePrefixText is quote for text that a message shows without quotes
// when it is short.
func quotePrefixText(s string) string {
	if len(s) <= jsontext.QuoteLimit {
		return s
	}
	return quote(s)
}
