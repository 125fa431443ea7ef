package jsonmap_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
)

// encodeFile is the two-pass encoder over text: the plan's layout error,
// the payload and the compact text it writes, or the error that stopped it.
type fileResult struct {
	payload, compact []byte
	fitErr, err      error
}

func encodeFile(tool string, text []byte, limits spec.Limits) fileResult {
	var r fileResult
	plan, err := jsonmap.PlanFile(tool, bytes.NewReader(text), int64(len(text)))
	if err != nil {
		r.err = err
		return r
	}
	r.fitErr = plan.LayoutErr()
	var out, compact bytes.Buffer
	if err := plan.Compact(&compact); err != nil {
		r.err = fmt.Errorf("Compact: %w", err)
		return r
	}
	r.compact = compact.Bytes()
	if err := plan.Encode(&out, limits); err != nil {
		r.err = err
		return r
	}
	r.payload = out.Bytes()
	return r
}

// checkSameAsInMemory fails unless the two-pass encoder writes, for text,
// what EncodeLimits writes, or fails as it does; and its layout error and
// compact text are Fit's and Compact's.
func checkSameAsInMemory(t fataler, tool string, text []byte, limits spec.Limits) {
	t.Helper()
	want, wantErr := jsonmap.EncodeLimits(tool, text, limits)
	got := encodeFile(tool, text, limits)
	if fmt.Sprint(wantErr) != fmt.Sprint(got.err) {
		t.Fatalf("tool %s, text %q:\nEncodeLimits error %v\ntwo-pass error     %v", tool, text, wantErr, got.err)
	}
	if wantErr != nil {
		return
	}
	if !bytes.Equal(want, got.payload) {
		t.Fatalf("tool %s, text %q:\nEncodeLimits %q\ntwo-pass     %q", tool, text, want, got.payload)
	}
	compact, _ := jsonmap.Compact(text)
	if !bytes.Equal(compact, got.compact) {
		t.Fatalf("text %q: Compact %q, two-pass %q", text, compact, got.compact)
	}
	var wantFit error
	if l, ok := jsonmap.Lookup(tool); ok {
		v, _ := jsonmap.Parse(text)
		wantFit = l.Fit(v)
	}
	if fmt.Sprint(wantFit) != fmt.Sprint(got.fitErr) {
		t.Fatalf("tool %s, text %q:\nFit error      %v\ntwo-pass error %v", tool, text, wantFit, got.fitErr)
	}
}

// fileShapes are the shapes the two passes stream, and those they hold.
var fileShapes = []struct{ name, tool, json string }{
	{"EmptyArray", "t", `[]`},
	{"EmptyArrayClaimed", "search_symbols.x", `[]`},
	{"TinyObjects", "t", `[{"a":1,"b":"x"},{"a":2,"b":"y"}]`},
	{"EmptyObjects", "t", `[{},{}]`},
	{"SomeEmptyObjects", "t", `[{},{"a":1},{}]`},
	{"ArrayForm", "t", `[1,"a",{"b":2},[3]]`},
	{"OrderAgreed", "t", `[{"b":1},{"a":1,"b":2},{"b":3,"c":4},{"a":5,"c":6}]`},
	{"OrderDisagrees", "t", `[{"a":1,"b":2},{"b":3,"a":4}]`},
	{"Nested", "t", `[{"id":1,"labels":{"app":"web","tier":"1"}},{"id":2,"labels":{"app":"db"}}]`},
	{"NestedTooSparse", "t", `[{"x":{"a":1}},{"x":{"b":1}},{"x":{"c":1}}]`},
	{"NestedDotted", "t", `[{"x":{"a":1},"x.b":2}]`},
	{"NestedDisagrees", "t", `[{"x":{"a":1,"b":2}},{"x":{"b":1,"a":2}}]`},
	{"Bare", "t", `[{"n":"1","m":"true"},{"n":"2","m":"x"}]`},
	{"BareNested", "t", `[{"x":{"n":"1"}},{"x":{"n":"2"}}]`},
	{"BareWithComma", "t", `[{"a,b":"1"},{"a,b":"2"}]`},
	{"Scalar", "t", `"hello"`},
	{"Number", "t", ` 1e400 `},
	{"ObjectHeaderForm", "t", `{"count":2,"name":"x"}`},
	{"ObjectRowForm", "t", `{"note":"a b","count":2}`},
	{"ObjectOfTables", "t", `{"total":2,"items":[{"a":1},{"a":2}],"more":[{"b":1}]}`},
	{"ObjectOfTablesRowForm", "t", `{"note":"a b","items":[{"a":1},{"a":2}],"bad key":[{"b":1}],"list":[1,2]}`},
	{"ObjectEmptyArray", "t", `{"items":[],"x":[1,[2]],"@":"@"}`},
	{"ObjectReservedKey", "t", `{"rows":[{"a":1}],"b":[{"c":1}]}`},
	{"ObjectNonTableArray", "t", `{"a":[{"x":1},{"y":[1,2]}],"b":[{"p":1},2]}`},
	{"LayoutFits", "search_symbols", `[{"id":"a","kind":"f","name":"F","file_path":"a.go","start_line":1}]`},
	{"LayoutMissing", "search_symbols", `[{"id":"a","kind":"f","name":"F","file_path":"a.go"}]`},
	{"LayoutObject", "graph_stats", `{"nodes":1,"edges":2,"files":3,"symbols":4}`},
	{"LayoutObjectArray", "graph_stats", `[{"nodes":1,"edges":2,"files":3,"symbols":4}]`},
	{"LayoutParts", "get_callers", `{"nodes":[{"id":"a","kind":"f","name":"F","file_path":"a.go","start_line":1}],"edges":[{"from":"a","to":"b","kind":"call"}]}`},
	{"LayoutPartsEmpty", "get_callers", `{"nodes":[],"edges":[]}`},
	{"LayoutPartsElementThenKind", "get_callers", `{"nodes":[1],"edges":2}`},
	{"LayoutPartsWrongKey", "get_callers", `{"nodes":[1],"edgez":[]}`},
	{"LayoutPartsCount", "get_callers", `{"nodes":[]}`},
	{"LayoutPartsBadJSON", "get_callers", `{"nodes":[{"id":"a",}],"edges":[]}`},
	{"LayoutScalar", "find_cycles", `3`},
	{"BadToolName", "a b", `[{"a":1}]`},
	{"BadJSON", "t", `[{"a":1},{"a":}]`},
	{"Duplicate", "t", `[{"a":1,"a":2}]`},
	{"TrailingGarbage", "t", `[] x`},
}

