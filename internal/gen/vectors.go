package gen

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// VectorInputs returns the inputs of the conformance vectors that a GCX1
// decoder reads — op decode, in every category — of at most max bytes, for
// a fuzz target's seed corpus. dir is the vectors directory, relative to
// the test's package. It reads the files as plain JSON, so that packages
// the conformance package imports can use it.
func VectorInputs(tb testing.TB, dir string, max int) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no vectors files under %s: %v", dir, err)
	}
	var inputs [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		var f struct {
			Vectors []struct {
				Op          string  `json:"op"`
				Input       *string `json:"input"`
				InputBase64 *string `json:"input_base64"`
			} `json:"vectors"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, v := range f.Vectors {
			var in []byte
			switch {
			case v.Op != "decode":
				continue
			case v.Input != nil:
				in = []byte(*v.Input)
			case v.InputBase64 != nil:
				if in, err = base64.StdEncoding.DecodeString(*v.InputBase64); err != nil {
					tb.Fatalf("%s: %v", name, err)
				}
			}
			if len(in) <= max {
				inputs = append(inputs, in)
			}
		}
	}
	return inputs
}
