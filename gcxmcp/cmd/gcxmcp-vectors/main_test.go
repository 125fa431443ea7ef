package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// The command passes every vector as an external program, the way a
// conformance runner drives it: input on stdin, outcome on stdout.
func TestCommandPassesVectors(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the adapter: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "gcxmcp-vectors")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "vectors", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Vectors []struct {
				ID       string          `json:"id"`
				Op       string          `json:"op"`
				Input    json.RawMessage `json:"input"`
				Expected json.RawMessage `json:"expected"`
			} `json:"vectors"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		for _, v := range f.Vectors {
			cmd := exec.Command(bin, v.Op)
			cmd.Stdin = bytes.NewReader(v.Input)
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("%s: %v", v.ID, err)
				continue
			}
			var got, want any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Errorf("%s: stdout is not JSON: %v", v.ID, err)
				continue
			}
			if err := json.Unmarshal(v.Expected, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: outcome %s\nwant %s", v.ID, out, v.Expected)
			}
		}
	}
	var exit *exec.ExitError
	if err := exec.Command(bin, "decode").Run(); !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("an unknown op: %v, want exit status 2", err)
	}
}