func TestEncodeFileShapes(t *testing.T) {
	for _, c := range fileShapes {
		t.Run(c.name, func(t *testing.T) {
			checkSameAsInMemory(t, c.tool, []byte(c.json), spec.DefaultLimits)
		})
	}
	for _, c := range shapeCases {
		t.Run("shapes/"+c.name, func(t *testing.T) {
			checkSameAsInMemory(t, c.tool, []byte(c.json), spec.DefaultLimits)
		})
	}
}

// brokenAfter is a file that fails, once armed, to give any byte from at
// on: a file changed or lost between the plan's pass and Encode's.
type brokenAfter struct {
	text  []byte
	at    int64
	armed bool
}

var errBroken = errors.New("the file broke")

func (b *brokenAfter) ReadAt(p []byte, off int64) (int, error) {
	if !b.armed || off+int64(len(p)) <= b.at {
		return bytes.NewReader(b.text).ReadAt(p, off)
	}
	n := 0
	if off < b.at {
		n = copy(p, b.text[off:b.at])
	}
	return n, errBroken
}

// TestEncodeFileReadErrorInPart: a read error inside a layout part's
// object, in Encode's pass, is Encode's error, not a section short of its
// row (a dropped error would close the payload and report rows=1 unmet).
func TestEncodeFileReadErrorInPart(t *testing.T) {
	text := []byte(`{"id":"a","file_path":"p","start_line":1,"end_line":2,"source":"` + strings.Repeat("x", 1<<20) + `"}`)
	src := &brokenAfter{text: text, at: int64(len(text)) - 100}
	plan, err := jsonmap.PlanFile("get_symbol_source", src, int64(len(text)))
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.LayoutErr(); err != nil {
		t.Fatalf("the text does not fit its layout: %v", err)
	}
	src.armed = true
	if err := plan.Encode(io.Discard, spec.DefaultLimits); !errors.Is(err, errBroken) {
		t.Errorf("Encode of a file broken in its part: %v, want %v", err, errBroken)
	}
}

// writes records each Write's bytes apart.
type writes [][]byte

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, bytes.Clone(p))
	return len(p), nil
}

