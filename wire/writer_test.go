package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// Marshal writes what WIRE-1 describes: checked against encoding/json's
// reading of the view, on generated payloads [WIRE-1].
func TestPropertyMarshalIsTheView(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		out := wire.Marshal(p)
		if !bytes.HasSuffix(out, []byte("\n")) || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("not one line of compact JSON: %q", out)
		}
		var view struct {
			Sections []struct {
				Tool     string
				Fields   []string
				Meta     [][2]string
				Rows     [][]string
				Comments [][2]any
			}
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.DisallowUnknownFields()
		dec.UseNumber()
		if err := dec.Decode(&view); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if len(view.Sections) != len(p.Sections) {
			t.Fatalf("%d sections, want %d", len(view.Sections), len(p.Sections))
		}
		for i, s := range p.Sections {
			v := view.Sections[i]
			if v.Tool != s.Tool || !equalStrings(v.Fields, s.Fields) || len(v.Meta) != len(s.Meta) || len(v.Rows) != len(s.Rows) || len(v.Comments) != len(s.Comments) {
				t.Fatalf("section %d differs:\n%s", i, out)
			}
			for k, m := range s.Meta {
				if v.Meta[k] != [2]string{m.Key, m.Value} {
					t.Fatalf("meta %d: %q", k, v.Meta[k])
				}
			}
			for r, row := range s.Rows {
				if !equalStrings(v.Rows[r], row) {
					t.Fatalf("row %d: %q, want %q", r, v.Rows[r], row)
				}
			}
			// WIRE-1: comments appear when the section has some, and only then.
			if has := bytes.Contains(sectionText(out, i), []byte(`"comments":`)); has != (len(s.Comments) > 0) {
				t.Fatalf("section %d with %d comments: the view has a comments key = %v:\n%s", i, len(s.Comments), has, out)
			}
			for c, cm := range s.Comments {
				if v.Comments[c][0] != json.Number(itoa(cm.Row)) || v.Comments[c][1] != cm.Text {
					t.Fatalf("comment %d: %v, want %+v", c, v.Comments[c], cm)
				}
			}
		}
	})
}

// sectionText returns the JSON text of section i of a view, found by
// decoding the sections array one raw element at a time.
func sectionText(view []byte, i int) []byte {
	var v struct{ Sections []json.RawMessage }
	if err := json.Unmarshal(view, &v); err != nil || i >= len(v.Sections) {
		return nil
	}
	return v.Sections[i]
}

// The exact view of sections with and without comments: a section with
// none has no comments key at all, not an empty array [WIRE-1].
func TestWriterViewOfSectionsWithoutComments(t *testing.T) {
	p := &spec.Payload{Sections: []spec.Section{
		{Tool: "t", Fields: []string{"a"}, Meta: []spec.Meta{{Key: "rows", Value: "1"}}, Rows: [][]string{{"x"}}, Comments: []spec.Comment{{Row: 0, Text: "c"}}},
		{Tool: "u", Fields: []string{"b"}, Rows: [][]string{{"y"}}},
		{Tool: "v", Fields: []string{"c"}},
	}}
	want := `{"sections":[{"tool":"t","fields":["a"],"meta":[["rows","1"]],"rows":[["x"]],"comments":[[0,"c"]]},` +
		`{"tool":"u","fields":["b"],"meta":[],"rows":[["y"]]},{"tool":"v","fields":["c"],"meta":[],"rows":[]}]}` + "\n"
	if got := string(wire.Marshal(p)); got != want {
		t.Errorf("Marshal:\n got %s\nwant %s", got, want)
	}
}

// Comments past the memory bound go to a temporary file; when that file
// cannot be made, the writer says so instead of dropping them.
func TestWriterReportsSpillFailure(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()+"/missing")
	var out bytes.Buffer
	w := wire.NewWriter(&out)
	w.WriteHeader("t", []string{"a"}, nil)
	text := strings.Repeat("c", 1000)
	var err error
	for i := 0; i < 3000 && err == nil; i++ { // 3 MB of comments
		err = w.WriteComment(spec.Comment{Row: 0, Text: text})
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		t.Fatal("comments beyond memory with no temporary directory: no error")
	}
}

func equalStrings(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A section's comments beyond 1 MiB wait in a temporary file and come out
// whole and in order.
func TestWriterSpillsComments(t *testing.T) {
	var out bytes.Buffer
	w := wire.NewWriter(&out)
	w.WriteHeader("t", []string{"a"}, nil)
	text := strings.Repeat("c", 1000)
	const n = 3000 // 3 MB of comments
	for i := range n {
		w.WriteComment(spec.Comment{Row: i, Text: text})
		w.WriteRow([]string{"x"})
	}
	w.WriteHeader("u", []string{"b"}, nil)
	w.WriteComment(spec.Comment{Text: "second"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var view struct {
		Sections []struct {
			Rows     [][]string
			Comments [][2]any
		}
	}
	if err := json.Unmarshal(out.Bytes(), &view); err != nil {
		t.Fatal(err)
	}
	if got := len(view.Sections[0].Comments); got != n {
		t.Fatalf("%d comments, want %d", got, n)
	}
	for i, c := range view.Sections[0].Comments {
		if c[0] != float64(i) || c[1] != text {
			t.Fatalf("comment %d: row %v", i, c[0])
		}
	}
	if c := view.Sections[1].Comments; len(c) != 1 || c[0][1] != "second" {
		t.Fatalf("second section's comments: %v", c)
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after < len(p) {
		return 0, errors.New("disk full")
	}
	f.after -= len(p)
	return len(p), nil
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// The view streams: a section of many rows reaches the underlying writer
// as its rows come, not at Close, so the Writer holds a bounded buffer.
func TestWriterStreamsRows(t *testing.T) {
	var out countingWriter
	w := wire.NewWriter(&out)
	w.WriteHeader("t", []string{"a"}, nil)
	row := []string{strings.Repeat("v", 100)}
	for range 100000 { // 10 MB of rows
		if err := w.WriteRow(row); err != nil {
			t.Fatal(err)
		}
	}
	if out.n < 9<<20 {
		t.Errorf("%d bytes reached the writer before Close, of about 10 MB written", out.n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// A write error is returned, and every call after it returns it too.
func TestWriterErrorsAreSticky(t *testing.T) {
	w := wire.NewWriter(&failingWriter{after: 10})
	w.WriteHeader("t", []string{"a"}, nil)
	var err error
	for i := 0; i < 10000 && err == nil; i++ {
		err = w.WriteRow([]string{strings.Repeat("v", 100)})
	}
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("err = %v", err)
	}
	if w.WriteRow([]string{"x"}) != err || w.WriteComment(spec.Comment{Row: 1, Text: "c"}) != err ||
		w.WriteHeader("u", []string{"b"}, nil) != err || w.Close() != err {
		t.Fatal("error not sticky: WriteRow, WriteComment, WriteHeader and Close must each return it")
	}
}
