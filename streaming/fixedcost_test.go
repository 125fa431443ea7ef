package streaming

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// BenchmarkHeaderOnly decodes the five-row payload's header alone, declaring
// no rows, with a new Decoder each time: a call's fixed cost, which
// BenchmarkSmallCall pays before its first row.
func BenchmarkHeaderOnly(b *testing.B) {
	payload := fiveRows()
	header := payload[:bytes.IndexByte(payload, '\n')+1]
	header = bytes.Replace(header, []byte(" rows=5"), []byte(" rows=0"), 1)
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(header))
		for {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

// A call's first header costs the decoder no allocation of its own: the
// Header, its fields and its meta pairs stand in the decoder, and so does
// the copy of its line that ReuseRecord needs, where the buffer it was
// read into is written over later; and the buffer of a small input from a
// bytes.Reader stands in the decoder's own allocation. That makes one
// object a call, with ReuseRecord or without. Before issue 38 the header
// alone cost twelve, three (four with ReuseRecord) after its second round
// and two after its third.
func TestHeaderAllocations(t *testing.T) {
	payload := fiveRows()
	header := payload[:bytes.IndexByte(payload, '\n')+1]
	header = bytes.Replace(header, []byte(" rows=5"), []byte(" rows=0"), 1)
	for _, reuse := range []bool{false, true} {
		allocs := payloadAllocations(t, header, reuse)
		if want := 1.0; allocs > want {
			t.Errorf("reuse %v: %.0f allocations to decode a header, want at most %.0f", reuse, allocs, want)
		}
	}
}

// payloadAllocations returns the allocations of decoding payload to its
// end with a new Decoder, read from a bytes.Reader, with ReuseRecord or
// without.
func payloadAllocations(t *testing.T, payload []byte, reuse bool) float64 {
	t.Helper()
	r := bytes.NewReader(payload)
	return testing.AllocsPerRun(100, func() {
		r.Reset(payload)
		d := NewDecoder(r)
		d.ReuseRecord = reuse
		for {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					t.Fatalf("%.40q: %v", payload, err)
				}
				break
			}
		}
	})
}

// A header of more fields and meta pairs than the header block has room
// for, or than the parser marks on the stack, decodes as the reference
// decodes it, and so does one whose names and values have escapes and
// characters that are not ASCII.
func TestLargeAndEscapedHeaders(t *testing.T) {
	var many strings.Builder
	many.WriteString("GCX1 tool=t fields=")
	for i := range 40 {
		if i > 0 {
			many.WriteByte(',')
		}
		fmt.Fprintf(&many, "f%d", i)
	}
	for i := range 30 {
		fmt.Fprintf(&many, " k%d=v%d", i, i)
	}
	many.WriteString(" rows=1\n" + strings.Repeat("x\t", 39) + "x\n")
	payloads := []string{
		many.String(),
		"GCX1 tool=t fields=a\\,b,c\\\\d,é,日本\\s x=a\\sb y=ü\\\\ rows=1\nv\tw\tx\ty\n",
		"GCX1 tool=t fields=a,b,a\n",
		"GCX1 tool=t fields=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a\n",
		"GCX1 tool=t fields=a k=1 k2=2 k3=3 k4=4 k5=5 k6=6 k7=7 k8=8 k9=9 k=10\n",
		"GCX1 tool=t fields=a rows=2 rows=2\n",
	}
	for _, p := range payloads {
		want, wantErr := reference.Decode([]byte(p))
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(strings.NewReader(p))
			d.ReuseRecord = reuse
			got, err := d.ReadAll()
			if !reflect.DeepEqual(err, wantErr) {
				t.Errorf("%.40q reuse %v: error %v, want %v", p, reuse, err, wantErr)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%.40q reuse %v: decoded %+v, want %+v", p, reuse, got, want)
			}
		}
	}
}

// unsized hides a reader's Len, so that the decoder cannot size its buffer
// from the input.
type unsized struct{ r io.Reader }

func (u unsized) Read(p []byte) (int, error) { return u.r.Read(p) }

// Fresh rows point into the buffer they were read into, which the decoder
// leaves to them once it is full, rather than copy their text: a stream of
// many buffers, whose reader does not tell its length, included.
func TestFreshRowsPointIntoTheirBuffer(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCX1 tool=t fields=a,b\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "row%d\tvalue %d\n", i, i)
	}
	d := NewDecoder(unsized{strings.NewReader(b.String())})
	rows := 0
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if kind != KindRow {
			continue
		}
		rows++
		v := d.Row()[0]
		at := uintptr(unsafe.Pointer(unsafe.StringData(v)))
		from := uintptr(unsafe.Pointer(unsafe.SliceData(d.buf)))
		if at < from || at+uintptr(len(v)) > from+uintptr(len(d.buf)) {
			t.Fatalf("row %d: its first value %q was copied out of the read buffer", rows, v)
		}
	}
	if rows != 20000 || d.InputOffset() < 256<<10 {
		t.Fatalf("%d rows, %d bytes", rows, d.InputOffset())
	}
}

