package streaming

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// headerParser walks one header line. Headers are rare next to rows, so it
// goes byte by byte and favours plainness over speed.
type headerParser struct {
	d     *Decoder
	line  []byte
	text  string // line's copy, which names and values without escapes are cut from
	hasLF bool
	i     int
}

func (p *headerParser) unexpected(production, rule, expected string) error {
	return p.d.unexpected(p.line, p.hasLF, p.i, production, rule, expected)
}

// literal matches tok, and on a mismatch goes byte by byte, so that it is
// reported at the first byte that differs.
func (p *headerParser) literal(tok, production, rule string) error {
	if len(p.line)-p.i >= len(tok) && string(p.line[p.i:p.i+len(tok)]) == tok {
		p.i += len(tok)
		return nil
	}
	for k := 0; k < len(tok); k++ {
		if p.i == len(p.line) || p.line[p.i] != tok[k] {
			return p.unexpected(production, rule, strconv.Quote(tok))
		}
		p.i++
	}
	return nil
}

// name reads a tool name or meta key: one or more name bytes, no escapes
// [HDR-3]. follow is the byte the header needs next (SP after a tool name,
// "=" after a meta key). As in the reference, a name cut short by a stray
// character breaks [HDR-3], and a key missing altogether where a separator
// stands breaks the header's shape [HDR-1].
func (p *headerParser) name(follow byte) (string, error) {
	from := p.i
	line, i := p.line, p.i // locals, which the loop keeps in registers
	for i < len(line) && nameByte[line[i]] {
		i++
	}
	p.i = i
	// What stands after the name; the LF counts, the end of the input not.
	separator := p.i < len(p.line) && (p.line[p.i] == ' ' || p.line[p.i] == '\t') ||
		p.i == len(p.line) && p.hasLF
	if p.i == from {
		rule := "HDR-3"
		if separator && follow == '=' {
			rule = "HDR-1"
		}
		return "", p.unexpected("name", rule, "a name character (A-Z a-z 0-9 _ - .)")
	}
	if !separator && (p.i == len(p.line) || p.line[p.i] != follow) {
		return "", p.unexpected("name", "HDR-3", fmt.Sprintf("a name character (A-Z a-z 0-9 _ - .) or %q", follow))
	}
	return p.text[from:p.i], nil
}

// escapedText reads a field name or meta value: any character but TAB, LF,
// CR, SP, backslash and (for a field name) ',', or an escape of its
// alphabet [HDR-5] [HDR-7]. It stops at the first byte that can do neither
// and leaves it to the caller.
//
// Most names and values are plain ASCII: a tight loop passes over those
// bytes, and only a backslash or a byte that is not ASCII sends it to the
// careful loop, which decodes escapes and checks UTF-8.
func (p *headerParser) escapedText(escapes *spec.Escapes) (string, error) {
	stops := &metaStops
	if escapes == spec.FieldEscapes {
		stops = &fieldStops
	}
	from := p.i
	line, i := p.line, p.i // locals, which the loop keeps in registers
	for i < len(line) && stops[line[i]] == 0 {
		i++
	}
	p.i = i
	if i < len(line) && stops[line[i]] == slowText {
		return p.escapedRest(escapes, stops, from)
	}
	return p.text[from:p.i], nil
}

// What a byte does to a field name or meta value, as escapedText tells
// from a table: nothing (goes on), ends it (the byte after the text), or
// needs escapedRest (a backslash, or the start of a character that is not
// ASCII).
const (
	endsText = 1
	slowText = 2
)

var (
	fieldStops, metaStops [256]byte
	// nameByte is spec.IsNameByte as a table [HDR-3].
	nameByte [256]bool
	// plainClass tells scanHeader, a bit for each, whether a byte may
	// stand in a name (nameByte), and in a field name or meta value
	// without escapes and as ASCII (fieldStops or metaStops 0, LF
	// aside).
	plainClass [256]byte
)

const (
	plainName  = 1 << iota // a name byte [HDR-3]
	plainField             // a field name byte that needs no closer look
	plainMeta              // a meta value byte that needs no closer look
)

