package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/propcheck"
)

// tokens reads every token of a Reader, and the error that ends them (nil
// at a clean end).
func tokens(r *Reader) ([]Token, error) {
	var out []Token
	for {
		tok, err := r.NextToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, tok)
	}
}

// readers returns the ways into the package for one input: held whole, and
// streamed one byte per read and in small odd pieces.
func readers(in string) map[string]*Reader {
	return map[string]*Reader{
		"whole":    NewStringReader(in),
		"one-byte": NewReader(iotest.OneByteReader(strings.NewReader(in))),
		"half":     NewReader(iotest.HalfReader(strings.NewReader(in))),
		"big":      NewReader(strings.NewReader(in)),
	}
}

func TestTokens(t *testing.T) {
	in := "{\"a\" : [1, -2.5e+3, true, false, null, \"x\\u00e9\\n\"],\n \"b\":{}}"
	want := []Token{
		{ObjectStart, "", Pos{0, 1, 1}},
		{Name, "a", Pos{1, 1, 2}},
		{ArrayStart, "", Pos{7, 1, 8}},
		{Number, "1", Pos{8, 1, 9}},
		{Number, "-2.5e+3", Pos{11, 1, 12}},
		{True, "", Pos{20, 1, 21}},
		{False, "", Pos{26, 1, 27}},
		{Null, "", Pos{33, 1, 34}},
		{String, "xé\n", Pos{39, 1, 40}},
		{ArrayEnd, "", Pos{50, 1, 51}},
		{Name, "b", Pos{54, 2, 2}},
		{ObjectStart, "", Pos{58, 2, 6}},
		{ObjectEnd, "", Pos{59, 2, 7}},
		{ObjectEnd, "", Pos{60, 2, 8}},
	}
	for name, r := range readers(in) {
		got, err := tokens(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d tokens, want %d: %v", name, len(got), len(want), got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: token %d = %+v, want %+v", name, i, got[i], want[i])
			}
		}
	}
}

// TestErrors: every fault is reported at its byte with its line and
// column, the same way held whole and streamed.
func TestErrors(t *testing.T) {
	cases := []struct {
		name, in     string
		line, column int
		msg          string
		limit        bool
	}{
		{"Empty", "", 1, 1, "expected a JSON value, found end of input", false},
		{"OnlySpace", " \n ", 2, 2, "found end of input", false},
		{"ByteOrderMark", "\uFEFF{}", 1, 1, "byte-order mark", false},
		{"ByteOrderMarkAfterSpace", " \uFEFF{}", 1, 2, "expected a JSON value, found '\\ufeff'", false},
		{"TrailingText", `{} x`, 1, 4, "expected end of input after the JSON value, found 'x'", false},
		{"TwoValues", "1\n2", 2, 1, "expected end of input", false},
		{"LoneHighSurrogate", `"a\ud800b"`, 1, 3, "unpaired surrogate", false},
		{"HighBeforeNonSurrogate", `["\ud800\u0041"]`, 1, 3, "unpaired surrogate", false},
		{"LoneLowSurrogate", `"\udc00"`, 1, 2, "unpaired surrogate", false},
		{"InvalidUTF8", "\"a\xffb\"", 1, 3, "not valid UTF-8", false},
		{"InvalidUTF8AfterEscape", "\"\\n\xff\"", 1, 4, "not valid UTF-8", false},
		{"RawControl", "\"a\tb\"", 1, 3, "control character U+0009 must be escaped", false},
		{"RawLF", "[\"a\nb\"]", 1, 4, "control character U+000a must be escaped", false},
		{"UnknownEscape", `"\x"`, 1, 3, `unknown escape \x`, false},
		{"ShortHex", `"\u12"`, 1, 6, `expected four hex digits after \u, found '"'`, false},
		{"HexAtEnd", `"\u12`, 1, 6, `expected four hex digits after \u, found end of input`, false},
		{"BadHex", `"\u12g4"`, 1, 6, `expected four hex digits after \u, found 'g'`, false},
		{"Unclosed", `"abc`, 1, 5, "string not closed", false},
		{"LeadingZero", `01`, 1, 2, "expected end of input", false},
		{"BareMinus", `-`, 1, 2, "expected a digit in a number, found end of input", false},
		{"BareDot", `1.`, 1, 3, "after the decimal point", false},
		{"BareExponent", `1e+]`, 1, 4, "in the exponent, found ']'", false},
		{"NaN", `NaN`, 1, 1, "expected a JSON value, found 'N'", false},
		{"Tru", `tru`, 1, 4, `expected "true", found end of input`, false},
		{"Nul", `nulL`, 1, 4, `expected "null", found 'L'`, false},
		{"TrailingComma", `[1,]`, 1, 4, "expected a JSON value, found ']'", false},
		{"TrailingCommaObject", `{"a":1,}`, 1, 8, "expected a member name in quotes, found '}'", false},
		{"SingleQuotes", `{'a':1}`, 1, 2, "member name in quotes", false},
		{"NoColon", `{"a" 1}`, 1, 6, "expected ':' after a member name, found '1'", false},
		{"UnclosedArray", `["a"`, 1, 5, "expected ',' or ']' in an array, found end of input", false},
		{"UnclosedObject", `{"a":1 "b"`, 1, 8, "expected ',' or '}' in an object, found '\"'", false},
		{"BadByte", "[\xff]", 1, 2, "found byte 0xff", false},
		{"TooDeep", strings.Repeat("[", DefaultMaxDepth+1), 1, DefaultMaxDepth + 1, "nested deeper than 10000", true},
	}
	for _, c := range cases {
		for how, r := range readers(c.in) {
			t.Run(c.name+"/"+how, func(t *testing.T) {
				_, err := tokens(r)
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("got %v, want an *Error", err)
				}
				off := offsetOf(c.in, c.line, c.column)
				if e.Line != c.line || e.Column != c.column || e.Offset != off || !strings.Contains(e.Msg, c.msg) || e.Limit != c.limit {
					t.Errorf("got %+v, want line %d, column %d, offset %d, limit %v, message with %q", e, c.line, c.column, off, c.limit, c.msg)
				}
			})
		}
	}
}