// Rows kept from a stream of many sealed buffers stay as they were read,
// however the reader hands the bytes over, with lines shorter and longer
// than a buffer, escapes and comments among them.
func TestFreshRowsOfSealedBuffersStay(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCX1 tool=t fields=a,b\n")
	for i := range 3000 {
		switch {
		case i%500 == 7:
			fmt.Fprintf(&b, "long%d\t%s\n", i, strings.Repeat(string(rune('a'+i%26)), 70<<10+i))
		case i%3 == 1:
			fmt.Fprintf(&b, "esc\\t%d\tw\\\\%d\n#note %d\n", i, i, i)
		default:
			fmt.Fprintf(&b, "plain %d é\t%s\n", i, strings.Repeat("p", i%90))
		}
	}
	payload := []byte(b.String())
	want, err := reference.Decode(payload)
	if err != nil {
		t.Fatal(err)
	}
	readers := map[string]func() io.Reader{
		"whole":   func() io.Reader { return bytes.NewReader(payload) },
		"unsized": func() io.Reader { return unsized{bytes.NewReader(payload)} },
		"half":    func() io.Reader { return iotest.HalfReader(bytes.NewReader(payload)) },
		"bytes":   func() io.Reader { return iotest.OneByteReader(bytes.NewReader(payload)) },
	}
	for name, reader := range readers {
		got, err := NewDecoder(reader()).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the rows kept differ from the reference's", name)
		}
	}
}

// BenchmarkFreshAgainstReuse decodes the shapes bench/floors holds fresh
// rows to reuse on — 500 search_symbols rows and 200 rows of a 10 KiB
// value — with a new Decoder each time, fresh and with ReuseRecord.
func BenchmarkFreshAgainstReuse(b *testing.B) {
	symbols := symbolRows()
	s := &symbols.model.Sections[0]
	s.Rows = s.Rows[:500]
	s.Meta = nil
	symbolsGCX, err := reference.Encode(&spec.Payload{Sections: []spec.Section{*s}})
	if err != nil {
		b.Fatal(err)
	}
	var long strings.Builder
	long.WriteString("GCX1 tool=read_logs fields=path,size,text\n")
	for i := range 200 {
		fmt.Fprintf(&long, "logs/service-%d.log\t%d\t%s\n", i, 10<<10, strings.Repeat("2026-12-05T10:00:00Z INFO request served ", 10<<10/41+1)[:10<<10])
	}
	for _, shape := range []struct {
		name    string
		payload []byte
	}{{"symbols500", symbolsGCX}, {"value10k", []byte(long.String())}} {
		text := string(shape.payload)
		for _, from := range []string{"reader", "string"} {
			for _, reuse := range []bool{false, true} {
				name := shape.name + "/fresh"
				if reuse {
					name = shape.name + "/reuse"
				}
				if from == "string" {
					// NewDecoderString: the payload read in place.
					name += "-in-place"
				}
				b.Run(name, func(b *testing.B) {
					b.SetBytes(int64(len(shape.payload)))
					b.ReportAllocs()
					for b.Loop() {
						var d *Decoder
						if from == "string" {
							d = NewDecoderString(text)
						} else {
							d = NewDecoder(bytes.NewReader(shape.payload))
						}
						d.ReuseRecord = reuse
						for {
							if _, err := d.Next(); err != nil {
								if err != io.EOF {
									b.Fatal(err)
								}
								break
							}
						}
					}
				})
			}
		}
	}
}

