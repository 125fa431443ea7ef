package jsonmap_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// TestPropertyDecodeToStreams: DecodeTo, fed a byte at a time, writes what
// Decode returns, or fails with Decode's error having written no whole
// JSON text [MAP-20] [MAP-21]; the payloads are valid ones and damaged
// ones, and large ones whose output is handed on before the end.
func TestPropertyDecodeToStreams(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		if rapid.IntRange(0, 9).Draw(t, "big") == 0 {
			v = bigTable(rapid.IntRange(1, 2000).Draw(t, "rows"), v)
		}
		payload, err := jsonmap.EncodeLimits(tools.Draw(t, "tool"), v.AppendCompact(nil), spec.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "damage") {
			payload = gen.Mutate(t, payload)
		}
		want, wantErr := jsonmap.Decode(payload)
		var out bytes.Buffer
		var r io.Reader = bytes.NewReader(payload)
		if len(payload) < 4096 {
			r = iotest.OneByteReader(r)
		} else {
			r = iotest.HalfReader(r)
		}
		err = jsonmap.DecodeTo(&out, r, spec.DefaultLimits)
		checkStreamed(t, out.Bytes(), err, want, wantErr)
	})
}

// checkStreamed compares a streamed result with the whole one: the same
// bytes, or the same error and output that is no JSON text.
func checkStreamed(t *rapid.T, got []byte, err error, want []byte, wantErr error) {
	if wantErr != nil {
		if err == nil || err.Error() != wantErr.Error() {
			t.Fatalf("streamed error %v, want %v", err, wantErr)
		}
		if _, perr := jsonmap.Parse(got); perr == nil {
			t.Fatalf("a failed decode wrote a whole JSON text: %.200q", got)
		}
		return
	}
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("streamed %.200q, %v; want %.200q", got, err, want)
	}
}

// bigTable is a table of n rows whose cells hold v, large enough that the
// decoder hands its output on in pieces.
func bigTable(n int, v jsonmap.Value) jsonmap.Value {
	rows := make([]jsonmap.Value, n)
	for i := range rows {
		rows[i] = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "i", Value: jsonmap.Value{Kind: jsonmap.Number, Text: fmt.Sprint(i)}},
			{Key: "v", Value: v},
			{Key: "s", Value: jsonmap.Value{Kind: jsonmap.String, Text: strings.Repeat("x", i%50)}},
		}}
	}
	return jsonmap.Value{Kind: jsonmap.Array, Elems: rows}
}

// TestDecodeToHoldsBackTheEnd: a payload that fails after its last row,
// at the rows= check or at a section that is not part of the value, has
// had every element written but not the closing bracket [MAP-21].
func TestDecodeToHoldsBackTheEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCX1 tool=t fields=a,b rows=20000\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "%d\tsome text\n", i)
	}
	whole := b.String()
	for name, payload := range map[string]string{
		"rows= short":      strings.Replace(whole, "rows=20000", "rows=20001", 1),
		"a second value":   whole + "GCX1 tool=u fields=c\n",
		"no LF at the end": strings.TrimSuffix(whole, "\n"),
	} {
		var out bytes.Buffer
		err := jsonmap.DecodeTo(&out, strings.NewReader(payload), spec.DefaultLimits)
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if out.Len() < 64<<10 || out.Bytes()[0] != '[' {
			t.Fatalf("%s: only %d bytes were handed on before the error; the test needs the output to stream", name, out.Len())
		}
		if _, err := jsonmap.Parse(out.Bytes()); err == nil || out.Bytes()[out.Len()-1] == ']' {
			t.Fatalf("%s: the output ends %q, a whole JSON text", name, out.Bytes()[out.Len()-20:])
		}
	}
	// A value that is one cell is written whole or not at all.
	for _, payload := range []string{"GCX1 tool=t fields= json=value rows=1\n12345\n1\n", "GCX1 tool=t fields= json=value rows=2\n12345\n1\n"} {
		var out bytes.Buffer
		if err := jsonmap.DecodeTo(&out, strings.NewReader(payload), spec.DefaultLimits); err == nil || out.Len() > 0 {
			t.Fatalf("%q: %v, wrote %q", payload, err, out.Bytes())
		}
	}
}

