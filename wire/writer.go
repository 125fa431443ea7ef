// Package wire reads and writes the wire view of a GCX1 payload [WIRE-1]:
// its sections, fields, meta pairs, rows and comments written as JSON.
//
// The wire view is what `gcx decode --wire` prints and `gcx encode --wire`
// reads, and the protocol between the conformance runner and an
// implementation under test:
//
//	{"sections":[{"tool":"search_symbols","fields":["id","kind"],
//	  "meta":[["rows","2"]],"rows":[["a","function"],["b",""]],
//	  "comments":[[0,"two hits"]]}]}
//
// Both directions stream. A Writer takes a payload item by item, as
// streaming.Decoder delivers it, and holds no more than the current item
// (and a section's comments, which the view lists after its rows; past
// 1 MiB they wait in a temporary file). A Reader hands a view over item by
// item, ready for streaming.Encoder, and holds no more than one string.
package wire

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/spec"
)

// flushAt is the size at which a Writer hands its buffer to the writer.
const flushAt = 64 << 10

// A Writer writes a wire view item by item: WriteHeader for each section,
// then the section's rows and comments in payload order, then Close. Its
// output is compact JSON followed by LF, the bytes Marshal returns for the
// same payload. Errors, the writer's included, are sticky.
type Writer struct {
	w        io.Writer
	buf      []byte
	err      error
	sections int
	rows     int   // rows written in the current section
	comments spill // the current section's comments, as JSON array elements
	closed   bool
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// WriteHeader ends the current section, if any, and begins the next.
func (w *Writer) WriteHeader(tool string, fields []string, meta []spec.Meta) error {
	if w.err != nil {
		return w.err
	}
	if w.sections == 0 {
		w.buf = append(w.buf, `{"sections":[`...)
	} else {
		w.endSection()
		w.buf = append(w.buf, ',')
	}
	w.sections++
	w.rows = 0
	b := append(w.buf, `{"tool":`...)
	b = jsontext.AppendString(b, tool)
	b = append(b, `,"fields":[`...)
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, f)
	}
	b = append(b, `],"meta":[`...)
	for i, m := range meta {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsontext.AppendString(b, m.Key)
		b = append(b, ',')
		b = jsontext.AppendString(b, m.Value)
		b = append(b, ']')
	}
	w.buf = append(b, `],"rows":[`...)
	return w.flushIfFull()
}

// WriteRow writes one row of the current section.
func (w *Writer) WriteRow(values []string) error {
	if w.err != nil {
		return w.err
	}
	b := w.buf
	if w.rows > 0 {
		b = append(b, ',')
	}
	b = append(b, '[')
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, v)
	}
	w.buf = append(b, ']')
	w.rows++
	return w.flushIfFull()
}

// WriteComment writes a comment of the current section; its Row is the
// number of the section's rows before it [CMT-3]. The view lists comments
// after the rows, so they are held until the section ends.
func (w *Writer) WriteComment(c spec.Comment) error {
	if w.err != nil {
		return w.err
	}
	var b []byte
	if w.comments.n > 0 {
		b = append(b, ',')
	}
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(c.Row), 10)
	b = append(b, ',')
	b = jsontext.AppendString(b, c.Text)
	b = append(b, ']')
	if err := w.comments.write(b); err != nil {
		w.err = err
	}
	return w.err
}

// Close ends the last section and the view, and flushes. It does not close
// the underlying writer. A view needs at least one section [PAY-1].
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	if w.sections == 0 {
		w.buf = append(w.buf, `{"sections":[`...)
	} else {
		w.endSection()
	}
	w.buf = append(w.buf, "]}\n"...)
	return w.flush()
}

// Abandon releases what the Writer holds (a temporary file of comments)
// without ending the view: the output stops where it stands, an unfinished
// JSON text [WIRE-4].
func (w *Writer) Abandon() {
	w.comments.reset()
	w.closed = true
}

// endSection closes the current section's rows and writes its comments.
func (w *Writer) endSection() {
	w.buf = append(w.buf, ']')
	if w.comments.n > 0 {
		w.buf = append(w.buf, `,"comments":[`...)
		if err := w.flush(); err != nil {
			return
		}
		if err := w.comments.copyTo(w.w); err != nil {
			w.err = err
			return
		}
		w.buf = append(w.buf, ']')
	}
	w.comments.reset()
	w.buf = append(w.buf, '}')
}

func (w *Writer) flushIfFull() error {
	if len(w.buf) < flushAt {
		return nil
	}
	return w.flush()
}

func (w *Writer) flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) > 0 {
		_, w.err = w.w.Write(w.buf)
		w.buf = w.buf[:0]
	}
	return w.err
}

// Marshal returns the wire view of p: compact JSON followed by LF
// [WIRE-1].
func Marshal(p *spec.Payload) []byte {
	var out bytesWriter
	w := NewWriter(&out)
	for _, s := range p.Sections {
		w.WriteHeader(s.Tool, s.Fields, s.Meta)
		for _, row := range s.Rows {
			w.WriteRow(row)
		}
		for _, c := range s.Comments {
			w.WriteComment(c)
		}
	}
	w.Close() // a bytesWriter does not fail
	return out
}

type bytesWriter []byte

func (b *bytesWriter) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// spillAt is how many bytes a spill holds in memory before it moves them
// to a temporary file: 1 MiB, the memory a section's rows or comments may
// take however many there are (TestSpillMovesToAFilePastSpillAt).
const spillAt = 1 << 20

// spill holds bytes in memory up to spillAt and in a temporary file beyond,
// unless keepInMemory.
type spill struct {
	keepInMemory bool
	mem          []byte
	file         *os.File
	fileBuf      *bufio.Writer
	n            int64 // writes
}

func (s *spill) write(b []byte) error {
	s.n++
	if s.file == nil && (s.keepInMemory || len(s.mem)+len(b) <= spillAt) {
		s.mem = append(s.mem, b...)
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "gcx-spill-*")
		if err != nil {
			return err
		}
		os.Remove(f.Name()) // unnamed: gone when closed, whatever happens
		s.file, s.fileBuf = f, bufio.NewWriterSize(f, 64<<10)
		if _, err := s.fileBuf.Write(s.mem); err != nil {
			return err
		}
		s.mem = nil
	}
	_, err := s.fileBuf.Write(b)
	return err
}

// open returns a reader over what was written.
func (s *spill) open() (io.Reader, error) {
	if s.file == nil {
		return bytes.NewReader(s.mem), nil
	}
	if err := s.fileBuf.Flush(); err != nil {
		return nil, err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return bufio.NewReaderSize(s.file, 64<<10), nil
}

func (s *spill) copyTo(w io.Writer) error {
	r, err := s.open()
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return err
}

func (s *spill) reset() {
	if s.file != nil {
		s.file.Close()
		s.file, s.fileBuf = nil, nil
	}
	s.mem = s.mem[:0]
	s.n = 0
}
