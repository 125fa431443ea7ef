package scorecard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSameValue(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		same bool
	}{
		{"identical", `{"a":1}`, `{"a":1}`, true},
		{"whitespace does not matter", `{"a": [1, 2]}`, "{\"a\":[1,2]}", true},
		{"escape spelling does not matter", `"\u00e9\/"`, `"é/"`, true},
		{"number literal kept exactly", `1.0`, `1`, false},
		{"big number kept exactly", `12345678901234567890`, `12345678901234567000`, false},
		{"exponent spelling", `1e400`, `1E400`, false},
		{"negative zero", `-0`, `0`, false},
		{"key order matters", `{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{"string is not number", `"1"`, `1`, false},
		{"null is not empty string", `null`, `""`, false},
		{"absent is not null", `{"a":1}`, `{"a":1,"b":null}`, false},
		{"true is not string", `true`, `"true"`, false},
		{"nested", `[{"a":[{}]}]`, `[{"a":[{}]}]`, true},
		{"array length", `[1,2]`, `[1,2,3]`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := SameValue([]byte(c.a), []byte(c.b))
			if (err == nil) != c.same {
				t.Errorf("SameValue(%s, %s) = %v, want same=%v", c.a, c.b, err, c.same)
			}
		})
	}
}

func TestSameValueRejectsInvalidJSON(t *testing.T) {
	for _, bad := range []string{``, `{`, `[1,]`, `1 2`, `{"a":1}x`, "\"\xff\"", `nul`} {
		if err := SameValue([]byte(bad), []byte(bad)); err == nil {
			t.Errorf("SameValue(%q, itself) accepted invalid JSON", bad)
		}
	}
}

func TestCanonical(t *testing.T) {
	cases := []struct {
		name, in, compact, pretty string
	}{
		{"scalar", ` 1.50 `, `1.50`, `1.50`},
		{"empty containers", `{"a" : [ ], "b" : { }}`, `{"a":[],"b":{}}`, "{\n  \"a\": [],\n  \"b\": {}\n}"},
		{"nested", `[{"a":1,"b":[true,null]}]`, `[{"a":1,"b":[true,null]}]`,
			"[\n  {\n    \"a\": 1,\n    \"b\": [\n      true,\n      null\n    ]\n  }\n]"},
		{"escapes as JSON.stringify writes them", `"\u00e9\t\u0001\u2028\/<>&\"\\"`, "\"é\\t\\u0001\u2028/<>&\\\"\\\\\"", "\"é\\t\\u0001\u2028/<>&\\\"\\\\\""},
		{"duplicate keys kept", `{"a":1,"a":2}`, `{"a":1,"a":2}`, "{\n  \"a\": 1,\n  \"a\": 2\n}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			compact, pretty, err := Canonical([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.compact, string(compact)); diff != "" {
				t.Errorf("compact (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.pretty, string(pretty)); diff != "" {
				t.Errorf("pretty (-want +got):\n%s", diff)
			}
			if err := SameValue([]byte(c.in), compact); err != nil {
				t.Errorf("compact is another value: %v", err)
			}
			if err := SameValue([]byte(c.in), pretty); err != nil {
				t.Errorf("pretty is another value: %v", err)
			}
		})
	}
}

func TestShapeOf(t *testing.T) {
	cases := []struct {
		in   string
		want Shape
	}{
		{`[]`, ShapeEmpty},
		{`{}`, ShapeEmpty},
		{`[{"a":1},{"a":2,"b":"x"}]`, ShapeTable},
		{`[{"a":1,"tags":["x"]}]`, ShapeNestedTable},
		{`{"nodes":[{"id":"a"}],"edges":[{"from":"a","to":"b"}]}`, ShapeTables},
		{`{"nodes":[{"id":"a"}],"edges":[]}`, ShapeTables},
		{`{"total":3,"results":[{"id":"a"}]}`, ShapeTables},
		{`{"nodes":[],"edges":[]}`, ShapeNested},
		{`{"a":1,"b":"x","c":null}`, ShapeObject},
		{`{"a":{"b":1}}`, ShapeNested},
		{`[[1,2],[3,4]]`, ShapeNested},
		{`[{"a":1},2]`, ShapeNested},
		{`"text"`, ShapeNested},
	}
	for _, c := range cases {
		got, err := ShapeOf([]byte(c.in))
		if err != nil {
			t.Fatalf("ShapeOf(%s): %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("ShapeOf(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseCase(t *testing.T) {
	c, err := ParseCase("x", []byte(`{"tool":"search_symbols","description":"one line","response":[{"a": "\u00e9"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Case{Name: "x", Tool: "search_symbols", Description: "one line",
		Response: []byte(`[{"a":"é"}]`), Pretty: []byte("[\n  {\n    \"a\": \"é\"\n  }\n]")}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("ParseCase (-want +got):\n%s", diff)
	}
}

func TestParseCaseErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"not JSON", `{"tool":`, "unexpected EOF"},
		{"missing response", `{"tool":"t","description":"d"}`, `needs "tool", "description" and "response"`},
		{"missing tool", `{"description":"d","response":1}`, `needs "tool"`},
		{"unknown key", `{"tool":"t","description":"d","response":1,"notes":"x"}`, "unknown field"},
		{"tool name with a space", `{"tool":"my tool","description":"d","response":1}`, "not a GCX1 tool name"},
		{"empty tool name", `{"tool":"","description":"d","response":1}`, "not a GCX1 tool name"},
		{"two-line description", `{"tool":"t","description":"a\nb","response":1}`, "one non-empty line"},
		{"blank description", `{"tool":"t","description":"  ","response":1}`, "one non-empty line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCase("x", []byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseCase(%s) = %v, want an error containing %q", c.in, err, c.want)
			}
		})
	}
}
