package jsonmap

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// DefaultTool is the tool name of a value written without one, as by
// gcx encode without --tool [MAP-12].
const DefaultTool = "result"

// KeyJSON is the meta key that names the generic form of a root section
// [MAP-7].
const KeyJSON = "json"

// The generic forms, as values of json= [MAP-7].
const (
	FormRows   = "rows"   // an array of objects, one row each [MAP-8]
	FormObject = "object" // an object, its members in the header [MAP-10]
	FormRow    = "row"    // an object, its members as the fields of one row [MAP-10]
	FormArray  = "array"  // an array of any values, one row each [MAP-9]
	FormValue  = "value"  // any value, in the only cell [MAP-9]
)

// Meta keys of table sections [MAP-15].
const (
	KeyNest = "nest" // members whose objects are spread over columns
	KeyStr  = "str"  // columns of bare strings
)

// Encode returns the canonical GCX1 payload of the JSON text value, as the
// result of tool [MAP-12], under spec.DefaultLimits [LIM-4]. It encodes
// every JSON value of the mapping's domain [MAP-1], losslessly: with the
// tool's frozen layout when the tool is declared and the value fits it
// [LAY-2], generically otherwise [LAY-7]. Its errors are *spec.Error
// values: class ErrInvalidJSON for the input, spec.ErrLimit for nesting
// beyond MaxDepth [MAP-4] or a payload a decoder under the limits would
// refuse [LIM-4], spec.ErrModel for a tool name GCX1 cannot carry.
func Encode(tool string, value []byte) ([]byte, error) {
	return EncodeLimits(tool, value, spec.DefaultLimits)
}

// EncodeLimits is Encode under the given limits: it refuses, with a limit
// error, a value whose payload a decoder under the same limits would
// refuse [LIM-4].
func EncodeLimits(tool string, value []byte, limits spec.Limits) ([]byte, error) {
	// The value lives only for this call and the payload copies what it
	// needs, so the parse may share the caller's bytes.
	v, err := parse(unsafe.String(unsafe.SliceData(value), len(value)))
	if err != nil {
		return nil, err
	}
	return encodeBytes(tool, v, limits, len(value), nil)
}

// EncodeValue is Encode for a parsed value.
func EncodeValue(tool string, v Value) ([]byte, error) {
	return encodeBytes(tool, v, spec.DefaultLimits, 0, nil)
}

// EncodeValuePairs is EncodeValue under the given limits, with rootPairs
// added to the root header as addRootPairs adds them: only when the header
// stays within the limits' line limit [MCP-7] [LIM-4].
func EncodeValuePairs(tool string, v Value, limits spec.Limits, rootPairs []spec.Meta) ([]byte, error) {
	return encodeBytes(tool, v, limits, 0, rootPairs)
}

func encodeBytes(tool string, v Value, limits spec.Limits, sizeHint int, rootPairs []spec.Meta) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(sizeHint)
	if err := encodeTo(&out, tool, v, limits, rootPairs); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// EncodeTo writes the payload of v as the result of tool to w, through a
// streaming.Encoder under the given limits [MAP-12] [LIM-4]. The payload
// is written as it is made, a line at a time, and no model of it is built.
//
// Encoding needs the whole value: a table's header — its fields, nest=,
// str= and rows= — depends on every row [MAP-20]. On error w may hold the
// start of the payload, whole lines that no decoder reads as a value (a
// section short of its rows=, or short of the sections its root announces)
// [MAP-21]; the caller discards them. An error from w is returned as it is.
func EncodeTo(w io.Writer, tool string, v Value, limits spec.Limits) error {
	return encodeTo(w, tool, v, limits, nil)
}

func encodeTo(w io.Writer, tool string, v Value, limits spec.Limits, rootPairs []spec.Meta) error {
	cw := &countingWriter{w: w}
	enc := encoders.Get().(*streaming.Encoder)
	enc.Reset(cw)
	enc.Limits = limits
	err := encodeValue(withRootPairs(streamSink{enc}, rootPairs, limits), tool, v)
	if err == nil {
		err = enc.Close()
	}
	if cw.n <= maxPooled {
		enc.Reset(nil)
		encoders.Put(enc)
	}
	return err
}

