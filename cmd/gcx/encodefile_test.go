package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestEncodeJSONFromFile: gcx encode reads a regular file on stdin in
// place, from where it stands, and anything else through a spill file in
// $TMPDIR that it removes, on success and on failure; both write what
// the other writes [MAP-12] [AUTO-1].
func TestEncodeJSONFromFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	inputs := []string{
		`[{"name":"alpha","size":1},{"name":"beta","size":2},{"name":"gamma","size":3}]`,
		`{"total":2,"items":[{"a":1},{"a":2}],"note":"x y"}`,
		` 42 `,
		`{"a":}`,
	}
	modes := [][]string{{"--mode", "gcx"}, {"--mode", "auto"}, {"--stats"}, {"--tool", "search_symbols", "--require-layout"}}
	for _, in := range inputs {
		for _, mode := range modes {
			args := append([]string{"encode"}, mode...)
			code, stdout, stderr := gcx(t, in, args...)

			path := filepath.Join(t.TempDir(), "in.json")
			if err := os.WriteFile(path, []byte("skipped"+in), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Seek(int64(len("skipped")), io.SeekStart); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			fileCode := run(args, f, &out, &errOut)
			f.Close()
			if fileCode != code || out.String() != stdout || errOut.String() != stderr {
				t.Errorf("%v on %s: from a file exit %d, %q, %q; through the spill file exit %d, %q, %q",
					mode, in, fileCode, out.String(), errOut.String(), code, stdout, stderr)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Fatalf("%v on %s: %s left in $TMPDIR", mode, in, left[0].Name())
			}
		}
	}
}

// TestEncodeJSONReadFailure: a failure to read stdin is exit 4, naming
// stdin, and leaves no spill file behind [WIRE-5].
func TestEncodeJSONReadFailure(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var out, errOut bytes.Buffer
	in := io.MultiReader(strings.NewReader(`[{"a":1},`), iotest.ErrReader(errors.New("disk on fire")))
	code := run([]string{"encode"}, in, &out, &errOut)
	if code != exitIO || out.Len() > 0 || !strings.Contains(errOut.String(), "reading stdin: disk on fire") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%s left in $TMPDIR", left[0].Name())
	}
}

// TestEncodeJSONSpillFailure: when the spill file cannot be made, gcx
// encode says so and exits 4 [WIRE-5].
func TestEncodeJSONSpillFailure(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var out, errOut bytes.Buffer
	code := run([]string{"encode"}, strings.NewReader(`[1]`), &out, &errOut)
	if code != exitIO || out.Len() > 0 || !strings.Contains(errOut.String(), "the spill file") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
