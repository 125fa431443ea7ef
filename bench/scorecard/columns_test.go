package scorecard

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/codec/codectest"
)

// The drafts the tests of this package register, as a draft of package
// codec would be.
const (
	ideasDraft  = "GCX2-draft.95" // codectest.Commented: two ideas, each a comment line
	brokenDraft = "GCX2-draft.96" // the same, with "tail" off writing GCX1's tag
)

func init() {
	codec.Register(codectest.Commented(ideasDraft, false))
	codec.Register(codectest.Commented(brokenDraft, true))
}

func testCases(t *testing.T) []Case {
	t.Helper()
	var cases []Case
	for name, file := range map[string]string{
		"table":  `{"tool":"t","description":"a table with prose","response":[{"id":"a","msg":"fix the parser"},{"id":"b","msg":"fix the parser"},{"id":"c","msg":"add a test, then ship"}]}`,
		"object": `{"tool":"o","description":"one object","response":{"n":1,"when":"2024-01-01"}}`,
	} {
		c, err := ParseCase(name, []byte(file))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if cases[0].Name != "object" {
		cases[0], cases[1] = cases[1], cases[0]
	}
	return cases
}

// Free text is the distinct strings with a space, a TAB or a line break,
// not member names, each counted once.
func TestFreeText(t *testing.T) {
	got, err := FreeText([]byte(`{"a b":"x y","list":["x y","one","two words",{"k":"line\nbreak"}],"n":1,"s":"tab\there"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Text{Strings: 4}
	for _, s := range []string{"x y", "two words", `line\nbreak`, `tab\there`} {
		want.CL100K += count(t, s)
		want.O200K += countO200K(t, s)
	}
	if got != want {
		t.Errorf("FreeText = %+v, want %+v", got, want)
	}
}

func count(t *testing.T, s string) int {
	m, err := measure([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m.CL100K
}

func countO200K(t *testing.T, s string) int {
	m, err := measure([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m.O200K
}

// Ablations: each idea left out, each kept alone, and none, never twice.
func TestAblations(t *testing.T) {
	ideas := func(names ...string) []codec.Idea {
		var out []codec.Idea
		for _, n := range names {
			out = append(out, codec.Idea{Name: n})
		}
		return out
	}
	for _, c := range []struct {
		ideas []codec.Idea
		want  [][]string
	}{
		{nil, nil},
		{ideas("a"), [][]string{{"a"}}},
		{ideas("a", "b"), [][]string{{"a"}, {"b"}, {"a", "b"}}},
		{ideas("a", "b", "c"), [][]string{{"a"}, {"b"}, {"c"}, {"b", "c"}, {"a", "c"}, {"a", "b"}, {"a", "b", "c"}}},
	} {
		if diff := cmp.Diff(c.want, Ablations(c.ideas)); diff != "" {
			t.Errorf("Ablations(%v) (-want +got):\n%s", c.ideas, diff)
		}
	}
}

// With codecs selected, each gets a column: its payload checked by its own
// decoder, its goals, the free text of each case and, for a draft of
// several ideas, an ablation whose figures are the comments' known costs.
func TestMeasureColumns(t *testing.T) {
	draft, _ := codec.Lookup(ideasDraft)
	cases := testCases(t)
	sc, err := Measure(cases, DefaultCodec(), "", nil, "no TOON here", nil, CodecOf(draft))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{sc.Codecs[0].Tag, sc.Codecs[1].Tag}; !cmp.Equal(got, []string{"GCX1", ideasDraft}) || sc.Name() != "GCX1" {
		t.Fatalf("codecs %v, name %s", got, sc.Name())
	}
	for _, r := range sc.Cases {
		if r.Text == nil || len(r.Codecs) != 2 {
			t.Fatalf("%s: text %v, %d codec columns", r.Name, r.Text, len(r.Codecs))
		}
		gcx1, d := r.Codecs[0], r.Codecs[1]
		if *gcx1.Payload != *r.GCX || gcx1.RoundTrip != "pass" || d.RoundTrip != "pass" || d.AutoRoundTrip != "pass" {
			t.Errorf("%s: %+v %+v", r.Name, gcx1, d)
		}
		// Without both comments the draft's payload is GCX1's under a
		// longer tag; each comment costs what it costs alone, give or take
		// the tokens it shares with its neighbours.
		none := d.Ablation[2]
		if !cmp.Equal(none.Off, []string{"lead", "tail"}) || none.RoundTrip != "pass" || none.Size.Bytes != r.GCX.Bytes+len(ideasDraft)-len("GCX1") {
			t.Errorf("%s: with no idea %+v, GCX1 %+v", r.Name, none, r.GCX)
		}
		if d.Payload.Bytes != none.Size.Bytes+len("# lead\n# tail\n") {
			t.Errorf("%s: payload %d bytes, with no idea %d", r.Name, d.Payload.Bytes, none.Size.Bytes)
		}
	}
	if share, ok := TextShare(sc.Cases[1]); !ok || share <= 0 || sc.Cases[1].Text.Strings != 2 {
		t.Errorf("table: free text %+v, share %v", sc.Cases[1].Text, share)
	}
	md := sc.Markdown(nil)
	for _, want := range []string{
		"## Codecs\n", "(`--codec GCX1," + ideasDraft + "`)",
		"- **" + ideasDraft + "**:\n  - median saving of at least 99.0% against compact JSON on the tabular cases (cl100k_base): ",
		"  - costs fewer tokens than TOON-tab on every tabular case (cl100k_base): 0 of 0, not measured.\n",
		"  - every value comes back: 2 of 2, through auto mode 2 of 2, **met**.\n",
		"| case | shape | JSON | TOON tab | free text | ceiling | GCX1 | vs JSON | " + ideasDraft + " | vs JSON |",
		"### Ablation of " + ideasDraft + "\n", "- **lead**: a comment line after the first header\n",
		"| all but lead |", "| all but tail |", "| none |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	record, err := sc.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseScorecard(record)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := back.JSON(); !bytes.Equal(again, record) || back.Markdown(nil) != md {
		t.Error("the record does not give the same scorecard back")
	}
}

// A draft whose ablated payload does not decode is reported: its values
// do not all come back.
func TestAblationChecksValues(t *testing.T) {
	broken, _ := codec.Lookup(brokenDraft)
	sc, err := Measure(testCases(t), CodecOf(broken), "", nil, "no TOON here", nil)
	if err != nil {
		t.Fatal(err)
	}
	md := sc.Markdown(nil)
	for _, want := range []string{"# " + brokenDraft + " token scorecard", "| all but tail | ", " | 0 of 2 |\n", "| none | "} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "GCX1") {
		t.Errorf("a scorecard of %s alone names GCX1:\n%s", brokenDraft, md)
	}
}

// gcx bench --codec writes a scorecard with a column per codec, and a run
// without --codec reproduces it from the codecs its record lists.
func TestCommandCodecFlag(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	for _, c := range testCases(t) {
		file := `{"tool":"` + c.Tool + `","description":"` + c.Description + `","response":` + string(c.Response) + `}`
		if err := os.WriteFile(filepath.Join(dir, c.Name+".json"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr strings.Builder
		code := Command(append([]string{"-cases", dir, "-out", out, "-toon", "", "-explanations", filepath.Join(dir, "none")}, args...), DefaultCodec(), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	if code, stdout, stderr := run("-codec", "GCX1,"+ideasDraft); code != 0 || !strings.Contains(stdout, "  "+ideasDraft+": tabular median ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(out, MarkdownFile))
	if !strings.Contains(string(md), "### Ablation of "+ideasDraft) {
		t.Errorf("scorecard.md lacks the ablation:\n%s", md)
	}
	if code, stdout, stderr := run("-check"); code != 0 {
		t.Errorf("-check without -codec: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, _, stderr := run("-codec", "GCX9"); code != 2 || !strings.Contains(stderr, `no codec "GCX9"`) {
		t.Errorf("unknown codec: exit %d, stderr %s", code, stderr)
	}
}