// encoders keeps Encoders, and the buffers they have grown, for the next
// payload. One that wrote more than maxPooled bytes may hold a buffer as
// large as its longest line and is left to the collector.
var encoders = sync.Pool{New: func() any { return streaming.NewEncoder(nil) }}

const maxPooled = 1 << 20

// countingWriter counts what passes through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Model returns the payload model of v as the result of tool: the one
// Encode writes [MAP-12].
func Model(tool string, v Value) (*spec.Payload, error) {
	c := &collector{}
	if err := encodeValue(c, tool, v); err != nil {
		return nil, err
	}
	return &c.p, nil
}

// sink receives a payload line by line.
type sink interface {
	header(h *streaming.Header) error
	// row receives the values of one row; they are valid only during
	// the call.
	row(values []string) error
}

// streamSink writes through a streaming.Encoder, which copies each row.
type streamSink struct{ e *streaming.Encoder }

func (s streamSink) header(h *streaming.Header) error { return s.e.WriteHeader(h) }
func (s streamSink) row(values []string) error        { return s.e.WriteRow(values) }

// rootPairsSink passes a payload on to its sink with pairs added to the
// root header, when addRootPairs adds them.
type rootPairsSink struct {
	sink
	pairs  []spec.Meta
	limits spec.Limits
	done   bool
}

// withRootPairs returns out, or out adding pairs to the root header when
// there are any: a payload without them costs nothing more.
func withRootPairs(out sink, pairs []spec.Meta, limits spec.Limits) sink {
	if len(pairs) == 0 {
		return out
	}
	return &rootPairsSink{sink: out, pairs: pairs, limits: limits}
}

func (s *rootPairsSink) header(h *streaming.Header) error {
	if !s.done {
		s.done = true
		h = addRootPairs(h, s.pairs, s.limits)
	}
	return s.sink.header(h)
}

// addRootPairs returns the root header h with pairs after its own, or h
// itself when the root is no table whose pairs are free for a caller's
// (RootIsTable), when h already has a pair of one of their keys, or when
// the header would then be longer than the line limit the payload is
// written under, so that a decoder under that limit still reads it
// [LIM-4].
func addRootPairs(h *streaming.Header, pairs []spec.Meta, limits spec.Limits) *streaming.Header {
	if !RootIsTable(h) {
		return h
	}
	for _, p := range pairs {
		if metaIndex(h, p.Key) >= 0 {
			return h
		}
	}
	with := &streaming.Header{Tool: h.Tool, Fields: h.Fields, Meta: append(slices.Clip(h.Meta), pairs...)}
	if limits.LineFault(len(streaming.AppendHeader(nil, with))) != nil {
		return h
	}
	return with
}

// collector keeps a payload model, for Model.
type collector struct{ p spec.Payload }

func (c *collector) header(h *streaming.Header) error {
	c.p.Sections = append(c.p.Sections, spec.Section{Tool: h.Tool, Fields: slices.Clone(h.Fields), Meta: slices.Clone(h.Meta)})
	return nil
}

func (c *collector) row(values []string) error {
	s := &c.p.Sections[len(c.p.Sections)-1]
	row := make([]string, len(values))
	for i, v := range values {
		row[i] = strings.Clone(v)
	}
	s.Rows = append(s.Rows, row)
	return nil
}

// encoder writes one value's payload to a sink.
type encoder struct {
	out sink
	// spelled holds the spelled texts of the row being written that are
	// not a value's own text; the row's strings share it, and it is
	// reused once the sink has taken the row.
	spelled []byte
	row     []string
}

