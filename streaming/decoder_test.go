package streaming

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// decodeCase is one named input and the first error it must give; an empty
// class means the input is valid. Each case is also run through the
// reference parser, so a wrong expectation fails there too.
type decodeCase struct {
	name   string
	in     string
	limits *spec.Limits
	class  string
	rule   string
	line   int
	column int
}

var decodeCases = []decodeCase{
	// Encoding.
	{name: "invalid UTF-8 in a value [ENC-1]", in: "GCX1 tool=t fields=a\nab\xffc\n", class: "syntax", rule: "ENC-1", line: 2, column: 3},
	{name: "surrogate encoded in UTF-8 [ENC-1]", in: "GCX1 tool=t fields=a\n\xed\xa0\x80\n", class: "syntax", rule: "ENC-1", line: 2, column: 1},
	{name: "truncated UTF-8 before LF [ENC-1]", in: "GCX1 tool=t fields=a\nx\xe2\x82\n", class: "syntax", rule: "ENC-1", line: 2, column: 2},
	{name: "invalid UTF-8 in a comment [ENC-1]", in: "GCX1 tool=t fields=a\n#\xc3(\n", class: "syntax", rule: "ENC-1", line: 2, column: 2},
	{name: "invalid UTF-8 in a field name [ENC-1]", in: "GCX1 tool=t fields=a\xff\n", class: "syntax", rule: "ENC-1", line: 1, column: 21},
	{name: "byte-order mark first [ENC-2]", in: "\uFEFFGCX1 tool=t fields=a\n", class: "not-gcx", rule: "ENC-2", line: 1, column: 1},
	{name: "raw CR in a value [ENC-3]", in: "GCX1 tool=t fields=a\nx\r\n", class: "syntax", rule: "ENC-3", line: 2, column: 2},
	{name: "raw CR ends a header [ENC-3]", in: "GCX1 tool=t fields=a\r\n", class: "syntax", rule: "ENC-3", line: 1, column: 21},
	{name: "raw CR in a comment [ENC-3]", in: "GCX1 tool=t fields=a\n#a\rb\n", class: "syntax", rule: "ENC-3", line: 2, column: 3},
	{name: "controls, U+2028 and an inner BOM are data [ENC-4]", in: "GCX1 tool=t fields=a\n\x00\x01\x0b\x1f\x7f\u2028\uFEFF\n"},

	// Lines.
	{name: "missing final LF [LINE-1]", in: "GCX1 tool=t fields=a\nx", class: "syntax", rule: "LINE-1", line: 2, column: 2},
	{name: "header without LF [LINE-1]", in: "GCX1 tool=t fields=a", class: "syntax", rule: "LINE-1", line: 1, column: 21},
	{name: "comment without LF [LINE-1]", in: "GCX1 tool=t fields=a\n#x", class: "syntax", rule: "LINE-1", line: 2, column: 3},
	{name: "line kinds by first bytes [LINE-2]", in: "GCX1 tool=t fields=a\n#c\nG\nGC\n\n"},
	{name: "no trimming: spaces are data [LINE-3]", in: "GCX1 tool=t fields=a\n  x  \n"},

	// Payload.
	{name: "empty input [PAY-1]", in: "", class: "not-gcx", rule: "PAY-1", line: 1, column: 1},
	{name: "JSON [PAY-1]", in: `{"a":1}`, class: "not-gcx", rule: "PAY-1", line: 1, column: 1},
	{name: "lower-case tag [PAY-1]", in: "gcx1 tool=t fields=a\n", class: "not-gcx", rule: "PAY-1", line: 1, column: 1},
	{name: "GC then LF [PAY-1]", in: "GC\nX\n", class: "not-gcx", rule: "PAY-1", line: 1, column: 1},
	{name: "two sections [PAY-2]", in: "GCX1 tool=t fields=a\nx\nGCX1 tool=u fields=b\ny\n"},
	{name: "a tool name repeats [PAY-3]", in: "GCX1 tool=t fields=a\nGCX1 tool=t fields=a\n"},

	// Versions.
	{name: "GCX2 [VER-2]", in: "GCX2 tool=t fields=a\nx\n", class: "unsupported-version", rule: "VER-2", line: 1, column: 1},
	{name: "GCX10 [VER-2]", in: "GCX10 tool=t fields=a\n", class: "unsupported-version", rule: "VER-2", line: 1, column: 1},
	{name: "GCX12 alone [VER-1] [VER-2]", in: "GCX12\n", class: "unsupported-version", rule: "VER-2", line: 1, column: 1},
	{name: "GCX1-stream is reserved [VER-6]", in: "GCX1-stream tool=t fields=a\n", class: "unsupported-version", rule: "VER-2", line: 1, column: 1},
	{name: "tag of 32 bytes [VER-1]", in: "GCX" + strings.Repeat("9", 29) + " x\n", class: "unsupported-version", rule: "VER-2", line: 1, column: 1},
	{name: "tag of 33 bytes [VER-3]", in: "GCX" + strings.Repeat("9", 30) + " x\n", class: "syntax", rule: "VER-3", line: 1, column: 33},
	{name: "GCX then SP [VER-3]", in: "GCX tool=t\n", class: "syntax", rule: "VER-3", line: 1, column: 4},
	{name: "GCX1 then TAB [VER-3]", in: "GCX1\ttool=t\n", class: "syntax", rule: "VER-3", line: 1, column: 5},
	{name: "GCX alone at the end [VER-3]", in: "GCX", class: "syntax", rule: "VER-3", line: 1, column: 4},
	{name: "a later GCX2 section rejects all [VER-4] [VER-5]", in: "GCX1 tool=t fields=a\nx\nGCX2 tool=t fields=a\n", class: "unsupported-version", rule: "VER-4", line: 3, column: 1},

	// Headers.
	{name: "GCX1 then LF [HDR-1]", in: "GCX1\n", class: "syntax", rule: "HDR-1", line: 1, column: 5},
	{name: "two spaces [HDR-1]", in: "GCX1  tool=t fields=a\n", class: "syntax", rule: "HDR-1", line: 1, column: 6},
	{name: "comma in a tool name [HDR-3]", in: "GCX1 tool=a,b fields=a\n", class: "syntax", rule: "HDR-3", line: 1, column: 12},
	{name: "trailing space in a header [HDR-1]", in: "GCX1 tool=t fields=a \n", class: "syntax", rule: "HDR-1", line: 1, column: 22},
	{name: "fields first [HDR-2]", in: "GCX1 fields=a tool=t\n", class: "syntax", rule: "HDR-2", line: 1, column: 6},
	{name: "fields last, as the draft had it [HDR-2]", in: "GCX1 tool=t rows=1 fields=a\n", class: "syntax", rule: "HDR-2", line: 1, column: 13},
	{name: "tool name with a space [HDR-3]", in: "GCX1 tool=my tool fields=a\n", class: "syntax", rule: "HDR-2", line: 1, column: 14},
	{name: "empty tool name [HDR-3]", in: "GCX1 tool= fields=a\n", class: "syntax", rule: "HDR-3", line: 1, column: 11},
	{name: "empty meta key [HDR-3]", in: "GCX1 tool=t fields=a =1\n", class: "syntax", rule: "HDR-3", line: 1, column: 22},
	{name: "meta without = [HDR-1]", in: "GCX1 tool=t fields=a b\n", class: "syntax", rule: "HDR-1", line: 1, column: 23},
	{name: "one empty field name [HDR-4]", in: "GCX1 tool=t fields=\n\n"},
	{name: "escapes in field names [HDR-5]", in: "GCX1 tool=t fields=a\\sb,c\\,d,e\\\\,\\t\\n\\r\n1\t2\t3\t4\n"},
	{name: "unknown field escape [HDR-5]", in: "GCX1 tool=t fields=a\\q\n", class: "syntax", rule: "HDR-5", line: 1, column: 22},
	{name: "field names twice [HDR-6]", in: "GCX1 tool=t fields=a,b,a\n", class: "constraint", rule: "HDR-6", line: 1, column: 24},
	{name: "meta escapes, , and = raw [HDR-7]", in: "GCX1 tool=t fields=a q=a\\sb,c=d\\\\\n"},
	{name: "\\, in a meta value [HDR-7]", in: "GCX1 tool=t fields=a q=a\\,\n", class: "syntax", rule: "HDR-7", line: 1, column: 26},
	{name: "meta key tool [HDR-8]", in: "GCX1 tool=t fields=a tool=u\n", class: "constraint", rule: "HDR-8", line: 1, column: 22},
	{name: "meta key twice [HDR-8]", in: "GCX1 tool=t fields=a k=1 k=2\n", class: "constraint", rule: "HDR-8", line: 1, column: 26},
	{name: "unknown keys kept [HDR-9]", in: "GCX1 tool=t fields=a zz=1 next_cursor=abc\n"},

	// Meta.
	{name: "rows=01 [META-1]", in: "GCX1 tool=t fields=a rows=01\n", class: "constraint", rule: "META-1", line: 1, column: 27},
	{name: "total=-1 [META-1]", in: "GCX1 tool=t fields=a total=-1\n", class: "constraint", rule: "META-1", line: 1, column: 28},
	{name: "total is informative [META-2]", in: "GCX1 tool=t fields=a rows=1 total=999\nx\n"},
	{name: "truncated=yes [META-3]", in: "GCX1 tool=t fields=a truncated=yes\n", class: "constraint", rule: "META-3", line: 1, column: 32},
	{name: "rows= short, checked at the end [META-4]", in: "GCX1 tool=t fields=a rows=2\nx\n", class: "constraint", rule: "META-4", line: 1, column: 27},
	{name: "rows= checked at the next header [META-4]", in: "GCX1 tool=t fields=a rows=0\nx\nGCX1 tool=t fields=a\n", class: "constraint", rule: "META-4", line: 1, column: 27},
	{name: "rows= before a GCX2 header [META-4] [ERR-3]", in: "GCX1 tool=t fields=a rows=3\nGCX2\n", class: "constraint", rule: "META-4", line: 1, column: 27},
	{name: "reserved keys anywhere, comments not counted [META-5] [CMT-3]", in: "GCX1 tool=t fields=a truncated=false rows=1\n#c\nx\n#d\n"},

	// Rows.
	{name: "empty line is one empty value [ROW-1]", in: "GCX1 tool=t fields=a\n\n"},
	{name: "too many values, at the TAB [ROW-2]", in: "GCX1 tool=t fields=a,b\nx\ty\tz\tw\n", class: "constraint", rule: "ROW-2", line: 2, column: 4},
	{name: "too few values, at the LF [ROW-2]", in: "GCX1 tool=t fields=a,b,c\nx\ty\n", class: "constraint", rule: "ROW-2", line: 2, column: 4},
	{name: "syntax before the value count [ROW-2] [ERR-3]", in: "GCX1 tool=t fields=a\nx\ty\\q\n", class: "syntax", rule: "VAL-2", line: 2, column: 5},
	{name: "trailing empty values [ROW-3]", in: "GCX1 tool=t fields=a,b,c\nx\t\t\n"},
	{name: "guards [ROW-4]", in: "GCX1 tool=t fields=a,b\n\\#x\t#\n\\GCX1 hi\tGCX\n\\\\#\tx\n"},
	{name: "broken guard [ROW-4]", in: "GCX1 tool=t fields=a\n\\GCx\n", class: "syntax", rule: "ROW-4", line: 2, column: 4},
	{name: "guard cut by LF [ROW-4]", in: "GCX1 tool=t fields=a\n\\G\n", class: "syntax", rule: "ROW-4", line: 2, column: 3},
	{name: "guard after the first value [ROW-4] [VAL-2]", in: "GCX1 tool=t fields=a,b\nx\t\\#\n", class: "syntax", rule: "VAL-2", line: 2, column: 4},

	// Values.
	{name: "value escapes [VAL-1]", in: "GCX1 tool=t fields=a\n\\\\\\t\\n\\r\n"},
	{name: "\\s in a value [VAL-2]", in: "GCX1 tool=t fields=a\na\\sb\n", class: "syntax", rule: "VAL-2", line: 2, column: 3},
	{name: "lone backslash before LF [VAL-2]", in: "GCX1 tool=t fields=a\nx\\\n", class: "syntax", rule: "VAL-2", line: 2, column: 3},
	{name: "lone backslash at the end [VAL-2] [LINE-1]", in: "GCX1 tool=t fields=a\nx\\", class: "syntax", rule: "LINE-1", line: 2, column: 3},
	{name: "raw TAB separates, raw LF ends [VAL-3]", in: "GCX1 tool=t fields=a,b\nx\ty\n"},

	// Comments.
	{name: "comment text raw [CMT-1]", in: "GCX1 tool=t fields=a\n#\t\\q \\\n"},
	{name: "comment straight after the header [CMT-2]", in: "GCX1 tool=t fields=a\n#first\n"},
	{name: "comment before the first header [CMT-2]", in: "#c\nGCX1 tool=t fields=a\n", class: "not-gcx", rule: "PAY-1", line: 1, column: 1},
	{name: "CR in a comment [CMT-4]", in: "GCX1 tool=t fields=a\n#\r\n", class: "syntax", rule: "ENC-3", line: 2, column: 2},

	// Limits.
	{name: "line limit at column N+1 [LIM-3]", in: "GCX1 tool=t fields=a\n0123456789012345678901234\n", limits: &spec.Limits{MaxLineBytes: 20}, class: "limit", rule: "LIM-3", line: 2, column: 21},
	{name: "line limit counts an unterminated line to the end [LIM-3]", in: "GCX1 tool=t fields=a\n01234567890123456789x", limits: &spec.Limits{MaxLineBytes: 20}, class: "limit", rule: "LIM-3", line: 2, column: 21},
	{name: "line limit before syntax [LIM-1] [ERR-3]", in: "GCX1 tool=t fields=a\n\\q23456789012345678901\n", limits: &spec.Limits{MaxLineBytes: 20}, class: "limit", rule: "LIM-3", line: 2, column: 21},
	{name: "tag before line limit [LIM-3] [ERR-3]", in: "GCX1 tool=t fields=a\nGCX2 tool=t fields=abcdef\n", limits: &spec.Limits{MaxLineBytes: 20}, class: "unsupported-version", rule: "VER-4", line: 2, column: 1},
	{name: "field limit [LIM-3]", in: "GCX1 tool=t fields=a,b,c\n", limits: &spec.Limits{MaxFields: 2}, class: "limit", rule: "LIM-3", line: 1, column: 24},
	{name: "section limit [LIM-3]", in: "GCX1 tool=t fields=a\nGCX1 tool=t fields=a\n", limits: &spec.Limits{MaxSections: 1}, class: "limit", rule: "LIM-3", line: 2, column: 1},
	{name: "row limit [LIM-3]", in: "GCX1 tool=t fields=a\n1\n#c\n2\n", limits: &spec.Limits{MaxRows: 1}, class: "limit", rule: "LIM-3", line: 4, column: 1},
	{name: "minimums accepted by default [LIM-2]", in: "GCX1 tool=t fields=a\n" + strings.Repeat("x", spec.MinLineBytes) + "\n"},

	// Error order [ERR-1] [ERR-2] [ERR-3].
	{name: "first mismatch of the line wins [ERR-2]", in: "GCX1 tool=t fields=a\nx\\q\r\n", class: "syntax", rule: "VAL-2", line: 2, column: 3},
	{name: "row limit before line limit [ERR-3]", in: "GCX1 tool=t fields=a\n1\n0123456789012345678901234\n", limits: &spec.Limits{MaxRows: 1, MaxLineBytes: 20}, class: "limit", rule: "LIM-3", line: 3, column: 1},
	{name: "field limit before a duplicate at the same place [ERR-3]", in: "GCX1 tool=t fields=a,a\n", limits: &spec.Limits{MaxFields: 1}, class: "limit", rule: "LIM-3", line: 1, column: 22},
}

