package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The committed fixtures must be exactly what this program writes, so that
// the corpus can be regenerated and nobody edits a generated file by hand.
func TestCommittedFixturesMatchGenerator(t *testing.T) {
	files, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		have, err := os.ReadFile(filepath.Join("..", "..", "cases", name))
		if err != nil {
			t.Errorf("%s: %v (run go run ./bench/wire-format/internal/gencases)", name, err)
			continue
		}
		if !bytes.Equal(have, want) {
			t.Errorf("cases/%s differs from the generator's output (run go run ./bench/wire-format/internal/gencases)", name)
		}
	}
}

// The free text of the generated fixtures repeats, and is as long, as the
// real data measured in rates.go says: no more repetition than real tools
// show, which would flatter any format that shares repeated text.
func TestFreeTextIsRealistic(t *testing.T) {
	files, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	column := func(fixture, key string) []string {
		var f struct {
			Response []map[string]any `json:"response"`
		}
		if err := json.Unmarshal(files[fixture+".json"], &f); err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		var out []string
		for _, row := range f.Response {
			if s, ok := row[key].(string); ok && s != "" {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			t.Fatalf("%s has no %s strings", fixture, key)
		}
		return out
	}
	distinctShare := func(values []string) float64 {
		seen := map[string]bool{}
		for _, v := range values {
			seen[v] = true
		}
		return float64(len(seen)) / float64(len(values))
	}
	medianBytes := func(values []string) float64 {
		n := make([]float64, len(values))
		for i, v := range values {
			n[i] = float64(len(v))
		}
		slices.Sort(n)
		return n[len(n)/2]
	}
	near := func(what string, got, want, tolerance float64) {
		t.Helper()
		if math.Abs(got-want) > tolerance {
			t.Errorf("%s: %.3f, measured %.3f (tolerance %.3f)", what, got, want, tolerance)
		}
	}

	// Call sites: as distinct as the Go tree's, and as long.
	lines := column("find_usages-300", "snippet")
	near("find_usages-300: distinct share of lines", distinctShare(lines), 1-callLineRepeat, 0.05)
	near("find_usages-300: median line bytes / measured", medianBytes(lines)/callLineBytes[3], 1, 0.2)
	near("search_code-40: distinct share of lines", distinctShare(column("search_code-40", "line")), 1-callLineRepeat, 0.1)
	near("find_usages-25: distinct share of snippets", distinctShare(column("find_usages-25", "snippet")), 1-callSnippetRepeat, 0.06)

	// Commit messages: all distinct, subjects and bodies as long as measured.
	messages := column("git_log-100", "message")
	near("git_log-100: distinct share of messages", distinctShare(messages), 1, 0)
	var subjects, bodies []string
	for _, m := range messages {
		subject, body, _ := strings.Cut(m, "\n")
		subjects = append(subjects, subject)
		if body = strings.Trim(body, "\n"); body != "" {
			bodies = append(bodies, body)
		}
	}
	near("git_log-100: median subject bytes / measured", medianBytes(subjects)/commitSubjectBytes[3], 1, 0.2)
	near("git_log-100: share with a body", float64(len(bodies))/float64(len(messages)), commitBodyShare, 0.12)
	near("git_log-100: median body bytes / measured", medianBytes(bodies)/commitBodyBytes[3], 1, 0.35)

	// Issues, chunks, chat and events: each written once.
	for _, c := range []struct{ fixture, key string }{
		{"list_issues-30", "title"}, {"list_issues-30", "body"}, {"search_documents-20", "text"},
	} {
		near(c.fixture+": distinct share of "+c.key, distinctShare(column(c.fixture, c.key)), 1, 0)
	}
	var chat []string
	for _, text := range column("slack_history-50", "text") {
		if !slices.Contains(chatAcks, text) {
			chat = append(chat, text)
		}
	}
	near("slack_history-50: distinct share of messages other than acknowledgements", distinctShare(chat), 1, 0)
}

// Lengths drawn from measured percentiles follow them.
func TestQuantilesDraw(t *testing.T) {
	q := quantiles{10, 20, 40, 100, 200, 400, 800}
	r := newRand("TestQuantilesDraw")
	var draws []float64
	for range 20000 {
		draws = append(draws, float64(q.draw(r)))
	}
	slices.Sort(draws)
	for i, at := range quantileAt {
		got := draws[int(at*float64(len(draws)))]
		if math.Abs(got-q[i]) > 0.06*q[i]+1 {
			t.Errorf("percentile %.0f: %.0f, want about %.0f", 100*at, got, q[i])
		}
	}
	if draws[0] != q[0] || draws[len(draws)-1] != q[6] {
		t.Errorf("draws range over %.0f … %.0f, want %.0f … %.0f", draws[0], draws[len(draws)-1], q[0], q[6])
	}
}

// No fixture carries a formatting mistake of the generator: fmt writes
// "%!" where a verb and its arguments disagree (an argument too many, a
// verb without one), which once made every suggestion of analyze-40
// unique.
func TestNoFormattingMistakes(t *testing.T) {
	files, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if i := strings.Index(string(b), "%!"); i >= 0 {
			t.Errorf("%s holds a formatting mistake: %q", name, b[i:min(len(b), i+60)])
		}
	}
}