// scanHeader, the one pass that reads nearly every header, reads what the
// grammar's walk reads, wherever it takes a line at all, takes no header
// that breaks a rule spec.HeaderFault checks, and takes the five-row
// payload's header; a decoder reading any of the headers made by breaking
// that header byte by byte answers as the reference does, whichever path
// read it.
func TestScanHeaderAgreesWithTheWalk(t *testing.T) {
	payload := fiveRows()
	base := string(payload[:bytes.IndexByte(payload, '\n')])
	headers := []string{base, "GCX1 tool=t fields=a", "GCX1 tool=t fields=a,b k=v",
		// Repeats and reserved keys the scan has to leave to HeaderFault.
		"GCX1 tool=t fields=a,b,a", "GCX1 tool=t fields=ab,ab", "GCX1 tool=t fields=a k=1 k=2",
		"GCX1 tool=t fields=a tool=x", "GCX1 tool=t fields=a fields=x", "GCX1 tool=t fields=a rows=01",
		"GCX1 tool=t fields=a total=x", "GCX1 tool=t fields=a truncated=yes", "GCX1 tool=t fields=a rows=3",
		// Names whose spec.NameBit is the same, all different.
		"GCX1 tool=t fields=ab,ac,ad,ae k1=x k2=y"}
	// As many fields and pairs as the header block has room for, and
	// more, with a repeat among them or not.
	for _, n := range []int{inlineFields, inlineFields + 1, 2 * markRoom} {
		h := "GCX1 tool=t fields=f0"
		for i := 1; i < n; i++ {
			h += fmt.Sprintf(",f%d", i)
		}
		for i := 0; i < n-inlineFields+inlineMeta; i++ {
			h += fmt.Sprintf(" k%d=v%d", i, i)
		}
		headers = append(headers, h, strings.Replace(h, "f1,", "f0,", 1), strings.Replace(h, " k1=", " k0=", 1))
	}
	for i := range len(base) + 1 {
		for _, s := range []string{"", " ", "  ", "\t", ",", "=", "\\", "\\s", "é", "\r", "x", "-", "\x01", "\x7f", "\xff", "GCX1", "rows=", "tool="} {
			headers = append(headers, base[:i]+s+base[min(i+1, len(base)):], base[:i]+s+base[i:])
		}
	}
	scanned := 0
	for _, h := range headers {
		line := []byte(h + "\n")[:len(h)] // as the decoder has it: the LF after it in the buffer
		scan := NewDecoder(strings.NewReader(h + "\n"))
		var got headerBlock
		gotDecl, ok := scan.scanHeader(line, h, true, &got)
		if h == base && !ok {
			t.Errorf("%q: not taken by the scan", h)
		}
		if ok {
			scanned++
			walk := NewDecoder(strings.NewReader(h + "\n"))
			var want headerBlock
			wantDecl, err := walk.walkHeader(line, h, true, &want)
			switch {
			case err != nil:
				t.Errorf("%q: the scan took it, the walk refuses it: %v", h, err)
			case !reflect.DeepEqual(got.h, want.h):
				t.Errorf("%q: the scan reads %+v, the walk %+v", h, got.h, want.h)
			case scan.fieldsCol != walk.fieldsCol || !slices.Equal(scan.metaCols, walk.metaCols):
				t.Errorf("%q: the scan's columns %d %v, the walk's %d %v", h, scan.fieldsCol, scan.metaCols, walk.fieldsCol, walk.metaCols)
			case (gotDecl == nil) != (wantDecl == nil) || gotDecl != nil && *gotDecl != *wantDecl:
				t.Errorf("%q: the scan's rows= %+v, the walk's %+v", h, gotDecl, wantDecl)
			}
		}
		p := []byte(h + "\n")
		want, wantErr := reference.Decode(p)
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(bytes.NewReader(p))
			d.ReuseRecord = reuse
			got, err := d.ReadAll()
			if !reflect.DeepEqual(err, wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%q reuse %v: decoded %+v, %v; the reference %+v, %v", h, reuse, got, err, want, wantErr)
			}
		}
	}
	if scanned < len(headers)/4 {
		t.Errorf("the scan took %d of %d headers", scanned, len(headers))
	}
}

// A fresh decode of a sized input reads its last part into a buffer the
// size of what is left, not into a full one; where Len says less than is
// left, the rows still come out whole and the same.
func TestSealedLastBufferFitsTheRest(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCX1 tool=t fields=a,b\n")
	for i := 0; b.Len() < sealedBuffer+sealedBuffer/8; i++ {
		fmt.Fprintf(&b, "row %d\t%s\n", i, strings.Repeat("v", i%70))
	}
	payload := b.String()
	want, err := reference.Decode([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(strings.NewReader(payload))
	got, err := d.ReadAll()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %v, %v", len(got.Sections), err)
	}
	if size := len(d.buf) - bufferSlack; size > sealedBuffer/4 {
		t.Errorf("the last buffer holds %d bytes for the last %d of the input", size, len(payload)-sealedBuffer)
	}
	for _, delta := range []int{-len(payload), -sealedBuffer, -fullBuffer, -100, 100} {
		got, err := NewDecoder(misreporting{bytes.NewReader([]byte(payload)), delta}).ReadAll()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Len off by %d: the rows differ from the reference's (%v)", delta, err)
		}
	}
}