func init() {
	for c := range 256 {
		b := byte(c)
		nameByte[c] = spec.IsNameByte(b)
		switch {
		case b == '\\' || b >= utf8.RuneSelf:
			fieldStops[c], metaStops[c] = slowText, slowText
		case b == '\t' || b == '\r' || b == ' ':
			fieldStops[c], metaStops[c] = endsText, endsText
		case b == ',':
			fieldStops[c] = endsText
		}
		if nameByte[c] {
			plainClass[c] |= plainName
		}
		// No part holds the LF that ends the line, and scanHeader's
		// loops stop at it.
		if fieldStops[c] == 0 && b != '\n' {
			plainClass[c] |= plainField
		}
		if metaStops[c] == 0 && b != '\n' {
			plainClass[c] |= plainMeta
		}
	}
}

// scanHeader reads, in one pass over its bytes, a header line that is well
// formed, whose field names and meta values are ASCII without escapes,
// TABs or CRs, and which breaks none of the rules spec.HeaderFault checks,
// as nearly every header is: it fills block's Header with the tool name,
// the field names and the meta pairs, cut from text, the line's string,
// and sets the decoder's columns. It returns the header's rows= pair, if
// any. Its loops find where each part ends, byte by byte through
// plainClass, and cut each part from text as soon as they have found it,
// checking it with the rule's own function from spec: the field limit,
// repeated names (whose bits, spec.NameBit, mostly tell them apart without
// comparing their bytes), structural keys, reserved keys' values
// (spec.ValidMeta).
//
// It reports false for any other line: one with an escape, a byte that is
// not ASCII, an empty field name or meta value, more fields or pairs than
// it takes, a byte that breaks the grammar, or a fault. What it wrote into
// block by then is no one's until walkHeader, which reads those lines and
// reports the errors where they stand [ERR-2], has written it over, and
// the decoder's columns are walkHeader's to set.
func (d *Decoder) scanHeader(line []byte, text string, hasLF bool, block *headerBlock) (*declared, bool) {
	const (
		toolAt   = len(spec.Version) + len(" tool=")
		maxIndex = 1<<31 - 2 // as far as a column is an int32 elsewhere
	)
	n := len(line)
	if !hasLF || n < toolAt || n > maxIndex || cap(line) == n || line[:n+1][n] != '\n' ||
		string(line[len(spec.Version):toolAt]) != " tool=" {
		return nil, false
	}
	// The LF after the line, whose class is none, stops every loop
	// (plainClass), so they test no index against the line's length:
	// at(i) is line[i] for i <= n without a bounds check. The parts are
	// cut from text where the loops found them, which they vouch for:
	// from <= end <= len(text) each, so the strings are made without
	// unsafe.String's checks.
	class := &plainClass
	base := unsafe.Pointer(unsafe.SliceData(line))
	at := func(i int) byte { return *(*byte)(unsafe.Add(base, i)) }
	textAt := unsafe.Pointer(unsafe.StringData(text))
	cut := func(from, end int) string {
		return *(*string)(unsafe.Pointer(&stringParts{unsafe.Add(textAt, from), end - from}))
	}
	i := toolAt
	for class[at(i)]&plainName != 0 {
		i++
	}
	if i == toolAt || n-i < len(" fields=") || string(line[i:i+len(" fields=")]) != " fields=" {
		return nil, false
	}
	// Set now, so that the loops below keep fewer variables: block is
	// no one's until the scan takes the line.
	h := &block.h
	h.Tool = cut(toolAt, i)
	i += len(" fields=")
	// The fields go into the block's own room, and past it into a
	// slice of markRoom, the most the scan takes.
	fields := block.fields[:0]
	var held, shared uint64 // the spec.NameBit of each name so far, and those met twice
	for {
		from := i
		for class[at(i)]&plainField != 0 {
			i++
		}
		if i == from || len(fields) == markRoom {
			return nil, false
		}
		if len(fields) == cap(fields) {
			fields = append(make([]string, 0, markRoom), fields...)
		}
		f := cut(from, i)
		fields = append(fields, f)
		bit := spec.NameBit(f)
		shared |= held & bit
		held |= bit
		if at(i) != ',' {
			break
		}
		i++
	}
	if d.Limits.FieldFault(len(fields)-1, 0) != nil {
		return nil, false // the limit holds for every field where it holds for the last
	}
	if shared != 0 && repeatsName(fields, nil) {
		return nil, false // a repeat [HDR-6]: HeaderFault's to report
	}
	var meta []spec.Meta // nil without pairs, as the reference has it
	if at(i) == ' ' {
		meta = block.meta[:0]
	}
	rows := -1 // the index of the rows= pair
	held, shared = 0, 0
	for at(i) == ' ' {
		i++
		keyAt := i
		for class[at(i)]&plainName != 0 {
			i++
		}
		if i == keyAt || at(i) != '=' || len(meta) == metaMarkRoom {
			return nil, false
		}
		eq := i
		i++
		for class[at(i)]&plainMeta != 0 {
			i++
		}
		if i == eq+1 {
			return nil, false
		}
		key, value := cut(keyAt, eq), cut(eq+1, i)
		if spec.StructuralKey(key) || !spec.ValidMeta(key, value) {
			return nil, false // HDR-8, META-1 or META-3: HeaderFault's to report
		}
		if key == spec.KeyRows {
			rows = len(meta)
		}
		meta = append(meta, spec.Meta{Key: key, Value: value})
		bit := spec.NameBit(key)
		shared |= held & bit
		held |= bit
	}
	if i != n {
		return nil, false
	}
	if shared != 0 && repeatsName(nil, meta) {
		return nil, false // a repeated key [HDR-8]
	}
	h.Fields = fields[:len(fields):len(fields)]
	h.Meta = meta[:len(meta):len(meta)]
	// The columns are set only now, so that a line the scan leaves to
	// the walk leaves the current section's as they were. Each value is
	// cut from text, so where it begins tells its column.
	if d.metaCols == nil {
		d.metaCols = d.metaColRoom[:0]
	}
	cols := d.metaCols[:0]
	for k := range meta {
		cols = append(cols, int(uintptr(unsafe.Pointer(unsafe.StringData(meta[k].Value)))-uintptr(textAt))+1)
	}
	d.fieldsCol = toolAt + len(h.Tool) + len(" fields=") + 1
	d.metaCols = cols
	if rows < 0 {
		return nil, true
	}
	// Field by field: a composite literal is built aside and copied.
	d.decl.value, d.decl.line, d.decl.lineOffset, d.decl.col = meta[rows].Value, d.line, d.base+int64(d.start), cols[rows]-1
	return &d.decl, true
}

