//go:build !purego

package streaming

import (
	"unicode/utf8"

	"github.com/gcxwire/gcx/spec"
)

// haveRowScanner: rows are read by readPlainRow with scanRowSSE2 where it can.
const haveRowScanner = true

// Flags scanRowSSE2 reports.
const (
	rowEscape = 1 // a backslash or CR before the LF
	rowHigh   = 2 // a byte that is not ASCII before the LF
)

// readPlainRow reads the next line in one step if it is a plain row: a row
// of the current section, complete in the buffer, within the limits, with
// one value per field, no backslash, no CR and valid UTF-8 — most rows. A
// single pass of scanRowSSE2 finds its LF and TABs and looks for the rest.
// For any other line it returns false and changes nothing, and the line
// takes the general path, which reports what is wrong with it in the
// reference's order.
func (d *Decoder) readPlainRow() bool {
	width := len(d.header.Fields)
	if width-1 > len(d.tabs) {
		// Too wide for d.tabs: every row of the section takes the general
		// path, so scanning one here first would be wasted.
		return false
	}
	b := d.buf[d.start:d.end]
	if len(b) < len(spec.TagPrefix) || b[0] == '#' || b[0] == spec.GuardByte || spec.IsHeaderLine(b) {
		return false
	}
	lf, tabs, flags := scanRowSSE2(&b[0], len(b), &d.tabs[0], len(d.tabs))
	if lf < 0 || flags&rowEscape != 0 || tabs != width-1 ||
		d.Limits.LineFault(lf) != nil || d.Limits.RowFault(d.rows) != nil {
		return false
	}
	line := b[:lf]
	if flags&rowHigh != 0 && !utf8.Valid(line) {
		return false
	}
	var all string
	var record []string
	switch {
	case !d.ReuseRecord:
		record = d.kept.cells(width, lf)
		all = d.kept.text(line)
	case cap(d.record) >= width:
		record = d.record[:width]
		all = sharedString(line)
	default:
		record = make([]string, width)
		all = sharedString(line)
	}
	from := 0
	for k, tab := range d.tabs[:tabs] {
		record[k] = all[from:tab]
		from = int(tab) + 1
	}
	record[tabs] = all[from:]
	d.record = record
	d.rows++
	d.start += lf + 1
	d.line++
	return true
}

// scanRowSSE2 looks at the n bytes at p, from the first to the first LF.
// It returns the index of that LF, or -1 if there is none; it stores the
// index of each TAB before it at tabs while fewer than maxTabs are stored,
// and returns how many there were; and it reports in flags whether any byte
// before the LF (or of all n, without one) is a backslash or CR (rowEscape)
// or is not ASCII (rowHigh).
//
// It is SSE2, which every amd64 processor has. It reads 32 or 16 bytes a
// step and may read up to 15 bytes past the n, which must lie within the
// same allocation: the decoder keeps that slack at the end of its buffer.
//
//go:noescape
func scanRowSSE2(p *byte, n int, tabs *int32, maxTabs int) (lf int, ntabs int, flags int)
