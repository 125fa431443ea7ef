package jsonmap

import (
	"bufio"
	"fmt"
	"io"
	"runtime"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// Encoding a JSON text held in a file, in memory bounded by its longest
// line [MAP-20].
//
// A table's header depends on every row, so Encode parses the whole value
// before it writes. A file can be read twice instead: PlanFile reads it
// once and keeps only what [MAP-12] decides — per table the member names,
// their order, which members spread over columns and which columns are
// bare, and per declared part whether the value fits it — and
// FilePlan.Encode reads it again and writes each row as its element
// arrives, through the same streaming.Encoder.
//
// What is held at once is bounded by a multiple of the longest line of
// the payload, not of the input:
//
//   - an element of a table or of the array form, which is one row, while
//     it is read (both passes); in a text of readAheadFrom bytes or more,
//     three batches of elements read ahead, each closed once it passes
//     batchBytes or holds batchElems elements (readahead.go);
//   - the member values of a root object that are not tables, which are
//     one header or one row together, from the first pass to the end;
//   - per table, one entry per distinct member name and per distinct name
//     of a spread member's objects — what its header line names — and one
//     per distinct pair of neighbouring names, which only objects that
//     disagree on an order add to;
//   - a scalar root, which is the payload's only row.
//
// The arrays streamed this way are the root array and the array members
// of a root object (the tables of [MAP-11] and a declared tool's parts);
// anything deeper is part of one cell, so of one line, and is read whole.

// A FilePlan is what the first pass over a JSON text decided: everything
// its payload's headers hold. Encode and Compact read the text again.
type FilePlan struct {
	tool string
	src  io.ReaderAt
	size int64

	fitErr error      // why the value does not fit the tool's layout, if declared
	layout *Layout    // the layout the value fits, or nil
	counts []int      // per layout part: the rows of its section
	held   *Value     // a scalar root or a whole object part, read in full
	array  *arrayPlan // a root array
	object *objectPlan
}

// arrayPlan is a streamed array: a table when every element is an
// object whose names agree on an order, else the array form.
type arrayPlan struct {
	rows  int
	table *tablePlan // nil for the array form
}

// objectPlan is a root object [MAP-10]: its member names, the values of
// those that are not tables, and the tables.
type objectPlan struct {
	keys   []string
	values []Value      // zero where tables[i] is set
	tables []*arrayPlan // set for a member written as a table [MAP-11]
	header []spec.Meta  // the header form's members, when it has that form
	isHead bool
}

// PlanFile reads the JSON text of size bytes in src, the result of tool,
// and decides its payload [MAP-12]. Its errors are Parse's: the text is
// read in full here, so Encode fails only on a limit [LIM-4], a tool name
// [HDR-3] or a read error. src must hold the same bytes when Encode or
// Compact reads it again.
func PlanFile(tool string, src io.ReaderAt, size int64) (*FilePlan, error) {
	p := &FilePlan{tool: tool, src: src, size: size}
	if l, ok := layoutOf(tool); ok {
		counts, err := p.fitLayout(l)
		var e *spec.Error
		if err != nil && (!asSpecError(err, &e) || e.Rule != "LAY-2") {
			return nil, err
		}
		if err == nil {
			p.layout, p.counts = &l, counts
			return p, nil
		}
		p.fitErr = err
	}
	if err := p.planGeneric(); err != nil {
		return nil, err
	}
	return p, nil
}

// LayoutErr returns nil when the tool is not declared or the value fits
// its layout, and otherwise the error Layout.Fit returns for the value
// [LAY-2].
func (p *FilePlan) LayoutErr() error { return p.fitErr }

// reader returns a JSON reader over the whole text, as parse reads it.
func (p *FilePlan) reader() *jsontext.Reader {
	return p.rangeReader(0, p.size)
}

func (p *FilePlan) rangeReader(from, to int64) *jsontext.Reader {
	r := jsontext.NewReaderSize(io.NewSectionReader(p.src, from, to-from), 64<<10)
	r.MaxDepth = MaxDepth
	r.RejectDuplicateNames = true
	return r
}

// valueAt parses the value whose text lies in [from, to), which the first
// pass has read without fault.
func (p *FilePlan) valueAt(from, to int64) (Value, error) {
	r := p.rangeReader(from, to)
	k, text, err := r.NextText()
	if err != nil {
		return Value{}, jsonError(err)
	}
	pr := parser{r: r}
	var v Value
	if err := pr.value(k, text, 0, &v); err != nil {
		return Value{}, jsonError(err)
	}
	return v, nil
}

// streamReader parses the values of one text in turn, each whole.
//
// The elements of an array are read into arenas that the next element
// reuses — their strings, members and elements — so that an element costs
// no allocation once the arenas have grown to the largest; names are
// interned. A value read otherwise is the caller's to keep.
type streamReader struct {
	r     *jsontext.Reader
	p     parser
	texts []byte
	arena valueArena
	ahead bool // read elements ahead on another goroutine (readahead.go)
}

// stream returns a streamReader over the whole text, reading ahead when
// the text is large.
func (p *FilePlan) stream() *streamReader {
	s := newStreamReader(p.reader())
	s.ahead = p.size >= readAheadFrom && runtime.GOMAXPROCS(0) > 1
	return s
}

func newStreamReader(r *jsontext.Reader) *streamReader {
	r.InternNames = true
	return &streamReader{r: r, p: parser{r: r}}
}

func (s *streamReader) next() (jsontext.Token, error) {
	tok, err := s.r.NextToken()
	if err != nil {
		return tok, jsonError(err)
	}
	return tok, nil
}

// nextText is next for the elements of an array, whose positions only
// an error gives (parser.value says why).
func (s *streamReader) nextText() (jsontext.Kind, string, error) {
	k, text, err := s.r.NextText()
	if err != nil {
		return k, text, jsonError(err)
	}
	return k, text, nil
}

// value reads the value that tok begins, whole.
func (s *streamReader) value(tok jsontext.Token) (Value, error) {
	var v Value
	err := s.valueTo(tok.Kind, tok.Text, &v)
	return v, err
}

// valueTo reads the value that a token of kind k and text begins, whole,
// into *out, which is left as it may be on an error.
func (s *streamReader) valueTo(k jsontext.Kind, text string, out *Value) error {
	if err := s.p.value(k, text, 1, out); err != nil {
		*out = Value{}
		return jsonError(err)
	}
	return nil
}

// elements calls f with each element of the array whose '[' was read
// last, in order. The element is valid only during the call.
func (s *streamReader) elements(f func(i int, v *Value) error) (int, error) {
	if s.ahead {
		return s.elementsAhead(f)
	}
	s.r.Arena, s.p.arena = &s.texts, &s.arena
	defer func() { s.r.Arena, s.p.arena = nil, nil }()
	n := 0
	// One Value for every element: f takes its address, so a Value of
	// the loop's own would be a new allocation per element.
	var v Value
	for {
		s.texts = s.texts[:0]
		s.arena.reset()
		k, text, err := s.nextText()
		if err != nil {
			return n, err
		}
		if k == jsontext.ArrayEnd {
			return n, nil
		}
		if err := s.valueTo(k, text, &v); err != nil {
			return n, err
		}
		if err := f(n, &v); err != nil {
			return n, err
		}
		n++
	}
}

// end checks that only whitespace follows the value.
func (s *streamReader) end() error {
	if err := s.r.End(); err != nil {
		return jsonError(err)
	}
	return nil
}

// shallow returns the value v without its elements and its members'
// contents, all a layout's checks of an object or of a part's kind look at.
func shallow(v Value) Value {
	out := Value{Kind: v.Kind, Text: v.Text}
	if v.Kind == Object {
		out.Members = make([]Member, len(v.Members))
		for i, m := range v.Members {
			out.Members[i] = Member{Key: m.Key, Value: Value{Kind: m.Value.Kind, Text: m.Value.Text}}
		}
	}
	return out
}

// fitLayout is the layout pass: it reads the text and checks it against
// l as Layout.Fit would, one element at a time, and returns the rows of
// each part. An error of rule LAY-2 says the value does not fit; any
// other is the text's.
func (p *FilePlan) fitLayout(l Layout) ([]int, error) {
	s := p.stream()
	tok, err := s.next()
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(l.Parts))
	var root Value // shallow, with array members' elements left out
	elemErr := make([]error, len(l.Parts))
	// rowsFit checks the elements of part's array, keeping the first
	// misfit; skip reads an array that is no part.
	rowsFit := func(part int) func(i int, v *Value) error {
		return func(i int, v *Value) error {
			if elemErr[part] == nil {
				elemErr[part] = l.Parts[part].element(*v, i)
			}
			return nil
		}
	}
	skip := func(int, *Value) error { return nil }
	switch tok.Kind {
	case jsontext.ArrayStart:
		root.Kind = Array
		// Checked as the first part's rows whatever the layout: fitStreamed
		// refuses an array root under several parts before it looks at a
		// part, and reads elemErr only for a part of rows shape.
		n, err := s.elements(rowsFit(0))
		if err != nil {
			return nil, err
		}
		counts[0] = n
	case jsontext.ObjectStart:
		root.Kind = Object
		for i := 0; ; i++ {
			name, err := s.next()
			if err != nil {
				return nil, err
			}
			if name.Kind == jsontext.ObjectEnd {
				break
			}
			tok, err := s.next()
			if err != nil {
				return nil, err
			}
			if tok.Kind == jsontext.ArrayStart {
				// Read an element at a time, whether a part or not.
				// A member that is no rows part is read past; under a
				// one-part layout a rows part is the root, which fitStreamed
				// refuses when it is an object before it reads elemErr.
				isPart := i < len(l.Parts) && l.Parts[i].Shape == ShapeRows
				fit := skip
				if isPart {
					fit = rowsFit(i)
				}
				n, err := s.elements(fit)
				if err != nil {
					return nil, err
				}
				if isPart {
					counts[i] = n
				}
				root.Members = append(root.Members, Member{Key: name.Text, Value: Value{Kind: Array}})
				continue
			}
			v, err := s.value(tok)
			if err != nil {
				return nil, err
			}
			root.Members = append(root.Members, Member{Key: name.Text, Value: shallow(v)})
		}
		for i, part := range l.Parts {
			if part.Shape == ShapeObject {
				counts[i] = 1 // an object part is one row
			}
		}
	default:
		if _, err := s.value(tok); err != nil {
			return nil, err
		}
		root.Kind = kindOfToken(tok.Kind)
	}
	if err := s.end(); err != nil {
		return nil, err
	}
	if err := l.fitStreamed(root, elemErr); err != nil {
		return nil, &spec.Error{Class: spec.ErrModel, Rule: "LAY-2", Msg: err.Error()}
	}
	return counts, nil
}