// stringParts is a string's header: where its bytes are and how many.
type stringParts struct {
	data unsafe.Pointer
	len  int
}

// repeatsName reports whether one of the field names, or one of the meta
// keys, repeats one before it, comparing them pair by pair: scanHeader
// takes at most markRoom fields and metaMarkRoom pairs, so that this stays
// a bounded cost.
func repeatsName(fields []string, meta []spec.Meta) bool {
	for k := range fields {
		if slices.Contains(fields[:k], fields[k]) {
			return true
		}
	}
	for k := range meta {
		for _, m := range meta[:k] {
			if m.Key == meta[k].Key {
				return true
			}
		}
	}
	return false
}

// escapedRest goes on with escapedText from the first backslash or byte
// that is not ASCII of a name or value that began at from.
func (p *headerParser) escapedRest(escapes *spec.Escapes, stops *[256]byte, from int) (string, error) {
	// b holds the decoded text once an escape has turned up; until then
	// the text is line[from:p.i] as it stands.
	var b []byte
	for p.i < len(p.line) {
		c := p.line[p.i]
		switch {
		case c == '\\':
			if p.i+1 < len(p.line) {
				if e, ok := escapes.Decode(p.line[p.i+1]); ok {
					if b == nil {
						b = append([]byte(nil), p.line[from:p.i]...)
					}
					b = append(b, e)
					p.i += 2
					continue
				}
			}
			p.i++
			return "", p.unexpected(escapes.Production, escapes.Rule, escapes.Expected)
		case stops[c] == endsText:
			return p.decoded(b, from), nil
		case c < utf8.RuneSelf:
			if b != nil {
				b = append(b, c)
			}
			p.i++
		default:
			r, size := utf8.DecodeRune(p.line[p.i:])
			if r == utf8.RuneError && size == 1 {
				return p.decoded(b, from), nil
			}
			if b != nil {
				b = append(b, p.line[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
	return p.decoded(b, from), nil
}

// decoded returns the text escapedRest read from from: b where an escape
// made it copy, else the line's own bytes.
func (p *headerParser) decoded(b []byte, from int) string {
	if b == nil {
		return p.text[from:p.i]
	}
	return string(b)
}

// A section's header is handed out in one allocation with room for the
// fields and meta pairs of a typical tool result; a header with more gets
// slices of its own for them.
const (
	inlineFields = 8
	inlineMeta   = 4
	// markRoom is how many field names, and metaMarkRoom how many meta
	// pairs, the header parser marks on the stack before it allocates.
	markRoom     = 16
	metaMarkRoom = 8
)

// headerBlock is a Header and the arrays its slices usually point into.
type headerBlock struct {
	h      Header
	fields [inlineFields]string
	meta   [inlineMeta]spec.Meta
}

// readHeader reads a header line [HDR-1]. Before the grammar it applies the
// section limit, classifies the version tag [VER-1] [VER-2] and applies the
// line limit; after it, the rules the grammar cannot express, in column
// order [ERR-3].
//
// A call of a small tool result reads one header and a few rows, so the
// header's cost is much of the call's: nearly every header is read and
// checked in one pass (scanHeader); the first section's Header, its fields
// and its meta pairs stand in the decoder, and later ones take one
// allocation; their strings are cut from the line itself where the buffer
// is never written over, and otherwise from one copy of it (in the decoder
// for a short first header).
func (d *Decoder) readHeader(line []byte, hasLF bool) error {
	if f := d.Limits.SectionFault(d.sections); f != nil {
		return d.fault(f)
	}
	if !spec.StartsGCX1(line) { // the tag of nearly every header, told inline
		if f := spec.TagFault(line, d.sections); f != nil {
			return d.fault(f)
		}
	}
	if f := d.Limits.LineFault(len(line)); f != nil { // checkLineLength, inline
		return d.fault(f)
	}

	// The first section's Header stands in the decoder, which never
	// writes over it again; every later one is allocated. Its strings
	// are cut from the line where the buffer is never written over, and
	// otherwise from a copy: for the first header, one in the decoder
	// where the line fits.
	block := &d.first
	if d.sections > 0 {
		block = new(headerBlock)
	}
	var text string
	switch {
	case d.sealed || d.ended:
		// The buffer is never written over: without ReuseRecord, or
		// where the whole input is in it (a small payload, nearly
		// always), as nothing is read into it again.
		text = sharedString(line)
	case d.sections == 0 && len(line) <= len(d.firstLine):
		text = sharedString(d.firstLine[:copy(d.firstLine[:], line)])
	default:
		text = string(line)
	}
	decl, ok := d.scanHeader(line, text, hasLF, block)
	if !ok {
		var err error
		if decl, err = d.walkHeader(line, text, hasLF, block); err != nil {
			return err
		}
	}
	h := &block.h
	if haveRowScanner && len(d.marks) < len(h.Fields) {
		// Room for the row scanner to mark a row's TABs and a few
		// backslashes; a row with more grows it. A section of a few
		// columns never pays for maxMarks, nor, with the decoder's
		// own room, for an allocation.
		if n := min(max(2*len(h.Fields), len(d.markRoom)), maxMarks); n == len(d.markRoom) {
			d.marks = d.markRoom[:]
		} else {
			d.marks = make([]int32, n)
		}
	}
	d.header = h
	d.sections++
	d.rows = 0
	d.rowsDecl = decl
	return nil
}

// walkHeader reads a header line scanHeader does not take, the grammar's
// way (parseHeader), checks the rules the grammar cannot express
// (spec.HeaderFault), and fills block and the decoder's columns as
// scanHeader does. The marks stand on its own stack, which the header of
// scanHeader's path never pays to clear.
func (d *Decoder) walkHeader(line []byte, text string, hasLF bool, block *headerBlock) (*declared, error) {
	var fieldRoom [markRoom]spec.Mark
	var keyRoom, valueRoom [metaMarkRoom]spec.Mark
	tool, fields, keys, values, err := d.parseHeader(line, text, hasLF, fieldRoom[:0], keyRoom[:0], valueRoom[:0])
	if err != nil {
		return nil, err
	}
	if f := spec.HeaderFault(fields, keys, values, d.Limits); f != nil {
		return nil, d.fault(f)
	}
	h := &block.h
	h.Tool = tool
	if len(fields) <= inlineFields {
		h.Fields = block.fields[:len(fields):len(fields)]
	} else {
		h.Fields = make([]string, len(fields))
	}
	for k, f := range fields {
		h.Fields[k] = f.Text
	}
	switch {
	case len(keys) == 0:
		h.Meta = nil // without pairs, as the reference has it
	case len(keys) <= inlineMeta:
		h.Meta = block.meta[:len(keys):len(keys)]
	default:
		h.Meta = make([]spec.Meta, len(keys))
	}
	var decl *declared
	for k, key := range keys {
		if key.Text == spec.KeyRows {
			d.decl = declared{value: values[k].Text, line: d.line, lineOffset: d.base + int64(d.start), col: values[k].Col}
			decl = &d.decl
		}
		h.Meta[k] = spec.Meta{Key: key.Text, Value: values[k].Text}
	}
	d.fieldsCol = fields[0].Col + 1
	if d.metaCols == nil {
		d.metaCols = d.metaColRoom[:0]
	}
	d.metaCols = d.metaCols[:0]
	for _, v := range values {
		d.metaCols = append(d.metaCols, v.Col+1)
	}
	return decl, nil
}

// parseHeader walks a header line the grammar's way, production by
// production, and reports the first byte that cannot continue it [ERR-2]:
// the path of every header scanHeader does not take, errors included. It
// appends the line's field names and meta pairs to fields, keys and values.
func (d *Decoder) parseHeader(line []byte, text string, hasLF bool, fields, keys, values []spec.Mark) (tool string, _, _, _ []spec.Mark, _ error) {
	p := headerParser{d: d, line: line, text: text, hasLF: hasLF, i: len(spec.Version)}
	// The SP after the tag, then "tool=": a byte of "tool=" that differs
	// is reported as the reference reports it, against "tool=" [HDR-2].
	if p.i == len(line) || line[p.i] != ' ' {
		return "", nil, nil, nil, p.unexpected("header", "HDR-1", "SP")
	}
	p.i++
	if err := p.literal("tool=", "header", "HDR-2"); err != nil {
		return "", nil, nil, nil, err
	}
	tool, err := p.name(' ')
	if err != nil {
		return "", nil, nil, nil, err
	}
	if p.i == len(line) || line[p.i] != ' ' {
		return "", nil, nil, nil, p.unexpected("header", "HDR-1", "SP")
	}
	p.i++
	if err := p.literal("fields=", "header", "HDR-2"); err != nil {
		return "", nil, nil, nil, err
	}
	for {
		at := p.i
		name, err := p.escapedText(spec.FieldEscapes)
		if err != nil {
			return "", nil, nil, nil, err
		}
		fields = append(fields, spec.Mark{Col: at, Text: name})
		if p.i == len(line) || line[p.i] != ',' {
			break
		}
		p.i++
	}
	for p.i < len(line) && line[p.i] == ' ' {
		p.i++
		keyAt := p.i
		key, err := p.name('=')
		if err != nil {
			return "", nil, nil, nil, err
		}
		if err := p.literal("=", "meta", "HDR-1"); err != nil {
			return "", nil, nil, nil, err
		}
		valueAt := p.i
		value, err := p.escapedText(spec.MetaEscapes)
		if err != nil {
			return "", nil, nil, nil, err
		}
		keys = append(keys, spec.Mark{Col: keyAt, Text: key})
		values = append(values, spec.Mark{Col: valueAt, Text: value})
	}
	if p.i < len(line) || !hasLF {
		expected := "a field name character, \",\", SP or LF"
		if len(keys) > 0 {
			expected = "a meta value character, SP or LF"
		}
		return "", nil, nil, nil, p.unexpected("header", "HDR-1", expected)
	}
	return tool, fields, keys, values, nil
}
