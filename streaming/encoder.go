package streaming

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// An Encoder writes a GCX1 payload section by section to an io.Writer: a
// header, then rows and comments in the order they are to appear. The bytes
// are those reference.Encode writes for the same model [CAN-2].
//
// Each call checks what it is given before writing it and refuses, with an
// *spec.Error of class spec.ErrModel, anything that has no GCX1 spelling
// [CAN-3] — the same rule reference.Encode names for the same defect. A
// header's rows= count is held to the rows that follow [META-4]: a row
// beyond it is refused before it is written, and a section that ends short
// of it (at the next WriteHeader or at Close) is refused then. Because
// earlier lines of that section may already have reached the writer, an
// error means the output must be discarded, as a decoder's caller discards
// rows delivered before an error [ERR-4].
//
// It also refuses, with an *spec.Error of class spec.ErrLimit naming
// [LIM-4], any line, field list, section or row that a Decoder with the same
// Limits would refuse [LIM-3], so what it writes under limits L decodes
// under L.
//
// Output is buffered: call Close at the end (or Flush along the way). Errors,
// the writer's included, are sticky.
type Encoder struct {
	// Limits bounds what the encoder writes, as Decoder.Limits bounds what
	// a decoder reads [LIM-4]. NewEncoder sets it to spec.DefaultLimits; a
	// zero field means no limit. Set it before the first call.
	Limits spec.Limits

	w      io.Writer
	buf    []byte
	pooled *[]byte // what buf came from buffers in, if it did
	err    error

	sections int    // headers written
	width    int    // fields of the current section
	rows     int    // rows written in the current section
	declared int64  // the current section's rows= count, or -1
	rowsText string // the current section's rows= value, as written
	closed   bool
}

// flushAt is the size at which the buffer is handed to the writer.
const flushAt = 64 << 10

// buffers holds the buffers of closed Encoders, as *[]byte, for the next
// ones: an Encoder per payload, as a server makes per call, then grows no
// buffer of its own. Only buffers of up to maxPooled bytes go back, so a
// buffer grown for a very long line is left to the collector.
var buffers sync.Pool

const maxPooled = 4 * flushAt

// grow returns e.buf with room for n more bytes, taking a pooled buffer
// first if e has none yet.
func (e *Encoder) grow(n int) []byte {
	if cap(e.buf) == 0 {
		if p, ok := buffers.Get().(*[]byte); ok {
			e.pooled, e.buf = p, (*p)[:0]
		}
	}
	return slices.Grow(e.buf, n)
}

// release hands e's buffer back to buffers once e is done with it.
func (e *Encoder) release() {
	if cap(e.buf) == 0 || cap(e.buf) > maxPooled {
		return
	}
	p := e.pooled
	if p == nil {
		p = new([]byte)
	}
	*p = e.buf[:0]
	buffers.Put(p)
	e.buf, e.pooled = nil, nil
}

var errClosed = errors.New("streaming: Encoder used after Close")

// NewEncoder returns an Encoder that writes to w with spec.DefaultLimits.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w, declared: -1, Limits: spec.DefaultLimits}
}

// Reset discards the Encoder's state and unwritten output and makes it
// write a new payload to w, keeping its buffer and its Limits, so that one
// Encoder can serve many payloads without allocating again.
func (e *Encoder) Reset(w io.Writer) {
	*e = Encoder{Limits: e.Limits, w: w, buf: e.buf[:0], pooled: e.pooled, declared: -1}
}

// WriteHeader ends the current section, if any, and begins a new one with
// the given header [HDR-1].
func (e *Encoder) WriteHeader(h *Header) error {
	if err := e.usable(); err != nil {
		return err
	}
	if e.sections > 0 {
		if err := e.endSection(); err != nil {
			return e.fail(err)
		}
	}
	if err := spec.CheckHeader(e.sections, h.Tool, h.Fields, h.Meta); err != nil {
		return e.fail(err)
	}
	if f := e.Limits.SectionFault(e.sections); f != nil {
		return e.fail(limitErr(fmt.Sprintf("section %d", e.sections+1), f))
	}
	if f := e.Limits.FieldFault(len(h.Fields)-1, 0); f != nil {
		return e.fail(limitErr(fmt.Sprintf("section %d", e.sections+1), f))
	}
	e.declared, e.rowsText = -1, ""
	if value, ok := spec.RowCountValue(h.Meta); ok {
		e.declared, _ = strconv.ParseInt(value, 10, 64) // CheckHeader vouched for it [META-1]
		e.rowsText = value
	}
	e.sections++
	e.width = len(h.Fields)
	e.rows = 0

	start := len(e.buf)
	b := AppendHeader(e.grow(0), h)
	if f := e.Limits.LineFault(len(b) - start); f != nil {
		e.buf = b[:start]
		return e.fail(limitErr(fmt.Sprintf("section %d, header of %d bytes", e.sections, len(b)-start), f))
	}
	e.buf = append(b, '\n')
	return e.flushIfFull()
}

