package jsonmap_test

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Tests written for mutants that survived the package's other tests.

// TestEncodeFileReadErrorInArrayForm: a read error inside a root array
// written in the array form (its elements are no objects), in Encode's
// pass, is Encode's error, read ahead or not. Dropped, the encoder would
// be closed on the rows written so far (file.go's writeArray).
func TestEncodeFileReadErrorInArrayForm(t *testing.T) {
	text := []byte(`[` + strings.Repeat(`"`+strings.Repeat("x", 100)+`",1,`, 2000) + `2]`)
	for _, ahead := range []bool{false, true} {
		if ahead { // on one core, read as before
			defer jsonmap.ReadAheadFor(2, 1<<10)()
		}
		src := &brokenAfter{text: text, at: int64(len(text)) - 100}
		plan, err := jsonmap.PlanFile("t", src, int64(len(text)))
		if err != nil {
			t.Fatal(err)
		}
		var whole bytes.Buffer
		if err := plan.Encode(&whole, spec.DefaultLimits); err != nil || !bytes.Contains(whole.Bytes(), []byte("json=array")) {
			t.Fatalf("ahead %v: Encode of the whole text: %v; want the array form, got %q", ahead, err, whole.Bytes()[:min(whole.Len(), 60)])
		}
		src.armed = true
		if err := plan.Encode(io.Discard, spec.DefaultLimits); !errors.Is(err, errBroken) {
			t.Errorf("ahead %v: Encode of a file broken in its array: %v, want %v", ahead, err, errBroken)
		}
	}
}

// TestDecodeValueOfOneByte: a payload whose value is one byte of JSON (a
// one-digit number) decodes to that value through each of the functions
// that return a Value; the one-byte text is not taken for an empty one.
func TestDecodeValueOfOneByte(t *testing.T) {
	for _, text := range []string{"0", "7"} {
		want := jsonmap.Value{Kind: jsonmap.Number, Text: text}
		payload, err := jsonmap.Encode("t", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		model, err := jsonmap.Model("t", want)
		if err != nil {
			t.Fatal(err)
		}
		for name, decode := range map[string]func() (jsonmap.Value, error){
			"DecodeValue":       func() (jsonmap.Value, error) { return jsonmap.DecodeValue(payload) },
			"DecodeValueString": func() (jsonmap.Value, error) { return jsonmap.DecodeValueString(string(payload)) },
			"DecodePayload":     func() (jsonmap.Value, error) { return jsonmap.DecodePayload(model) },
		} {
			got, err := decode()
			if err != nil || !jsonmap.Equal(got, want) {
				t.Errorf("%s of %q = %#v, %v; want %s", name, payload, got, err, text)
			}
		}
	}
}

// goroutineID returns the calling goroutine's name, "goroutine N", as
// the first line of its stack trace ("goroutine N [running]:") gives it.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	id, _, _ := bytes.Cut(b, []byte(" ["))
	return string(id)
}

// readersOf is a text that records which goroutines read it.
type readersOf struct {
	text []byte
	mu   sync.Mutex
	ids  map[string]bool
}

func (r *readersOf) ReadAt(p []byte, off int64) (int, error) {
	id := goroutineID()
	r.mu.Lock()
	r.ids[id] = true
	r.mu.Unlock()
	return bytes.NewReader(r.text).ReadAt(p, off)
}

// TestMebibyteTextIsReadAhead: PlanFile reads the arrays of a text of
// 1 MiB or more ahead on a second goroutine, the bound docs/performance.md
// states ("One core"), and those of a shorter text on the caller's: a text
// of 1 MiB is read, in both passes, by a goroutine other than the one that
// calls PlanFile and Encode, and one a byte shorter only by that one. The
// other read-ahead tests set the bound themselves (ReadAheadFor), so they
// pass whatever its default.
func TestMebibyteTextIsReadAhead(t *testing.T) {
	skipOneCore(t)
	caller := goroutineID()
	for _, size := range []int{1<<20 - 1, 1 << 20} {
		// Rows of a table, then spaces up to the size.
		const row = `{"id":12345,"name":"a row"}`
		rows := "[" + strings.Repeat(row+",", (size-2-len(row))/(len(row)+1)) + row
		text := []byte(rows + strings.Repeat(" ", size-1-len(rows)) + "]")
		if len(text) != size {
			t.Fatalf("the text is %d bytes, want %d", len(text), size)
		}
		want, err := jsonmap.Encode("t", text)
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 2 {
			src := &readersOf{text: text, ids: map[string]bool{}}
			plan, err := jsonmap.PlanFile("t", src, int64(len(text)))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if pass == 1 {
				// Only Encode's reads.
				src.ids = map[string]bool{}
				if err := plan.Encode(&out, spec.DefaultLimits); err != nil || !bytes.Equal(out.Bytes(), want) {
					t.Fatalf("%d bytes: Encode = %v, %d bytes, want %d", size, err, out.Len(), len(want))
				}
			}
			others := 0
			for id := range src.ids {
				if id != caller {
					others++
				}
			}
			if ahead := size >= 1<<20; (others > 0) != ahead {
				t.Errorf("%d bytes, %s: read by %d goroutines besides the caller's; want read ahead %v",
					size, []string{"PlanFile", "Encode"}[pass], others, ahead)
			}
		}
	}
}

