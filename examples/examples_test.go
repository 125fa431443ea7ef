package examples_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/jsonmap"
)

// TestEncodeDecodePipe builds gcx and checks, for every JSON file here,
// that `gcx encode --mode gcx < x.json | gcx decode` writes x.json's value
// [MAP-4], with the default tool name and with the file's own, which for
// the declared tools selects their layouts [LAY-2].
func TestEncodeDecodePipe(t *testing.T) {
	files, err := filepath.Glob("*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSON files in examples/: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "gcx")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gcxwire/gcx/cmd/gcx").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonmap.Compact(in)
		if err != nil {
			t.Fatalf("%s is not JSON the mapping carries: %v", f, err)
		}
		tool := strings.TrimSuffix(f, ".json")
		for _, args := range [][]string{{"encode", "--mode", "gcx"}, {"encode", "--mode", "gcx", "--tool", tool}} {
			got, payload := pipe(t, bin, in, args)
			if !bytes.HasPrefix(payload, []byte("GCX1 ")) {
				t.Errorf("%s: gcx %s wrote no GCX1 payload: %q", f, strings.Join(args, " "), payload)
			}
			if diff := cmp.Diff(string(want)+"\n", string(got)); diff != "" {
				t.Errorf("gcx %s < %s | gcx decode (-want +got):\n%s", strings.Join(args, " "), f, diff)
			}
		}
	}
}

// pipe runs `bin args... < in | bin decode` and returns what decode wrote
// and what encode wrote.
func pipe(t *testing.T, bin string, in []byte, args []string) (decoded, encoded []byte) {
	t.Helper()
	enc := exec.Command(bin, args...)
	enc.Stdin = bytes.NewReader(in)
	var payload, encErr bytes.Buffer
	dec := exec.Command(bin, "decode")
	r, err := enc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	dec.Stdin = io.TeeReader(r, &payload)
	enc.Stderr = &encErr
	var out, decErr bytes.Buffer
	dec.Stdout, dec.Stderr = &out, &decErr
	if err := enc.Start(); err != nil {
		t.Fatal(err)
	}
	if err := dec.Run(); err != nil {
		t.Fatalf("gcx decode: %v\n%s", err, decErr.String())
	}
	if err := enc.Wait(); err != nil {
		t.Fatalf("gcx %s: %v\n%s", strings.Join(args, " "), err, encErr.String())
	}
	return out.Bytes(), payload.Bytes()
}
