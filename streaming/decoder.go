// Package streaming reads and writes GCX1 incrementally: a pull Decoder over
// an io.Reader or a string, and an Encoder over an io.Writer.
//
// It is the module's one engine: the gcx command, the JSON mapping and auto
// mode all decode and encode through it. Packages reference and grammar are
// oracles the tests hold it against, never product paths. The rules' data —
// escape alphabets, the guard, tag classification, header and limit checks
// and their messages — comes from package spec, which both this package
// and the reference call.
//
// The Decoder gives exactly the answers of the reference parser (package
// reference), however the bytes arrive: the same sections, rows and
// comments, and the same first error with the same class, position and rule,
// reported in the same order [ERR-3]. It holds one line at a time, so memory
// stays flat however long the payload.
//
// Most rows are well formed. On amd64 such a row is found, split and
// unescaped from one vector pass over its bytes (SSE2, with an AVX2 loop for
// long values where the processor has it) that marks its LF, TABs and
// backslashes, and its UTF-8 is checked by a vectorised validator only when
// it is not all ASCII; elsewhere (and with -tags purego) the buffered input
// is checked for backslashes, CRs and UTF-8 once per buffer and rows are
// split with bytes.IndexByte. Every other line — headers, comments, rows
// with faults — takes a general path that walks the grammar and reports the
// first error exactly where the reference does. docs/performance.md has the
// figures.
//
// The Encoder writes the reference encoder's canonical bytes [CAN-2] and
// refuses, with the same error class and rule, any model that has no GCX1
// spelling [CAN-3]. Encode writes a whole spec.Payload through one, as
// Decode reads one.
package streaming

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// Kind tells what Decoder.Next read.
type Kind int

const (
	// KindHeader: a section header; Header returns it.
	KindHeader Kind = iota + 1
	// KindRow: a row of the current section; Row returns its values.
	KindRow
	// KindComment: a comment line of the current section; Comment returns it.
	KindComment
)

