package streaming

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

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
	for _, width := range []int{maxMarks, maxMarks + 1, maxMarks + 2, 3 * maxMarks} {
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

// Without ReuseRecord a row costs at most one allocation: its text and its
// cells are carved from blocks [issue 23]. Every shape of the benchmark
// set is held to it, long values and escapes included, and so is a
// payload of rows longer than a block.
func TestFreshRowsAllocateAtMostOnce(t *testing.T) {
	shapes := append(benchSet[:len(benchSet):len(benchSet)], func() *benchData {
		return newBenchData("value100k", 60, []string{"a", "b"}, func(i int) []string {
			return []string{strings.Repeat("x", 100<<10+i), strconv.Itoa(i)}
		})
	})
	for _, build := range shapes {
		data := build()
		t.Run(data.name, func(t *testing.T) {
			allocs := testing.AllocsPerRun(3, func() {
				d := NewDecoder(bytes.NewReader(data.gcx))
				for {
					if _, err := d.Next(); err == io.EOF {
						return
					} else if err != nil {
						t.Fatal(err)
					}
				}
			})
			// A decoder's own set-up: itself, its buffers, the header.
			const setup = 40
			if perRow := (allocs - setup) / float64(data.rows); perRow > 1 {
				t.Errorf("%.0f allocations for %d rows: %.3f a row, want at most 1", allocs, data.rows, perRow)
			}
		})
	}
}

// A row's slice is capped at its width: appending to it moves it, and the
// next row's values stay as they were.
func TestFreshRowAppendLeavesNextRow(t *testing.T) {
	d := NewDecoder(strings.NewReader("GCX1 tool=t fields=a,b\nx1\ty1\nx2\ty2\n"))
	var rows [][]string
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if kind == KindRow {
			rows = append(rows, d.Row())
		}
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	grown := append(rows[0], "extra")
	if got := strings.Join(rows[1], "|"); got != "x2|y2" {
		t.Errorf("after appending to row 1 (%q), row 2 is %q", grown, got)
	}
}

// TestPlainFollowsItsDefinition: plain says a row line is plain exactly
// when it holds no backslash, no CR and only valid UTF-8, on the direct
// path and on the portable one, which moves clean through the buffer and
// must answer the same for each line in turn, before and after lines that
// stop it.
func TestPlainFollowsItsDefinition(t *testing.T) {
	cases := []struct {
		name  string
		lines []string // each followed by its LF in the buffer
	}{
		{"plain ASCII", []string{"a\tb"}},
		{"plain non-ASCII", []string{"é\t日本\t😀"}},
		{"backslash", []string{"a\\tb"}},
		{"CR", []string{"a\rb"}},
		{"invalid byte", []string{"a\xffb"}},
		{"surrogate half", []string{"a\xed\xa0\x80"}},
		{"plain lines after a backslash", []string{"x\\ty", "plain", "also\tplain"}},
		{"backslash after plain lines", []string{"plain", "also\tplain", "a\\\\b", "last"}},
		{"CR between plain lines", []string{"one", "t\rwo", "three"}},
	}
	for _, c := range cases {
		for _, portable := range []bool{false, true} {
			text := strings.Join(c.lines, "\n") + "\n"
			buf := append([]byte(text), make([]byte, bufferSlack)...)
			d := &Decoder{buf: buf, end: len(text), portable: portable}
			for k, s := range c.lines {
				line := d.buf[d.start : d.start+len(s)]
				want := !strings.ContainsAny(s, "\\\r") && utf8.ValidString(s)
				if got := d.plain(line); got != want {
					t.Errorf("%s, portable %v: line %d (%q): plain %v, want %v", c.name, portable, k+1, s, got, want)
				}
				d.start += len(s) + 1
			}
		}
	}
}

// TestHeaderCutShortBeforeStaleLF: a last header with no LF is refused
// [LINE-1] even where the buffer, reused in place (ReuseRecord) and filled
// a byte at a time, still holds an LF just past it, left there by the
// first header, of the same length, whose place the last one took.
func TestHeaderCutShortBeforeStaleLF(t *testing.T) {
	const in = "GCX1 tool=t fields=a\nx\nGCX1 tool=u fields=b"
	for _, reuse := range []bool{false, true} {
		d := NewDecoder(iotest.OneByteReader(strings.NewReader(in)))
		d.ReuseRecord = reuse
		var err error
		kinds := 0
		for err == nil {
			_, err = d.Next()
			kinds++
		}
		var se *spec.Error
		if kinds != 3 || !errors.As(err, &se) {
			t.Errorf("reuse=%v: %d lines read, then %v; want two, then a syntax error at the third", reuse, kinds-1, err)
		}
	}
}