// kindOfToken is the kind of the value a scalar token is.
func kindOfToken(k jsontext.Kind) Kind {
	return kindOf[k]
}

// element checks one element of a rows part, as fit does.
func (p Part) element(e Value, i int) error {
	if e.Kind != Object {
		return fmt.Errorf("%s: element %d is %s, and the layout needs an object", p.Tool, i+1, kindPhrase(e.Kind))
	}
	return p.row(e, i)
}

// fitStreamed is fit for a value read as a stream: root is shallow, its
// arrays (the root itself, or its members) without elements, and
// elemErr[i] is the first error the elements of part i's array gave.
// It reports the error fit reports for the whole value.
func (l Layout) fitStreamed(root Value, elemErr []error) error {
	values, err := l.partValues(root)
	if err != nil {
		return err
	}
	for i, p := range l.Parts {
		if err := p.fit(values[i]); err != nil {
			return err
		}
		if p.Shape == ShapeRows && elemErr[i] != nil {
			return elemErr[i]
		}
	}
	return nil
}

// planGeneric is the generic pass [MAP-12]: it reads the text and plans
// the root array's table, or the root object's form and tables, or holds
// a scalar.
func (p *FilePlan) planGeneric() error {
	s := p.stream()
	tok, err := s.next()
	if err != nil {
		return err
	}
	switch tok.Kind {
	case jsontext.ArrayStart:
		t := newTablePlanner()
		n, err := s.elements(func(_ int, v *Value) error { t.add(v); return nil })
		if err != nil {
			return err
		}
		p.array = &arrayPlan{rows: n}
		p.array.table, _ = t.finish()
	case jsontext.ObjectStart:
		if p.object, err = p.planObject(s); err != nil {
			return err
		}
	default:
		v, err := s.value(tok)
		if err != nil {
			return err
		}
		p.held = &v
	}
	return s.end()
}