// offsetOf returns the offset of a line and column of in.
func offsetOf(in string, line, column int) int64 {
	off := 0
	for l := 1; l < line; l++ {
		off += strings.IndexByte(in[off:], '\n') + 1
	}
	return int64(off + column - 1)
}

func TestDuplicateNames(t *testing.T) {
	big := func(extra string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 40 {
			b.WriteString(`"k` + string(rune('A'+i/10)) + string(rune('0'+i%10)) + `":0,`)
		}
		b.WriteString(extra + `}`)
		return b.String()
	}
	cases := []struct {
		in     string
		column int
		msg    string
	}{
		{`{"a":1,"a":2}`, 8, `member name "a" appears twice`},
		{`{"é":1,"\u00e9":2}`, 9, `member name "é" appears twice`},
		{`{"a":{"a":1},"b":{"a":2,"a":3}}`, 25, `"a" appears twice`},
		{big(`"kC2":1`), 322, `"kC2" appears twice`},
		{`{"` + strings.Repeat("x", 100) + `":1,"` + strings.Repeat("x", 100) + `":2}`, 107, `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (100 bytes) appears twice`},
	}
	for _, c := range cases {
		for how, r := range readers(c.in) {
			r.RejectDuplicateNames = true
			_, err := tokens(r)
			var e *Error
			if !errors.As(err, &e) || e.Column != c.column || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("%s %.40q: got %v, want column %d and %q", how, c.in, err, c.column, c.msg)
			}
		}
		if _, err := tokens(NewStringReader(c.in)); err != nil {
			t.Errorf("%.40q without RejectDuplicateNames: %v", c.in, err)
		}
	}
	// The same name in different objects, and after an object closed.
	for _, in := range []string{`[{"a":1},{"a":2}]`, `{"a":{"b":1},"b":{"a":1}}`, big(`"x":{"kA0":1}`)} {
		r := NewStringReader(in)
		r.RejectDuplicateNames = true
		if _, err := tokens(r); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestAccessors: the helpers a caller reading a known shape uses.
func TestAccessors(t *testing.T) {
	in := `{"sections":[{"tool":"t","n":3}],"x":[1,{"y":[]}]} `
	r := NewReader(iotest.OneByteReader(strings.NewReader(in)))
	r.RejectDuplicateNames = true
	if _, err := r.Expect(ObjectStart); err != nil {
		t.Fatal(err)
	}
	name, ok, err := r.ExpectObjectName()
	if err != nil || !ok || name != "sections" {
		t.Fatalf("ExpectObjectName = %q, %v, %v", name, ok, err)
	}
	if k, err := r.Peek(); k != ArrayStart || err != nil || r.Pos() != (Pos{1, 1, 2}) {
		t.Fatalf("Peek = %v, %v; Pos %+v", k, err, r.Pos())
	}
	r.NextToken()
	if r.Depth() != 2 || r.InputOffset() != 13 {
		t.Fatalf("Depth %d, InputOffset %d", r.Depth(), r.InputOffset())
	}
	r.Expect(ObjectStart)
	r.ExpectObjectName()
	if s, err := r.ReadString(); s != "t" || err != nil {
		t.Fatalf("ReadString = %q, %v", s, err)
	}
	r.ExpectObjectName()
	if _, err := r.ReadString(); err == nil || !strings.Contains(err.Error(), "expected a string, found a number") || r.Pos().Column != 30 {
		t.Fatalf("ReadString of a number: %v at %+v", err, r.Pos())
	}

	r = NewStringReader(in)
	r.Expect(ObjectStart)
	r.ExpectObjectName()
	if err := r.SkipValue(); err != nil {
		t.Fatal(err)
	}
	if name, _, _ := r.ExpectObjectName(); name != "x" {
		t.Fatalf("after SkipValue: %q", name)
	}
	r.SkipValue()
	if _, ok, err := r.ExpectObjectName(); ok || err != nil {
		t.Fatalf("end of object: %v, %v", ok, err)
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
	r = NewStringReader(`[[1,"a"],[]]`)
	r.Expect(ArrayStart)
	var got []string
	for more, err := r.NextElement(); more || err != nil; more, err = r.NextElement() {
		if err != nil {
			t.Fatal(err)
		}
		r.Expect(ArrayStart)
		for more, err := r.NextElement(); more || err != nil; more, err = r.NextElement() {
			if err != nil {
				t.Fatal(err)
			}
			tok, _ := r.NextToken()
			got = append(got, tok.Text)
		}
	}
	if err := r.End(); err != nil || strings.Join(got, ",") != "1,a" {
		t.Fatalf("NextElement loop read %q, %v", got, err)
	}
	r = NewStringReader(`[1`)
	r.Expect(ArrayStart)
	r.NextElement()
	r.NextToken()
	if more, err := r.NextElement(); more || err == nil || !strings.Contains(err.Error(), "expected ',' or ']'") {
		t.Fatalf("NextElement at a missing ']': %v, %v", more, err)
	}
	if _, ok, err := NewStringReader(`{`).ExpectObjectName(); ok || err == nil {
		t.Fatalf("ExpectObjectName before '{': %v %v", ok, err)
	}
	r = NewStringReader(`[`)
	r.NextToken()
	if _, err := r.Expect(Number); err == nil || !strings.Contains(err.Error(), "found end of input") {
		t.Fatalf("Expect at the end: %v", err)
	}
}

// TestStreamHoldsOneToken: the buffer of a streaming reader grows only to
// the longest token, however long the text.
func TestStreamHoldsOneToken(t *testing.T) {
	const n = 1 << 20
	long := strings.Repeat("y", 10000)
	src := io.MultiReader(strings.NewReader(`[`), &repeater{s: `"xxxxxxxxxxxxxx",  12345678,  `, n: n}, strings.NewReader(`"`+long+`"]`))
	r := NewReader(src)
	count := 0
	for {
		tok, err := r.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == String || tok.Kind == Number {
			count++
		}
		if len(r.buf) > 2*len(long)+2*initialBuffer {
			t.Fatalf("buffer grew to %d bytes", len(r.buf))
		}
	}
	if count != 2*n+1 {
		t.Fatalf("%d values, want %d", count, 2*n+1)
	}
}

type repeater struct {
	s string
	n int
}

func (r *repeater) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := 0
	for r.n > 0 && len(p)-k >= len(r.s) {
		k += copy(p[k:], r.s)
		r.n--
	}
	if k == 0 {
		return copy(p, r.s[:1]), errors.New("short buffer")
	}
	return k, nil
}

func TestMaxTokenBytes(t *testing.T) {
	cases := []struct {
		in    string
		limit bool
		col   int
	}{
		{`["` + strings.Repeat("a", 100) + `"]`, true, 2},
		{`["` + strings.Repeat("a", 10) + `"]`, false, 0},
		{`["a` + "\t" + strings.Repeat("a", 100) + `"]`, false, 4}, // the fault comes first
		{`[` + strings.Repeat("1", 100) + `]`, true, 2},
		{`[0` + strings.Repeat("1", 100) + `]`, false, 3},        // "0", then a stray digit
		{`["` + strings.Repeat("a", 30) + `\ud800"]`, false, 33}, // within the limit
		{`["` + strings.Repeat("a", 60) + `\ud800"]`, true, 2},   // beyond it
	}
	for _, c := range cases {
		for how, r := range readers(c.in) {
			r.MaxTokenBytes = 40
			_, err := tokens(r)
			var e *Error
			switch {
			case c.col == 0 && err != nil:
				t.Errorf("%s %.30q: %v", how, c.in, err)
			case c.col > 0 && (!errors.As(err, &e) || e.Limit != c.limit || e.Column != c.col):
				t.Errorf("%s %.30q: got %v (%+v), want limit %v at column %d", how, c.in, err, e, c.limit, c.col)
			}
		}
	}
}

// failOnce is an io.Reader that reads before, fails once with err, and
// then reads after, as a network read that times out once may.
type failOnce struct {
	before, after io.Reader
	err           error
	failed        bool
}

func (f *failOnce) Read(p []byte) (int, error) {
	if n, err := f.before.Read(p); err != io.EOF {
		return n, err
	}
	if !f.failed {
		f.failed = true
		return 0, f.err
	}
	return f.after.Read(p)
}

// A failing io.Reader's error comes back as it is, wherever in a token
// the input breaks off: in a number, a literal, a string (with and
// without a bound on its length) or whitespace. It is final: the reader
// reads no further even where its source would give more.
func TestReaderErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		in, rest string
		limit    int // LimitString before each token; -1: none
	}{
		{`[1,`, `2]`, -1}, {`[12`, `]`, -1}, {`[tr`, `ue]`, -1}, {`[nul`, `l]`, -1}, {`["abc`, `"]`, -1}, {`[ `, `]`, -1},
		{`["abc`, `"]`, 100}, {`["` + strings.Repeat("a", 40), `"]`, 100},
	}
	for _, c := range cases {
		r := NewReader(&failOnce{before: strings.NewReader(c.in), after: strings.NewReader(c.rest), err: boom})
		var err error
		for err == nil {
			r.LimitString(c.limit)
			_, err = r.NextToken()
		}
		if err != boom {
			t.Errorf("%q, limit %d: got %v, want the reader's error", c.in, c.limit, err)
		}
		for _, peek := range []bool{true, false} {
			if peek {
				_, err = r.Peek()
			} else {
				_, err = r.NextToken()
			}
			if err != boom {
				t.Errorf("%q, limit %d: after the reader's error, got %v (peek %v), want it again", c.in, c.limit, err, peek)
			}
		}
	}
}