func encodeValue(out sink, tool string, v Value) error {
	if err := checkTool(tool); err != nil {
		return err
	}
	e := &encoder{out: out}
	if l, ok := layoutOf(tool); ok {
		if parts, err := l.fit(v); err == nil {
			return e.layout(l, parts)
		}
	}
	switch v.Kind {
	case Array:
		if t, ok := planTable(v.Elems); ok {
			var form []spec.Meta
			if claimed(tool) {
				form = []spec.Meta{{Key: KeyJSON, Value: FormRows}}
			}
			return e.table(tool, form, t)
		}
		return e.list(tool, v.Elems)
	case Object:
		return e.object(tool, v)
	}
	if err := e.out.header(&streaming.Header{Tool: tool, Fields: []string{""}, Meta: []spec.Meta{{Key: KeyJSON, Value: FormValue}, rowCount(1)}}); err != nil {
		return err
	}
	return e.out.row([]string{spell(v)})
}

// checkTool refuses a tool name GCX1 cannot carry [HDR-3].
func checkTool(tool string) error {
	if !spec.IsName(tool) {
		return &spec.Error{Class: spec.ErrModel, Rule: "HDR-3",
			Msg: fmt.Sprintf("tool name %s must be one or more of A-Z a-z 0-9 _ - .", quote(tool))}
	}
	return nil
}

// rowCount is the rows= pair every section with rows carries, so that a
// payload cut short at a line boundary is an error and not a shorter
// value [MAP-12] [META-4].
func rowCount(n int) spec.Meta {
	return spec.Meta{Key: spec.KeyRows, Value: strconv.Itoa(n)}
}

// startRow returns the encoder's row, width values long and empty.
func (e *encoder) startRow(width int) []string {
	e.spelled = e.spelled[:0]
	if cap(e.row) < width {
		e.row = make([]string, width)
	}
	e.row = e.row[:width]
	clear(e.row)
	return e.row
}

// spell is spell for a row: a spelling that is not v's own text, nor a
// literal, is made in e.spelled, not allocated.
func (e *encoder) spell(v *Value) string {
	switch v.Kind {
	case String:
		if !mustQuote(v.Text) {
			return v.Text
		}
	case Array, Object:
	default:
		return spell(*v)
	}
	start := len(e.spelled)
	e.spelled = v.AppendCompact(e.spelled)
	return bytesString(e.spelled[start:])
}

// list writes the array form: one value per row [MAP-9].
func (e *encoder) list(tool string, elems []Value) error {
	if err := e.out.header(&streaming.Header{Tool: tool, Fields: []string{""}, Meta: []spec.Meta{{Key: KeyJSON, Value: FormArray}, rowCount(len(elems))}}); err != nil {
		return err
	}
	for i := range elems {
		row := e.startRow(1)
		row[0] = e.spell(&elems[i])
		if err := e.out.row(row); err != nil {
			return err
		}
	}
	return nil
}

// table writes a table section: form (json=rows, or nothing), rows=, the
// table's nest= and str=, then more, then one row per element [MAP-8].
func (e *encoder) table(tool string, form []spec.Meta, t *table, more ...spec.Meta) error {
	meta := append(append(append(form, rowCount(len(t.elems))), t.meta...), more...)
	if err := e.out.header(&streaming.Header{Tool: tool, Fields: t.fields, Meta: meta}); err != nil {
		return err
	}
	return e.tableRows(t)
}

func (e *encoder) tableRows(t *table) error {
	row := e.startRow(len(t.fields))
	return t.walk(func(c int, v *Value) {
		if t.bare[c] {
			row[c] = v.Text
		} else {
			row[c] = e.spell(v)
		}
	}, func() error {
		err := e.out.row(row)
		row = e.startRow(len(t.fields))
		return err
	})
}

// object writes an object: in the header form when [MAP-12] step 4 allows
// it, else in the row form [MAP-10]. A member that is a non-empty array
// laid out as a table is "@" and its table follows [MAP-11].
func (e *encoder) object(tool string, v Value) error {
	tables := make([]*table, len(v.Members))
	for i := range v.Members {
		tables[i], _ = tableOf(&v.Members[i].Value)
	}
	isTable := make([]bool, len(tables))
	for i, t := range tables {
		isTable[i] = t != nil
	}
	if meta, ok := headerMembers(v, isTable); ok {
		return e.headerObject(tool, v, tables, meta)
	}
	return e.rowObject(tool, v, tables)
}