// planObject plans a root object whose '{' s has read [MAP-10] [MAP-11].
func (p *FilePlan) planObject(s *streamReader) (*objectPlan, error) {
	o := &objectPlan{}
	var ranges [][2]int64 // per member: where an array value lies, else zero
	for {
		name, err := s.next()
		if err != nil {
			return nil, err
		}
		if name.Kind == jsontext.ObjectEnd {
			break
		}
		tok, err := s.next()
		if err != nil {
			return nil, err
		}
		o.keys = append(o.keys, name.Text)
		if tok.Kind != jsontext.ArrayStart {
			v, err := s.value(tok)
			if err != nil {
				return nil, err
			}
			o.values = append(o.values, v)
			o.tables = append(o.tables, nil)
			ranges = append(ranges, [2]int64{})
			continue
		}
		t := newTablePlanner()
		n, err := s.elements(func(_ int, v *Value) error { t.add(v); return nil })
		if err != nil {
			return nil, err
		}
		var table *arrayPlan
		if tp, ok := t.finish(); ok && n > 0 {
			table = &arrayPlan{rows: n, table: tp}
		}
		o.values = append(o.values, Value{})
		o.tables = append(o.tables, table)
		ranges = append(ranges, [2]int64{tok.Pos.Offset, s.r.InputOffset()})
	}
	// Which form [MAP-12]: the header form when every member allows it.
	// The values of arrays that are no tables are read again, whole:
	// each is one cell or one header pair.
	isTable := make([]bool, len(o.keys))
	for i := range o.keys {
		isTable[i] = o.tables[i] != nil
		if o.tables[i] == nil && ranges[i][1] > 0 {
			v, err := p.valueAt(ranges[i][0], ranges[i][1])
			if err != nil {
				return nil, err
			}
			o.values[i] = v
		}
	}
	members := make([]Member, len(o.keys))
	for i, k := range o.keys {
		members[i] = Member{Key: k, Value: o.values[i]}
	}
	o.header, o.isHead = headerMembers(Value{Kind: Object, Members: members}, isTable)
	if !o.isHead {
		// The row form names tables only under GCX1 names; another's
		// array is a cell [MAP-11].
		for i, k := range o.keys {
			if o.tables[i] != nil && !spec.IsName(k) {
				o.tables[i] = nil
				v, err := p.valueAt(ranges[i][0], ranges[i][1])
				if err != nil {
					return nil, err
				}
				o.values[i] = v
			}
		}
	}
	return o, nil
}

