package main

import (
	"os"
	"path/filepath"
)

// readRepoFile reads a file relative to the repository root, two levels up
// from this package.
func readRepoFile(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	return string(b), err
}
