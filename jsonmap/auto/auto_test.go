package auto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/internal/jsongen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// checkChoice checks [AUTO-1] [AUTO-2] for one value: the output costs no
// more cl100k_base tokens than the compact JSON, is GCX1 only when that
// is strictly cheaper, says its format by its first bytes and decodes to
// the value [AUTO-3].
func checkChoice(t fataler, tool string, text []byte) auto.Choice {
	t.Helper()
	c, err := auto.Choose(tool, text)
	if err != nil {
		t.Fatalf("Choose(%s, %q): %v", tool, text, err)
	}
	compact, err := jsonmap.Compact(text)
	if err != nil {
		t.Fatal(err)
	}
	out, jsonTokens := cl100k(c.Output), cl100k(compact)
	if out > jsonTokens {
		t.Fatalf("auto output costs %d tokens, compact JSON %d:\n%s", out, jsonTokens, c.Output)
	}
	if jsonTokens != c.JSONTokens || (c.Format == jsonmap.FormatGCX) != (c.GCXTokens < c.JSONTokens) || out != min(c.GCXTokens, c.JSONTokens) {
		t.Fatalf("choice %s with %d GCX1 and %d JSON tokens is inconsistent (output %d, JSON %d)", c.Format, c.GCXTokens, c.JSONTokens, out, jsonTokens)
	}
	back, format, err := jsonmap.DecodeResponse(c.Output)
	if err != nil || format != c.Format {
		t.Fatalf("DecodeResponse(%q) = %s, %v; want format %s", c.Output, format, err, c.Format)
	}
	if diff := cmp.Diff(string(compact), string(back)); diff != "" {
		t.Fatalf("auto output does not hold the value (-want +got):\n%s", diff)
	}
	return c
}

// fataler is what checkChoice needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// TestPropertyAutoNeverCostlier: on generated values, including values
// shaped for the declared tools, auto mode never costs more than compact
// JSON [AUTO-2].
func TestPropertyAutoNeverCostlier(t *testing.T) {
	layouts := jsonmap.Layouts()
	gen.Check(t, 1500, func(t *rapid.T) {
		tool := "result"
		var v jsonmap.Value
		if rapid.Bool().Draw(t, "declared") {
			l := rapid.SampledFrom(layouts).Draw(t, "layout")
			tool, v = l.Tool, jsongen.Fitting(l).Draw(t, "value")
		} else {
			v = jsongen.Value().Draw(t, "value")
		}
		checkChoice(t, tool, jsongen.Text(t, v))
	})
}

// TestAutoRealisticShapes: the shapes where the draft says GCX1 does not
// help fall back to JSON, and tabular results choose GCX1 [AUTO-2].
func TestAutoRealisticShapes(t *testing.T) {
	source := strings.Repeat("\tif err := s.store.Put(ctx, key, value); err != nil {\n\t\treturn fmt.Errorf(\"put %s: %w\", key, err)\n\t}\n", 40)
	cases := []struct {
		name, tool, json string
		want             jsonmap.Format
	}{
		{"SmallObject", "graph_stats", `{"nodes":1834,"edges":5120,"files":211,"symbols":1502}`, jsonmap.FormatJSON},
		{"SmallGenericObject", "whoami", `{"user":"ajones","admin":false}`, jsonmap.FormatJSON},
		{"TwoShortRows", "find_cycles", `[{"kind":"import","length":2,"nodes":["a","b"]},{"kind":"call","length":2,"nodes":["c","d"]}]`, ""},
		{"ThreeShortRows", "t", `[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":3,"b":"z"}]`, ""},
		{"BigSourceString", "get_symbol_source", `{"id":"s.go::Put","file_path":"s.go","start_line":10,"end_line":130,"language":"go","source":` + string(jsonQuote(source)) + `}`, ""},
		{"BareScalar", "t", `42`, jsonmap.FormatJSON},
		{"EmptyArray", "t", `[]`, jsonmap.FormatJSON},
	}
	for _, d := range loadExamples(t) {
		want := jsonmap.Format("")
		switch d.name {
		case "search_symbols", "find_usages", "get_callers", "analyze", "list_directory", "list_issues", "list_pods", "chat_history":
			want = jsonmap.FormatGCX
		case "graph_stats", "config":
			want = jsonmap.FormatJSON
		}
		cases = append(cases, struct {
			name, tool, json string
			want             jsonmap.Format
		}{"Example_" + d.name, d.name, string(d.value.AppendCompact(nil)), want})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := checkChoice(t, c.tool, []byte(c.json))
			t.Logf("%s: GCX1 %d tokens, JSON %d tokens, chose %s", c.tool, got.GCXTokens, got.JSONTokens, got.Format)
			if c.want != "" && got.Format != c.want {
				t.Errorf("chose %s (GCX1 %d, JSON %d tokens), want %s", got.Format, got.GCXTokens, got.JSONTokens, c.want)
			}
		})
	}
}

// TestAutoErrors: auto mode refuses what the mapping refuses, the same way.
func TestAutoErrors(t *testing.T) {
	if _, _, err := auto.Encode("t", []byte(`{"a":1,"a":2}`)); !errors.Is(err, jsonmap.ErrInvalidJSON) {
		t.Errorf("duplicate names: %v", err)
	}
	if _, _, err := auto.Encode("bad tool", []byte(`1`)); err == nil {
		t.Error("a tool name GCX1 cannot carry was accepted")
	}
}