// Encode writes the payload the plan decided to w, through a
// streaming.Encoder under limits, reading the text a second time: what
// EncodeTo writes for the same value, byte for byte. On error w may hold
// the start of the payload [MAP-21]; the caller discards it.
func (p *FilePlan) Encode(w io.Writer, limits spec.Limits) error {
	return p.EncodePairs(w, limits, nil)
}

// EncodePairs is Encode with rootPairs added to the root header as
// EncodeValuePairs adds them: what it writes for the same value, byte for
// byte.
func (p *FilePlan) EncodePairs(w io.Writer, limits spec.Limits, rootPairs []spec.Meta) error {
	if err := checkTool(p.tool); err != nil {
		return err
	}
	enc := streaming.NewEncoder(w)
	enc.Limits = limits
	e := &encoder{out: withRootPairs(streamSink{enc}, rootPairs, limits)}
	var err error
	switch {
	case p.layout != nil:
		err = p.writeLayout(e)
	case p.held != nil:
		err = encodeValue(e.out, p.tool, *p.held)
	case p.array != nil:
		err = p.writeArray(e)
	default:
		err = p.writeObject(e)
	}
	if err == nil {
		err = enc.Close()
	}
	return err
}

// writeLayout writes a declared tool's sections, one per part [LAY-2].
func (p *FilePlan) writeLayout(e *encoder) error {
	l := *p.layout
	s := p.stream()
	tok, err := s.next()
	if err != nil {
		return err
	}
	writePart := func(i int, tok jsontext.Token) error {
		part := l.Parts[i]
		if err := e.out.header(&streaming.Header{Tool: part.Tool, Fields: part.FieldNames(), Meta: []spec.Meta{rowCount(p.counts[i])}}); err != nil {
			return err
		}
		fill := func(_ int, v *Value) error {
			row := e.startRow(len(part.Fields))
			part.fill(row, v, e)
			return e.out.row(row)
		}
		if part.Shape == ShapeRows {
			_, err := s.elements(fill)
			return err
		}
		v, err := s.value(tok)
		if err != nil {
			return err
		}
		return fill(0, &v)
	}
	if len(l.Parts) == 1 {
		return writePart(0, tok)
	}
	for i := range l.Parts {
		if _, err := s.next(); err != nil { // the member's name
			return err
		}
		tok, err := s.next()
		if err != nil {
			return err
		}
		if err := writePart(i, tok); err != nil {
			return err
		}
	}
	return nil
}

