package streaming

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// chunkReader hands out data in reads of the given sizes, in turn; a size
// of 0 makes a read return nothing, which readers may do. After the data it
// returns fail, or io.EOF if fail is nil; withData returns fail together
// with the last bytes.
type chunkReader struct {
	data     []byte
	sizes    []int
	turn     int
	fail     error
	withData bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	end := io.EOF
	if r.fail != nil {
		end = r.fail
	}
	if len(r.data) == 0 {
		return 0, end
	}
	n := min(r.sizes[r.turn%len(r.sizes)], len(p), len(r.data))
	r.turn++
	copy(p, r.data[:n])
	r.data = r.data[n:]
	if len(r.data) == 0 && r.withData {
		return n, end
	}
	return n, nil
}

var errReaderBroke = errors.New("test reader broke down")

// delivery is one way of handing a payload to the decoder.
type delivery struct {
	name   string
	reader func(b []byte) io.Reader
}

// inPlace stands for a payload handed to NewDecoderString rather than
// read: newDecoderOf tells it apart from the readers.
type inPlace struct{ s string }

func (inPlace) Read([]byte) (int, error) {
	return 0, errors.New("a payload decoded in place was read as a reader")
}

// newDecoderOf returns the Decoder a delivery's reader stands for.
func newDecoderOf(r io.Reader) *Decoder {
	switch in := r.(type) {
	case inPlace:
		return NewDecoderString(in.s)
	case inPlaceButTail:
		return newDecoderString(in.s, false)
	}
	return NewDecoder(r)
}

// inPlaceButTail is inPlace where the memory after the string may not be
// loaded, as for one string in 256 (scanRoomAfter): its last bytes are
// read into a buffer of the decoder's own.
type inPlaceButTail inPlace

func (inPlaceButTail) Read([]byte) (int, error) { return inPlace{}.Read(nil) }

// inPlaceDelivery and inPlaceTailDelivery hand the payload to
// NewDecoderString, as a copy of its own, so that nothing the test does
// to b later could change it.
var (
	inPlaceDelivery     = delivery{"in-place", func(b []byte) io.Reader { return inPlace{string(b)} }}
	inPlaceTailDelivery = delivery{"in-place-tail", func(b []byte) io.Reader { return inPlaceButTail{string(b)} }}
)

// deliveries draws the ways every input is delivered: whole, in read sizes
// rapid picks, one byte at a time, half of what is asked, with io.EOF
// arriving with the last bytes.
func deliveries(t *rapid.T) []delivery {
	sizes := rapid.SliceOfN(rapid.IntRange(0, 70), 1, 6).Draw(t, "read-sizes")
	sizes[0] = max(sizes[0], 1)
	return deliveriesIn(sizes)
}

