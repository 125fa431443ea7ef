package streaming

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// event is one item the decoder delivers, in a form cmp can compare.
type event struct {
	Kind    Kind
	Header  *Header
	Row     []string
	Comment spec.Comment
}

// flatten lists a payload's items in wire order: each section's header, then
// its rows with every comment before the row it precedes [CMT-3]. That is
// the order of the payload's lines, one item per line.
func flatten(p *spec.Payload) []event {
	var out []event
	for _, s := range p.Sections {
		out = append(out, event{Kind: KindHeader, Header: &Header{Tool: s.Tool, Fields: s.Fields, Meta: s.Meta}})
		c := 0
		for r, row := range s.Rows {
			for ; c < len(s.Comments) && s.Comments[c].Row == r; c++ {
				out = append(out, event{Kind: KindComment, Comment: s.Comments[c]})
			}
			out = append(out, event{Kind: KindRow, Row: row})
		}
		for ; c < len(s.Comments); c++ {
			out = append(out, event{Kind: KindComment, Comment: s.Comments[c]})
		}
	}
	return out
}

// drain reads d to its end and returns what it delivered and the error that
// stopped it (nil for io.EOF). Rows and comments are copied, since with
// ReuseRecord they change under the caller's feet. It also checks that the error is sticky.
func drain(d *Decoder) ([]event, error, string) {
	var out []event
	for {
		kind, err := d.Next()
		if err != nil {
			again, err2 := d.Next()
			if again != 0 || err2 != err {
				return out, err, fmt.Sprintf("Next after error %v returned %v, %v", err, again, err2)
			}
			if err == io.EOF {
				err = nil
			}
			return out, err, ""
		}
		switch kind {
		case KindHeader:
			out = append(out, event{Kind: kind, Header: d.Header()})
		case KindRow:
			row := make([]string, len(d.Row()))
			for i, v := range d.Row() {
				row[i] = strings.Clone(v)
			}
			out = append(out, event{Kind: kind, Row: row})
		case KindComment:
			c := d.Comment()
			c.Text = strings.Clone(c.Text)
			out = append(out, event{Kind: kind, Comment: c})
		default:
			return out, err, fmt.Sprintf("Next returned kind %v without error", kind)
		}
	}
}

// errorFields is what two decoders must agree on about an error.
type errorFields struct {
	Class                   string
	Line, Column            int
	Offset                  int64
	Production, Rule, Tag   string
	ReaderError, NotSpecErr error
}

func fieldsOf(err error) errorFields {
	var e *spec.Error
	if errors.As(err, &e) {
		return errorFields{Class: spec.ClassName(err), Line: e.Line, Column: e.Column, Offset: e.Offset,
			Production: e.Production, Rule: e.Rule, Tag: e.Tag}
	}
	return errorFields{NotSpecErr: err}
}

// diffError describes how got differs from want, or returns "". A
// *spec.Error must match in class, position, production, rule and tag; any
// other error (a reader's own) must be the very same value.
func diffError(got, want error) string {
	if got == nil && want == nil {
		return ""
	}
	return cmp.Diff(fieldsOf(want), fieldsOf(got), cmp.Comparer(func(a, b error) bool { return a == b }))
}

func diffEvents(got, want []event) string {
	return cmp.Diff(want, got, cmpopts.EquateEmpty())
}

// expectation is what the streaming decoder must do with one input, worked
// out from the reference parser.
type expectation struct {
	// events are the items delivered before the decoder stops: all of a
	// valid payload, or those of the lines before the line where the
	// error is decided.
	events []event
	// ends[j] is the input offset just past the LF of the line of
	// events[j]: the decoder delivers that item once it has those bytes.
	ends []int
	// err is the reference's error, nil for a valid payload.
	err error
	// decided is how many bytes of input the decoder needs to report err;
	// -1 when it needs to see the end of the input (a missing LF, a rows=
	// count checked at the end, an empty payload).
	decided int
}

// lineSpan is one line of an input: its start, its length without the LF,
// and whether an LF ends it.
type lineSpan struct {
	start, length int
	hasLF         bool
}

