package streaming

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// lenTeller is a reader with a Len method of its own, which may tell the
// truth (n < 0: what its reader has left) or not: a wrong answer must
// cost the decoder no more than a buffer of the wrong size.
type lenTeller struct {
	r *bytes.Reader
	n int
}

func (l lenTeller) Read(p []byte) (int, error) { return l.r.Read(p) }

func (l lenTeller) Len() int {
	if l.n < 0 {
		return l.r.Len()
	}
	return l.n
}

// sizedDataEOF is a reader that tells its length and returns io.EOF with
// its last bytes, in reads of at most step bytes.
type sizedDataEOF struct {
	data []byte
	step int
}

func (r *sizedDataEOF) Len() int { return len(r.data) }

func (r *sizedDataEOF) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.step)], r.data)
	r.data = r.data[n:]
	if len(r.data) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// stutter returns nothing, and no error, before every read that returns
// bytes, as readers may do; it tells its length like a bytes.Reader.
type stutter struct {
	r     *bytes.Reader
	empty int // how many empty reads come before each that returns bytes
	left  int
}

func (s *stutter) Len() int { return s.r.Len() }

func (s *stutter) Read(p []byte) (int, error) {
	if s.left > 0 {
		s.left--
		return 0, nil
	}
	s.left = s.empty
	return s.r.Read(p)
}

// oddReaders are ways of handing a payload to NewDecoder that the delivery
// plans of the property tests do not take: readers that tell their length,
// truly or not, return io.EOF with their last bytes, or return nothing now
// and then.
func oddReaders() []delivery {
	return []delivery{
		{"bytes", func(b []byte) io.Reader { return bytes.NewReader(b) }},
		inPlaceDelivery,
		inPlaceTailDelivery,
		{"strings", func(b []byte) io.Reader { return strings.NewReader(string(b)) }},
		{"buffer", func(b []byte) io.Reader { return bytes.NewBuffer(append([]byte(nil), b...)) }},
		{"unsized", func(b []byte) io.Reader { return unsized{bytes.NewReader(b)} }},
		{"len-true", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), -1} }},
		{"len-0", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), 0} }},
		{"len-7", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), 7} }},
		{"len-less", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), len(b) / 2} }},
		{"len-more", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), 2*len(b) + 100} }},
		{"len-room", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), roomLarge - bufferSlack - 1} }},
		{"len-huge", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), math.MaxInt - 8} }},
		{"len-max", func(b []byte) io.Reader { return lenTeller{bytes.NewReader(b), math.MaxInt} }},
		{"sized-data-eof", func(b []byte) io.Reader { return &sizedDataEOF{data: b, step: len(b) + 1} }},
		{"sized-data-eof-5", func(b []byte) io.Reader { return &sizedDataEOF{data: b, step: 5} }},
		{"stutter", func(b []byte) io.Reader { return &stutter{r: bytes.NewReader(b), empty: 3} }},
		{"stutter-long", func(b []byte) io.Reader { return &stutter{r: bytes.NewReader(b), empty: maxEmptyReads - 1} }},
		{"one-byte", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"half", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"data-err", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	}
}

// padTo pads a valid payload with a comment line, before its last line, so
// that it is n bytes long, where it is shorter than that by enough.
func padTo(b []byte, n int) []byte {
	need := n - len(b) - 2 // "#" and LF
	if need < 0 {
		return nil
	}
	cut := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	out := append([]byte(nil), b[:cut]...)
	out = append(out, '#')
	out = append(out, strings.Repeat("p", need)...)
	out = append(out, '\n')
	return append(out, b[cut:]...)
}