// TestEncodeFileReadErrorWritesOnlyInputRows: a read error inside a row's
// nested object, in Encode's pass, stops Encode before that row is
// written: what w holds is the start of the payload the whole text gives,
// whole lines of rows the input holds [MAP-21]. A row read past the error
// as an empty value would be written, by the encoder's flush, as a row of
// absent cells that no element of the input is. The flush comes after the
// first row whose end passes the encoder's buffer, so the text is padded
// byte by byte until a row shorter than any the input holds would pass it.
func TestEncodeFileReadErrorWritesOnlyInputRows(t *testing.T) {
	pad := strings.Repeat("x", 100)
	row := `{"p":"` + pad + `","a":{"b":1}},`
	for d := range len(row) {
		text := []byte(`[{"p":"` + strings.Repeat("y", d) + `","a":{"b":1}},` + strings.Repeat(row, 1000) + `{"p":"","a":{"b":1}}]`)
		src := &brokenAfter{text: text}
		plan, err := jsonmap.PlanFile("t", src, int64(len(text)))
		if err != nil {
			t.Fatal(err)
		}
		var good writes
		if err := plan.Encode(&good, spec.DefaultLimits); err != nil || len(good) < 2 {
			t.Fatalf("Encode of the whole text: %d writes, %v; want a payload written in two writes or more", len(good), err)
		}
		whole := bytes.Join(good, nil)
		// The row whose line ends the first write: break the text inside
		// its nested object, just after its '{'.
		rowAt := bytes.Count(good[0], []byte("\n")) - 1 - 1 // less the header line, from 0
		at := 0
		for range rowAt + 1 {
			at += bytes.Index(text[at:], []byte(`{"b"`)) + 1
		}
		src.at, src.armed = int64(at), true
		var out bytes.Buffer
		if err := plan.Encode(&out, spec.DefaultLimits); !errors.Is(err, errBroken) {
			t.Fatalf("pad %d: Encode of a file broken in row %d: %v, want %v", d, rowAt+1, err, errBroken)
		}
		if got := out.Bytes(); !bytes.HasPrefix(whole, got) || len(got) > 0 && got[len(got)-1] != '\n' {
			t.Fatalf("pad %d: Encode of a file broken in row %d wrote %d bytes that are not whole lines of the payload's start; they end %q",
				d, rowAt+1, len(got), got[max(0, len(got)-40):])
		}
	}
}

// TestEncodeFileVectors: the two passes write every json-encode vector's
// payload as the in-memory encoder does.
func TestEncodeFileVectors(t *testing.T) {
	files, err := filepath.Glob("../conformance/vectors/json/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var group struct {
			Vectors []struct {
				ID, Op, Tool string
				Input        json.RawMessage // a string, or a list of parts
			}
		}
		if err := json.Unmarshal(data, &group); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, v := range group.Vectors {
			var input string
			if v.Op != "json-encode" || json.Unmarshal(v.Input, &input) != nil {
				continue
			}
			n++
			t.Run(v.ID, func(t *testing.T) {
				checkSameAsInMemory(t, cmp.Or(v.Tool, jsonmap.DefaultTool), []byte(input), spec.DefaultLimits)
			})
		}
	}
	if n < 20 {
		t.Fatalf("only %d json-encode vectors found", n)
	}
}

// TestPropertyEncodeFileIsEncode: for every JSON value in every spelling,
// tables of every kind and values shaped for the declared tools, under
// default and tight limits, the two passes write exactly what the
// in-memory encoder writes, or fail with its error [MAP-12] [LIM-4].
func TestPropertyEncodeFileIsEncode(t *testing.T) {
	layouts := jsonmap.Layouts()
	gen.Check(t, 3000, func(t *rapid.T) {
		var v jsonmap.Value
		tool := tools.Draw(t, "tool")
		switch rapid.IntRange(0, 3).Draw(t, "source") {
		case 0, 1:
			v = jsongen.Value().Draw(t, "value")
		case 2:
			v = jsongen.Table(nil, nil).Draw(t, "table")
			if rapid.Bool().Draw(t, "as a member") {
				v = jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
					{Key: "total", Value: jsonmap.Value{Kind: jsonmap.Number, Text: "3"}},
					{Key: rapid.SampledFrom([]string{"items", "a b", "rows"}).Draw(t, "key"), Value: v}}}
			}
		case 3:
			l := rapid.SampledFrom(layouts).Draw(t, "layout")
			tool = l.Tool
			v = jsongen.Fitting(l).Draw(t, "value")
		}
		text := jsongen.Text(t, v)
		limits := spec.DefaultLimits
		if rapid.IntRange(0, 4).Draw(t, "tight limits") == 0 {
			limits = spec.Limits{MaxLineBytes: rapid.IntRange(8, 200).Draw(t, "line"), MaxRows: rapid.IntRange(1, 5).Draw(t, "rows")}
		}
		checkSameAsInMemory(t, tool, text, limits)
	})
}

// FuzzEncodeFile: for any input, the two passes write what the in-memory
// encoder writes, or fail with its error.
func FuzzEncodeFile(f *testing.F) {
	for _, c := range fileShapes {
		f.Add(c.tool, []byte(c.json))
	}
	for _, c := range shapeCases {
		f.Add(c.tool, []byte(c.json))
	}
	f.Fuzz(func(t *testing.T, tool string, text []byte) {
		checkSameAsInMemory(t, tool, text, spec.DefaultLimits)
	})
}
