package auto_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens/tokenstest"
)

// checkChoice checks [AUTO-1] [AUTO-2] for one value against counts of
// its own, by tiktoken-go: the output costs no more cl100k_base tokens
// than the compact JSON, is GCX1 exactly when that is strictly cheaper,
// says its format by its first bytes and decodes to the value [AUTO-3].
// The counts Choose reports are exact for the chosen format and decide
// for the other; ChooseFull's are exact and choose the same.
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
	payload, err := jsonmap.Encode(tool, text)
	if err != nil {
		t.Fatal(err)
	}
	out, jsonTokens, gcxTokens := oracleCount(t, c.Output), oracleCount(t, compact), oracleCount(t, payload)
	if out > jsonTokens {
		t.Fatalf("auto output costs %d tokens, compact JSON %d:\n%s", out, jsonTokens, c.Output)
	}
	want, wantOutput := jsonmap.FormatJSON, compact
	if gcxTokens < jsonTokens {
		want, wantOutput = jsonmap.FormatGCX, payload
	}
	if c.Format != want || !bytes.Equal(c.Output, wantOutput) || !bytes.Equal(c.Payload, payload) {
		t.Fatalf("chose %s with GCX1 %d and JSON %d tokens; want %s", c.Format, gcxTokens, jsonTokens, want)
	}
	exact := c.GCXTokens == gcxTokens && c.JSONTokens == jsonTokens
	switch {
	case !c.Partial && !exact,
		c.Partial && c.Format == jsonmap.FormatGCX && (c.GCXTokens != gcxTokens || c.JSONTokens <= c.GCXTokens || c.JSONTokens > jsonTokens),
		c.Partial && c.Format == jsonmap.FormatJSON && (c.JSONTokens != jsonTokens || c.GCXTokens < c.JSONTokens || c.GCXTokens > gcxTokens):
		t.Fatalf("Choose counted GCX1 %d, JSON %d (partial %v); tiktoken-go counts %d and %d", c.GCXTokens, c.JSONTokens, c.Partial, gcxTokens, jsonTokens)
	}
	full, err := auto.ChooseFull(tool, text)
	if err != nil || full.Partial || full.GCXTokens != gcxTokens || full.JSONTokens != jsonTokens || full.Format != c.Format {
		t.Fatalf("ChooseFull = %s, GCX1 %d, JSON %d, partial %v, %v; tiktoken-go counts %d and %d",
			full.Format, full.GCXTokens, full.JSONTokens, full.Partial, err, gcxTokens, jsonTokens)
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

// oracleCount is tiktoken-go's cl100k_base count of text.
func oracleCount(t fataler, text []byte) int {
	t.Helper()
	n, err := tokenstest.Count(auto.Encoding, string(text))
	if err != nil {
		t.Fatal(err)
	}
	return n
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

// longValues are JSON values whose text is mostly one pre-tokenizer piece
// of about n bytes, or one long string of many pieces, the inputs that
// made auto mode quadratic.
var longValues = []struct {
	name string
	make func(n int) []byte
}{
	{"Word", func(n int) []byte { return []byte(`{"source":"` + strings.Repeat("abcdefghij", n/10) + `"}`) }},
	{"BareWord", func(n int) []byte { return []byte(`"` + strings.Repeat("x", n) + `"`) }},
	{"Spaces", func(n int) []byte { return []byte(`["` + strings.Repeat(" ", n) + `"]`) }},
	{"Digits", func(n int) []byte { return []byte(`{"n":"` + strings.Repeat("1234567890", n/10) + `"}`) }},
	{"Source", func(n int) []byte {
		line := `\tif err := s.store.Put(ctx, key, value); err != nil {\n`
		return []byte(`{"file_path":"s.go","source":"` + strings.Repeat(line, n/len(line)) + `"}`)
	}},
}

// TestAutoLongWord: a value holding one 512 KiB word, and the other long
// values, encode in auto mode, choose as their full counts choose, and
// decode back. BenchmarkAutoLinear shows the time grows linearly (about
// 0.15 s for the word on the machine of docs/performance.md); before, the
// word took minutes.
func TestAutoLongWord(t *testing.T) {
	for _, v := range longValues {
		t.Run(v.name, func(t *testing.T) {
			text := v.make(512 << 10)
			start := time.Now()
			c, err := auto.Choose("get_symbol_source", text)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d bytes: %s in %v (GCX1 %d, JSON %d tokens)", len(text), c.Format, elapsed, c.GCXTokens, c.JSONTokens)
			// The time is for the log, and for this bound: far above what
			// a loaded CI machine takes, far below the minutes a quadratic
			// merge would.
			if elapsed > 10*time.Second {
				t.Errorf("%d bytes took %v", len(text), elapsed)
			}
			full, err := auto.ChooseFull("get_symbol_source", text)
			if err != nil || full.Format != c.Format || full.GCXTokens < full.JSONTokens != (c.Format == jsonmap.FormatGCX) {
				t.Fatalf("ChooseFull = %s (GCX1 %d, JSON %d), %v; Choose chose %s", full.Format, full.GCXTokens, full.JSONTokens, err, c.Format)
			}
			back, _, err := jsonmap.DecodeResponse(c.Output)
			if err != nil {
				t.Fatal(err)
			}
			compact, _ := jsonmap.Compact(text)
			if !bytes.Equal(back, compact) {
				t.Fatal("the output does not hold the value")
			}
		})
	}
}

// TestAutoTextSpellings: whether or not the text is its own compact form
// — spaced out, escaped where the compact form writes characters as
// themselves, or compact already, when auto mode counts and returns the
// text itself — the choice, the counts and the output are those of the
// compact form, and the output never shares the caller's bytes. A huge
// word, which tiktoken-go takes minutes over, is held to ChooseFull's
// counts, which the other tests hold to tiktoken-go.
func TestAutoTextSpellings(t *testing.T) {
	cases := []struct{ name, tool, text string }{
		{"compact-json-wins", "t", `{"a":"b"}`},
		{"compact-gcx-wins", "search_symbols", `[{"id":"a.go::F","kind":"func","name":"F","path":"a.go","line":3,"sig":"func F()"},{"id":"a.go::G","kind":"func","name":"G","path":"a.go","line":9,"sig":"func G()"}]`},
		{"spaced-json-wins", "t", "{ \"a\" : \"b\" }\n"},
		{"spaced-gcx-wins", "search_symbols", "[\n {\"id\": \"a.go::F\", \"kind\": \"func\", \"name\": \"F\", \"path\": \"a.go\", \"line\": 3, \"sig\": \"func F()\"},\n {\"id\": \"a.go::G\", \"kind\": \"func\", \"name\": \"G\", \"path\": \"a.go\", \"line\": 9, \"sig\": \"func G()\"}\n]"},
		{"escapes-rewritten", "t", `{"a":"caf\u00e9 \/ \u0041 \u001F \ud83d\ude00"}`},
		{"escapes-kept", "t", `{"a":"tab\there \"quoted\" back\\slash \u0001"}`},
		{"scalar", "t", `"word"`},
		{"empty-string", "t", `""`},
		{"empty-array", "t", `[]`},
		{"huge-word", "t", `"` + strings.Repeat("abcdefghij", 1<<15) + `"`},
		{"huge-word-spaced", "t", ` "` + strings.Repeat("abcdefghij", 1<<15) + `" `},
		{"huge-word-escaped", "t", `"A` + strings.Repeat("abcdefghij", 1<<15) + `"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := []byte(c.text)
			if strings.HasPrefix(c.name, "huge") {
				checkChoiceFull(t, c.tool, text)
			} else {
				checkChoice(t, c.tool, text)
			}
			out, format, err := auto.Encode(c.tool, text)
			if err != nil {
				t.Fatal(err)
			}
			before := bytes.Clone(out)
			for i := range text {
				text[i] = 'x'
			}
			if !bytes.Equal(out, before) {
				t.Fatalf("the %s output changed with the caller's text", format)
			}
		})
	}
	if _, _, err := auto.Encode("t", nil); !errors.Is(err, jsonmap.ErrInvalidJSON) {
		t.Errorf("empty text: %v", err)
	}
}

// checkChoiceFull is checkChoice with ChooseFull's counts in place of
// tiktoken-go's.
func checkChoiceFull(t *testing.T, tool string, text []byte) {
	t.Helper()
	full, err := auto.ChooseFull(tool, text)
	if err != nil {
		t.Fatal(err)
	}
	c, err := auto.Choose(tool, text)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := jsonmap.Compact(text)
	if err != nil {
		t.Fatal(err)
	}
	want, wantOutput := jsonmap.FormatJSON, compact
	if full.GCXTokens < full.JSONTokens {
		want, wantOutput = jsonmap.FormatGCX, full.Payload
	}
	if c.Format != want || full.Format != want || !bytes.Equal(c.Output, wantOutput) || !bytes.Equal(full.Output, wantOutput) {
		t.Fatalf("Choose chose %s, ChooseFull %s, with GCX1 %d and JSON %d tokens; want %s", c.Format, full.Format, full.GCXTokens, full.JSONTokens, want)
	}
	if c.Format == jsonmap.FormatJSON && c.JSONTokens != full.JSONTokens || c.Format == jsonmap.FormatGCX && c.GCXTokens != full.GCXTokens {
		t.Fatalf("Choose counted GCX1 %d, JSON %d; ChooseFull %d and %d", c.GCXTokens, c.JSONTokens, full.GCXTokens, full.JSONTokens)
	}
}

// A value whose payload the limits refuse is written as its compact JSON
// [AUTO-1] [LIM-4]; counted in full, its JSON tokens are counted, and
// counted lazily they are not (nothing is chosen between).
func TestAutoRefusedUnderLimits(t *testing.T) {
	v, err := jsonmap.Parse([]byte(`[{"a":"one","b":"two"},{"a":"three","b":"four"}]`))
	if err != nil {
		t.Fatal(err)
	}
	limits := spec.Limits{MaxRows: 1}
	full, err := auto.ChooseValueLimits("t", v, limits, true)
	if err != nil {
		t.Fatal(err)
	}
	want := string(v.AppendCompact(nil))
	if full.Format != jsonmap.FormatJSON || string(full.Output) != want || full.Refused == nil || full.Payload != nil {
		t.Fatalf("under MaxRows 1: %+v; want the compact JSON with the refusal", full)
	}
	if n, err := tokenstest.Count(auto.Encoding, want); err != nil || full.JSONTokens != n {
		t.Errorf("counted in full: JSONTokens = %d, want %d (%v)", full.JSONTokens, n, err)
	}
	lazy, err := auto.ChooseValueLimits("t", v, limits, false)
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Format != jsonmap.FormatJSON || string(lazy.Output) != want || lazy.Refused == nil || lazy.JSONTokens != 0 {
		t.Errorf("counted lazily: %+v; want the compact JSON, the refusal and no count", lazy)
	}
}