// TestDecodeToMemoryIsFlat: a table of any length decodes in memory
// bounded by a line [MAP-20]. 64 MiB of rows go through DecodeTo while the
// heap is sampled at every write; it may not grow by more than 16 MiB.
func TestDecodeToMemoryIsFlat(t *testing.T) {
	size := int64(64 << 20)
	if testing.Short() {
		size = 8 << 20
	}
	row := "internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\tfunc NewServer(cfg Config) *Server\n"
	n := size / int64(len(row))
	header := fmt.Sprintf("GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=%d\n", n)
	r := io.MultiReader(strings.NewReader(header), &repeatReader{line: row, n: n})
	runtime.GC()
	before := heapBytes()
	w := &peakWriter{}
	if err := jsonmap.DecodeTo(w, r, spec.DefaultLimits); err != nil {
		t.Fatal(err)
	}
	if w.n < size {
		t.Fatalf("wrote %d bytes for %d of payload", w.n, size)
	}
	if grew := w.peak - before; grew > 16<<20 {
		t.Fatalf("the heap grew by %d MiB while decoding %d MiB", grew>>20, size>>20)
	}
	t.Logf("%d rows, %d MiB of JSON; heap %.1f MiB before, peak %.1f MiB", n, w.n>>20, float64(before)/(1<<20), float64(w.peak)/(1<<20))
}

func heapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// peakWriter discards what it is given and samples the heap each time.
type peakWriter struct {
	n, peak int64
}

func (w *peakWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.peak = max(w.peak, heapBytes())
	return len(p), nil
}

// repeatReader reads line n times.
type repeatReader struct {
	line string
	n    int64
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.line[r.off:])
		k += c
		r.off += c
		if r.off == len(r.line) {
			r.off = 0
			r.n--
		}
	}
	if k == 0 {
		return 0, io.EOF
	}
	return k, nil
}

// TestPropertyEncodeLimits: under any limits L, what the mapping's encoder
// writes decodes under L, and what it refuses with a limit error a decoder
// under L refuses [LIM-4].
func TestPropertyEncodeLimits(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		tool := tools.Draw(t, "tool")
		limit := func(name string, hi int) int { return rapid.IntRange(0, hi).Draw(t, name) }
		limits := spec.Limits{MaxLineBytes: limit("line", 120), MaxFields: limit("fields", 6), MaxSections: limit("sections", 3), MaxRows: limit("rows", 6)}
		text := v.AppendCompact(nil)
		all, err := jsonmap.EncodeLimits(tool, text, spec.Unlimited)
		if err != nil {
			t.Fatal(err)
		}
		decErr := jsonmap.DecodeTo(io.Discard, bytes.NewReader(all), limits)
		got, encErr := jsonmap.EncodeLimits(tool, text, limits)
		var e *spec.Error
		switch {
		case encErr == nil && !bytes.Equal(got, all):
			t.Fatalf("limits changed the payload: %q, want %q", got, all)
		case encErr == nil && decErr != nil:
			t.Fatalf("wrote under %+v what a decoder under them refuses: %v\n%q", limits, decErr, all)
		case encErr != nil && (!errors.As(encErr, &e) || !errors.Is(encErr, spec.ErrLimit) || e.Rule != "LIM-4"):
			t.Fatalf("refused with %v, want a limit error naming LIM-4", encErr)
		case encErr != nil && !errors.Is(decErr, spec.ErrLimit):
			t.Fatalf("refused under %+v what a decoder under them reads (%v): %v\n%q", limits, decErr, encErr, all)
		}
	})
}