// headerMembers returns the meta pairs of the header form's members, or
// false when the header form declines the object [MAP-12]: a member name
// that is no meta key [HDR-3], is reserved (json, rows, nest, str, tool,
// fields [HDR-8]), or has a value a reserved key refuses [META-1]
// [META-3]; or a member value whose spelling holds SP, TAB, LF, CR or a
// backslash, which cost more in a header than in a row.
// isTable[i] says whether member i is a table.
func headerMembers(v Value, isTable []bool) ([]spec.Meta, bool) {
	meta := make([]spec.Meta, 0, len(v.Members))
	for i, m := range v.Members {
		switch m.Key {
		case KeyJSON, spec.KeyRows, KeyNest, KeyStr, spec.KeyTool, spec.KeyFields:
			return nil, false
		}
		if !spec.IsName(m.Key) {
			return nil, false
		}
		text := tableMark
		if !isTable[i] {
			text = spellMember(m.Value)
			if strings.ContainsAny(text, " \t\n\r\\") {
				return nil, false
			}
		}
		if rule, _ := spec.CheckMeta(m.Key, text); rule != "" {
			return nil, false
		}
		meta = append(meta, spec.Meta{Key: m.Key, Value: text})
	}
	return meta, true
}

// headerObject writes the header form [MAP-10]: json=object, then, if a
// member is a table, the first table's rows= and pairs, then the members
// in order; the first table rides in the root's rows, each further one in
// a section named tool.key [MAP-11].
func (e *encoder) headerObject(tool string, v Value, tables []*table, members []spec.Meta) error {
	form := []spec.Meta{{Key: KeyJSON, Value: FormObject}}
	first := slices.IndexFunc(tables, func(t *table) bool { return t != nil })
	if first < 0 {
		return e.out.header(&streaming.Header{Tool: tool, Fields: []string{""}, Meta: append(form, members...)})
	}
	if err := e.table(tool, form, tables[first], members...); err != nil {
		return err
	}
	for i := first + 1; i < len(tables); i++ {
		if tables[i] != nil {
			if err := e.table(tool+"."+v.Members[i].Key, nil, tables[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// rowObject writes the row form [MAP-10]: the member names are the fields
// and their values the only row; a member that is a table and whose name
// is a GCX1 name is "@" there, and its table follows in a section named
// tool.key [MAP-11]. Every object has this form.
func (e *encoder) rowObject(tool string, v Value, tables []*table) error {
	fields := make([]string, len(v.Members))
	for i, m := range v.Members {
		fields[i] = m.Key
		if tables[i] != nil && !spec.IsName(m.Key) {
			tables[i] = nil
		}
	}
	if err := e.out.header(&streaming.Header{Tool: tool, Fields: fields, Meta: []spec.Meta{{Key: KeyJSON, Value: FormRow}, rowCount(1)}}); err != nil {
		return err
	}
	row := e.startRow(len(fields))
	for i := range v.Members {
		m := &v.Members[i]
		switch {
		case tables[i] != nil:
			row[i] = tableMark
		case m.Value.Kind == String && m.Value.Text == tableMark:
			row[i] = `"@"`
		default:
			row[i] = e.spell(&m.Value)
		}
	}
	if err := e.out.row(row); err != nil {
		return err
	}
	for i, t := range tables {
		if t != nil {
			if err := e.table(tool+"."+v.Members[i].Key, nil, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// layout writes the sections of a declared tool's layout, one per part,
// with the frozen fields and rows= [LAY-2]; parts holds each part's value.
func (e *encoder) layout(l Layout, parts []Value) error {
	for i, p := range l.Parts {
		objs := []Value{parts[i]}
		if p.Shape == ShapeRows {
			objs = parts[i].Elems
		}
		if err := e.out.header(&streaming.Header{Tool: p.Tool, Fields: p.FieldNames(), Meta: []spec.Meta{rowCount(len(objs))}}); err != nil {
			return err
		}
		for r := range objs {
			row := e.startRow(len(p.Fields))
			p.fill(row, &objs[r], e)
			if err := e.out.row(row); err != nil {
				return err
			}
		}
	}
	return nil
}
