package streaming

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// trace decodes with d to the end and describes everything a caller can
// ask of it: each item, the line and offsets it stands at, the columns of
// a header's values and of a row's values, and the error that stopped it,
// message included.
func trace(d *Decoder, lim spec.Limits, reuse, portable bool) []string {
	d.Limits, d.ReuseRecord, d.portable = lim, reuse, portable
	var out []string
	for {
		kind, err := d.Next()
		if err != nil {
			return append(out, fmt.Sprintf("error %q %+v line %d input %d", err, fieldsOf(err), d.Line(), d.InputOffset()))
		}
		at := fmt.Sprintf("line %d offset %d input %d", d.Line(), d.LineOffset(), d.InputOffset())
		switch kind {
		case KindHeader:
			h := d.Header()
			cols := []int{d.FieldsColumn()}
			for i := range h.Meta {
				cols = append(cols, d.MetaColumn(i))
			}
			out = append(out, fmt.Sprintf("header %q %q %q cols %v %s", h.Tool, h.Fields, h.Meta, cols, at))
		case KindRow:
			var cols []int
			for i := range len(d.Row()) + 1 {
				cols = append(cols, d.ValueColumn(i))
			}
			out = append(out, fmt.Sprintf("row %q cols %v %s", d.Row(), cols, at))
		case KindComment:
			out = append(out, fmt.Sprintf("comment %+v %s", d.Comment(), at))
		}
	}
}

// heldWithRoom returns a string of b's bytes with 64 more bytes of its own
// allocation after it, so that it may be read whole in place wherever it
// lies.
func heldWithRoom(b []byte) string {
	room := make([]byte, len(b)+64)
	copy(room, b)
	return unsafe.String(unsafe.SliceData(room), len(b))
}

// TestInPlaceTellsWhatAStringsReaderTells: a payload read in place, whole
// or all but its tail, tells exactly what NewDecoder(strings.NewReader)
// tells of it: every item, line, offset and column, and the error with its
// message, with and without ReuseRecord, the row scanner and small limits.
func TestInPlaceTellsWhatAStringsReaderTells(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		var b []byte
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0, 1:
			p := gen.Payload().Draw(t, "payload")
			for i := range p.Sections {
				for _, row := range p.Sections[i].Rows {
					for k := range row {
						row[k] = strings.Repeat(row[k], rapid.IntRange(1, 3).Draw(t, "repeat")) +
							strings.Repeat("x", rapid.IntRange(0, 300).Draw(t, "pad"))
					}
				}
			}
			var err error
			if b, err = reference.Encode(p); err != nil {
				t.Fatal(err)
			}
			if rapid.Bool().Draw(t, "mutate") {
				b = gen.Mutate(t, b)
			}
		case 2:
			b = append([]byte(rapid.SampledFrom(starts).Draw(t, "start")),
				rapid.SliceOfN(rapid.SampledFrom(grammarBytes), 0, 120).Draw(t, "bytes")...)
		default:
			b = append([]byte("GCX1 tool=t fields=a,b\n"), []byte(strings.Repeat("v", rapid.IntRange(0, 600).Draw(t, "long")))...)
			if rapid.Bool().Draw(t, "tab") {
				b = append(b, '\t', 'w')
			}
			if rapid.Bool().Draw(t, "lf") {
				b = append(b, '\n')
			}
		}
		lim := drawLimits(t)
		reuse := rapid.Bool().Draw(t, "reuse")
		portable := rapid.Bool().Draw(t, "portable")
		want := trace(NewDecoder(strings.NewReader(string(b))), lim, reuse, portable)
		for _, whole := range []bool{true, false} {
			got := trace(newDecoderString(heldWithRoom(b), whole), lim, reuse, portable)
			if !slices.Equal(got, want) {
				t.Fatalf("whole %v, input %q, limits %+v, reuse %v, portable %v:\nin place:\n%s\nstrings.Reader:\n%s",
					whole, b, lim, reuse, portable, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	})
}

// within reports whether v's bytes lie in s's.
func within(v, s string) bool {
	if v == "" {
		return true
	}
	p, from := uintptr(unsafe.Pointer(unsafe.StringData(v))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
	return from <= p && p+uintptr(len(v)) <= from+uintptr(len(s))
}

// TestInPlaceStringsPointIntoThePayload: read in place, every header,
// row and comment of a payload without escapes is the payload's own bytes,
// with or without ReuseRecord: nothing of it is copied. Read all but its
// tail in place, so is every one before the line that holds the last
// bufferSlack bytes.
func TestInPlaceStringsPointIntoThePayload(t *testing.T) {
	payload := "GCX1 tool=t fields=a,b rows=3 k=v\n" +
		"x\ty\n#note\n" + strings.Repeat("long", 100) + "\tz\n" + "last\trow-of-the-payload\n"
	lastLine := strings.LastIndexByte(payload[:len(payload)-1], '\n') + 1
	for _, whole := range []bool{true, false} {
		for _, reuse := range []bool{false, true} {
			for _, portable := range []bool{false, true} {
				s := heldWithRoom([]byte(payload))
				d := newDecoderString(s, whole)
				d.ReuseRecord, d.portable = reuse, portable
				for {
					kind, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					var values []string
					switch kind {
					case KindHeader:
						h := d.Header()
						values = append(values, h.Tool)
						values = append(values, h.Fields...)
						for _, m := range h.Meta {
							values = append(values, m.Key, m.Value)
						}
					case KindRow:
						values = d.Row()
					case KindComment:
						values = []string{d.Comment().Text}
					}
					if !whole && d.LineOffset() >= int64(lastLine) {
						continue
					}
					for _, v := range values {
						if !within(v, s) {
							t.Errorf("whole %v, reuse %v, portable %v: %v on line %d: %q is a copy, not the payload's", whole, reuse, portable, kind, d.Line(), v)
						}
					}
				}
			}
		}
	}
}

// TestInPlaceTailCopiesNoMoreThanTheLimit: where a string is read in place
// but for its tail, a last line far over Limits.MaxLineBytes is decided,
// as from a reader, once the limit's worth of it is there: the decoder
// never copies the whole line to look at it. (The row scanner's path read
// the rest of the string, 8 MiB here, before it looked at the limit.)
func TestInPlaceTailCopiesNoMoreThanTheLimit(t *testing.T) {
	lim := spec.DefaultLimits
	lim.MaxLineBytes = 64 << 10
	const long = 8 << 20
	payload := "GCX1 tool=t fields=a\nx\n" + strings.Repeat("v", long)
	want, err := reference.DecodeLimits([]byte(payload), lim)
	if err == nil {
		t.Fatalf("reference decodes a line of %d bytes under a limit of %d: %v", long, lim.MaxLineBytes, want)
	}
	for _, portable := range []bool{false, true} {
		for _, reuse := range []bool{false, true} {
			d := newDecoderString(payload, false)
			d.Limits, d.ReuseRecord, d.portable = lim, reuse, portable
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, got, problem := drain(d)
			runtime.ReadMemStats(&after)
			if problem != "" {
				t.Fatal(problem)
			}
			if diff := diffError(got, err); diff != "" {
				t.Errorf("portable %v, reuse %v: error differs (-reference +in place):\n%s", portable, reuse, diff)
			}
			// A reader's decoder takes a buffer of at most sealedBuffer
			// and the limit's worth; a copy of the line is 8 MiB.
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("portable %v, reuse %v: decoding a last line of %d bytes under a limit of %d allocated %d bytes",
					portable, reuse, long, lim.MaxLineBytes, n)
			}
		}
	}
}
