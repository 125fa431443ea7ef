package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `gcx bench` is the scorecard command: on a corpus of its own it writes
// the four scorecard files and reports on stdout, with progress on stderr.
func TestBenchWritesScorecard(t *testing.T) {
	cases, out := t.TempDir(), t.TempDir()
	fixture := `{"tool":"search_symbols","description":"two hits","response":[` +
		`{"id":"a.go::F","kind":"function","name":"F","file_path":"a.go","start_line":3,"signature":"func F(a, b int) error"},` +
		`{"id":"a.go::G","kind":"function","name":"G","file_path":"a.go","start_line":9,"signature":"func G()"}]}`
	if err := os.WriteFile(filepath.Join(cases, "two.json"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"-cases", cases, "-out", out, "-toon", filepath.Join("..", "..", "bench", "toon"),
		"-explanations", filepath.Join(cases, "none.json")}
	if code := run(append([]string{"bench"}, args...), nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("gcx bench: exit %d, stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 cases (1 tabular)") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "scorecard: [1/1] two") {
		t.Errorf("no progress line on stderr:\n%s", stderr.String())
	}
	md, err := os.ReadFile(filepath.Join(out, "scorecard.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| two | table | 2 |") {
		t.Errorf("scorecard.md lacks the case row:\n%s", md)
	}
}

func TestBenchUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-no-such-flag"}, nil, &stdout, &stderr); code != exitUsage {
		t.Errorf("unknown flag: exit %d, want %d", code, exitUsage)
	}
	if code := run([]string{"bench", "extra"}, nil, &stdout, &stderr); code != exitUsage {
		t.Errorf("stray argument: exit %d, want %d", code, exitUsage)
	}
	if code := run([]string{"bench", "-cases", t.TempDir(), "-out", t.TempDir()}, nil, &stdout, &stderr); code != exitInvalid {
		t.Errorf("empty corpus: exit %d, want %d", code, exitInvalid)
	}
}

// A scorecard directory that cannot be made is a failed output, found
// before measuring: exit 4, naming -out [WIRE-5]; one that does not exist
// yet is made.
func TestBenchOutFails(t *testing.T) {
	cases := t.TempDir()
	fixture := `{"tool":"t","description":"two rows","response":[{"a":1,"b":"x y"},{"a":2,"b":"z"}]}`
	if err := os.WriteFile(filepath.Join(cases, "two.json"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"bench", "-cases", cases, "-out", filepath.Join(notDir, "x"), "-toon", "", "-explanations", filepath.Join(cases, "none.json")}
	if code := run(args, nil, &stdout, &stderr); code != exitIO || !strings.Contains(stderr.String(), "bench: -out: creating the directory") || strings.Contains(stderr.String(), "case") {
		t.Errorf("gcx bench -out under a file: exit %d, want %d naming -out before measuring; stderr:\n%s", code, exitIO, stderr.String())
	}
	// A directory that does not exist yet is made.
	out := filepath.Join(t.TempDir(), "new", "dir")
	stdout.Reset()
	stderr.Reset()
	args = []string{"bench", "-cases", cases, "-out", out, "-toon", "", "-explanations", filepath.Join(cases, "none.json")}
	if code := run(args, nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("gcx bench -out NEW: exit %d; stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "scorecard.md")); err != nil {
		t.Errorf("gcx bench -out NEW: %v", err)
	}
}