// TestEncodeLimitsRefuseWhatDecodeRefuses: the cases of issue 12: a table
// with 5,000 keys and a string over the line limit are refused under the
// default limits, as gcx decode would refuse them, and encode under
// larger ones [LIM-4].
func TestEncodeLimitsRefuseWhatDecodeRefuses(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString(`}]`)
	wide := []byte(b.String())
	long := []byte(`["` + strings.Repeat("x", 16<<20+1) + `"]`)
	for name, in := range map[string][]byte{"5,000 fields": wide, "a 16 MiB string": long} {
		_, err := jsonmap.Encode("t", in)
		var e *spec.Error
		if !errors.As(err, &e) || !errors.Is(err, spec.ErrLimit) || e.Rule != "LIM-4" {
			t.Errorf("%s: %v, want a limit error naming LIM-4", name, err)
		}
		payload, err := jsonmap.EncodeLimits("t", in, spec.Unlimited)
		if err != nil {
			t.Fatalf("%s under no limits: %v", name, err)
		}
		if _, err := jsonmap.Decode(payload); !errors.Is(err, spec.ErrLimit) {
			t.Errorf("%s: Decode under the default limits gives %v, want the limit error the encoder foresaw", name, err)
		}
	}
}

// TestDecodeResponseBOM: a GCX1 payload behind a byte-order mark is GCX1
// written wrong and refused as GCX1 refuses it [ENC-2], not read as
// invalid JSON; a JSON text behind one is invalid JSON [MAP-1].
func TestDecodeResponseBOM(t *testing.T) {
	for _, c := range []struct {
		in     string
		format jsonmap.Format
		class  error
		rule   string
	}{
		{"\uFEFFGCX1 tool=t fields=a\n1\n", jsonmap.FormatGCX, spec.ErrNotGCX, "ENC-2"},
		{"\uFEFF[1]", jsonmap.FormatJSON, jsonmap.ErrInvalidJSON, "MAP-1"},
	} {
		_, format, err := jsonmap.DecodeResponse([]byte(c.in))
		var e *spec.Error
		if format != c.format || !errors.Is(err, c.class) || !errors.As(err, &e) || e.Rule != c.rule || e.Line != 1 || e.Column != 1 {
			t.Errorf("DecodeResponse(%q) = %s, %v; want %s, %v [%s] at 1:1", c.in, format, err, c.format, c.class, c.rule)
		}
		var out bytes.Buffer
		format, err2 := jsonmap.DecodeResponseTo(&out, strings.NewReader(c.in), spec.DefaultLimits)
		if format != c.format || err2 == nil || err2.Error() != err.Error() || out.Len() > 0 {
			t.Errorf("DecodeResponseTo(%q) = %s, %v, wrote %q; want %v", c.in, format, err2, out.Bytes(), err)
		}
	}
}

