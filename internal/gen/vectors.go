package gen

import (
	"bytes"
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
// the conformance package imports can use it: an input is a string, a list
// of parts (each part's text, repeat times) or base64.
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
				Op          string          `json:"op"`
				Input       json.RawMessage `json:"input"`
				InputBase64 *string         `json:"input_base64"`
			} `json:"vectors"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, v := range f.Vectors {
			if v.Op != "decode" {
				continue
			}
			in, err := vectorInput(v.Input, v.InputBase64, max)
			if err != nil {
				tb.Fatalf("%s: %v", name, err)
			}
			if in != nil {
				inputs = append(inputs, in)
			}
		}
	}
	return inputs
}

// vectorInput returns a decode vector's input, or nil when it is longer
// than limit bytes; parts longer than that are never expanded.
func vectorInput(text json.RawMessage, b64 *string, limit int) ([]byte, error) {
	var in []byte
	switch {
	case b64 != nil:
		var err error
		if in, err = base64.StdEncoding.DecodeString(*b64); err != nil {
			return nil, err
		}
	case len(text) > 0 && text[0] == '"':
		var s string
		if err := json.Unmarshal(text, &s); err != nil {
			return nil, err
		}
		in = []byte(s)
	default:
		var parts []struct {
			Text   string `json:"text"`
			Repeat int    `json:"repeat"`
		}
		if err := json.Unmarshal(text, &parts); err != nil {
			return nil, err
		}
		size := 0
		for _, p := range parts {
			n := max(p.Repeat, 1)
			if n > limit || size+n*len(p.Text) > limit {
				return nil, nil
			}
			size += n * len(p.Text)
		}
		for _, p := range parts {
			in = append(in, bytes.Repeat([]byte(p.Text), max(p.Repeat, 1))...)
		}
	}
	if len(in) > limit {
		return nil, nil
	}
	return in, nil
}
