//go:build !purego

package streaming

import (
	"bytes"

	"golang.org/x/sys/cpu"

	"github.com/gcxwire/gcx/spec"
)

// haveRowScanner: rows are read by readPlainRow with scanRowVector where it can.
const haveRowScanner = true

// Flags scanRowVector reports.
const (
	rowEscape = 1 // a backslash or CR before the LF
	rowHigh   = 2 // a byte that is not ASCII before the LF
)

// readPlainRow reads the next line in one step if it is a well-formed row
// of the current section, complete in the buffer and within the limits —
// most rows, escapes and guards included. A single pass of scanRowVector
// finds its LF and the TABs and backslashes before it, and tells whether
// it holds a CR or a byte that is not ASCII; the row is then split and its
// escapes decoded [VAL-1] from those marks alone, and its UTF-8 checked
// only when it is not all ASCII. For any other line — a header, a comment,
// a row with a fault, or one with more marks than d.marks holds — it
// returns false having changed nothing, and the line takes the general
// path, which reports what is wrong with it in the reference's order.
func (d *Decoder) readPlainRow() bool {
	width := len(d.header.Fields)
	if width-1 > maxMarks {
		// Too many TABs for the marks: every row of the section takes
		// the general path, so scanning one here first would be wasted.
		return false
	}
	b := d.buf[d.start:d.end]
	if len(b) < len(spec.TagPrefix) || b[0] == '#' || spec.IsHeaderLine(b) {
		return false
	}
	// readHeader gave d.marks room for the section's TABs.
	lf, marks, flags := scanRowVector(&b[0], len(b), &d.marks[0], len(d.marks), wideScan)
	if lf < 0 && d.inPlace && (d.threshold == 0 || len(b) < d.threshold) {
		// The last line of a string read in place, cut short by the
		// room left for the scanner's loads: read the rest, and look
		// again. A line already past the threshold is decided by
		// fillLine from what is there, as from a reader, rather than
		// copied whole.
		d.readRest()
		return d.readPlainRow()
	}
	if lf < 0 || marks > len(d.marks) || marks < width-1 ||
		d.Limits.LineFault(lf) != nil || d.Limits.RowFault(d.rows) != nil {
		if lf >= 0 && marks > len(d.marks) && len(d.marks) < maxMarks {
			// More backslashes than room: grow the marks and scan
			// again, once.
			d.marks = make([]int32, min(2*marks, maxMarks))
			return d.readPlainRow()
		}
		return false
	}
	line := b[:lf]
	if flags&rowHigh != 0 && !validUTF8(line) {
		return false
	}
	if flags&rowEscape == 0 {
		// Every mark is a TAB.
		if marks != width-1 {
			return false
		}
		d.record = d.split(line, true, d.marks[:marks], width)
	} else {
		if bytes.IndexByte(line, '\r') >= 0 {
			return false
		}
		text, ok := d.unescape(line, d.marks[:marks], width)
		if !ok {
			return false
		}
		d.record = d.split(text, false, d.escaped.textTabs, width)
	}
	d.rows++
	d.start += lf + 1
	d.line++
	return true
}

// unescape decodes the escapes of a row line [VAL-1], given the places of
// its TABs and backslashes, into d.escaped.rowText, and leaves in
// d.escaped.textTabs where its width-1 separating TABs stand in that text. A guard at its start decodes
// to nothing [ROW-4]. It reports false, for the general path to explain,
// for a backslash that begins no escape, a guard cut short, or a count of
// values other than width.
func (d *Decoder) unescape(line []byte, marks []int32, width int) ([]byte, bool) {
	room := d.escapedRoom()
	text := room.rowText[:0]
	ends := room.textTabs[:0]
	copied, skip := 0, 0 // line[:copied] is decoded into text; marks before skip are spent
	if spec.StartsGuard(line) {
		if line[1] == 'G' && !bytes.HasPrefix(line[1:], []byte(spec.TagPrefix)) {
			return nil, false
		}
		copied, skip = 1, 1
	}
	for _, m := range marks {
		at := int(m)
		if at < skip {
			continue
		}
		if line[at] == '\t' {
			ends = append(ends, int32(len(text)+at-copied))
			continue
		}
		if at+1 == len(line) {
			return nil, false
		}
		c, ok := spec.ValueEscapes.Decode(line[at+1])
		if !ok {
			return nil, false
		}
		text = append(text, line[copied:at]...)
		text = append(text, c)
		copied, skip = at+2, at+2
	}
	text = append(text, line[copied:]...)
	room.rowText, room.textTabs = text, ends
	if len(ends) != width-1 {
		return nil, false
	}
	return text, true
}

// split cuts a row's text into its values at the given TABs: shared with
// the buffer with ReuseRecord, kept (d.keep) without. inBuffer tells
// whether text lies in the read buffer or in d.escaped.rowText.
func (d *Decoder) split(text []byte, inBuffer bool, tabs []int32, width int) []string {
	var all string
	var record []string
	switch {
	case !d.ReuseRecord:
		record = d.kept.cells(width, len(text))
		// d.keep written out: its call would cost a row more than
		// its work.
		if inBuffer && d.sealed {
			all = sharedString(text)
		} else {
			all = d.kept.text(text)
		}
	case cap(d.record) >= width:
		record = d.record[:width]
		all = sharedString(text)
	default:
		record = make([]string, width)
		all = sharedString(text)
	}
	from := 0
	for k, tab := range tabs {
		record[k] = all[from:tab]
		from = int(tab) + 1
	}
	record[len(tabs)] = all[from:]
	return record
}

// scanRowVector looks at the n bytes at p, from the first to the first LF.
// It returns the index of that LF, or -1 if there is none; it stores the
// index of each TAB and each backslash before it at marks while fewer than
// maxMarks are stored, and returns how many there were; and it reports in
// flags whether any byte before the LF (or of all n, without one) is a
// backslash or CR (rowEscape) or is not ASCII (rowHigh).
//
// It is SSE2, which every amd64 processor has, reading 32 or 16 bytes a
// step; with wide, on a processor with AVX2 and BMI1, it takes 64 bytes a
// step first, until the LF is near, for long values. It may read up to 15
// bytes past the n, which must lie within the same allocation: the decoder
// keeps that slack at the end of its buffer.
//
//go:noescape
func scanRowVector(p *byte, n int, marks *int32, maxMarks int, wide bool) (lf int, nmarks int, flags int)

// wideScan: this processor runs scanRowVector's 64-byte steps.
var wideScan = cpu.X86.HasAVX2 && cpu.X86.HasBMI1