// A call makes a new Decoder, and the first section's Header with its
// fields and pairs stands in it: the two take one allocation, not two. The
// runtime puts an 8-byte header before an object with pointers of more
// than 512 bytes, and a Decoder with it fills the 1 KiB size class.
func TestDecoderHoldsTheFirstHeader(t *testing.T) {
	if size := unsafe.Sizeof(Decoder{}); size+8 != 1024 {
		t.Errorf("a Decoder is %d bytes, want 1016, the 1 KiB size class with the allocation's header", size)
	}
	// With ReuseRecord the first header's strings stay as they were
	// read, however the rows after it overwrite the buffer; so do a
	// longer header's, which is copied apart.
	// The input is longer than a full buffer, which then starts at
	// that size, and moves what is left of it to its front once full.
	for _, tool := range []string{"t", strings.Repeat("t", 300)} {
		var b strings.Builder
		b.WriteString("GCX1 tool=" + tool + " fields=a,b k=v\n")
		for i := 0; b.Len() < 3*fullBuffer; i++ {
			fmt.Fprintf(&b, "row%d\tvalue%d\n", i, i)
		}
		d := NewDecoder(strings.NewReader(b.String()))
		d.ReuseRecord = true
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
		h := d.Header()
		for {
			if _, err := d.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if h.Tool != tool || !slices.Equal(h.Fields, []string{"a", "b"}) || len(h.Meta) != 1 || h.Meta[0] != (spec.Meta{Key: "k", Value: "v"}) {
			t.Errorf("reuse, a tool name of %d bytes: the header reads %+v after the rows", len(tool), *h)
		}
	}
	payload := []byte("GCX1 tool=t fields=a\nx\nGCX1 tool=u fields=b\ny\n")
	d := NewDecoder(bytes.NewReader(payload))
	var headers []*Header
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if kind == KindHeader {
			headers = append(headers, d.Header())
		}
	}
	if len(headers) != 2 || headers[0] != &d.first.h || headers[1] == headers[0] {
		t.Fatalf("headers %p, want the first at %p and the second apart", headers, &d.first.h)
	}
	if headers[0].Tool != "t" || !slices.Equal(headers[0].Fields, []string{"a"}) {
		t.Errorf("the first header, kept past the second, reads %+v", *headers[0])
	}
}

// A bytes.Reader or strings.Reader read whole by its first Read is known to
// be at its end, so a small payload's last Next makes no second Read; a
// bytes.Buffer, which its owner may write to between two calls of Next,
// is read again, and what is written to it meanwhile is decoded.
func TestDrainedReaderEndsWithoutARead(t *testing.T) {
	const header = "GCX1 tool=t fields=a\n"
	for name, r := range map[string]io.Reader{"bytes": bytes.NewReader([]byte(header)), "strings": strings.NewReader(header)} {
		d := NewDecoder(r)
		if kind, err := d.Next(); kind != KindHeader || err != nil {
			t.Fatalf("%s: %v, %v", name, kind, err)
		}
		if d.rerr != io.EOF {
			t.Errorf("%s: after the first Next the reader's state is %v, want io.EOF", name, d.rerr)
		}
		if _, err := d.Next(); err != io.EOF {
			t.Errorf("%s: %v, want io.EOF", name, err)
		}
	}
	var buf bytes.Buffer
	buf.WriteString(header)
	d := NewDecoder(&buf)
	if kind, err := d.Next(); kind != KindHeader || err != nil {
		t.Fatalf("buffer: %v, %v", kind, err)
	}
	buf.WriteString("x\n")
	if kind, err := d.Next(); kind != KindRow || err != nil || d.Row()[0] != "x" {
		t.Errorf("buffer written to after the header: %v, %v, want the row", kind, err)
	}
}

// A Decoder made for a small input from a reader that tells its length is
// allocated with room for its first buffer, and each such object fills a
// size class of the runtime, with the 8-byte header of an object with
// pointers over 512 bytes, from 1,152 to 4,096 bytes.
func TestDecoderRoomsFillSizeClasses(t *testing.T) {
	for _, c := range []struct {
		size, class uintptr
	}{
		{unsafe.Sizeof(decoderRoom[[room128]byte]{}), 1152},
		{unsafe.Sizeof(decoderRoom[[room256]byte]{}), 1280},
		{unsafe.Sizeof(decoderRoom[[room512]byte]{}), 1536},
		{unsafe.Sizeof(decoderRoom[[room1024]byte]{}), 2048},
		{unsafe.Sizeof(decoderRoom[[room1280]byte]{}), 2304},
		{unsafe.Sizeof(decoderRoom[[room2048]byte]{}), 3072},
		{unsafe.Sizeof(decoderRoom[[roomLarge]byte]{}), 4096},
	} {
		if c.size+8 != c.class {
			t.Errorf("a decoder with its room is %d bytes, want %d, the size class %d with the allocation's header", c.size, c.class-8, c.class)
		}
	}
}