func splitLines(b []byte) []lineSpan {
	var out []lineSpan
	for start := 0; start < len(b); {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			out = append(out, lineSpan{start, len(b) - start, false})
			break
		}
		out = append(out, lineSpan{start, i, true})
		start += i + 1
	}
	return out
}

// threshold mirrors the documented rule of Decoder: a line that has not
// ended is examined once more of it has arrived than MaxLineBytes allows,
// and at least the bytes a version tag needs.
func threshold(lim spec.Limits) int {
	if lim.MaxLineBytes <= 0 {
		return 0
	}
	return max(lim.MaxLineBytes+1, spec.MaxTagBytes+1)
}

// expect works out what the decoder must do with b under lim.
func expect(b []byte, lim spec.Limits) (expectation, error) {
	lines := splitLines(b)
	p, err := reference.DecodeLimits(b, lim)
	if err == nil {
		return expectation{events: flatten(p), ends: lineEnds(lines), decided: -1}, nil
	}
	var e *spec.Error
	if !errors.As(err, &e) {
		return expectation{}, fmt.Errorf("reference returned %T %v", err, err)
	}
	// The line whose examination reports the error.
	decisive := e.Line - 1
	switch {
	case errors.Is(err, spec.ErrNotGCX):
		decisive = 0
	case e.Rule == "META-4":
		// Checked when the section ends: at the next header or the end.
		decisive = len(lines)
		for j := e.Line; j < len(lines); j++ {
			if bytes.HasPrefix(b[lines[j].start:lines[j].start+lines[j].length], []byte(spec.TagPrefix)) {
				decisive = j
				break
			}
		}
	}
	x := expectation{err: err, decided: -1}
	cut := len(b)
	if decisive < len(lines) {
		l := lines[decisive]
		cut = l.start
		switch t := threshold(lim); {
		case t > 0 && l.length >= t:
			x.decided = l.start + t
		case l.hasLF:
			x.decided = l.start + l.length + 1
		}
	}
	if cut > 0 {
		before, err := decodePrefix(b[:cut], lim)
		if err != nil {
			return expectation{}, err
		}
		x.events = before
		x.ends = lineEnds(lines)[:len(before)]
	}
	return x, nil
}

func lineEnds(lines []lineSpan) []int {
	ends := make([]int, len(lines))
	for j, l := range lines {
		ends[j] = l.start + l.length + 1
	}
	return ends
}

// decodePrefix decodes the lines before the decisive one with the reference.
// They are all valid, but the last section may be cut short of its rows=
// count; then the count is rewritten to the rows present, and restored in
// the result.
func decodePrefix(b []byte, lim spec.Limits) ([]event, error) {
	p, err := reference.DecodeLimits(b, lim)
	if err == nil {
		return flatten(p), nil
	}
	var e *spec.Error
	if !errors.As(err, &e) || e.Rule != "META-4" {
		return nil, fmt.Errorf("prefix %q: unexpected reference error %v", b, err)
	}
	digits := int(e.Offset)
	end := digits
	for end < len(b) && b[end] >= '0' && b[end] <= '9' {
		end++
	}
	rows := 0
	for _, l := range splitLines(b[digits:])[1:] {
		if l.length == 0 || b[digits+l.start] != '#' {
			rows++
		}
	}
	fixed := append(append(append([]byte(nil), b[:digits]...), strconv.Itoa(rows)...), b[end:]...)
	p, err = reference.DecodeLimits(fixed, lim)
	if err != nil {
		return nil, fmt.Errorf("prefix %q with rows=%d: reference error %v", fixed, rows, err)
	}
	last := &p.Sections[len(p.Sections)-1]
	for i := range last.Meta {
		if last.Meta[i].Key == spec.KeyRows {
			last.Meta[i].Value = string(b[digits:end])
		}
	}
	return flatten(p), nil
}

// failedAfter is what the decoder must do when the reader delivers the
// first k bytes and then fails with errReader.
func (x expectation) failedAfter(k int, errReader error) ([]event, error) {
	if x.err != nil && x.decided >= 0 && x.decided <= k {
		return x.events, x.err
	}
	n := 0
	for n < len(x.events) && x.ends[n] <= k {
		n++
	}
	return x.events[:n], errReader
}
