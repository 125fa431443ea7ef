package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
)

// testDraft is GCX1 under a draft tag, registered for this package's
// tests as a draft of package codec would be.
const testDraft = "GCX2-draft.90"

func init() { codec.Register(codec.NewTemplate(testDraft)) }

// A draft is written only when named, and read only when accepted: a GCX1
// client (the default) refuses it with exit status 3 naming the tag, the
// cue to ask for JSON [VER-2] [VER-5].
func TestVersionFlags(t *testing.T) {
	const table = `[{"name":"alpha","size":1},{"name":"beta","size":2},{"name":"gamma","size":3},{"name":"delta","size":4}]`
	draft := testDraft + " tool=t fields=name,size rows=4\nalpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\n"
	gcx1 := "GCX1 tool=t fields=name,size rows=4\nalpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\n"
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string // a substring; "" means stderr must be empty
	}{
		{"EncodeDraft", []string{"encode", "--tag", testDraft, "--mode", "gcx", "--tool", "t"}, table, 0, draft, ""},
		{"EncodeDefaultIsGCX1", []string{"encode", "--mode", "gcx", "--tool", "t"}, table, 0, gcx1, ""},
		{"EncodeDraftAutoStats", []string{"encode", "--tag", testDraft, "--tool", "t", "--stats"}, table, 0, draft, "wrote gcx; " + testDraft + " "},
		{"EncodeDraftAutoKeepsJSON", []string{"encode", "--tag", testDraft}, `7`, 0, "7\n", ""},
		{"EncodeUnknownTag", []string{"encode", "--tag", "GCX9"}, table, 2, "", `no version "GCX9"`},
		{"EncodeWireDraft", []string{"encode", "--wire", "--tag", testDraft}, `{"sections":[]}`, 2, "", "--wire writes GCX1 only"},
		{"DecodeDraftRefusedByDefault", []string{"decode"}, draft, 3, "", "version " + testDraft + " is not supported"},
		{"DecodeDraftAccepted", []string{"decode", "--accept", testDraft}, draft, 0, table + "\n", ""},
		{"DecodeEitherAccepted", []string{"decode", "--accept", "GCX1," + testDraft}, gcx1, 0, table + "\n", ""},
		{"DecodeGCX1NotAccepted", []string{"decode", "--accept", testDraft}, gcx1, 3, "", "version GCX1 is not supported"},
		{"DecodeJSONWithDraftAccepted", []string{"decode", "--accept", testDraft}, ` [1] `, 0, "[1]\n", ""},
		{"DecodeDraftError", []string{"decode", "--accept", testDraft}, testDraft + " tool=t  fields=a\n", 1, "", "line 1, column 22"},
		{"DecodeUnknownTag", []string{"decode", "--accept", "GCX1,GCX9"}, gcx1, 2, "", `no version "GCX9"`},
		{"DecodeWireDraft", []string{"decode", "--wire", "--accept", testDraft}, draft, 2, "", "--wire reads GCX1 only"},
		{"DecodeWireAcceptGCX1", []string{"decode", "--wire", "--accept", "GCX1"}, "GCX1 tool=t fields=a\n", 0, `{"sections":[{"tool":"t","fields":["a"]`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, c.args...)
			if c.code == 0 && strings.HasPrefix(c.stdout, `{"sections"`) {
				if code != 0 || !strings.HasPrefix(stdout, c.stdout) {
					t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
				}
				return
			}
			checkRun(t, code, stdout, stderr, c.code, c.stdout, c.stderr)
		})
	}
}

// gcx conformance --tag runs a registered draft's vectors — those it
// inherits from GCX1, respelled with its tag — and its report names the
// tag.
func TestConformanceTag(t *testing.T) {
	code, stdout, stderr := gcx(t, "", "conformance", "--tag", testDraft)
	if code != exitOK || !strings.Contains(stdout, "== codec "+testDraft+": ") || !strings.Contains(stdout, " vectors of "+testDraft+" (built-in vectors)") ||
		!strings.HasSuffix(stdout, " passed, 0 failed, 0 skipped\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// gcx bench --codec measures a registered draft in a column of its own.
func TestBenchCodecFlag(t *testing.T) {
	cases, out := t.TempDir(), t.TempDir()
	fixture := `{"tool":"t","description":"two rows","response":[{"a":1,"b":"x y"},{"a":2,"b":"z"}]}`
	if err := os.WriteFile(filepath.Join(cases, "two.json"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gcx(t, "", "bench", "-cases", cases, "-out", out, "-toon", "", "-explanations", filepath.Join(cases, "none"), "-codec", "GCX1,"+testDraft)
	if code != exitOK || !strings.Contains(stdout, "  "+testDraft+": tabular median ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "scorecard.md"))
	if err != nil || !strings.Contains(string(md), "| GCX1 | vs JSON | "+testDraft+" | vs JSON |") {
		t.Errorf("scorecard.md lacks the column of %s: %v\n%s", testDraft, err, md)
	}
}