// AppendHeader appends h's header line to dst as WriteHeader writes it,
// without its LF and unchecked: a caller that weighs a header before
// writing it (its length against a line limit) measures what is written.
func AppendHeader(dst []byte, h *Header) []byte {
	dst = append(dst, spec.Version...)
	dst = append(dst, " tool="...)
	dst = append(dst, h.Tool...)
	dst = append(dst, " fields="...)
	for i, f := range h.Fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = spec.FieldEscapes.Append(dst, f)
	}
	for _, m := range h.Meta {
		dst = append(dst, ' ')
		dst = append(dst, m.Key...)
		dst = append(dst, '=')
		dst = spec.MetaEscapes.Append(dst, m.Value)
	}
	return dst
}

// WriteRow writes one row of the current section: one value per field
// [ROW-2], escaped [VAL-1], the first behind a guard if it begins with "#"
// or "GCX" [ROW-4].
func (e *Encoder) WriteRow(values []string) error {
	if err := e.usable(); err != nil {
		return err
	}
	if e.sections == 0 {
		return e.fail(&spec.Error{Class: spec.ErrModel, Rule: "PAY-2", Msg: "a row needs a section header before it"})
	}
	if len(values) != e.width {
		return e.fail(spec.CheckRow(e.sections-1, e.rows, e.width, values))
	}
	// The row is written past the end of buf and kept only once it has
	// passed every check, in the reference's order: the values first, the
	// count after [CAN-3].
	b := e.buf
	start := len(b)
	// Room for the row at its longest, every byte escaped, with a guard,
	// its TABs and the scanner's slack, made once: escapeRow then writes
	// the whole row, if it is ASCII, in one call that checks no room.
	if cap(b)-len(b) < rowRoom(values) {
		b = e.grow(rowRoom(values))
	}
	if len(values) > 0 && spec.NeedsGuard(values[0]) {
		b = append(b, spec.GuardByte)
	}
	for rest := values; len(rest) > 0; {
		k, read, written := escapeRow(at(unsafe.SliceData(b), len(b)), unsafe.SliceData(rest), len(rest))
		b = b[:len(b)+written]
		if k == len(rest) {
			break
		}
		// Value k holds a byte that is not ASCII: appendValue checks
		// and copies it from there.
		var valid bool
		if b, valid = appendValue(b, rest[k][read:]); !valid {
			return e.fail(spec.CheckRow(e.sections-1, e.rows, e.width, values))
		}
		rest = rest[k+1:]
		if len(rest) > 0 {
			b = append(b, '\t')
			if cap(b)-len(b) < rowRoom(rest) {
				b = slices.Grow(b, rowRoom(rest))
			}
		}
	}
	if e.declared >= 0 && int64(e.rows) == e.declared {
		return e.fail(&spec.Error{Class: spec.ErrModel, Rule: "META-4",
			Msg: fmt.Sprintf("section %d: rows=%d but a row %d is written", e.sections, e.declared, e.rows+1)})
	}
	if f := e.Limits.RowFault(e.rows); f != nil {
		return e.fail(limitErr(fmt.Sprintf("section %d", e.sections), f))
	}
	if f := e.Limits.LineFault(len(b) - start); f != nil {
		return e.fail(limitErr(fmt.Sprintf("section %d, row %d of %d bytes", e.sections, e.rows+1, len(b)-start), f))
	}
	e.buf = append(b, '\n')
	e.rows++
	return e.flushIfFull()
}

// rowRoom is the room escapeRow needs for values: twice their bytes, a
// TAB each and valueSlack (and so a guard's byte too).
func rowRoom(values []string) int {
	n := len(values) + valueSlack
	for _, v := range values {
		n += 2 * len(v)
	}
	return n
}

