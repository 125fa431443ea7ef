package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/bench/scorecard"
)

// Paths as seen from this package's directory, where go test runs.
var opts = scorecard.Options{
	Cases:        "cases",
	Out:          ".",
	TOON:         filepath.Join("..", "toon"),
	Explanations: "explanations.json",
	RealServers:  filepath.Join("..", "realservers", "corpus"),
}

var fresh struct {
	once sync.Once
	sc   *scorecard.Scorecard
	expl scorecard.Explanations
	err  error
}

// freshRun measures the committed corpus once per test binary: it is the
// slow part, and every test below compares against the same run.
func freshRun(t *testing.T) (*scorecard.Scorecard, scorecard.Explanations) {
	t.Helper()
	fresh.once.Do(func() {
		fresh.sc, fresh.expl, fresh.err = scorecard.Run(opts, scorecard.DefaultCodec(), nil)
	})
	if fresh.err != nil {
		t.Fatal(fresh.err)
	}
	return fresh.sc, fresh.expl
}

func committedRecord(t *testing.T) *scorecard.Scorecard {
	t.Helper()
	b, err := os.ReadFile(scorecard.JSONFile)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scorecard.ParseScorecard(b)
	if err != nil {
		t.Fatalf("%s: %v", scorecard.JSONFile, err)
	}
	return sc
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Tokens are deterministic, so a fresh run over the committed corpus must
// give the committed scorecard exactly, round trips [MAP-4] and auto mode's
// choices [AUTO-1] included. Where TOON cannot be run, the TOON
// figures are left out of the comparison and the log says so.
func TestScorecardReproduces(t *testing.T) {
	sc, expl := freshRun(t)
	if sc.TOONVersion != "" {
		files, err := scorecard.Render(sc, expl)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{scorecard.JSONFile, scorecard.MarkdownFile, scorecard.SVGFile, scorecard.SnippetFile} {
			if diff := cmp.Diff(readFile(t, name), string(files[name])); diff != "" {
				t.Errorf("%s differs from a fresh run (rerun `%s`) (-committed +fresh):\n%s", name, scorecard.ReproduceCommand, diff)
			}
		}
		return
	}
	t.Logf("TOON: not measured here (%s); comparing every other figure with the committed scorecard", sc.TOONNote)
	want := committedRecord(t)
	if want.TOONVersion == "" {
		t.Errorf("the committed scorecard has no TOON figures: run `npm ci --prefix bench/toon` and `%s`", scorecard.ReproduceCommand)
	}
	want.TOONVersion, want.TOONNote = "", sc.TOONNote
	for i := range want.Cases {
		c := &want.Cases[i]
		c.TOONComma, c.TOONTab, c.TOONRoundTrip = nil, nil, nil
	}
	// The real servers' TOON column is left out the same way: freshRun
	// measures without carrying the committed figures.
	if rs := want.RealServers; rs != nil {
		for si := range rs.Servers {
			for ci := range rs.Servers[si].Calls {
				rs.Servers[si].Calls[ci].TOON = nil
			}
		}
	}
	if diff := cmp.Diff(want, sc); diff != "" {
		t.Errorf("%s differs from a fresh run, TOON aside (rerun `%s`) (-committed +fresh):\n%s", scorecard.JSONFile, scorecard.ReproduceCommand, diff)
	}
}

// The Markdown, the chart and the snippet are renderings of the committed
// record: nobody edited them by hand.
func TestCommittedFilesAreRenderingsOfTheRecord(t *testing.T) {
	expl, err := scorecard.LoadExplanations(opts.Explanations)
	if err != nil {
		t.Fatal(err)
	}
	files, err := scorecard.Render(committedRecord(t), expl)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{scorecard.JSONFile, scorecard.MarkdownFile, scorecard.SVGFile, scorecard.SnippetFile} {
		if diff := cmp.Diff(readFile(t, name), string(files[name])); diff != "" {
			t.Errorf("%s is not the rendering of %s (-committed +rendered):\n%s", name, scorecard.JSONFile, diff)
		}
	}
}

// No drifting figures: README.md quotes the committed headline block, byte
// for byte.
func TestReadmeQuotesTheHeadline(t *testing.T) {
	want := committedRecord(t).Headline()
	readme := readFile(t, filepath.Join("..", "..", "README.md"))
	got := scorecard.ExtractHeadline(readme)
	if got == "" {
		t.Fatalf("README.md has no scorecard headline block; paste the block of bench/wire-format/%s, markers included", scorecard.SnippetFile)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("README.md quotes other figures than the committed scorecard; paste the block of bench/wire-format/%s (-scorecard +README):\n%s", scorecard.SnippetFile, diff)
	}
}

// Every loss the committed scorecard shows is explained, and every
// explanation is of a loss that happens.
func TestLossesAreExplained(t *testing.T) {
	expl, err := scorecard.LoadExplanations(opts.Explanations)
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range committedRecord(t).CheckExplanations(expl) {
		t.Error(problem)
	}
}

func TestCorpusCoversTheBrief(t *testing.T) {
	cases, err := scorecard.LoadCases(opts.Cases)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 24 {
		t.Errorf("%d cases, want at least 24", len(cases))
	}
	tools := map[string]bool{}
	for _, c := range cases {
		tools[c.Tool] = true
	}
	for _, tool := range []string{"search_symbols", "find_usages", "get_callers", "analyze", "find_cycles",
		"graph_stats", "get_symbol_source", "contracts", "dependencies", "list_directory", "git_log",
		"list_issues", "query", "web_search", "get_config", "get_current_user"} {
		if !tools[tool] {
			t.Errorf("no case for %s", tool)
		}
	}
}

// The command writes the four files, and -check tells a stale scorecard
// from a current one.
func TestCommand(t *testing.T) {
	cases, out := t.TempDir(), t.TempDir()
	fixture := `{"tool":"list_directory","description":"two entries","response":[{"name":"a.go","size":12},{"name":"b.go","size":7}]}`
	if err := os.WriteFile(filepath.Join(cases, "two.json"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-cases", cases, "-out", out, "-toon", opts.TOON, "-explanations", filepath.Join(cases, "none.json")}
	var stdout, stderr bytes.Buffer
	if code := scorecard.Command(args, scorecard.DefaultCodec(), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "scorecard: [1/1] two") {
		t.Errorf("no progress line on stderr:\n%s", stderr.String())
	}
	for _, name := range []string{scorecard.JSONFile, scorecard.MarkdownFile, scorecard.SVGFile, scorecard.SnippetFile} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	check := append(args, "-check")
	if code := scorecard.Command(check, scorecard.DefaultCodec(), &stdout, &stderr); code != 0 {
		t.Errorf("-check on a current scorecard: exit %d, stderr:\n%s", code, stderr.String())
	}
	if err := os.WriteFile(filepath.Join(out, scorecard.MarkdownFile), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := scorecard.Command(check, scorecard.DefaultCodec(), &stdout, &stderr); code != 1 {
		t.Errorf("-check on a stale scorecard: exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "scorecard.md differs from a fresh run") {
		t.Errorf("-check does not name the stale file:\n%s", stderr.String())
	}
	if code := scorecard.Command([]string{"-nope"}, scorecard.DefaultCodec(), &stdout, &stderr); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}

// The main job run where TOON cannot run (no node, or `npm ci` not run, as
// on a fresh clone) must leave the committed scorecard exactly as it is:
// the TOON figures still belong to the unchanged responses, so it keeps
// them and says so, and the test command stays green after it [issue 12,
// item 7].
func TestMainJobWithoutTOONKeepsTheScorecard(t *testing.T) {
	out, toon := t.TempDir(), t.TempDir()
	names := []string{scorecard.JSONFile, scorecard.MarkdownFile, scorecard.SVGFile, scorecard.SnippetFile}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(out, name), []byte(readFile(t, name)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The pin without the installed package: what a fresh clone has.
	pin := readFile(t, filepath.Join(opts.TOON, "package.json"))
	if err := os.WriteFile(filepath.Join(toon, "package.json"), []byte(pin), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-cases", opts.Cases, "-out", out, "-toon", toon, "-explanations", opts.Explanations}
	if code := scorecard.Command(args, scorecard.DefaultCodec(), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	for _, name := range names {
		if diff := cmp.Diff(readFile(t, name), readFile(t, filepath.Join(out, name))); diff != "" {
			t.Errorf("the main job without TOON rewrote %s (-committed +rewritten):\n%s", name, diff)
		}
	}
	if !strings.Contains(stderr.String(), "scorecard: TOON: kept the figures of") {
		t.Errorf("stderr does not say the TOON figures were kept:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "TOON figures kept from") {
		t.Errorf("the summary line does not say the TOON figures were kept:\n%s", stdout.String())
	}
}

// The committed scorecard of the registered drafts, beside GCX1's, is what
// a fresh run of its command writes (`go run ./bench/wire-format -codec
// GCX1,GCX2-draft.1,GCX2-draft.2,GCX2-draft.3 -out bench/wire-format/drafts` wrote it; a run with
// -check and that -out reruns the codecs its record names). Without the
// TOON encoder, the run keeps the TOON figures the record holds when they
// still apply, as the main job does.
func TestDraftScorecardReproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("measures every case with every codec")
	}
	var stdout, stderr strings.Builder
	code := scorecard.Command([]string{"-check", "-out", "drafts"}, scorecard.DefaultCodec(), &stdout, &stderr)
	if code != 0 {
		t.Errorf("the drafts' scorecard differs from a fresh run (exit %d); rerun `go run ./bench/wire-format -codec GCX1,GCX2-draft.1,GCX2-draft.2,GCX2-draft.3 -out bench/wire-format/drafts`:\n%s%s", code, stdout.String(), stderr.String())
	}
}