func TestDecodeCases(t *testing.T) {
	for _, c := range decodeCases {
		t.Run(c.name, func(t *testing.T) {
			lim := spec.DefaultLimits
			if c.limits != nil {
				lim = *c.limits
			}
			check := func(who string, p *spec.Payload, err error) {
				t.Helper()
				if c.class == "" {
					if err != nil || p == nil {
						t.Fatalf("%s: %v, want a payload", who, err)
					}
					return
				}
				var e *spec.Error
				if !errors.As(err, &e) || p != nil {
					t.Fatalf("%s: %v, %v; want a %s error", who, p, err, c.class)
				}
				if spec.ClassName(err) != c.class || e.Rule != c.rule || e.Line != c.line || e.Column != c.column {
					t.Errorf("%s: %s [%s] at %d:%d; want %s [%s] at %d:%d", who,
						spec.ClassName(err), e.Rule, e.Line, e.Column, c.class, c.rule, c.line, c.column)
				}
			}
			ref, refErr := reference.DecodeLimits([]byte(c.in), lim)
			check("reference", ref, refErr)
			for _, how := range []struct {
				name string
				r    io.Reader
			}{
				{"whole", strings.NewReader(c.in)},
				{"one byte at a time", iotest.OneByteReader(strings.NewReader(c.in))},
			} {
				p, err := Decode(how.r, lim)
				check("streaming, "+how.name, p, err)
				if diff := cmp.Diff(ref, p, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("streaming, %s: payload differs from the reference:\n%s", how.name, diff)
				}
				if diff := diffError(err, refErr); diff != "" {
					t.Errorf("streaming, %s: error differs from the reference:\n%s", how.name, diff)
				}
			}
		})
	}
}