// An error is final when Peek finds it first, too: NextToken, Peek and
// NextToken again report it, at the same place, and read no further even
// where the source would give more.
func TestErrorStaysAfterPeek(t *testing.T) {
	boom := errors.New("boom")
	for _, in := range []string{`[1,]`, `{"a" 1}`, `"a` + "\t" + `b"`, `[tru]`, `[1 2]`, "[\xff]", `["\x"]`, `{"a":1,}`, `[1,`} {
		readers := readers(in)
		readers["fail-once"] = NewReader(&failOnce{before: strings.NewReader(in), after: strings.NewReader(`2]`), err: boom})
		for how, r := range readers {
			var first error
			for first == nil {
				if _, first = r.Peek(); first == nil {
					r.NextToken()
				}
			}
			for i, step := range []string{"NextToken", "Peek", "NextToken", "NextToken"} {
				var err error
				if step == "Peek" {
					_, err = r.Peek()
				} else {
					_, err = r.NextToken()
				}
				if err == nil || err.Error() != first.Error() {
					t.Errorf("%s %q: after Peek's %v, call %d (%s) gives %v", how, in, first, i+1, step, err)
					break
				}
			}
		}
	}
}

// A bound's refusal is final too: LimitString bounds one token, so a
// reader that scanned the string again after Peek's refusal would read it
// unbounded and return it.
func TestLimitErrorStaysAfterPeek(t *testing.T) {
	for how, r := range readers(`["` + strings.Repeat("a", 20) + `"]`) {
		r.NextToken()
		r.LimitString(4)
		_, first := r.Peek()
		var e *Error
		if !errors.As(first, &e) || !e.LongString {
			t.Fatalf("%s: Peek gives %v, want the bound's refusal", how, first)
		}
		for i := range 3 {
			if _, err := r.NextToken(); err == nil || err.Error() != first.Error() {
				t.Errorf("%s: call %d after Peek's %v gives %v", how, i+1, first, err)
			}
		}
	}
}