// writeArray writes a root array: a table [MAP-8] or the array form
// [MAP-9].
func (p *FilePlan) writeArray(e *encoder) error {
	s := p.stream()
	if _, err := s.next(); err != nil {
		return err
	}
	a := p.array
	if a.table == nil {
		if err := e.out.header(&streaming.Header{Tool: p.tool, Fields: []string{""}, Meta: []spec.Meta{{Key: KeyJSON, Value: FormArray}, rowCount(a.rows)}}); err != nil {
			return err
		}
		_, err := s.elements(func(_ int, v *Value) error {
			row := e.startRow(1)
			row[0] = e.spell(v)
			return e.out.row(row)
		})
		return err
	}
	var form []spec.Meta
	if claimed(p.tool) {
		form = []spec.Meta{{Key: KeyJSON, Value: FormRows}}
	}
	if err := e.tableHeader(p.tool, form, a, nil); err != nil {
		return err
	}
	return e.tableRowsFrom(s, a.table)
}

// tableHeader writes the header of a streamed table, as table does.
func (e *encoder) tableHeader(tool string, form []spec.Meta, a *arrayPlan, more []spec.Meta) error {
	meta := append(append(append(form, rowCount(a.rows)), a.table.meta...), more...)
	return e.out.header(&streaming.Header{Tool: tool, Fields: a.table.fields, Meta: meta})
}

// tableRowsFrom writes a row for each element of the array whose '[' s
// has read.
func (e *encoder) tableRowsFrom(s *streamReader, t *tablePlan) error {
	_, err := s.elements(func(_ int, v *Value) error {
		row := e.startRow(len(t.fields))
		t.fill(v, func(c int, v *Value) {
			if t.bare[c] {
				row[c] = v.Text
			} else {
				row[c] = e.spell(v)
			}
		})
		return e.out.row(row)
	})
	return err
}