// The pull API reports each line's kind, the header the rows belong to,
// comments with their place [CMT-3], line numbers and offsets, and io.EOF at
// a clean end.
func TestNextWalk(t *testing.T) {
	in := "GCX1 tool=t fields=a,b rows=2\n#top\nx\ty\n#mid\n\\#z\t\nGCX1 tool=u fields=c\n"
	d := NewDecoder(strings.NewReader(in))
	type step struct {
		kind   Kind
		line   int
		offset int64
		what   string
	}
	var got []step
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := step{kind: kind, line: d.Line(), offset: d.InputOffset()}
		switch kind {
		case KindHeader:
			s.what = d.Header().Tool + ":" + strings.Join(d.Header().Fields, ",")
		case KindRow:
			s.what = d.Header().Tool + ":" + strings.Join(d.Row(), "|")
		case KindComment:
			s.what = d.Comment().Text + "@" + string(rune('0'+d.Comment().Row))
		}
		got = append(got, s)
	}
	want := []step{
		{KindHeader, 1, 30, "t:a,b"},
		{KindComment, 2, 35, "top@0"},
		{KindRow, 3, 39, "t:x|y"},
		{KindComment, 4, 44, "mid@1"},
		{KindRow, 5, 49, "t:#z|"},
		{KindHeader, 6, 70, "u:c"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(step{})); diff != "" {
		t.Errorf("walk differs (-want +got):\n%s", diff)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("Next after the end = %v, want io.EOF again", err)
	}
}

