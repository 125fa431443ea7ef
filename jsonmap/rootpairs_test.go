package jsonmap_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// A caller's pairs stand at the end of the root header when the root is a
// table whose pairs are not members of the value, carries none of their
// keys and stays within the line limit [LIM-4]; anywhere else the payload
// is written as without them. EncodeValuePairs and FilePlan.EncodePairs
// write the same bytes.
func TestRootPairs(t *testing.T) {
	pairs := []spec.Meta{{Key: spec.KeyTotal, Value: "1234"}, {Key: spec.KeyTruncated, Value: "true"}}
	const added = " total=1234 truncated=true"
	for _, c := range []struct {
		name, tool, json string
		added            bool
	}{
		{"a table", "t", `[{"a":1},{"a":2}]`, true},
		{"a table with json=rows", "search_symbols", `[{"a":1}]`, true},
		{"a declared tool's part of rows shape", "find_usages", `[{"file_path":"a.go","line":1,"column":2,"kind":"call"}]`, true},
		{"a declared tool's part of object shape", "graph_stats", `{}`, false},
		{"the header form of an object", "t", `{"a":1}`, false},
		{"an object with a table", "t", `{"a":1,"b":[{"c":2}]}`, false},
		{"the array form", "t", `[1,2]`, false},
		{"a scalar", "t", `3`, false},
	} {
		v, err := jsonmap.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := jsonmap.EncodeValue(c.tool, v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonmap.EncodeValuePairs(c.tool, v, spec.DefaultLimits, pairs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := plain
		if c.added {
			end := bytes.IndexByte(plain, '\n')
			want = append(append(append([]byte(nil), plain[:end]...), added...), plain[end:]...)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, want)
		}
		if streamed := encodePlanPairs(t, c.tool, c.json, spec.DefaultLimits, pairs); streamed != string(got) {
			t.Errorf("%s: FilePlan.EncodePairs wrote %q, EncodeValuePairs %q", c.name, streamed, got)
		}
	}
}

// The pairs never make the root header longer than the line limit the
// payload is written under; without room for them it is written as
// without them.
func TestRootPairsKeepTheLineLimit(t *testing.T) {
	pairs := []spec.Meta{{Key: spec.KeyTotal, Value: "1234"}, {Key: spec.KeyTruncated, Value: "true"}}
	const added = " total=1234 truncated=true"
	limits := spec.DefaultLimits
	limits.MaxLineBytes = 200
	// A table of one field, whose name sets the header's length.
	header := func(line int) string {
		return "GCX1 tool=t fields=" + strings.Repeat("k", line-len("GCX1 tool=t fields= rows=1")) + " rows=1"
	}
	for _, c := range []struct {
		name  string
		line  int
		added bool
	}{
		{"short header", 40, true},
		{"room left for the pairs", limits.MaxLineBytes - len(added), true},
		{"one byte short of room", limits.MaxLineBytes - len(added) + 1, false},
		{"header at the limit", limits.MaxLineBytes, false},
	} {
		h := header(c.line)
		key := h[len("GCX1 tool=t fields=") : len(h)-len(" rows=1")]
		got := encodePlanPairs(t, "t", `[{"`+key+`":1}]`, limits, pairs)
		want := h
		if c.added {
			want += added
		}
		if first, _, _ := strings.Cut(got, "\n"); first != want {
			t.Errorf("%s: root header of %d bytes, want %d (pairs added: %t)", c.name, len(first), len(want), c.added)
		}
	}
}

func encodePlanPairs(t *testing.T, tool, json string, limits spec.Limits, pairs []spec.Meta) string {
	t.Helper()
	plan, err := jsonmap.PlanFile(tool, strings.NewReader(json), int64(len(json)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := plan.EncodePairs(&out, limits, pairs); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