// writeObject writes a root object in the form the plan chose [MAP-10],
// its tables as their arrays arrive [MAP-11].
func (p *FilePlan) writeObject(e *encoder) error {
	o := p.object
	first := -1
	for i, t := range o.tables {
		if t != nil {
			first = i
			break
		}
	}
	switch {
	case o.isHead && first < 0:
		return e.out.header(&streaming.Header{Tool: p.tool, Fields: []string{""}, Meta: append([]spec.Meta{{Key: KeyJSON, Value: FormObject}}, o.header...)})
	case o.isHead:
		// The first table's header is the root's; its rows follow it.
	default:
		if err := e.out.header(&streaming.Header{Tool: p.tool, Fields: o.keys, Meta: []spec.Meta{{Key: KeyJSON, Value: FormRow}, rowCount(1)}}); err != nil {
			return err
		}
		row := e.startRow(len(o.keys))
		for i := range o.keys {
			v := &o.values[i]
			switch {
			case o.tables[i] != nil:
				row[i] = tableMark
			case v.Kind == String && v.Text == tableMark:
				row[i] = `"@"`
			default:
				row[i] = e.spell(v)
			}
		}
		if err := e.out.row(row); err != nil {
			return err
		}
	}
	if first < 0 {
		return nil
	}
	s := p.stream()
	if _, err := s.next(); err != nil {
		return err
	}
	for i := range o.keys {
		if _, err := s.next(); err != nil { // the name
			return err
		}
		if o.tables[i] == nil {
			if err := s.r.SkipValue(); err != nil {
				return jsonError(err)
			}
			continue
		}
		if _, err := s.next(); err != nil { // '['
			return err
		}
		var err error
		if o.isHead && i == first {
			err = e.tableHeader(p.tool, []spec.Meta{{Key: KeyJSON, Value: FormObject}}, o.tables[i], o.header)
		} else {
			err = e.tableHeader(p.tool+"."+o.keys[i], nil, o.tables[i], nil)
		}
		if err != nil {
			return err
		}
		if err := e.tableRowsFrom(s, o.tables[i].table); err != nil {
			return err
		}
	}
	return nil
}

// Compact writes the compact JSON text of the value [MAP-3] to w, reading
// it again token by token: what Value.AppendCompact writes.
func (p *FilePlan) Compact(w io.Writer) error { return compactTokens(w, p.reader()) }

// CompactTo writes the compact form of the JSON text src holds [MAP-3] to
// w, token by token: what Compact returns, with Parse's errors, in memory
// bounded by the longest string rather than by the text. Two texts hold
// the same value exactly when their compact forms are equal.
func CompactTo(w io.Writer, src io.Reader) error {
	r := jsontext.NewReader(bufio.NewReaderSize(src, 16<<10))
	r.MaxDepth = MaxDepth
	r.RejectDuplicateNames = true
	return compactTokens(w, r)
}

func compactTokens(w io.Writer, r *jsontext.Reader) error {
	bw := bufio.NewWriterSize(w, 16<<10)
	var b []byte
	prev := jsontext.Kind(0)
	// A token's text is written before the next is read: the texts share
	// one arena, emptied each time, and the names, which repeat, are
	// interned, so that the tokens of a large text leave no garbage.
	var texts []byte
	r.Arena, r.InternNames = &texts, true
	for {
		texts = texts[:0]
		tok, err := r.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return jsonError(err)
		}
		b = appendCompactToken(b[:0], prev, tok)
		prev = tok.Kind
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// asSpecError is errors.As for *spec.Error.
func asSpecError(err error, e **spec.Error) bool {
	se, ok := err.(*spec.Error)
	if ok {
		*e = se
	}
	return ok
}