// Compact holds only for a reader told to check: one that was not says
// false whatever it read, and one that was tells a compact text from the
// same value written loosely.
func TestCompactNeedsCheckCompact(t *testing.T) {
	cases := []struct {
		in      string
		compact bool
	}{
		{`[1,{"a":"b"}]`, true}, {`[1, {"a":"b"}]`, false}, {`"\u00e9"`, false}, {`"é"`, true}, {` 1`, false},
	}
	for _, c := range cases {
		for _, check := range []bool{false, true} {
			r := NewStringReader(c.in)
			r.CheckCompact = check
			if _, err := tokens(r); err != nil {
				t.Fatalf("%q: %v", c.in, err)
			}
			if got := r.Compact(); got != (check && c.compact) {
				t.Errorf("%q with CheckCompact %v: Compact() = %v, want %v", c.in, check, got, check && c.compact)
			}
		}
	}
}

func TestCompactKind(t *testing.T) {
	cases := []struct {
		in   string
		kind Kind
		ok   bool
	}{
		{`1`, Number, true}, {`-0`, Number, true}, {`1e400`, Number, true}, {`1.0`, Number, true},
		{`true`, True, true}, {`false`, False, true}, {`null`, Null, true},
		{`""`, String, true}, {`"x"`, String, true}, {`"a\"b\\c\n\u0001"`, String, true},
		{`[]`, ArrayStart, true}, {`[1,[2],{}]`, ArrayStart, true}, {`{}`, ObjectStart, true}, {`{"a":{"b":null}}`, ObjectStart, true},
		{``, 0, false}, {` 1`, 0, false}, {`1 `, 0, false}, {`[1, 2]`, 0, false}, {`{"a" :1}`, 0, false},
		{`"\u00e9"`, 0, false}, {`"\/"`, 0, false}, {`"\u000A"`, 0, false}, {`"\u000a"`, 0, false}, {`"\u001F"`, 0, false},
		{`{"a":1,"a":2}`, 0, false}, {`01`, 0, false}, {`0x1F`, 0, false}, {`NaN`, 0, false}, {`trueish`, 0, false},
		{`[DEBUG] start`, 0, false}, {`2024-01-01`, 0, false}, {`"a` + "\t" + `"`, 0, false}, {"\"\xff\"", 0, false},
		{`tru`, 0, false}, {`[`, 0, false}, {`{"a"}`, 0, false}, {`{"a":1,}`, 0, false},
		{`"\u001f"`, String, true}, {`"\u0020"`, 0, false}, {`"\u0021"`, 0, false}, // escapes only controls
	}
	for _, c := range cases {
		kind, ok, err := CompactKind(c.in, DefaultMaxDepth)
		if kind != c.kind || ok != c.ok || err != nil {
			t.Errorf("CompactKind(%q) = %v, %v, %v; want %v, %v", c.in, kind, ok, err, c.kind, c.ok)
		}
	}
	_, ok, err := CompactKind(`{"a":`+strings.Repeat("[", 20), 10)
	var e *Error
	if ok || !errors.As(err, &e) || !e.Limit || e.Column != 15 {
		t.Errorf("too deep: %v, %v", ok, err)
	}
}