// With ReuseRecord the row's storage is shared and overwritten by the next
// call; without it, rows stay as they were.
func TestReuseRecord(t *testing.T) {
	in := "GCX1 tool=t fields=a,b\nx1\ty1\nx2\ty\\t2\n"
	for _, reuse := range []bool{false, true} {
		d := NewDecoder(strings.NewReader(in))
		d.ReuseRecord = reuse
		var rows [][]string
		for {
			kind, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if kind == KindRow {
				rows = append(rows, d.Row())
			}
		}
		if len(rows) != 2 {
			t.Fatalf("reuse=%v: %d rows", reuse, len(rows))
		}
		first := strings.Join(rows[0], "|")
		if reuse && &rows[0][0] != &rows[1][0] {
			t.Errorf("reuse=true: rows do not share a slice")
		}
		if !reuse && first != "x1|y1" {
			t.Errorf("reuse=false: first row became %q", first)
		}
	}
}

// Steady-state decoding with ReuseRecord allocates nothing per row, escapes
// [VAL-1] and non-ASCII included.
func TestReuseRecordAllocatesNothing(t *testing.T) {
	row := "internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\tfunc NewServer(cfg *Config) (*Server, error)\n" +
		"\\#guarded\\tb\\\\c\tx\\ny\tplain\tpath/é/日本\t0\t\n"
	const rows = 2000
	in := "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig\n" + strings.Repeat(row, rows/2)
	r := strings.NewReader(in)
	d := NewDecoder(r)
	d.ReuseRecord = true
	read := func() {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	read() // the header
	for range 100 {
		read() // warm up: buffers reach their size
	}
	allocs := testing.AllocsPerRun(rows-200, read)
	if allocs != 0 {
		t.Errorf("%.2f allocations per row with ReuseRecord, want 0", allocs)
	}
}

// No ceiling on line length but the limit: a 64 MiB value decodes once
// MaxLineBytes allows it, and is refused at column N+1 under the default
// 16 MiB limit [LIM-1] [LIM-3].
func TestLongValue(t *testing.T) {
	const size = 64 << 20
	payload := func() io.Reader {
		return io.MultiReader(strings.NewReader("GCX1 tool=t fields=blob,n\n"),
			io.LimitReader(repeatByte('z'), size), strings.NewReader("\t1\n"))
	}
	d := NewDecoder(payload())
	d.Limits.MaxLineBytes = size + 2
	d.ReuseRecord = true
	var got []string
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if kind == KindRow {
			got = d.Row()
		}
	}
	if len(got) != 2 || len(got[0]) != size || strings.Trim(got[0], "z") != "" || got[1] != "1" {
		t.Fatalf("row of %d values, first %d bytes", len(got), len(got[0]))
	}

	_, err := Decode(payload(), spec.DefaultLimits)
	var e *spec.Error
	if !errors.As(err, &e) || e.Rule != "LIM-3" || e.Line != 2 || e.Column != spec.DefaultLimits.MaxLineBytes+1 {
		t.Errorf("under the default limit: %v", err)
	}
}

