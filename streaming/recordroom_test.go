package streaming

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// widePayload is valid GCX1 whose sections are narrower than, as wide as
// and wider than the room a Decoder keeps for a row's values with
// ReuseRecord (recordRoom, inlineFields values), in an order that goes
// from the room to a slice of its own and back, with rows that need
// escapes and guards and comments among them. The generator's sections
// have at most six fields, so only this reaches past the room.
func widePayload(t testing.TB) []byte {
	t.Helper()
	section := func(tool string, width int) spec.Section {
		s := spec.Section{Tool: tool}
		for i := range width {
			s.Fields = append(s.Fields, fmt.Sprintf("f%d", i))
		}
		for r := range 4 {
			row := make([]string, width)
			for i := range row {
				switch (r + i) % 5 {
				case 0:
					row[i] = fmt.Sprintf("v%d.%d", r, i)
				case 1:
					row[i] = ""
				case 2:
					row[i] = "tab\there\\back\nline"
				case 3:
					row[i] = "héllo wörld, a value past the scanner's sixteen-byte steps"
				case 4:
					row[i] = "#"
				}
			}
			if r == 2 {
				row[0] = "GCX1 looks like a tag" // guarded
			}
			s.Rows = append(s.Rows, row)
		}
		s.Comments = []spec.Comment{{Row: 0, Text: "first\tcomment"}, {Row: 3, Text: "before the last"}}
		return s
	}
	p := &spec.Payload{}
	for i, width := range []int{3, inlineFields, inlineFields + 1, 20, 1, inlineFields, 2 * inlineFields, 2} {
		p.Sections = append(p.Sections, section(fmt.Sprintf("t%d", i), width))
	}
	b, err := reference.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wideFaults are the lines spliced into widePayload after its nth line:
// rows of the wrong width for sections as wide as recordRoom and wider
// (the values past the room are appended before the count is checked),
// and rows broken part-way, with escapes before the fault.
var wideFaults = []struct {
	after int
	line  string
}{
	{8, strings.Repeat("x\t", inlineFields) + "ninth\n"},   // a ninth value in a section of eight
	{8, strings.Repeat("a\\tb\t", 2*inlineFields) + "c\n"}, // seventeen, escaped
	{8, "a\tb\n"}, // too few
	{16, strings.Repeat("y\t", 3*inlineFields) + "\n"},            // far too many in a section of nine
	{16, strings.Repeat("e\\n\t", 5) + "bad\\qescape\t1\t2\t3\n"}, // a bad escape mid-row
	{16, strings.Repeat("c\t", 6) + "cr\r\t7\t8\n"},               // a CR mid-row
	{24, strings.Repeat("z\t", 19) + "no LF at the end"},          // the input ends mid-row
}

// wideInputs returns widePayload and each of its faulty variants.
func wideInputs(t testing.TB) [][]byte {
	valid := widePayload(t)
	lines := bytes.SplitAfter(valid, []byte("\n"))
	inputs := [][]byte{valid}
	for _, f := range wideFaults {
		var b []byte
		for _, l := range lines[:f.after] {
			b = append(b, l...)
		}
		b = append(b, f.line...)
		if strings.HasSuffix(f.line, "\n") {
			for _, l := range lines[f.after:] {
				b = append(b, l...)
			}
		}
		inputs = append(inputs, b)
	}
	return inputs
}

// TestWideRowsAgreeWithTheReference: rows wider than the room a Decoder
// keeps for their values with ReuseRecord, after and before narrower ones,
// and faulty rows that overflow it, decode as the reference decodes them,
// however delivered, with and without ReuseRecord and the row scanner,
// and through a reader that fails part-way.
func TestWideRowsAgreeWithTheReference(t *testing.T) {
	for n, b := range wideInputs(t) {
		for _, lim := range []spec.Limits{spec.DefaultLimits, {MaxLineBytes: 200}} {
			for _, reuse := range []bool{false, true} {
				for _, portable := range []bool{false, true} {
					for _, failAfter := range []int{len(b) / 3, len(b) - 1} {
						plan := deliveryPlan{
							reuse:     reuse,
							portable:  portable,
							ways:      deliveriesIn([]int{7, 0, 1, 64}),
							failAfter: failAfter,
							failSizes: []int{3, 11},
							failWith:  reuse,
						}
						if err := plan.check(b, lim); err != nil {
							t.Fatalf("input %d, reuse %v, portable %v: %v", n, reuse, portable, err)
						}
					}
				}
			}
		}
	}
}

// TestKeptRowsOfWideSectionsStay: without ReuseRecord every Row is the
// caller's to keep: slices and strings taken as they come, and compared
// only once the input is done, are the reference's, whatever the sections'
// widths and however the input arrives.
func TestKeptRowsOfWideSectionsStay(t *testing.T) {
	b := widePayload(t)
	want, err := reference.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	var wantRows [][]string
	for _, s := range want.Sections {
		wantRows = append(wantRows, s.Rows...)
	}
	for _, how := range deliveriesIn([]int{7, 0, 1, 64}) {
		for _, portable := range []bool{false, true} {
			d := newDecoderOf(how.reader(b))
			d.portable = portable
			var kept [][]string
			for {
				kind, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", how.name, err)
				}
				if kind == KindRow {
					kept = append(kept, d.Row())
				}
			}
			if diff := cmp.Diff(wantRows, kept, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s, portable %v: kept rows differ (-reference +kept):\n%s", how.name, portable, diff)
			}
		}
	}
}