// readerPayloads are valid and broken payloads of one and several sections,
// short and long headers, escapes, guards and comments, some of them sized
// on either side of each room a Decoder is allocated with.
func readerPayloads() map[string][]byte {
	long := "GCX1 tool=t fields=" + strings.Repeat("f", 90) + ",g note=" + strings.Repeat("n", 120) + "\n"
	multi := "GCX1 tool=one fields=a,b rows=2 k=v\n" +
		"x\ty\n#c1\n\\\\GCX1\tz\\t\\n\n" +
		long +
		"1\t2\n" +
		"GCX1 tool=three fields=c\n#tail\n\\G\n"
	p := map[string][]byte{
		"five rows":     fiveRows(),
		"header only":   []byte("GCX1 tool=t fields=a\n"),
		"multi":         []byte(multi),
		"long first":    []byte(long + "a\tb\n"),
		"no final LF":   []byte("GCX1 tool=t fields=a\nx\ny"),
		"header no LF":  []byte("GCX1 tool=t fields=a"),
		"rows= short":   []byte("GCX1 tool=t fields=a rows=3\nx\n"),
		"rows= long":    []byte("GCX1 tool=t fields=a rows=1\nx\ny\nGCX1 tool=u fields=b\n"),
		"bad width":     []byte(multi + "1\t2\n"),
		"bad escape":    []byte("GCX1 tool=t fields=a\nx\\q\n"),
		"repeat field":  []byte("GCX1 tool=t fields=a rows=1\nx\nGCX1 tool=t fields=a,a\n"),
		"repeat key":    []byte("GCX1 tool=t fields=a k=1 k=2\n"),
		"CR":            []byte("GCX1 tool=t fields=a\nx\r\n"),
		"bad UTF-8":     []byte("GCX1 tool=t fields=a\n#\xff\n"),
		"empty":         nil,
		"not GCX":       []byte("hello\n"),
		"later version": []byte("GCX1 tool=t fields=a\nGCX2 tool=t fields=a\n"),
		"blank line":    []byte("GCX1 tool=t fields=a\n\n"),
	}
	for _, room := range []int{room128, room256, room512, room1024, room1280, room2048, roomLarge} {
		for _, delta := range []int{-1, 0, 1} {
			n := room - 1 - bufferSlack + delta
			if b := padTo([]byte(multi), n); b != nil {
				p[fmt.Sprintf("multi %d", n)] = b
			}
			if b := padTo(fiveRows(), n); b != nil {
				p[fmt.Sprintf("five rows %d", n)] = b
			}
		}
	}
	return p
}

// readerLimits are the limits each payload is read under: the default ones
// and small ones that cut lines, sections and rows short.
var readerLimits = []spec.Limits{
	spec.DefaultLimits,
	{MaxLineBytes: 40, MaxFields: 3, MaxSections: 2, MaxRows: 4},
	{MaxLineBytes: 1},
	{MaxSections: 1},
}

// kept is what a caller holds of one item Next returned: the values as
// Next returned them, which it does not copy, and a copy made at once.
type kept struct {
	event  event // the copy
	header *Header
	row    []string
	text   string // a comment's
	line   int
	offset int64 // LineOffset
	input  int64 // InputOffset
}

// TestOddReadersKeepWhatTheyDeliver reads each payload through each odd
// reader, with ReuseRecord and without, and holds on to everything Next
// hands out. Every item and the error must be the reference's; the items
// must stand on the lines and offsets of their lines; and once the decoder
// is done, dropped and collected and its memory used again, every Header,
// and without ReuseRecord every row and comment too, must still read as it
// did when Next returned it. A sized input's buffer lies in the decoder's
// own allocation, and with ReuseRecord the header of an input read whole
// points into it, so this also checks that what points there keeps it.
func TestOddReadersKeepWhatTheyDeliver(t *testing.T) {
	type run struct {
		where string
		items []kept
		reuse bool
	}
	for name, b := range readerPayloads() {
		var runs []run
		for _, lim := range readerLimits {
			want, err := expect(b, lim)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, how := range oddReaders() {
				for _, reuse := range []bool{false, true} {
					where := fmt.Sprintf("%s, %s, reuse %v, limits %+v", name, how.name, reuse, lim)
					items, err := keepAll(how.reader(b), lim, reuse)
					checkItems(t, where, b, items, err, want)
					runs = append(runs, run{where, items, reuse})
				}
			}
		}
		// Free what the decoders no longer hold, and write over freed
		// memory of every size a buffer of theirs may have had.
		for range 2 {
			runtime.GC()
			var junk [][]byte
			for size := 64; size <= 8<<10; size += 64 {
				junk = append(junk, bytes.Repeat([]byte{'Z'}, size))
			}
			runtime.KeepAlive(junk)
		}
		for _, r := range runs {
			checkUnchanged(t, r.where, r.items, r.reuse)
		}
	}
}

// keepAll decodes from r and returns all it was handed.
func keepAll(r io.Reader, lim spec.Limits, reuse bool) (items []kept, err error) {
	d := newDecoderOf(r)
	d.Limits = lim
	d.ReuseRecord = reuse
	for {
		kind, err := d.Next()
		if err != nil {
			if again, err2 := d.Next(); again != 0 || err2 != err {
				return items, fmt.Errorf("not sticky: %v, then %v, %v", err, again, err2)
			}
			if err == io.EOF {
				err = nil
			}
			return items, err
		}
		k := kept{event: event{Kind: kind}, line: d.Line(), offset: d.LineOffset(), input: d.InputOffset()}
		switch kind {
		case KindHeader:
			h := d.Header()
			k.header = h
			k.event.Header = &Header{Tool: strings.Clone(h.Tool), Meta: cloneMeta(h.Meta)}
			for _, f := range h.Fields {
				k.event.Header.Fields = append(k.event.Header.Fields, strings.Clone(f))
			}
		case KindRow:
			k.row = d.Row()
			for _, v := range k.row {
				k.event.Row = append(k.event.Row, strings.Clone(v))
			}
		case KindComment:
			c := d.Comment()
			k.text = c.Text
			k.event.Comment = spec.Comment{Row: c.Row, Text: strings.Clone(c.Text)}
		}
		items = append(items, k)
	}
}