// The first buffer of a small sized input lies in the decoder's own
// allocation, just after the Decoder, and holds the whole input; a larger
// input's, or an unsized reader's, is allocated apart.
func TestSmallInputsReadIntoTheDecoder(t *testing.T) {
	small := fiveRows()
	large := append(bytes.Repeat([]byte("#"+strings.Repeat("c", 99)+"\n"), 40), small...)
	large = append(append([]byte(nil), small[:bytes.IndexByte(small, '\n')+1]...), large...)
	header := []byte("GCX1 tool=t fields=a\n")
	for _, c := range []struct {
		name    string
		payload []byte
		r       func([]byte) io.Reader
		inRoom  bool
		ended   bool // read whole, and known to be, by the first Read
	}{
		{"header", header, func(b []byte) io.Reader { return strings.NewReader(string(b)) }, true, true},
		{"five rows", small, func(b []byte) io.Reader { return bytes.NewReader(b) }, true, true},
		{"large", large, func(b []byte) io.Reader { return bytes.NewReader(b) }, false, true},
		{"unsized", small, func(b []byte) io.Reader { return unsized{bytes.NewReader(b)} }, false, false},
	} {
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(c.r(c.payload))
			d.ReuseRecord = reuse
			if _, err := d.Next(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			after := uintptr(unsafe.Pointer(d)) + unsafe.Sizeof(*d)
			inRoom := uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))) == after
			if inRoom != c.inRoom {
				t.Errorf("%s, reuse %v: the buffer in the decoder's room: %v, want %v", c.name, reuse, inRoom, c.inRoom)
			}
			if inRoom && d.end != len(c.payload) {
				t.Errorf("%s, reuse %v: the room holds %d bytes of %d", c.name, reuse, d.end, len(c.payload))
			}
			// Fresh, the header's strings are the buffer's own bytes;
			// so they are with ReuseRecord where a sized input was
			// read whole, as nothing is read into the buffer again,
			// and otherwise a copy.
			tool := uintptr(unsafe.Pointer(unsafe.StringData(d.Header().Tool)))
			from := uintptr(unsafe.Pointer(unsafe.SliceData(d.buf)))
			if inBuf, want := tool >= from && tool < from+uintptr(d.end), !reuse || c.ended; inBuf != want {
				t.Errorf("%s, reuse %v: the tool name in the buffer: %v, want %v", c.name, reuse, inBuf, want)
			}
		}
	}
}

// A call with ReuseRecord whose rows have at most inlineFields values
// allocates one object, from a bytes.Reader or from a string: the rows'
// slice stands in the decoder too (recordRoom). From a string read whole
// in place, as all but one in 256 are, that object is the Decoder alone,
// in the runtime's 1 KiB size class; only a string that ends too near a
// page boundary is allocated with the reader of its last bytes.
func TestReuseCallIsOneObject(t *testing.T) {
	payload := fiveRows()
	if allocs := payloadAllocations(t, payload, true); allocs != 1 {
		t.Errorf("from a bytes.Reader: %.0f allocations a call with ReuseRecord, want 1", allocs)
	}
	s := string(payload)
	for !scanRoomAfter(s) {
		s = strings.Clone(s)
	}
	decode := func() {
		d := NewDecoderString(s)
		d.ReuseRecord = true
		for {
			if _, err := d.Next(); err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				return
			}
		}
	}
	if allocs := testing.AllocsPerRun(100, decode); allocs != 1 {
		t.Errorf("from a string: %.0f allocations a call with ReuseRecord, want 1", allocs)
	}
	// The calls' bytes are counted a few times and the least count is
	// taken: the runtime now and then allocates a little of its own
	// while they run (the process's first collection starts its mark
	// workers, goroutines on the heap), which, run alone with -count=2,
	// came to 1,026 bytes a call.
	const calls = 1000
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range calls {
			decode()
		}
		runtime.ReadMemStats(&after)
		least = min(least, (after.TotalAlloc-before.TotalAlloc)/calls)
	}
	if least > 1024 {
		t.Errorf("from a string read whole in place: %d bytes allocated a call, want at most 1024, the Decoder's size class", least)
	}
}