type repeatByte byte

func (b repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// A row wider than the row scanner keeps TABs for takes the general path
// and reads the same [ROW-1] [ROW-2].
func TestWideRow(t *testing.T) {
	for _, width := range []int{maxPlainTabs, maxPlainTabs + 1, maxPlainTabs + 2, 3 * maxPlainTabs} {
		fields := make([]string, width)
		values := make([]string, width)
		for i := range fields {
			fields[i] = "f" + strconv.Itoa(i)
			values[i] = strconv.Itoa(i)
		}
		in := "GCX1 tool=t fields=" + strings.Join(fields, ",") + "\n" + strings.Join(values, "\t") + "\n" +
			strings.Join(values[:width-1], "\t") + "\n"
		_, wantErr := reference.Decode([]byte(in))
		for _, reuse := range []bool{false, true} {
			d := NewDecoder(strings.NewReader(in))
			d.ReuseRecord = reuse
			got, err, problem := drain(d)
			if problem != "" {
				t.Fatal(problem)
			}
			if wantErr == nil || diffError(err, wantErr) != "" {
				t.Fatalf("width %d: error %v, reference %v", width, err, wantErr)
			}
			if len(got) != 2 || len(got[1].Row) != width || got[1].Row[width-1] != values[width-1] {
				t.Errorf("width %d, reuse %v: %d items", width, reuse, len(got))
			}
		}
	}
}

// A reader's own error comes back as it is, after the lines it delivered
// whole [ERR-4]; one that makes no progress gets io.ErrNoProgress.
func TestReaderErrors(t *testing.T) {
	in := "GCX1 tool=t fields=a\nx\ny"
	d := NewDecoder(io.MultiReader(strings.NewReader(in), iotest.ErrReader(errReaderBroke)))
	var kinds []Kind
	var err error
	for {
		var kind Kind
		if kind, err = d.Next(); err != nil {
			break
		}
		kinds = append(kinds, kind)
	}
	if err != errReaderBroke || len(kinds) != 2 {
		t.Errorf("got %v after %v, want the reader's error after a header and a row", err, kinds)
	}

	d = NewDecoder(&chunkReader{data: []byte("GCX1 tool=t fields=a\n"), sizes: []int{0}})
	if _, err := d.Next(); err != io.ErrNoProgress {
		t.Errorf("reader that returns nothing: %v, want io.ErrNoProgress", err)
	}
}

// A reader claiming more bytes than it was given is an error, not a panic.
func TestReaderBadCount(t *testing.T) {
	d := NewDecoder(liar{})
	if _, err := d.Next(); !errors.Is(err, errBadRead) {
		t.Errorf("lying reader: %v, want %v", err, errBadRead)
	}
}

type liar struct{}

func (liar) Read(p []byte) (int, error) { return len(p) + 1, nil }