// fromStartOnly is a file that gives its bytes to a read from its start
// and fails any read that begins further on: a file lost after the read
// of its first pass, for a text shorter than the readers' buffer.
type fromStartOnly struct{ text []byte }

func (f fromStartOnly) ReadAt(p []byte, off int64) (int, error) {
	if off > 0 {
		return 0, errBroken
	}
	return bytes.NewReader(f.text).ReadAt(p, off)
}

// TestPlanFileReadErrorInArrayReread: PlanFile reads the value of a root
// object's array that is no table a second time, whole, as one cell or
// pair; a read error there is PlanFile's error. Dropped, the plan would
// hold an empty value for the member and Encode would write it.
func TestPlanFileReadErrorInArrayReread(t *testing.T) {
	for _, text := range []string{`{"a":[1,2]}`, `{"a":"x y","b":[[1],2]}`, `{"b":[],"t":[{"c":1}]}`} {
		if _, err := jsonmap.PlanFile("t", bytes.NewReader([]byte(text)), int64(len(text))); err != nil {
			t.Fatalf("%s: PlanFile of the whole file: %v", text, err)
		}
		plan, err := jsonmap.PlanFile("t", fromStartOnly{[]byte(text)}, int64(len(text)))
		if !errors.Is(err, errBroken) {
			t.Errorf("%s: PlanFile of a file lost after its first read: %v, %v; want %v", text, plan, err, errBroken)
		}
	}
}

// TestPlanFileDeclaredMemberError: under a declared tool, a root
// object's member value that is no array and holds a fault fails PlanFile
// with the error Parse gives, of the same class, rule and position
// [MAP-1] [MAP-4]; the layout pass does not take the text for one that
// fits.
func TestPlanFileDeclaredMemberError(t *testing.T) {
	for _, c := range []struct{ tool, json string }{
		{"graph_stats", `{"nodes":{"x":]}}`},
		{"get_symbol_source", `{"id":"a","file_path":{"k":1,"k":2}}`},
		{"get_callers", `{"nodes":[],"x":{"y":` + strings.Repeat("[", jsonmap.MaxDepth+1) + `}}`},
		{"graph_stats", `{"nodes":{"x":1`},
	} {
		_, want := jsonmap.Parse([]byte(c.json))
		var we *spec.Error
		if !errors.As(want, &we) {
			t.Fatalf("%s: Parse: %v, want a *spec.Error", c.json, want)
		}
		_, err := jsonmap.PlanFile(c.tool, strings.NewReader(c.json), int64(len(c.json)))
		var e *spec.Error
		if !errors.As(err, &e) || *e != *we {
			t.Errorf("%s %s: PlanFile: %v; want Parse's %v", c.tool, c.json, err, want)
		}
	}
}

// TestRootPairsKeyTaken: a caller's pair whose key the root table's
// header already has, even as its first pair, is not added, nor are the
// others: the payload is written as without them.
func TestRootPairsKeyTaken(t *testing.T) {
	for _, c := range []struct {
		name, tool, json string
		pairs            []spec.Meta
	}{
		{"rows, first of a table's pairs", "t", `[{"a":1},{"a":2}]`, []spec.Meta{{Key: spec.KeyTotal, Value: "9"}, {Key: spec.KeyRows, Value: "9"}}},
		{"json, first of json=rows", "search_symbols", `[{"a":1}]`, []spec.Meta{{Key: jsonmap.KeyJSON, Value: "rows"}}},
	} {
		v, err := jsonmap.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := jsonmap.EncodeValue(c.tool, v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonmap.EncodeValuePairs(c.tool, v, spec.DefaultLimits, c.pairs)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%s: EncodeValuePairs wrote %q, %v; want %q", c.name, got, err, plain)
		}
		if streamed := encodePlanPairs(t, c.tool, c.json, spec.DefaultLimits, c.pairs); streamed != string(plain) {
			t.Errorf("%s: FilePlan.EncodePairs wrote %q, want %q", c.name, streamed, plain)
		}
	}
}
