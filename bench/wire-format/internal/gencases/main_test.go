package main

import (
	"bytes"
	"os"
	"path/filepath"
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