func TestQuotePrefix(t *testing.T) {
	if got := QuotePrefix("a\tb"); got != `"a\tb"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("é", 40) // 80 bytes
	got := QuotePrefix(long)
	if want := `"` + strings.Repeat("é", 32) + `"… (80 bytes)`; got != want {
		t.Errorf("long: %s, want %s", got, want)
	}
}

// TestPropertyStreamAgreesWithWhole: for any bytes, a stream in pieces of
// any size gives the tokens and the error a held-whole text gives, and
// what either accepts is JSON to encoding/json as well.
func TestPropertyStreamAgreesWithWhole(t *testing.T) {
	propcheck.Check(t, 1000, func(t *rapid.T) {
		in := jsonish().Draw(t, "in")
		dup := rapid.Bool().Draw(t, "dup")
		limit := rapid.SampledFrom([]int{0, 0, 3, 8}).Draw(t, "limit")
		whole := NewStringReader(in)
		whole.RejectDuplicateNames, whole.MaxTokenBytes = dup, limit
		want, wantErr := tokens(whole)
		chunk := rapid.IntRange(1, 7).Draw(t, "chunk")
		stream := NewReader(&chunker{s: in, n: chunk})
		stream.RejectDuplicateNames, stream.MaxTokenBytes = dup, limit
		got, gotErr := tokens(stream)
		if len(got) != len(want) {
			t.Fatalf("%d tokens streamed, %d whole: %v / %v", len(got), len(want), got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("token %d: streamed %+v, whole %+v", i, got[i], want[i])
			}
		}
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && *wantErr.(*Error) != *gotErr.(*Error) {
			t.Fatalf("errors differ: streamed %v, whole %v", gotErr, wantErr)
		}
		if wantErr == nil && !json.Valid([]byte(in)) {
			t.Fatalf("accepted %q, which encoding/json refuses", in)
		}
		// Compact form: the tokens written back compactly are a text
		// CompactKind accepts, and only then is the input compact.
		if wantErr == nil && !dup && limit == 0 {
			c := compactOf(want)
			if _, ok, err := CompactKind(string(c), DefaultMaxDepth); !ok || err != nil {
				if !hasRepeatedName(in) {
					t.Fatalf("compact form %q of %q is not compact: %v", c, in, err)
				}
			}
			if _, ok, _ := CompactKind(in, DefaultMaxDepth); ok && !bytes.Equal(c, []byte(in)) {
				t.Fatalf("CompactKind accepts %q, whose compact form is %q", in, c)
			}
		}
	})
}

func hasRepeatedName(in string) bool {
	r := NewStringReader(in)
	r.RejectDuplicateNames = true
	_, err := tokens(r)
	return err != nil
}

// compactOf writes tokens back in compact form.
func compactOf(toks []Token) []byte {
	var b []byte
	for i, tok := range toks {
		if i > 0 {
			prev := toks[i-1].Kind
			if prev == Name {
				b = append(b, ':')
			} else if prev != ObjectStart && prev != ArrayStart && tok.Kind != ObjectEnd && tok.Kind != ArrayEnd {
				b = append(b, ',')
			}
		}
		switch tok.Kind {
		case ObjectStart:
			b = append(b, '{')
		case ObjectEnd:
			b = append(b, '}')
		case ArrayStart:
			b = append(b, '[')
		case ArrayEnd:
			b = append(b, ']')
		case Name, String:
			b = AppendString(b, tok.Text)
		case Number:
			b = append(b, tok.Text...)
		case True:
			b = append(b, "true"...)
		case False:
			b = append(b, "false"...)
		case Null:
			b = append(b, "null"...)
		}
	}
	return b
}

// jsonish draws texts made mostly of JSON's own pieces, so that many are
// valid and the rest break in every way.
func jsonish() *rapid.Generator[string] {
	pieces := []string{"{", "}", "[", "]", ",", ":", " ", "\n", `"a"`, `"b"`, `"é"`, `"\u00e9"`, `"\ud83d\ude00"`,
		`"\ud800"`, `"\n\t"`, `"\/"`, "\"\x01\"", "\"\xff\"", `"`, `\`, `1`, `-0`, `1.5e+3`, `01`, `1.`, `true`, `fals`,
		`null`, "\uFEFF", `"x`, `"\u12"`, `u`}
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		for range rapid.IntRange(0, 24).Draw(t, "n") {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		return b.String()
	})
}

// chunker reads s n bytes at a time.
type chunker struct {
	s string
	n int
}