// WriteComment writes a comment line in the current section, after the rows
// written so far [CMT-2] [CMT-3]. The text is written raw, so it may not hold
// LF or CR [CMT-4].
func (e *Encoder) WriteComment(text string) error {
	if err := e.usable(); err != nil {
		return err
	}
	if e.sections == 0 {
		return e.fail(&spec.Error{Class: spec.ErrModel, Rule: "CMT-2", Msg: "a comment needs a section header before it"})
	}
	if err := spec.CheckComment(e.sections-1, text); err != nil {
		return e.fail(err)
	}
	if f := e.Limits.LineFault(1 + len(text)); f != nil {
		return e.fail(limitErr(fmt.Sprintf("section %d, comment of %d bytes", e.sections, 1+len(text)), f))
	}
	e.buf = append(e.buf, '#')
	e.buf = append(e.buf, text...)
	e.buf = append(e.buf, '\n')
	return e.flushIfFull()
}

// Flush writes the buffered bytes to the underlying writer.
func (e *Encoder) Flush() error {
	if e.err != nil {
		return e.err
	}
	if len(e.buf) == 0 {
		return nil
	}
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	if err != nil {
		e.err = err
	}
	return err
}

// Close ends the last section, checking its rows= count, and flushes. A
// payload needs at least one section [PAY-1]. Close does not close the
// underlying writer.
func (e *Encoder) Close() error {
	if err := e.usable(); err != nil {
		return err
	}
	if e.sections == 0 {
		return e.fail(&spec.Error{Class: spec.ErrModel, Rule: "PAY-1", Msg: "a payload needs at least one section"})
	}
	if err := e.endSection(); err != nil {
		return e.fail(err)
	}
	err := e.Flush()
	e.closed = true
	e.release()
	return err
}

// Encode writes p to w through an Encoder with spec.DefaultLimits, one call
// per item in wire order:
// WriteHeader for each section, then its rows with each comment written
// just before the row it precedes [CMT-3], then Close. It is the counterpart
// of Decode, and writes the bytes reference.Encode returns for p [CAN-2].
//
// A model without a GCX1 spelling is refused with an *spec.Error of class
// spec.ErrModel [CAN-3]. Comments out of order, or placed beyond the last
// row, are refused with spec.CheckCommentPlace's error, not reordered: the
// Encoder writes a comment after the rows written so far, so no sequence
// of calls spells such a model. A model with several defects is refused
// for the first it meets in wire order, which is the order [CAN-3] settles
// and spec.Payload.Check, and so reference.Encode, follows.
//
// Encode does not check the whole model before it writes. On error w may
// already hold the start of the payload — whole lines before the defect,
// handed over each time the Encoder's 64 KiB buffer filled — and the caller
// must discard it [ERR-4]. An error from w is returned as it is.
func Encode(w io.Writer, p *spec.Payload) error {
	return EncodeLimits(w, p, spec.DefaultLimits)
}

// EncodeLimits is Encode under the given limits: it refuses, with a limit
// error, a payload a Decoder under them would refuse [LIM-4].
func EncodeLimits(w io.Writer, p *spec.Payload, limits spec.Limits) error {
	e := NewEncoder(w)
	e.Limits = limits
	if p == nil {
		return e.Close() // no sections [PAY-1]
	}
	for i := range p.Sections {
		s := &p.Sections[i]
		if err := e.WriteHeader(&Header{Tool: s.Tool, Fields: s.Fields, Meta: s.Meta}); err != nil {
			return err
		}
		err := s.Walk(i,
			func(cm spec.Comment) error { return e.WriteComment(cm.Text) },
			func(_ int, values []string) error { return e.WriteRow(values) })
		if err != nil {
			return err
		}
	}
	return e.Close()
}

func (e *Encoder) usable() error {
	if e.err != nil {
		return e.err
	}
	if e.closed {
		return errClosed
	}
	return nil
}

func (e *Encoder) fail(err error) error {
	e.err = err
	return err
}

// limitErr is the error of a line, field list, section or row that a
// decoder under the same limits would refuse [LIM-4]: the decoder's fault,
// said of what is being written.
func limitErr(where string, f *spec.Fault) *spec.Error {
	return &spec.Error{Class: spec.ErrLimit, Rule: "LIM-4", Msg: where + ": " + f.Msg}
}

// endSection refuses a section that ended short of its rows= count [META-4].
func (e *Encoder) endSection() error {
	if e.declared < 0 {
		return nil
	}
	if f := spec.RowCountFault(e.rowsText, e.rows); f != nil {
		return &spec.Error{Class: spec.ErrModel, Rule: f.Rule, Msg: fmt.Sprintf("section %d: %s", e.sections, f.Msg)}
	}
	return nil
}

func (e *Encoder) flushIfFull() error {
	if len(e.buf) < flushAt {
		return nil
	}
	return e.Flush()
}