// deliveriesIn lists the ways of delivery, chunks cut to the given sizes.
func deliveriesIn(sizes []int) []delivery {
	return []delivery{
		{"whole", func(b []byte) io.Reader { return bytes.NewReader(b) }},
		inPlaceDelivery,
		inPlaceTailDelivery,
		{"chunks", func(b []byte) io.Reader { return &chunkReader{data: b, sizes: sizes} }},
		{"one-byte", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"half", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"data-err", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
		{"one-byte-data-err", func(b []byte) io.Reader {
			return iotest.DataErrReader(iotest.OneByteReader(bytes.NewReader(b)))
		}},
	}
}

// drawLimits draws either the default limits or small ones, so every limit
// error [LIM-1] [LIM-3] is reached; 0 turns a limit off.
func drawLimits(t *rapid.T) spec.Limits {
	if rapid.IntRange(0, 2).Draw(t, "small-limits") == 0 {
		return spec.DefaultLimits
	}
	return spec.Limits{
		MaxLineBytes: rapid.OneOf(rapid.Just(0), rapid.IntRange(1, 90)).Draw(t, "max-line"),
		MaxFields:    rapid.IntRange(0, 6).Draw(t, "max-fields"),
		MaxSections:  rapid.IntRange(0, 4).Draw(t, "max-sections"),
		MaxRows:      rapid.IntRange(0, 8).Draw(t, "max-rows"),
	}
}

// checkDifferential decodes b in every way of delivery, with and without
// ReuseRecord, and checks each answer against the reference's: the same
// items and the same error. A reader that fails part-way must yield the
// items of the lines it delivered whole and then its own error.
func checkDifferential(t *rapid.T, b []byte, lim spec.Limits) {
	plan := deliveryPlan{
		reuse:     rapid.Bool().Draw(t, "reuse"),
		portable:  rapid.Bool().Draw(t, "portable"),
		ways:      deliveries(t),
		failAfter: rapid.IntRange(0, len(b)).Draw(t, "fail-after"),
		failSizes: rapid.SliceOfN(rapid.IntRange(1, 40), 1, 4).Draw(t, "fail-read-sizes"),
		failWith:  rapid.Bool().Draw(t, "fail-with-data"),
	}
	if err := plan.check(b, lim); err != nil {
		t.Fatal(err)
	}
}

// deliveryPlan says how one input is handed to the decoder.
type deliveryPlan struct {
	reuse     bool
	portable  bool // read rows the portable way even where the row scanner exists
	ways      []delivery
	failAfter int   // the failing reader delivers this many bytes
	failSizes []int // in reads of these sizes
	failWith  bool  // and returns its error with the last of them
}

// check runs the plan on b and returns the first disagreement with the
// reference, or nil.
func (plan deliveryPlan) check(b []byte, lim spec.Limits) error {
	want, err := expect(b, lim)
	if err != nil {
		return fmt.Errorf("oracle: %v", err)
	}
	decode := func(r io.Reader) ([]event, error, string) {
		d := newDecoderOf(r)
		d.Limits = lim
		d.ReuseRecord = plan.reuse
		d.portable = plan.portable
		return drain(d)
	}
	for _, how := range plan.ways {
		got, err, problem := decode(how.reader(b))
		if problem != "" {
			return fmt.Errorf("%s, input %s: %s", how.name, gen.Describe(b), problem)
		}
		if diff := diffEvents(got, want.events); diff != "" {
			return fmt.Errorf("%s, input %s, limits %+v: items differ (-reference +streaming):\n%s", how.name, gen.Describe(b), lim, diff)
		}
		if diff := diffError(err, want.err); diff != "" {
			return fmt.Errorf("%s, input %s, limits %+v: error differs (-reference +streaming):\n%s\nstreaming: %v\nreference: %v",
				how.name, gen.Describe(b), lim, diff, err, want.err)
		}
	}

	p, err := Decode(bytes.NewReader(b), lim)
	refP, refErr := reference.DecodeLimits(b, lim)
	if diff := cmp.Diff(refP, p, cmpopts.EquateEmpty()); diff != "" {
		return fmt.Errorf("Decode, input %s: payload differs (-reference +streaming):\n%s", gen.Describe(b), diff)
	}
	if diff := diffError(err, refErr); diff != "" {
		return fmt.Errorf("Decode, input %s: error differs (-reference +streaming):\n%s", gen.Describe(b), diff)
	}

	k := min(plan.failAfter, len(b))
	got, err, problem := decode(&chunkReader{data: b[:k], sizes: plan.failSizes, fail: errReaderBroke, withData: plan.failWith})
	if problem != "" {
		return fmt.Errorf("reader failing after %d bytes, input %s: %s", k, gen.Describe(b), problem)
	}
	wantEvents, wantErr := want.failedAfter(k, errReaderBroke)
	if diff := diffEvents(got, wantEvents); diff != "" {
		return fmt.Errorf("reader failing after %d bytes, input %s: items differ (-want +got):\n%s", k, gen.Describe(b), diff)
	}
	if diff := diffError(err, wantErr); diff != "" {
		return fmt.Errorf("reader failing after %d bytes, input %s: error differs (-want +got):\n%s\ngot: %v", k, gen.Describe(b), diff, err)
	}
	return nil
}

// TestPropertyDecodeValid: every valid payload [CAN-1], however delivered,
// decodes to the reference's model, comments included [CMT-3].
func TestPropertyDecodeValid(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		b, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("reference.Encode: %v", err)
		}
		checkDifferential(t, b, drawLimits(t))
	})
}

// TestPropertyDecodeLongValues: payloads whose values are stretched past
// the 16- and 32-byte steps of the row scanner, so that TABs, escapes and
// non-ASCII fall anywhere within them [VAL-1] [ROW-1]; half of them mutated,
// so that raw CRs and broken bytes do too [ENC-1] [ENC-3].
func TestPropertyDecodeLongValues(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		for i := range p.Sections {
			for _, row := range p.Sections[i].Rows {
				for k := range row {
					pad := strings.Repeat("x", rapid.IntRange(0, 40).Draw(t, "pad"))
					row[k] = strings.Repeat(row[k], rapid.IntRange(1, 4).Draw(t, "repeat")) + pad
				}
			}
		}
		b, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("reference.Encode: %v", err)
		}
		if rapid.Bool().Draw(t, "mutate") {
			b = gen.Mutate(t, b)
		}
		checkDifferential(t, b, drawLimits(t))
	})
}

// TestPropertyDecodeMutated: mutated payloads, mostly invalid, give the
// reference's first error in class, position and rule [ERR-2] [ERR-3].
func TestPropertyDecodeMutated(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		b, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("reference.Encode: %v", err)
		}
		checkDifferential(t, gen.Mutate(t, b), drawLimits(t))
	})
}

// grammarBytes are the bytes that matter to GCX1, so arbitrary inputs built
// from them reach deep into the grammar.
var grammarBytes = []byte("\t\n\r\\# GCX1=,tools fieldsrowa-_.0\x00\x7f\xc3\xa9\xff\xe2\x80\xa8\xef\xbb\xbf")

// starts are what arbitrary inputs may begin with, to get past [PAY-1].
var starts = []string{"", "GCX1 tool=t fields=a,b\n", "GCX1 tool=t fields=a rows=1\n", "GCX1 ", "GCX", "#"}

// TestPropertyDecodeArbitraryBytes: arbitrary bytes give the reference's
// answer too, whatever they are [ENC-1] [LINE-1] [PAY-1].
func TestPropertyDecodeArbitraryBytes(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		start := rapid.SampledFrom(starts).Draw(t, "start")
		var body []byte
		if rapid.Bool().Draw(t, "any-byte") {
			body = rapid.SliceOfN(rapid.Byte(), 0, 120).Draw(t, "bytes")
		} else {
			body = rapid.SliceOfN(rapid.SampledFrom(grammarBytes), 0, 120).Draw(t, "bytes")
		}
		checkDifferential(t, append([]byte(start), body...), drawLimits(t))
	})
}