func (c *chunker) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, "[\"\xff\"]", `{"a":1,"a":2}`, ` 1 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole := NewStringReader(string(in))
		whole.RejectDuplicateNames = true
		want, wantErr := tokens(whole)
		stream := NewReader(iotest.HalfReader(bytes.NewReader(in)))
		stream.RejectDuplicateNames = true
		got, gotErr := tokens(stream)
		if len(got) != len(want) || (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("stream and whole differ: %v %v / %v %v", got, gotErr, want, wantErr)
		}
		if wantErr == nil && !json.Valid(in) {
			t.Fatalf("accepted what encoding/json refuses: %q", in)
		}
		if !json.Valid(in) && wantErr == nil {
			t.Fatal("unreachable")
		}
		if _, ok, _ := CompactKind(string(in), DefaultMaxDepth); ok && (wantErr != nil || !bytes.Equal(compactOf(want), in)) {
			t.Fatalf("CompactKind accepts %q, which is not its own compact form", in)
		}
	})
}

// LimitString refuses a string once more than n bytes of it have been
// decoded, counting escapes by what they decode to, and never one that
// decodes to n bytes; a fault before that point comes first.
func TestLimitString(t *testing.T) {
	const n = 8
	cases := []struct {
		in    string
		limit bool
		col   int // 0: accepted
	}{
		{`["12345678"]`, false, 0},
		{`["123456789"]`, true, 2},
		{`["\u0041\u0041\u0041\u0041\u0041\u0041\u0041\u0041"]`, false, 0}, // 48 raw bytes, 8 decoded
		{`["\u0041\u0041\u0041\u0041\u0041\u0041\u0041\u0041\u0041"]`, true, 2},
		{`["\ud83d\ude00\ud83d\ude00"]`, false, 0}, // two pairs, eight bytes
		{`["\ud83d\ude00\ud83d\ude00x"]`, true, 2},
		{`["1234567\ud83d\ude00"]`, true, 2},      // the pair straddles the bound: no fault
		{`["éééé"]`, false, 0},                    // eight bytes of UTF-8
		{`["12\q45678999"]`, false, 6},            // the fault comes first
		{`["123456789\q"]`, true, 2},              // beyond the bound: not read
		{`["1234567` + "\xff" + `9"]`, false, 10}, // invalid UTF-8 within it
		{`["12345678`, false, 11},                 // unclosed within the bound
		{`{"123456789":1}`, true, 2},              // a member name too
	}
	for _, c := range cases {
		for how, r := range readers(c.in) {
			var err error
			for {
				r.LimitString(n)
				if _, err = r.NextToken(); err != nil {
					break
				}
			}
			if err == io.EOF {
				err = nil
			}
			var e *Error
			switch {
			case c.col == 0 && err != nil:
				t.Errorf("%s %q: %v", how, c.in, err)
			case c.col > 0 && (!errors.As(err, &e) || e.Limit != c.limit || e.LongString != c.limit || e.Column != c.col):
				t.Errorf("%s %q: got %v (%+v), want limit %v at column %d", how, c.in, err, e, c.limit, c.col)
			}
		}
	}
}

// A string whose escapes make it longer in raw bytes than the bound but
// not in decoded ones ends at its closing quote even when the quote
// shares an eight-byte word with what follows it; reading on past it
// would count the next string's bytes as its own and refuse it.
func TestLimitStringEndsAtItsQuote(t *testing.T) {
	in := `["\n\n\n\n\n\n\n\nabc","` + strings.Repeat("x", 16) + `"]`
	for how, r := range readers(in) {
		var toks []Token
		var err error
		for err == nil {
			r.LimitString(16)
			var tok Token
			if tok, err = r.NextToken(); err == nil {
				toks = append(toks, tok)
			}
		}
		if err != io.EOF || len(toks) != 4 || toks[1].Text != "\n\n\n\n\n\n\n\nabc" {
			t.Errorf("%s: got %v after %d tokens, want the four tokens of %s", how, err, len(toks), in)
		}
	}
}

// A held-whole text's strings without escapes come back as substrings of
// it, uncopied, whichever byte of an eight-byte word their closing quote
// falls on; a string with an escape is decoded, and so is not one.
func TestStringsShareTheText(t *testing.T) {
	for n := range 20 {
		for _, escaped := range []bool{false, true} {
			s := strings.Repeat("a", n)
			lit := s
			if escaped {
				lit += `\n`
			}
			text := `["` + lit + `","b"]` + strings.Repeat(" ", 8)
			toks, err := tokens(NewStringReader(text))
			if err != nil || len(toks) != 4 {
				t.Fatalf("%q: %v after %d tokens", text, err, len(toks))
			}
			p := uintptr(unsafe.Pointer(unsafe.StringData(toks[1].Text)))
			base := uintptr(unsafe.Pointer(unsafe.StringData(text)))
			if shared := p >= base && p < base+uintptr(len(text)); shared == escaped && len(toks[1].Text) > 0 {
				t.Errorf("%q: the string %q shares the text: %v, want %v", text, toks[1].Text, shared, !escaped)
			}
		}
	}
}

// A stream refuses a long string holding about the bound, not the string.
func TestLimitStringHoldsTheBound(t *testing.T) {
	const n = 1 << 20
	src := io.MultiReader(strings.NewReader(`["`), &repeater{s: "y", n: 64 << 20})
	r := NewReader(src)
	if _, err := r.NextToken(); err != nil {
		t.Fatal(err)
	}
	r.LimitString(n)
	_, err := r.NextToken()
	var e *Error
	if !errors.As(err, &e) || !e.LongString || e.Column != 2 {
		t.Fatalf("got %v, want a long string at column 2", err)
	}
	if len(r.buf) > 2*n+2*initialBuffer {
		t.Fatalf("buffer grew to %d bytes for a bound of %d", len(r.buf), n)
	}
}