// TestDecodeResponseToJSON: a JSON result streams in compact form, with
// Parse's refusals [MAP-1] and the same convention on error [MAP-21].
func TestDecodeResponseToJSON(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{" [ {\"a\" : 1, \"b\":[true,null,\"x\\u00e9\"]} ]\n", `[{"a":1,"b":[true,null,"xé"]}]`, ""},
		{`"text"`, `"text"`, ""},
		{`-0.5e7`, `-0.5e7`, ""},
		{`{"a":1,"a":2}`, "", `member name "a" appears twice`},
		{`[1,2,3] x`, "", "expected end of input"},
		{`12 x`, "", "expected end of input"},
		// A scalar longer than the writer's buffer is held back whole: a
		// number cut by its last byte would still be a JSON text.
		{strings.Repeat("1", 70000) + " x", "", "expected end of input"},
		{``, "", "found end of input"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		format, err := jsonmap.DecodeResponseTo(&out, iotest.OneByteReader(strings.NewReader(c.in)), spec.DefaultLimits)
		if format != jsonmap.FormatJSON {
			t.Errorf("%q: format %s", c.in, format)
		}
		if c.err == "" {
			if err != nil || out.String() != c.want {
				t.Errorf("%q: %q, %v; want %q", c.in, out.Bytes(), err, c.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "read as JSON") {
			t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
		}
		if _, perr := jsonmap.Parse(out.Bytes()); perr == nil {
			t.Errorf("%q: the failed output %q is a JSON text", c.in, out.Bytes())
		}
	}
}

// TestWriteErrorsReported: an error from the writer comes back from
// DecodeTo, DecodeResponseTo and EncodeTo as it is.
func TestWriteErrorsReported(t *testing.T) {
	full := errors.New("disk full")
	big := bigTable(20000, jsonmap.Value{Kind: jsonmap.String, Text: "some text"})
	payload, err := jsonmap.EncodeValue("t", big)
	if err != nil {
		t.Fatal(err)
	}
	if err := jsonmap.DecodeTo(failingWriter{full}, bytes.NewReader(payload), spec.DefaultLimits); err != full {
		t.Errorf("DecodeTo: %v", err)
	}
	if _, err := jsonmap.DecodeResponseTo(failingWriter{full}, bytes.NewReader(big.AppendCompact(nil)), spec.DefaultLimits); err != full {
		t.Errorf("DecodeResponseTo: %v", err)
	}
	if err := jsonmap.EncodeTo(failingWriter{full}, "t", big, spec.DefaultLimits); err != full {
		t.Errorf("EncodeTo: %v", err)
	}
	// A small result fails at the end, when the last byte is written.
	if err := jsonmap.DecodeTo(failingWriter{full}, strings.NewReader("GCX1 tool=t fields=a\n1\n"), spec.DefaultLimits); err != full {
		t.Errorf("DecodeTo of a small payload: %v", err)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestMessagesQuoteAShortPrefix: an error about a long name or value
// quotes at most its first 64 bytes and says how long it is.
func TestMessagesQuoteAShortPrefix(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for name, run := range map[string]func() error{
		"repeated member name": func() error {
			_, err := jsonmap.Parse([]byte(`{"` + long + `":1,"` + long + `":2}`))
			return err
		},
		"unknown json= form": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a json=" + long + "\n"))
			return err
		},
		"str= naming no field": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a str=" + long + "\n"))
			return err
		},
		"nest= naming no field": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a nest=" + long + "\n"))
			return err
		},
		"misnamed member table": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a json=row\n@\nGCX1 tool=t.b fields=" + long + "\n"))
			return err
		},
		"section after the value": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a\n1\nGCX1 tool=" + long + " fields=a\n"))
			return err
		},
		"empty member": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields= json=object " + long + "=\n"))
			return err
		},
		"member table missing": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=t fields=a json=object x=@ " + long + "=@\n"))
			return err
		},
		"layout fields": func() error {
			_, err := jsonmap.Decode([]byte("GCX1 tool=analyze fields=" + long + "\n"))
			return err
		},
	} {
		err := run()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if msg := err.Error(); len(msg) > 400 || !strings.Contains(msg, "(1048576 bytes)") && name != "misnamed member table" {
			t.Errorf("%s: message of %d bytes: %.300s", name, len(msg), msg)
		}
	}
}

// TestParseErrorsCarryOffsets: MAP-1 errors give the byte offset of the
// offending byte, as the rule asks, beside its line and column.
func TestParseErrorsCarryOffsets(t *testing.T) {
	for in, want := range map[string]int64{
		"[1,\n 2,\n x]":        9,
		"{\"a\":1,\n\"a\":2}":  8,
		"\"ab\\q\"":            4,
		"[\"\\ud800\"]":        2,
		"  \n\n  \"a\xffb\"":   8,
		strings.Repeat("[", 5): 5,
	} {
		_, err := jsonmap.Parse([]byte(in))
		var e *spec.Error
		if !errors.As(err, &e) || e.Offset != want || e.Rule != "MAP-1" {
			t.Errorf("Parse(%q) = %v at offset %d, want offset %d", in, err, e.Offset, want)
		}
	}
}