func (k Kind) String() string {
	switch k {
	case KindHeader:
		return "header"
	case KindRow:
		return "row"
	case KindComment:
		return "comment"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Header is a decoded section header: the part of a spec.Section that comes
// before its rows.
type Header struct {
	Tool   string      // the tool= name [HDR-2]
	Fields []string    // the fields= names, decoded, in order [HDR-5]
	Meta   []spec.Meta // every pair after fields=, decoded, in wire order [HDR-9]

}

// A Decoder reads a GCX1 payload line by line from an io.Reader or a string.
//
// Next reads the next line and reports whether it was a section header, a
// row or a comment; Header, Row and Comment return what it read. Next
// returns io.EOF at the clean end of a valid payload.
//
// As with encoding/csv.Reader, the exported fields are options; set them
// before the first call to Next and leave them alone afterwards.
//
// # Errors
//
// Every error in the payload is a *spec.Error equal to the one
// reference.DecodeLimits reports for the same bytes: class, line, column,
// offset, production and rule. Items are delivered as their lines are read,
// so a payload that turns out to be broken may already have delivered
// headers, rows and comments; a caller that needs all-or-nothing must
// discard them [ERR-4] (Decode does). A section's rows= count is checked
// when the section ends, at the next header or at the end of the input
// [META-4], so the error comes after the section's rows.
//
// An error from the underlying reader is returned as it is, not wrapped.
// Next examines a line once its LF has arrived, the input has ended, or more
// of it has arrived than Limits.MaxLineBytes allows (and at least the 33
// bytes a version tag needs to be classified); every line examined before
// the reader failed has been delivered, or has produced its error, and the
// reader's error comes back in place of the first item that needed bytes the
// reader could not supply. Errors are sticky: once Next has returned an
// error, including io.EOF, it returns the same error again.
type Decoder struct {
	// Limits bounds what the decoder reads [LIM-1]. NewDecoder sets it to
	// spec.DefaultLimits; a zero field means no limit. Nothing else bounds
	// a line: with MaxLineBytes at 0 a line may be as long as memory
	// allows.
	Limits spec.Limits

	// ReuseRecord makes Row return a slice, and strings, that share
	// storage with the decoder, and likewise the Text of Comment: the next
	// call to Next may overwrite them. In exchange a row or a comment costs
	// no allocation at all. Copy what you keep (strings.Clone,
	// slices.Clone) before calling Next again, and never use such a string
	// as a map key that outlives the call. Headers are never shared.
	//
	// Without ReuseRecord the rows and comments are the caller's to keep,
	// and cost no allocation each either. The decoder then never writes
	// over what it has read: their strings point into its read buffer,
	// and once a buffer is full, reading goes on in a new one (from 64 KiB
	// doubling up to 256 KiB, or 256 KiB at once where the reader tells
	// the input's length, or the input's size where that is smaller, or
	// up to twice the longest line so far where that is longer), which
	// leaves the old one to the strings. Only a row with escapes has its
	// decoded text copied, into blocks that start at 1 KiB and double up
	// to 16 KiB (twice the row, for a longer row). The rows' slices are
	// cut from shared slabs, capped at the row's width. A row kept alive
	// therefore keeps its buffer or block and its slab alive, about
	// 256 KiB of other rows' text each at most; a caller that keeps a few
	// rows of a long stream and drops the rest should strings.Clone the
	// few.
	ReuseRecord bool

	// The flags stand next to ReuseRecord, where they take no room of
	// their own: a call makes a new Decoder, so its size is a call's.
	growNext bool // the last read filled the buffer: grow it before the next
	// sealed: without ReuseRecord, what is read into buf is never
	// written over: fresh rows, comments and headers point into it rather
	// than copy their text, and once it is full, reading goes on in a new
	// buffer.
	sealed bool
	// portable makes the decoder read every row the portable way, as it
	// does where there is no row scanner, so tests cover that path too.
	portable bool
	// ended: the reader has reported the end of the input (rerr is
	// io.EOF), so nothing is read into buf again.
	ended bool
	// inPlace: buf is the string NewDecoderString was given, or all of
	// it but its last bytes, which r then holds; it is never written to.
	// Until the first Next, buf is empty, with the string as its capacity;
	// where r holds bytes, the first read moves on to a buffer of the
	// decoder's own, and where not, the input has ended once buf is set.
	inPlace bool

	r    io.Reader
	rerr error // the reader's error once it returned one, io.EOF included
	err  error // what Next returns from now on, once set

	buf       []byte // buffered input; buf[start:end] is unread
	start     int
	end       int
	base      int64 // input offset of buf[0]
	threshold int   // bytes of an unfinished line that are enough to decide it; 0: none
	// clean is where the bytes known to need no closer look end: from
	// start (or wherever clean stood before, if that is further) up to it,
	// the buffer holds no backslash, no CR and only valid UTF-8.
	clean int

	marks []int32 // where readPlainRow found the row's TABs and backslashes
	// escaped is where rows with escapes are decoded; nil until the first
	// such row, as a short call of plain rows never needs it.
	escaped *escapedRow

	// line is the 1-based number of the line at buf[start]; the item Next
	// returned last stands on the line before it.
	line int

	header   *Header
	sections int       // headers read
	rows     int       // rows read in the current section
	rowsDecl *declared // nil, or &decl
	decl     declared

	// Where the current header's fields= value and meta values begin,
	// 1-based, for FieldsColumn and MetaColumn.
	fieldsCol int
	metaCols  []int
	// The decoder's own room for metaCols and marks, so that a header
	// of a few fields and pairs costs no allocation for them.
	// markRoom holds the TABs and a few backslashes of a row of up to
	// inlineFields fields, as many as a Header holds in its own block.
	metaColRoom [inlineMeta]int
	markRoom    [2 * inlineFields]int32

	record []string
	// recordRoom is where a row's values go with ReuseRecord, for a
	// section of up to inlineFields fields: a call's rows then cost no
	// allocation for their slice (startBuffer).
	recordRoom [inlineFields]string
	kept       arena // where rows and comments are copied without ReuseRecord
	comment    spec.Comment

	// first is the first section's Header, with room for its fields and
	// pairs, and firstLine the copy of its line that its strings point
	// into with ReuseRecord, where the line is short enough and the
	// input was not read whole (ended): a call of one section allocates
	// no Header of its own. A string read in place, whose decoder is
	// sealed and never copies its header there, may move its last line
	// into firstLine instead (readRest). firstLine takes what
	// is left of the runtime's 1 KiB size class, where a Decoder with
	// the 8-byte header of an object with pointers over 512 bytes is
	// allocated (TestDecoderHoldsTheFirstHeader): a short header's
	// worth, as recordRoom, which every call with ReuseRecord uses,
	// took the rest.
	first     headerBlock
	firstLine [56]byte
}

// escapedRow is the room a Decoder decodes rows with escapes in, kept from
// row to row.
type escapedRow struct {
	textTabs []int32 // where readPlainRow's unescaped row has its TABs
	ends     []int   // where each value of the row being read ends, in rowText
	rowText  []byte  // the row's values once escapes are decoded
}

// escapedRoom returns d.escaped, allocated on first use.
func (d *Decoder) escapedRoom() *escapedRow {
	if d.escaped == nil {
		d.escaped = new(escapedRow)
	}
	return d.escaped
}

// declared remembers a header's rows= value and where it stands, for the
// check at the end of the section [META-4].
type declared struct {
	value      string
	line       int
	lineOffset int64
	col        int
}

// NewDecoder returns a Decoder that reads from r with spec.DefaultLimits.
//
// A small payload from a reader that tells its length (inputSize), as a
// call's result nearly always is, gets its buffer in the decoder's own
// allocation (decoderRoom): a call then allocates one object where it
// allocated two. Fresh rows point into that buffer, so a row kept alive
// keeps the decoder alive too, as the first section's Header does.
func NewDecoder(r io.Reader) *Decoder {
	if n, ok := inputSize(r); ok && n+1+bufferSlack <= roomLarge {
		return newRoomDecoder(r, n+1+bufferSlack)
	}
	return &Decoder{r: r, Limits: spec.DefaultLimits, line: 1}
}

// NewDecoderString returns a Decoder that reads the payload s in place,
// with spec.DefaultLimits. It gives the answers of
// NewDecoder(strings.NewReader(s)), but reads s where it lies rather than
// copying it into buffers of its own: a string's bytes never change, so
// the string itself can be the read buffer. The one exception is a string
// that ends within 16 bytes of a 4 KiB page boundary, one in 256, whose
// next page the row scanner must not load from: its last 16 bytes, with
// the line they end, are copied into a buffer of the decoder's.
//
// Fresh rows, comments and headers point into s (those of such a copied
// last line into that buffer), with or without ReuseRecord, so one kept
// alive keeps s alive. A payload the caller already holds as a string — a
// tool call's text block — then costs no new memory for its text, however
// long its values.
func NewDecoderString(s string) *Decoder {
	return newDecoderString(s, scanRoomAfter(s))
}

// newDecoderString is NewDecoderString, told whether the memory after s
// may be loaded (scanRoomAfter). Where it may, the whole of s is read in
// place and the decoder is allocated alone, in the 1 KiB size class; where
// it may not, all of s but its last bufferSlack bytes is read in place,
// and its last line is copied with those bytes into a buffer that has room
// after them, read from a reader allocated with the decoder.
func newDecoderString(s string, roomAfter bool) *Decoder {
	var d *Decoder
	cut := len(s)
	if roomAfter {
		d = new(Decoder)
		d.r = noTail
	} else {
		x := new(stringDecoder)
		cut = max(len(s)-bufferSlack, 0)
		x.tail.Reset(s[cut:])
		d = &x.d
		d.r = &x.tail
	}
	d.Limits, d.line = spec.DefaultLimits, 1
	if cut > 0 {
		d.buf = unsafe.Slice(unsafe.StringData(s), cut)[:0]
		d.inPlace = true
	}
	return d
}

// noTail is the reader of a string read whole in place: empty, so that
// the decoder's first Next finds the input ended (startBuffer). It is
// shared, as only its Len is ever called, which writes nothing.
var noTail = strings.NewReader("")

// scanRoomAfter reports whether the row scanner may load the bufferSlack
// bytes after s, which it may do past the end of a line, as it may past
// the end of any buffer: whether they lie on the memory page of s's last
// byte. Memory is mapped and protected a page at a time, so a load there
// cannot fault, whatever the bytes are, and the scanner marks nothing past
// the bytes it was given. Pages are at least 4 KiB, and a multiple of that
// where larger, so a boundary of theirs is one of 4 KiB as well. Only
// strings that end within bufferSlack bytes of such a boundary, one in 256,
// have no room.
func scanRoomAfter(s string) bool {
	if len(s) == 0 {
		return false
	}
	const page = 4 << 10
	last := uintptr(unsafe.Pointer(unsafe.StringData(s))) + uintptr(len(s)) - 1
	return last/page == (last+bufferSlack)/page
}

// stringDecoder is a Decoder and the reader of the last bytes of the
// string it reads in place, allocated together.
type stringDecoder struct {
	d    Decoder
	tail strings.Reader
}

// The rooms a Decoder is allocated with for a small input's buffer: each
// makes the decoder and its room, with the 8-byte header the runtime puts
// before an object with pointers over 512 bytes, fill one of the runtime's
// size classes, from 1,152 to 4,096 bytes (TestDecoderRoomsFillSizeClasses),
// so that an input takes at most about twice its bytes of room and a call's
// few hundred bytes little more than they did apart.
const (
	room128   = 128
	room256   = 256
	room512   = 512
	room1024  = 1024
	room1280  = 1280
	room2048  = 2048
	roomLarge = 3072
)

// decoderRoom is a Decoder and the room after it that its first buffer
// takes where the input fits it.
type decoderRoom[Room any] struct {
	d    Decoder
	room Room
}

// newRoomDecoder returns a Decoder allocated with the least room of at
// least need bytes, which its first buffer takes (next): d.buf is that
// room, empty, until then.
func newRoomDecoder(r io.Reader, need int) *Decoder {
	switch {
	case need <= room128:
		return roomDecoder(new(decoderRoom[[room128]byte]), r)
	case need <= room256:
		return roomDecoder(new(decoderRoom[[room256]byte]), r)
	case need <= room512:
		return roomDecoder(new(decoderRoom[[room512]byte]), r)
	case need <= room1024:
		return roomDecoder(new(decoderRoom[[room1024]byte]), r)
	case need <= room1280:
		return roomDecoder(new(decoderRoom[[room1280]byte]), r)
	case need <= room2048:
		return roomDecoder(new(decoderRoom[[room2048]byte]), r)
	}
	return roomDecoder(new(decoderRoom[[roomLarge]byte]), r)
}

// roomDecoder sets up the Decoder of x, whose room is a byte array.
func roomDecoder[Room any](x *decoderRoom[Room], r io.Reader) *Decoder {
	// Field by field: a composite literal would be built aside and
	// copied, 1 KiB.
	x.d.r, x.d.Limits, x.d.line = r, spec.DefaultLimits, 1
	x.d.buf = unsafe.Slice((*byte)(unsafe.Pointer(&x.room)), unsafe.Sizeof(x.room))[:0]
	return &x.d
}

// Next reads the next line of the payload and reports its kind. It returns
// io.EOF after the last line of a valid payload.
//
// It is small enough to inline: next keeps the error it returns.
func (d *Decoder) Next() (Kind, error) {
	if d.err != nil {
		return 0, d.err
	}
	return d.next()
}

// stop keeps err as what Next returns from now on, and returns it.
func (d *Decoder) stop(err error) (Kind, error) {
	d.err = err
	return 0, err
}

// Header returns the header of the current section: the one Next read last
// when it returned KindHeader, and the section that rows and comments belong
// to. It is nil before the first header. Each section gets a new Header, so
// it may be kept. The first section's stands in the decoder's own
// allocation, which keeping it keeps alive too, with the buffer it reads
// into at the time.
func (d *Decoder) Header() *Header { return d.header }

// Row returns the values of the row Next just read, one per field [ROW-2].
// With ReuseRecord the slice and its strings are valid only until the next
// call to Next.
func (d *Decoder) Row() []string { return d.record }

// Comment returns the comment Next just read. Its Row is the number of rows
// of the section that precede it [CMT-3]. With ReuseRecord its Text is valid
// only until the next call to Next.
func (d *Decoder) Comment() spec.Comment { return d.comment }

// Line returns the 1-based line number of the item Next returned last.
func (d *Decoder) Line() int { return d.line - 1 }

// InputOffset returns the input offset just past the last line Next
// returned: the number of bytes of the payload consumed so far.
func (d *Decoder) InputOffset() int64 { return d.base + int64(d.start) }

// FieldsColumn returns the 1-based byte column of the first byte of the
// fields= value in the current section's header, for errors about the
// field list [ERR-2].
func (d *Decoder) FieldsColumn() int { return d.fieldsCol }

// MetaColumn returns the 1-based byte column of the first byte of the value
// of Header().Meta[i] in the current section's header.
func (d *Decoder) MetaColumn(i int) int { return d.metaCols[i] }

// LineOffset returns the input offset of the first byte of the line of the
// item Next returned last. It looks back over that line, which is still in
// the buffer, so it costs nothing until it is called.
func (d *Decoder) LineOffset() int64 {
	return d.base + int64(d.lineStart())
}

// lineStart returns where the last line Next returned begins in buf: after
// the LF before it, or at 0, where the buffer's move put the line.
func (d *Decoder) lineStart() int {
	if d.start == 0 {
		return 0
	}
	return bytes.LastIndexByte(d.buf[:d.start-1], '\n') + 1
}

// ValueColumn returns the 1-based byte column at which value i of the row
// Next returned last begins, after the guard if the row has one [ROW-4]:
// for errors about a value [ERR-2]. Like LineOffset it looks at the row's
// bytes only when called.
func (d *Decoder) ValueColumn(i int) int {
	line := d.buf[d.lineStart() : d.start-1]
	at := 0
	if spec.StartsGuard(line) {
		at = 1
	}
	for ; i > 0; i-- {
		tab := bytes.IndexByte(line[at:], '\t')
		if tab < 0 {
			return len(line) + 1
		}
		at += tab + 1
	}
	return at + 1
}

// Decode reads a whole payload from r under the given limits and returns it,
// or no payload at all and the first error [ERR-4], exactly as
// reference.DecodeLimits does for the same bytes.
func Decode(r io.Reader, limits spec.Limits) (*spec.Payload, error) {
	d := NewDecoder(r)
	d.Limits = limits
	return d.ReadAll()
}

// ReadAll reads the rest of the payload and returns it whole, or no
// payload at all and the first error [ERR-4]. With ReuseRecord it copies
// each row and comment before the next call to Next can overwrite it.
func (d *Decoder) ReadAll() (*spec.Payload, error) {
	var p spec.Payload
	for {
		kind, err := d.Next()
		if err == io.EOF {
			return &p, nil
		}
		if err != nil {
			return nil, err
		}
		switch kind {
		case KindHeader:
			h := d.Header()
			p.Sections = append(p.Sections, spec.Section{Tool: h.Tool, Fields: h.Fields, Meta: h.Meta})
		case KindRow:
			s := &p.Sections[len(p.Sections)-1]
			row := d.Row()
			if d.ReuseRecord {
				row = make([]string, len(row))
				for i, v := range d.Row() {
					row[i] = strings.Clone(v)
				}
			}
			s.Rows = append(s.Rows, row)
		case KindComment:
			s := &p.Sections[len(p.Sections)-1]
			c := d.Comment()
			if d.ReuseRecord {
				c.Text = strings.Clone(c.Text)
			}
			s.Comments = append(s.Comments, c)
		}
	}
}

const (
	// initialBuffer is the first buffer's size where the input's is not
	// known (inputSize): small, because most payloads are small. Once a
	// read fills it the buffer grows to fullBuffer, and beyond that it
	// only doubles to hold a longer line. Each, with its slack, is a
	// size the runtime allocates without rounding up: 4 KiB is a size
	// class, and 64 KiB eight pages, where 64 KiB and the slack took nine
	// (a ninth of every full buffer unused).
	initialBuffer = 4<<10 - bufferSlack
	fullBuffer    = 64<<10 - bufferSlack
	// bufferSlack is kept free at the end of the buffer, never read into,
	// so the row scanner may load 16 bytes at a time past the data.
	bufferSlack = 16
	// sealedBuffer is the largest buffer of a sealed stream (without
	// ReuseRecord), which is never reused: every buffer it fills is a new
	// allocation, so past fullBuffer its buffers double up to this size,
	// and a reader that tells its length gets one this size at once. A
	// long stream then takes a quarter of the allocations, and of the
	// lines that straddle two buffers and are copied from the one to the
	// next; a fresh row kept alive keeps at most this much of other rows'
	// text alive.
	sealedBuffer = 256<<10 - bufferSlack
	// maxMarks bounds the TABs and backslashes of a row readPlainRow
	// takes; a row with more takes the general path.
	maxMarks = 1024
	// maxEmptyReads is how many reads in a row may return nothing before
	// the decoder gives up with io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
)

var errBadRead = errors.New("streaming: reader returned an invalid byte count")

// inputSize returns how many bytes are left to read from r where r can
// tell — a bytes.Reader, strings.Reader or bytes.Buffer — so that a small
// payload gets a buffer and a text block its own size, and a large one the
// full buffer at once. A wrong answer costs only a buffer of the wrong
// size: reading goes on to the end of the input either way.
func inputSize(r io.Reader) (int, bool) {
	// The readers a call usually has are told by their type alone,
	// which costs less than looking for a Len method: the two
	// commonest by an assertion each, the rest by a switch.
	if b, ok := r.(*bytes.Reader); ok {
		return b.Len(), true
	}
	if s, ok := r.(*strings.Reader); ok {
		return s.Len(), true
	}
	return otherInputSize(r)
}

// otherInputSize is inputSize for a reader other than a bytes.Reader or a
// strings.Reader.
func otherInputSize(r io.Reader) (int, bool) {
	switch r := r.(type) {
	case *bytes.Buffer:
		return r.Len(), true
	}
	if sized, ok := r.(interface{ Len() int }); ok {
		if n := sized.Len(); n >= 0 {
			// Any other reader's Len may be wrong, as far as
			// math.MaxInt, where the sizes made from it would
			// overflow: one past what memory can hold means no
			// more than that.
			return min(n, maxInputSize), true
		}
	}
	return 0, false
}

// maxInputSize is the most inputSize tells: more than any input held in
// memory, and little enough that the sizes the decoder adds to it stay
// far from overflowing an int.
const maxInputSize = math.MaxInt / 4

// drained reports whether r is a bytes.Reader or strings.Reader with
// nothing left to read, whose Read then returns 0 and io.EOF and changes
// nothing. The decoder reads r alone, so such a reader stays drained: a
// payload read whole by its first Read ends without a second. A
// bytes.Buffer is not told, as its owner may write to it between two
// calls of Next.
func drained(r io.Reader) bool {
	switch r := r.(type) {
	case *bytes.Reader:
		return r.Len() == 0
	case *strings.Reader:
		return r.Len() == 0
	}
	return false
}

// next is Next once no error is kept: every error it returns goes
// through stop.
func (d *Decoder) next() (Kind, error) {
	if d.header != nil && !d.portable && d.readPlainRow() {
		return KindRow, nil
	}
	if d.ended && d.start == d.end && d.header != nil {
		// The whole input has been read and handed out: the end of the
		// last section, as fillLine would find it, without its call.
		if err := d.endSection(); err != nil {
			return d.stop(err)
		}
		return d.stop(io.EOF)
	}
	if len(d.buf) == 0 {
		d.startBuffer()
	}
	end, hasLF, err := d.fillLine()
	if err != nil {
		return d.stop(err)
	}
	line := d.buf[d.start:end]
	isHeader := spec.IsHeaderLine(line)
	// Before the first header only the first line can come here: a line
	// that does not make one is an error, and errors are sticky.
	if d.header == nil && !isHeader {
		start := line
		if hasLF {
			start = d.buf[d.start : end+1]
		}
		return d.stop(d.fault(spec.NotGCX(start)))
	}
	if !hasLF && len(line) == 0 {
		if err := d.endSection(); err != nil {
			return d.stop(err)
		}
		return d.stop(io.EOF)
	}
	var kind Kind
	switch {
	case isHeader:
		if err := d.endSection(); err != nil {
			return d.stop(err)
		}
		kind, err = KindHeader, d.readHeader(line, hasLF)
	case len(line) > 0 && line[0] == '#':
		kind, err = KindComment, d.readComment(line, hasLF)
	default:
		kind, err = KindRow, d.readRow(line, hasLF)
	}
	if err != nil {
		return d.stop(err)
	}
	// Only a line that ends in LF is ever valid [LINE-1].
	d.start = end + 1
	d.line++
	return kind, nil
}

// startBuffer sets up the first buffer before the first line is read:
// the string a NewDecoderString reads in place, or else a buffer of the
// input's size where the reader tells it, filled by the first read.
func (d *Decoder) startBuffer() {
	if d.ReuseRecord {
		d.record = d.recordRoom[:0]
	}
	if limit := d.Limits.MaxLineBytes; limit > 0 {
		d.threshold = max(limit+1, spec.MaxTagBytes+1)
	}
	if d.inPlace {
		// Never written to, whether or not the caller reuses rows.
		d.sealed = true
		d.buf = d.buf[:cap(d.buf)]
		d.end = len(d.buf)
		if rest, _ := inputSize(d.r); rest == 0 {
			// The whole string is in place: there is nothing to read.
			d.inPlace = false
			d.rerr, d.ended = io.EOF, true
		}
		return
	}
	size := initialBuffer
	d.sealed = !d.ReuseRecord
	if n, ok := inputSize(d.r); ok {
		// The whole input fits a buffer one byte longer, which the
		// first read therefore does not fill: a full read would take
		// the input for a big one and grow the buffer.
		size = min(n+1, fullBuffer)
		if d.sealed {
			size = min(n+1, sealedBuffer)
		}
	}
	if cap(d.buf) >= size+bufferSlack {
		// The room NewDecoder allocated the decoder with.
		d.buf = d.buf[:size+bufferSlack]
	} else {
		d.buf = d.newBuffer(size)
	}
	// The first read, into the empty buffer: what fillLine's read would
	// do, without its look at what to move or grow.
	d.readOnce(size)
}

// fillLine makes buf[start:] hold the next line up to its LF, or up to the
// end of the input, or at least threshold bytes of it, whichever comes
// first: enough to decide the line either way. It returns where the line's
// bytes end in buf and whether an LF ends them there.
func (d *Decoder) fillLine() (end int, hasLF bool, err error) {
	scanned := d.start
	for {
		// Nothing is left to look at where a call's first line has not
		// been read yet, or its last has been.
		if scanned < d.end {
			if i := bytes.IndexByte(d.buf[scanned:d.end], '\n'); i >= 0 {
				return scanned + i, true, nil
			}
		}
		scanned = d.end
		if d.threshold > 0 && d.end-d.start >= d.threshold {
			return d.end, false, nil
		}
		if d.rerr != nil {
			if d.ended {
				return d.end, false, nil
			}
			return 0, false, d.rerr
		}
		scanned -= d.read()
	}
}

// read reads once into the buffer, making room first where there is none
// left: it moves the unread bytes to the front of the buffer, or to a new
// one — a bigger one if they fill too much of it, and always a new one
// where the buffer is sealed. It returns how far the bytes moved.
func (d *Decoder) read() (shift int) {
	if d.inPlace {
		return d.readRest()
	}
	size := len(d.buf) - bufferSlack
	if d.sealed && d.end < size {
		// Strings handed out point into buf: read into the room left,
		// moving nothing.
		d.readOnce(size)
		return 0
	}
	unread := d.end - d.start
	grown := size
	switch {
	case unread > size/2:
		// The unfinished line fills much of the buffer.
		grown = 2 * size
	case d.growNext && size < fullBuffer:
		// The last read filled the buffer: the payload is big, so go
		// straight to the full size rather than through every size
		// between.
		grown = fullBuffer
	case d.growNext && d.sealed && size < sealedBuffer:
		grown = min(2*(size+bufferSlack), sealedBuffer+bufferSlack) - bufferSlack
	}
	if d.threshold > 0 && grown > d.threshold {
		// A line needs no more than threshold bytes to be decided, and it
		// starts at the front of the buffer now, so the buffer never
		// needs to hold much more than the line limit.
		grown = max(size, d.threshold)
	}
	if d.sealed {
		if rest, ok := inputSize(d.r); ok {
			// The last of a sealed stream's buffers holds what is left
			// of the input, not a full buffer's worth: the strings of a
			// sized input's last rows need no more. Where Len says less
			// than is left, the room still at least doubles the
			// unfinished line's, so that no line is copied over and
			// over.
			grown = min(grown, max(unread+rest+1, 2*unread, initialBuffer))
		}
	}
	if d.sealed || grown != size || d.start > 0 {
		to := d.buf
		if d.sealed || grown != size {
			// Sealed, the buffer is left to the strings that point
			// into it, and reading goes on in a new one.
			to = d.newBuffer(grown)
		}
		shift = d.moveTo(to)
	}
	d.readOnce(grown)
	return shift
}

// readRest is read for a string read in place whose bytes up to the last
// bufferSlack are done but for its unfinished last line: that line and
// those bytes, all that is left, are moved and read into a buffer just
// their size, or into the first header's room where they fit, which a
// sealed decoder never copies its header's line into.
func (d *Decoder) readRest() (shift int) {
	d.inPlace = false
	rest, _ := inputSize(d.r)
	size := d.end - d.start + rest + 1
	var to []byte
	if size+bufferSlack <= len(d.firstLine) {
		to = d.firstLine[:size+bufferSlack]
	} else {
		to = d.newBuffer(size)
	}
	shift = d.moveTo(to)
	d.readOnce(size)
	return shift
}

// moveTo moves the unread bytes to the front of to, which becomes the
// buffer, and returns how far they moved.
func (d *Decoder) moveTo(to []byte) (shift int) {
	shift = d.start
	copy(to, d.buf[d.start:d.end])
	d.buf = to
	d.end -= d.start
	d.clean = max(d.clean-d.start, 0)
	d.base += int64(d.start)
	d.start = 0
	return shift
}

// unzeroedBuffer is the least size newBuffer takes without zeroing: the
// runtime's large objects begin at 32 KiB, and zeroing a smaller buffer,
// a five-row call's, costs less than going through a strings.Builder.
const unzeroedBuffer = 32 << 10

// newBuffer returns a read buffer of size bytes and the slack after them.
//
// A sealed buffer of unzeroedBuffer bytes or more read from a
// bytes.Reader, strings.Reader or bytes.Buffer is not zeroed first: it
// comes, as a strings.Builder's room does, from the runtime's allocation
// without zeroing, and only its slack is cleared.
// That is safe because no byte of it is ever seen before the reader wrote
// it. The decoder hands out, quotes in errors and scans only buf[:end],
// and end grows by what Read reports (readOnce refuses a count beyond the
// room); the scanners' loads past end, into the room and the slack, mark
// nothing that is handed out, as with ReuseRecord, where that room holds
// earlier lines. The three readers' Read is a copy into p[:n] of bytes
// they hold: they read nothing of p and write all n bytes, where another
// reader may use p as scratch space or report bytes it did not write, so
// every other reader, and every buffer with ReuseRecord (reused, so
// zeroing it once costs nothing a call), gets zeroed memory from make.
// The memory holds no pointers, so the collector never reads it; the
// builder and the one-byte string its String returned are dropped at
// once, so buf is the only way to it and writing into it changes no
// string anyone holds; and a sealed buffer is written only by reads, each
// into room no string points into yet.
//
// It stays small enough to inline, so that a call's one small buffer costs
// no call more than make.
func (d *Decoder) newBuffer(size int) []byte {
	if size < unzeroedBuffer || !d.sealed {
		return make([]byte, size+bufferSlack)
	}
	return largeBuffer(d.r, size)
}

// largeBuffer is newBuffer for a sealed buffer of unzeroedBuffer bytes or
// more: unzeroed where r is one of the three readers.
func largeBuffer(r io.Reader, size int) []byte {
	switch r.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		var room strings.Builder
		room.Grow(size + bufferSlack)
		room.WriteByte(0)
		buf := unsafe.Slice(unsafe.StringData(room.String()), size+bufferSlack)
		clear(buf[size:])
		return buf
	}
	return make([]byte, size+bufferSlack)
}

// readOnce reads into buf[end:size], trying again while the reader returns
// nothing, up to maxEmptyReads times.
func (d *Decoder) readOnce(size int) {
	for range maxEmptyReads {
		space := size - d.end
		n, err := d.r.Read(d.buf[d.end:size])
		if n < 0 || n > space {
			d.rerr = errBadRead
			return
		}
		d.end += n
		d.growNext = n == space
		if err != nil {
			d.rerr, d.ended = err, err == io.EOF
			return
		}
		if n > 0 {
			if drained(d.r) {
				// The next Read would return 0 and io.EOF: a
				// small payload's last Next need not call it.
				d.rerr, d.ended = io.EOF, true
			}
			return
		}
	}
	d.rerr = io.ErrNoProgress
	return
}

// fault places a fault found on the line at buf[start].
func (d *Decoder) fault(f *spec.Fault) *spec.Error {
	return f.At(d.line, d.base+int64(d.start))
}

// unexpected reports a syntax error at byte i of line: what stands there
// cannot continue the production [ERR-2]. spec.Unexpected decides which
// rule the byte breaks.
func (d *Decoder) unexpected(line []byte, hasLF bool, i int, production, rule, expected string) *spec.Error {
	var rest []byte
	switch {
	case i < len(line):
		rest = line[i:]
	case hasLF:
		rest = d.buf[d.start+i : d.start+i+1] // the LF
	}
	return d.fault(spec.Unexpected(i, rest, production, rule, expected))
}

// checkLineLength applies the line limit [LIM-3].
func (d *Decoder) checkLineLength(line []byte) error {
	if f := d.Limits.LineFault(len(line)); f != nil {
		return d.fault(f)
	}
	return nil
}

// endSection checks the closing section's rows= value against the rows it
// held [META-4]. Small enough to inline, so that a section without rows=,
// and the start of the first, cost no call.
func (d *Decoder) endSection() error {
	if d.rowsDecl == nil {
		return nil
	}
	return d.checkRowCount()
}

// checkRowCount is endSection's check of a rows= value.
func (d *Decoder) checkRowCount() error {
	decl := d.rowsDecl
	d.rowsDecl = nil
	if f := spec.RowCountFault(decl.value, d.rows); f != nil {
		f.Col = decl.col
		return f.At(decl.line, decl.lineOffset)
	}
	return nil
}

// readComment reads a comment line: "#", raw text, LF [CMT-1].
func (d *Decoder) readComment(line []byte, hasLF bool) error {
	if err := d.checkLineLength(line); err != nil {
		return err
	}
	// TAB, backslash and controls are text [CMT-1] [ENC-4]; a CR or
	// invalid UTF-8 is not.
	if bad := firstBad(line); bad < len(line) {
		return d.unexpected(line, hasLF, bad, "comment", "CMT-1", "a comment character or LF")
	}
	if !hasLF {
		return d.unexpected(line, hasLF, len(line), "comment", "CMT-1", "a comment character or LF")
	}
	var text string
	if d.ReuseRecord {
		text = sharedString(line[1:])
	} else {
		text = d.keep(line[1:], true)
	}
	d.comment = spec.Comment{Row: d.rows, Text: text}
	return nil
}

// readRow reads a row line: values separated by TAB [ROW-1], the first one
// possibly behind a guard [ROW-4], escapes decoded [VAL-1]. It checks the
// row limit and the line limit first and the value count last, as the
// reference does [ERR-3].
func (d *Decoder) readRow(line []byte, hasLF bool) error {
	if f := d.Limits.RowFault(d.rows); f != nil {
		return d.fault(f)
	}
	if err := d.checkLineLength(line); err != nil {
		return err
	}
	if hasLF && d.plain(line) {
		return d.splitRow(line)
	}
	return d.decodeRow(line, hasLF)
}

// plain reports whether a row line holds no backslash, no CR and only
// valid UTF-8. Where readPlainRow takes most rows, the few left are checked
// one by one; elsewhere every row comes here, and the buffered input is
// checked many lines at a time.
func (d *Decoder) plain(line []byte) bool {
	if haveRowScanner && !d.portable {
		return bytes.IndexByte(line, '\\') < 0 && firstBad(line) == len(line)
	}
	if end := d.start + len(line); end > d.clean {
		d.extendClean()
	}
	return d.start+len(line) <= d.clean
}

// extendClean moves clean as far into the buffered input as it can: to the
// first backslash, CR or byte that does not begin a valid UTF-8 character
// (or one cut short by the end of the buffer). It looks at many lines at
// once, so that bytes.IndexByte and utf8.Valid, which go 16 or 32 bytes a
// step, pay their set-up cost once per buffer and not once per row; each
// byte is looked at once unless a special byte stops the look short, and
// then only up to that byte.
func (d *Decoder) extendClean() {
	from := max(d.clean, d.start)
	ahead := d.buf[from:d.end]
	if i := bytes.IndexByte(ahead, '\\'); i >= 0 {
		ahead = ahead[:i]
	}
	if i := bytes.IndexByte(ahead, '\r'); i >= 0 {
		ahead = ahead[:i]
	}
	n := len(ahead)
	if !validUTF8(ahead) {
		n = validPrefix(ahead)
	}
	d.clean = from + n
}

// splitRow reads a row line that has no backslash, no CR and only valid
// UTF-8, as most have: its values are the bytes between its TABs, as they
// stand [VAL-3].
func (d *Decoder) splitRow(line []byte) error {
	width := len(d.header.Fields)
	record := d.record[:0]
	var all string
	if d.ReuseRecord {
		all = sharedString(line)
	} else {
		record = d.kept.cells(width, len(line))[:0]
		all = d.keep(line, true)
	}
	// bytes.IndexByte goes 16 or 32 bytes a step: per value it beats
	// any loop over the bytes or their words.
	for from := 0; ; {
		i := strings.IndexByte(all[from:], '\t')
		if i < 0 {
			record = append(record, all[from:])
			break
		}
		record = append(record, all[from:from+i])
		from += i + 1
	}
	d.record = record
	if len(record) != width {
		return d.countError(line, len(record), width)
	}
	d.rows++
	return nil
}

// countError reports a row with the wrong number of values [ROW-2]: too
// many at the TAB that begins the first value beyond the fields, too few at
// the LF.
func (d *Decoder) countError(line []byte, values, width int) error {
	at := len(line)
	if values > width {
		at = 0
		for range width {
			at += bytes.IndexByte(line[at:], '\t') + 1
		}
		at--
	}
	return d.fault(spec.RowWidthFault(at, values, width))
}

// decodeRow reads a row line that needs a closer look: one with escapes, a
// guard, a CR, invalid UTF-8 or no LF. It reports the first byte that
// cannot continue a row [ERR-2] — the first CR or invalid byte, unless a bad
// escape comes before it — and decodes escapes as it goes [VAL-1].
//
// Values without escapes are not copied: their bytes are the line's own.
// Once an escape turns up, the line is copied to rowText from there on with
// escapes decoded; positions before that point are the same in both.
func (d *Decoder) decodeRow(line []byte, hasLF bool) error {
	const expected = "a value character, TAB or LF"
	width := len(d.header.Fields)
	room := d.escapedRoom()
	ends := room.ends[:0]
	text := room.rowText[:0]
	decoding := false // text holds line[:copied], decoded
	copied := 0
	i := 0
	if spec.StartsGuard(line) {
		// The guard is a lone backslash that decodes to nothing [ROW-4].
		i = 2
		if line[1] == 'G' {
			for ; i < 4; i++ {
				if i == len(line) || line[i] != spec.TagPrefix[i-1] {
					return d.unexpected(line, hasLF, i, "guard", "ROW-4", strconv.Quote(spec.TagPrefix))
				}
			}
		}
		decoding, copied = true, 1
	}
	// Each search finds the next TAB or backslash, never both: the two
	// are looked for separately, each only once it has been passed.
	bad := firstBad(line)
	tab := indexFrom(line, i, '\t')
	backslash := indexFrom(line[:bad], i, '\\')
	for {
		switch {
		case tab < backslash && tab < bad:
			if decoding {
				ends = append(ends, len(text)+tab-copied)
			} else {
				ends = append(ends, tab)
			}
			i = tab + 1
			tab = indexFrom(line, i, '\t')
			continue
		case backslash < bad:
			// A TAB, CR or invalid byte after the backslash is reported
			// here, at its own place, with its own rule.
			var c byte
			ok := backslash+1 < len(line)
			if ok {
				c, ok = spec.ValueEscapes.Decode(line[backslash+1])
			}
			if !ok {
				e := spec.ValueEscapes
				return d.unexpected(line, hasLF, backslash+1, e.Production, e.Rule, e.Expected)
			}
			text = append(text, line[copied:backslash]...)
			text = append(text, c)
			decoding, copied = true, backslash+2
			i = backslash + 2
			backslash = indexFrom(line[:bad], i, '\\')
			continue
		}
		break
	}
	if bad < len(line) {
		return d.unexpected(line, hasLF, bad, "row", "ROW-1", expected)
	}
	if !hasLF {
		return d.unexpected(line, hasLF, len(line), "row", "ROW-1", expected)
	}
	src := line
	if decoding {
		text = append(text, line[copied:]...)
		src = text
	}
	ends = append(ends, len(src))
	room.ends, room.rowText = ends, text
	// Every TAB left in the line separates values (one after a backslash
	// was refused above), so countError finds the right one in the raw
	// line.
	if len(ends) != width {
		return d.countError(line, len(ends), width)
	}

	if d.ReuseRecord {
		record := d.record[:0]
		from := 0
		for _, to := range ends {
			record = append(record, sharedString(src[from:to]))
			from = to + 1
		}
		d.record = record
	} else {
		all := d.keep(src, !decoding)
		record := d.kept.cells(len(ends), len(src))
		from := 0
		for k, to := range ends {
			record[k] = all[from:to]
			from = to + 1
		}
		d.record = record
	}
	d.rows++
	return nil
}

// indexFrom returns the index of the first c in b at or after from, or
// len(b).
func indexFrom(b []byte, from int, c byte) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return len(b)
}

// firstBad returns the index of the first byte of line that no line may
// hold — a CR [ENC-3] or one that does not begin a valid UTF-8 character
// [ENC-1] — or len(line).
func firstBad(line []byte) int {
	bad := len(line)
	if i := bytes.IndexByte(line, '\r'); i >= 0 {
		bad = i
	}
	if !validUTF8(line[:bad]) {
		bad = validPrefix(line[:bad])
	}
	return bad
}

// keep returns a string of b that a fresh row or comment hands out: b
// itself where it lies in a sealed buffer, else a copy in d.kept.
func (d *Decoder) keep(b []byte, inBuffer bool) string {
	if inBuffer && d.sealed {
		return sharedString(b)
	}
	return d.kept.text(b)
}

// sharedString returns a string that shares b's bytes: it changes when b
// does. Only rows and comments read with ReuseRecord are made of such
// strings.
func sharedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