// Under LimitString, a stream and a held-whole text give the same tokens
// and the same error, and a string is refused as long exactly when it
// decodes to more than the bound.
func TestPropertyLimitStringAgrees(t *testing.T) {
	propcheck.Check(t, 1000, func(t *rapid.T) {
		in := jsonish().Draw(t, "in")
		n := rapid.IntRange(0, 6).Draw(t, "n")
		limited := func(r *Reader) ([]Token, error) {
			var out []Token
			for {
				r.LimitString(n)
				tok, err := r.NextToken()
				if err == io.EOF {
					return out, nil
				}
				if err != nil {
					return out, err
				}
				out = append(out, tok)
			}
		}
		want, wantErr := limited(NewStringReader(in))
		got, gotErr := limited(NewReader(&chunker{s: in, n: rapid.IntRange(1, 7).Draw(t, "chunk")}))
		if len(got) != len(want) {
			t.Fatalf("%d tokens streamed, %d whole", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("token %d: streamed %+v, whole %+v", i, got[i], want[i])
			}
			if k := want[i].Kind; (k == String || k == Name) && len(want[i].Text) > n {
				t.Fatalf("token %+v passed a bound of %d", want[i], n)
			}
		}
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && *wantErr.(*Error) != *gotErr.(*Error) {
			t.Fatalf("errors differ: streamed %v, whole %v", gotErr, wantErr)
		}
		// A refusal as long is one the unbounded reader would not have
		// made there: the string it refuses, read unbounded, is longer.
		var e *Error
		if errors.As(wantErr, &e) && e.LongString {
			all, _ := tokens(NewStringReader(in))
			for _, tok := range all {
				if tok.Pos.Offset == e.Offset && len(tok.Text) <= n {
					t.Fatalf("refused %+v, which decodes to %d bytes, under a bound of %d", tok, len(tok.Text), n)
				}
			}
		}
	})
}

// A bound string of plain bytes and escapes of every width, long enough for
// the count by words, is refused exactly when it decodes to more bytes
// than the bound, whole or streamed.
func TestPropertyLimitStringCountsEscapes(t *testing.T) {
	pieces := []string{`a`, `bc`, `é`, `\\`, `\"`, `\t`, `\n`, `\/`, `\u0041`, `\u00e9`, `\u20ac`, `\ud83d\ude00`, `u`, `\\u`}
	propcheck.Check(t, 1000, func(t *rapid.T) {
		var lit strings.Builder
		lit.WriteByte('"')
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 60).Draw(t, "pieces") {
			lit.WriteString(pieces[i])
		}
		lit.WriteByte('"')
		var decoded string
		if err := json.Unmarshal([]byte(lit.String()), &decoded); err != nil {
			t.Fatal(err)
		}
		n := rapid.IntRange(0, len(decoded)+2).Draw(t, "n")
		for _, r := range []*Reader{NewStringReader(lit.String()), NewReader(&chunker{s: lit.String(), n: rapid.IntRange(1, 9).Draw(t, "chunk")})} {
			r.LimitString(n)
			tok, err := r.NextToken()
			var e *Error
			refused := errors.As(err, &e) && e.LongString
			if err != nil && !refused {
				t.Fatalf("%s: %v", lit.String(), err)
			}
			if refused != (len(decoded) > n) {
				t.Fatalf("%s (%d bytes) under a bound of %d: refused %v", lit.String(), len(decoded), n, refused)
			}
			if !refused && tok.Text != decoded {
				t.Fatalf("%s read as %q", lit.String(), tok.Text)
			}
		}
	})
}

// TestPropertyArenaKeepsTexts: with InternNames and an Arena, a stream
// gives the tokens it gives without them, each text intact until the
// arena is emptied, which the reader does not do itself; the arena is
// emptied at random points, and every token read since is still intact.
func TestPropertyArenaKeepsTexts(t *testing.T) {
	propcheck.Check(t, 1000, func(t *rapid.T) {
		in := jsonish().Draw(t, "in")
		if rapid.Bool().Draw(t, "valid") {
			in = validJSON().Draw(t, "valid in")
		}
		dup := rapid.Bool().Draw(t, "dup")
		chunk := rapid.IntRange(1, 7).Draw(t, "chunk")
		plain := NewReader(&chunker{s: in, n: chunk})
		plain.RejectDuplicateNames = dup
		want, wantErr := tokens(plain)

		var arena []byte
		r := NewReader(&chunker{s: in, n: chunk})
		r.RejectDuplicateNames, r.InternNames, r.Arena = dup, true, &arena
		var since []Token // read since the arena was last emptied
		for i := 0; ; i++ {
			tok, err := r.NextToken()
			if err == io.EOF {
				if wantErr != nil || i != len(want) {
					t.Fatalf("ended after %d tokens; without an arena %d tokens, error %v", i, len(want), wantErr)
				}
				break
			}
			if err != nil {
				if wantErr == nil || err.Error() != wantErr.Error() || i != len(want) {
					t.Fatalf("error %v after %d tokens; without an arena %v after %d", err, i, wantErr, len(want))
				}
				break
			}
			if i >= len(want) {
				t.Fatalf("token %d %+v beyond the %d read without an arena", i, tok, len(want))
			}
			since = append(since, tok)
			for k, s := range since {
				if s != want[i-len(since)+1+k] {
					t.Fatalf("token %d became %+v, want %+v", i-len(since)+1+k, s, want[i-len(since)+1+k])
				}
			}
			if rapid.IntRange(0, 3).Draw(t, "empty the arena") == 0 {
				arena, since = arena[:0], nil
			}
		}
	})
}