// lenOnly stands in for noTail: a reader that tells it holds nothing and
// fails the test if it is read.
type lenOnly struct{ t *testing.T }

func (lenOnly) Len() int { return 0 }

func (r lenOnly) Read([]byte) (int, error) {
	r.t.Error("the reader of a string read whole in place was read")
	return 0, io.EOF
}

// TestWholeStringAsksItsReaderOnlyItsLength: a string read whole in place
// asks its reader, the one empty strings.Reader all such decoders share
// (noTail), for its length and nothing else, whatever the input and
// however it fails: so no decoder writes to what the others read.
func TestWholeStringAsksItsReaderOnlyItsLength(t *testing.T) {
	inputs := append(wideInputs(t), []byte("GCX1 tool=t fields=a\nx\n"), []byte("not gcx\n"),
		[]byte("GCX1 tool=t fields=a rows=2\nx\n"), []byte("GCX1 tool=t fields=a\nno LF"), []byte("G"))
	for n, b := range inputs {
		for _, lim := range []spec.Limits{spec.DefaultLimits, smallLimits, {MaxLineBytes: 1}} {
			for _, reuse := range []bool{false, true} {
				for _, portable := range []bool{false, true} {
					s := heldWithRoom(b)
					want := trace(NewDecoder(strings.NewReader(s)), lim, reuse, portable)
					d := newDecoderString(s, true)
					if d.r != noTail {
						t.Fatalf("input %d: a string read whole in place reads from %T, not noTail", n, d.r)
					}
					d.r = lenOnly{t}
					if got := trace(d, lim, reuse, portable); !slices.Equal(got, want) {
						t.Fatalf("input %d, limits %+v, reuse %v, portable %v:\nin place:\n%s\nstrings.Reader:\n%s",
							n, lim, reuse, portable, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			}
		}
	}
}

// TestStringsDecodeConcurrently: many strings read whole in place at once,
// each decoder with the shared noTail as its reader, each give what a
// strings.Reader gives. Under -race (go test -race) this is what shows
// that sharing noTail writes nothing.
func TestStringsDecodeConcurrently(t *testing.T) {
	inputs := wideInputs(t)
	type job struct {
		s               string
		lim             spec.Limits
		reuse, portable bool
		want            []string
	}
	var jobs []job
	for _, b := range inputs {
		for _, lim := range []spec.Limits{spec.DefaultLimits, {MaxLineBytes: 200}} {
			for _, reuse := range []bool{false, true} {
				for _, portable := range []bool{false, true} {
					s := heldWithRoom(b)
					for !scanRoomAfter(s) {
						s = heldWithRoom(b)
					}
					want := trace(NewDecoder(strings.NewReader(s)), lim, reuse, portable)
					jobs = append(jobs, job{s, lim, reuse, portable, want})
				}
			}
		}
	}
	const workers, rounds = 8, 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				for k := range jobs {
					j := jobs[(k+w*7+r)%len(jobs)]
					d := NewDecoderString(j.s)
					if d.r != noTail {
						t.Errorf("a string with room after it reads from %T, not noTail", d.r)
						return
					}
					if got := trace(d, j.lim, j.reuse, j.portable); !slices.Equal(got, j.want) {
						t.Errorf("limits %+v, reuse %v, portable %v:\nin place:\n%s\nstrings.Reader:\n%s",
							j.lim, j.reuse, j.portable, strings.Join(got, "\n"), strings.Join(j.want, "\n"))
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if noTail.Len() != 0 || noTail.Size() != 0 {
		t.Errorf("noTail holds %d bytes of %d after the decoders", noTail.Len(), noTail.Size())
	}
}