// TestMillionKeys: one object with a million members — the 12 MB value of
// issue 12, which never finished — encodes and decodes back in seconds:
// every step of the mapping is linear in the members [MAP-12]. The other
// shapes of a wide object take a tenth of that here (BenchmarkScale
// measures them at n and 8n); -short runs everything at a tenth.
func TestMillionKeys(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n /= 10
	}
	for _, shape := range []struct {
		name, member string
		n            int
		table        bool
	}{
		{"header form", `"k%d":%d`, n, false},
		{"row form", `"k %d":%d`, n / 10, false},
		{"one-row table", `"k%d":%d`, n / 10, true},
	} {
		in := object(shape.n, shape.member)
		if shape.table {
			in = append(append([]byte("["), in...), ']')
		}
		start := time.Now()
		payload, err := jsonmap.EncodeLimits("t", in, spec.Unlimited)
		if err != nil {
			t.Fatalf("%s: %v", shape.name, err)
		}
		encoded := time.Since(start)
		var out bytes.Buffer
		if err := jsonmap.DecodeTo(&out, bytes.NewReader(payload), spec.Unlimited); err != nil || !bytes.Equal(out.Bytes(), in) {
			t.Fatalf("%s: the value did not come back: %v", shape.name, err)
		}
		t.Logf("%s, %d members (%d bytes): encoded in %v, decoded in %v", shape.name, shape.n, len(in), encoded, time.Since(start)-encoded)
	}
}

// The streaming encoder's payload is the one Model describes, byte for byte.
func TestEncodeToMatchesModel(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		tool := tools.Draw(t, "tool")
		p, err := jsonmap.Model(tool, v)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := streaming.Encode(&want, p); err != nil {
			t.Fatal(err)
		}
		got, err := jsonmap.EncodeValue(tool, v)
		if err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("EncodeValue = %q, %v; Model encodes to %q", got, err, want.Bytes())
		}
	})
}

// TestPropertyPayloadPrefixesDoNotDecode: no strict prefix of a payload
// the encoder writes, cut at a line boundary, decodes to a value, so the
// lines an encoder hands over before failing are never taken for a result
// [MAP-21] [MAP-12].
func TestPropertyPayloadPrefixesDoNotDecode(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		payload, err := jsonmap.Encode(tools.Draw(t, "tool"), v.AppendCompact(nil))
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(payload) - 1 {
			if payload[i] != '\n' {
				continue
			}
			if out, err := jsonmap.Decode(payload[:i+1]); err == nil {
				t.Fatalf("the prefix %q of %q decodes to %s", payload[:i+1], payload, out)
			}
		}
	})
}

// TestEncodeToFailsWithoutAResult: an encoder refused part way, after
// handing over lines, has written no payload a decoder takes [MAP-21].
func TestEncodeToFailsWithoutAResult(t *testing.T) {
	big := bigTable(5000, jsonmap.Value{Kind: jsonmap.String, Text: "some text to fill the lines"})
	var out bytes.Buffer
	err := jsonmap.EncodeTo(&out, "t", big, spec.Limits{MaxRows: 4000})
	if !errors.Is(err, spec.ErrLimit) || out.Len() < 64<<10 {
		t.Fatalf("got %v after %d bytes; the test needs a refusal after some output", err, out.Len())
	}
	if _, err := jsonmap.Decode(out.Bytes()); err == nil {
		t.Fatal("the output of a refused encode decodes")
	}
}

// TestDecodeResponseToHandsOnAtFlushSize: a JSON result's compact form is
// handed to w, all but its last byte, as soon as 64 KiB of it are
// buffered [MAP-21], so a text that fails right after that point has
// written them; one byte short of it, nothing is written yet.
func TestDecodeResponseToHandsOnAtFlushSize(t *testing.T) {
	const flushAt = 64 << 10
	for _, size := range []int{flushAt - 1, flushAt} {
		// `["` + the string's bytes + `"` is size bytes of compact form.
		text := `["` + strings.Repeat("x", size-3) + `" }`
		var out bytes.Buffer
		if _, err := jsonmap.DecodeResponseTo(&out, strings.NewReader(text), spec.DefaultLimits); err == nil {
			t.Fatalf("size %d: no error", size)
		}
		want := 0
		if size == flushAt {
			want = flushAt - 1
		}
		if out.Len() != want || out.String() != text[:want] {
			t.Errorf("size %d: %d bytes written before the error; want %d, the compact form's first bytes", size, out.Len(), want)
		}
	}
}