// validJSON draws arrays of strings, numbers and small objects whose names
// repeat: many tokens with texts.
func validJSON() *rapid.Generator[string] {
	texts := []string{`"a"`, `"word"`, `"\u00e9t\u00e9"`, `"x\ny"`, `12`, `-3.5e2`, `{"k":"v","n":1}`, `{"k":"w"}`, `[]`, `true`}
	return rapid.Custom(func(t *rapid.T) string {
		elems := rapid.SliceOfN(rapid.SampledFrom(texts), 0, 30).Draw(t, "elements")
		return "[" + strings.Join(elems, ",") + "]"
	})
}

// A long string with escapes is decoded into one buffer sized once to its
// literal, which becomes the string: no growth by steps, no copy. Two
// such strings in a row keep their own texts.
func TestLongStringDecodedOnce(t *testing.T) {
	first := strings.Repeat("{\"a\": \"b\tc\"}\n", 40000)
	second := strings.Repeat("\u00fc\\/\"", 30000)
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	in := "[" + quoted(first) + "," + quoted(second) + "]"
	for how, r := range readers(in) {
		if how == "one-byte" || how == "half" {
			continue // the stream's buffer grows by steps of its own
		}
		r.NextToken()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		a, err := r.NextToken()
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		allocated := after.TotalAlloc - before.TotalAlloc
		if how == "whole" && allocated > uint64(len(quoted(first)))*3/2 {
			t.Errorf("%s: reading a string of %d bytes allocated %d", how, len(quoted(first)), allocated)
		}
		b, err := r.NextToken()
		if err != nil {
			t.Fatal(err)
		}
		if a.Text != first || b.Text != second {
			t.Errorf("%s: the strings read back differ (%d and %d bytes)", how, len(a.Text), len(b.Text))
		}
	}
}

// Long strings, decoded in a buffer sized to the literal that then
// becomes the string, read as encoding/json reads them, held whole and
// streamed, each keeping its own text when another long one follows:
// escapes of every kind, surrogate pairs, multi-byte characters and
// plain runs, in literals of either side of handOverFrom.
func TestPropertyLongStringsDecode(t *testing.T) {
	pieces := []string{"plain text ", `"`, `\`, "\t", "\n", "\x01", "/", "ü", "€", "😀", "\u2028", "<>&"}
	propcheck.Check(t, 1000, func(t *rapid.T) {
		var want [2]string
		for k := range want {
			var chunk strings.Builder
			for range rapid.IntRange(1, 12).Draw(t, "pieces") {
				chunk.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
			}
			repeat := rapid.IntRange(1, 3*handOverFrom/chunk.Len()).Draw(t, "repeat")
			want[k] = strings.Repeat(chunk.String(), repeat)
		}
		in, err := json.Marshal(want[:]) // escapes <, >, &, U+2028 as \u: more kinds of escape
		if err != nil {
			t.Fatal(err)
		}
		for how, r := range map[string]*Reader{
			"whole":  NewStringReader(string(in)),
			"stream": NewReader(&chunker{s: string(in), n: rapid.IntRange(1, 5000).Draw(t, "chunk")}),
		} {
			toks, err := tokens(r)
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			if len(toks) != 4 || toks[1].Text != want[0] || toks[2].Text != want[1] {
				t.Fatalf("%s: the strings read back differ from what encoding/json wrote", how)
			}
		}
	})
}

// TestEscapeWidth pins escapeWidth's counts, which the string bound's
// count (stringOver) adds up: a short escape is two raw bytes that decode
// to one, \u to the UTF-8 length of its character, half of a surrogate
// pair to two, a malformed \u to one; an escape cut by the end of src is
// not ok unless the input has ended, when it counts as the bytes left.
func TestEscapeWidth(t *testing.T) {
	cases := []struct {
		src          string
		atEOF        bool
		raw, decoded int
		ok           bool
	}{
		{`\n`, false, 2, 1, true},
		{`\"x`, false, 2, 1, true},
		{`\\`, true, 2, 1, true},
		{`\u0041`, false, 6, 1, true},
		{`\u00e9`, false, 6, 2, true},
		{`\u20ac`, false, 6, 3, true},
		{`\ud83d`, false, 6, 2, true},
		{`\u00zz`, false, 2, 1, true},
		{`\u00`, false, 0, 0, false},
		{`\u00`, true, 4, 1, true},
		{`\`, false, 0, 0, false},
		{`\`, true, 1, 1, true},
	}
	for _, c := range cases {
		raw, decoded, ok := escapeWidth([]byte(c.src), 0, c.atEOF)
		if raw != c.raw || decoded != c.decoded || ok != c.ok {
			t.Errorf("escapeWidth(%q, atEOF=%v) = %d, %d, %v; want %d, %d, %v", c.src, c.atEOF, raw, decoded, ok, c.raw, c.decoded, c.ok)
		}
	}
}