func cloneMeta(m []spec.Meta) []spec.Meta {
	if m == nil {
		return nil
	}
	out := make([]spec.Meta, len(m))
	for i, p := range m {
		out[i] = spec.Meta{Key: strings.Clone(p.Key), Value: strings.Clone(p.Value)}
	}
	return out
}

// checkItems compares what keepAll returned, as copied at once, with the
// reference's answer, and the lines and offsets of the items with those of
// their lines.
func checkItems(t *testing.T, where string, b []byte, items []kept, err error, want expectation) {
	t.Helper()
	got := make([]event, len(items))
	for i, k := range items {
		got[i] = k.event
	}
	if diff := diffEvents(got, want.events); diff != "" {
		t.Errorf("%s: items differ (-reference +streaming):\n%s", where, diff)
		return
	}
	if diff := diffError(err, want.err); diff != "" {
		t.Errorf("%s: error differs (-reference +streaming):\n%s\nstreaming: %v", where, diff, err)
		return
	}
	lines := splitLines(b)
	for i, k := range items {
		if k.line != i+1 || k.offset != int64(lines[i].start) || k.input != int64(want.ends[i]) {
			t.Errorf("%s: item %d at line %d, offsets %d and %d, want line %d, %d and %d",
				where, i, k.line, k.offset, k.input, i+1, lines[i].start, want.ends[i])
		}
	}
}

// checkUnchanged checks that what keepAll returned still reads as it did
// when Next returned it: every Header, and without ReuseRecord every row and
// comment.
func checkUnchanged(t *testing.T, where string, items []kept, reuse bool) {
	t.Helper()
	for i, k := range items {
		switch k.event.Kind {
		case KindHeader:
			if diff := cmp.Diff(k.event.Header, k.header, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: header %d changed after it was read (-then +now):\n%s", where, i, diff)
			}
		case KindRow:
			if reuse {
				continue // valid only until the next call of Next
			}
			if diff := cmp.Diff(k.event.Row, k.row, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: row %d changed after it was read (-then +now):\n%s", where, i, diff)
			}
		case KindComment:
			if !reuse && k.text != k.event.Comment.Text {
				t.Errorf("%s: comment %d changed after it was read: %q, then %q", where, i, k.text, k.event.Comment.Text)
			}
		}
	}
}

// A reader whose Len tells math.MaxInt, or a little less, gets a buffer of
// the wrong size and nothing worse: before, the buffer's size, Len plus
// one, overflowed, and the decoder panicked where it must return values.
func TestHugeLenIsNoPanic(t *testing.T) {
	const payload = "GCX1 tool=t fields=a\nx\n"
	for _, n := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt - bufferSlack, math.MaxInt - bufferSlack - 1, math.MaxInt / 2} {
		for _, reuse := range []bool{false, true} {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("Len %d, reuse %v: panic: %v", n, reuse, p)
					}
				}()
				d := NewDecoder(lenTeller{bytes.NewReader([]byte(payload)), n})
				d.ReuseRecord = reuse
				p, err := d.ReadAll()
				if err != nil || len(p.Sections) != 1 || len(p.Sections[0].Rows) != 1 || p.Sections[0].Rows[0][0] != "x" {
					t.Errorf("Len %d, reuse %v: %+v, %v", n, reuse, p, err)
				}
			}()
		}
	}
}

// TestPropertyDecodeOddReaders: generated payloads, valid and mutated,
// read through the odd readers, give the reference's items and error.
func TestPropertyDecodeOddReaders(t *testing.T) {
	gen.Check(t, 300, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		b, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("reference.Encode: %v", err)
		}
		if rapid.Bool().Draw(t, "mutate") {
			b = gen.Mutate(t, b)
		}
		plan := deliveryPlan{
			reuse:     rapid.Bool().Draw(t, "reuse"),
			portable:  rapid.Bool().Draw(t, "portable"),
			ways:      oddReaders(),
			failAfter: rapid.IntRange(0, len(b)).Draw(t, "fail-after"),
			failSizes: rapid.SliceOfN(rapid.IntRange(1, 40), 1, 4).Draw(t, "fail-read-sizes"),
			failWith:  rapid.Bool().Draw(t, "fail-with-data"),
		}
		if err := plan.check(b, drawLimits(t)); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzOddReaders is FuzzDifferential with the odd readers: arbitrary bytes
// read through readers that tell their length, truly or not, return io.EOF
// with their last bytes or return nothing now and then, against the
// reference.
func FuzzOddReaders(f *testing.F) {
	var seeds [][]byte
	for _, b := range readerPayloads() {
		seeds = append(seeds, b)
	}
	fuzzDeliveries(f, oddReaders(), seeds...)
}
