// Command genranks writes the rank tables package tokens embeds, one
// NAME.ranks file per encoding in the current directory, from the tiktoken
// rank files of github.com/pkoukk/tiktoken-go-loader. go generate runs it
// in package tokens; TestRankFilesMatchSource fails when its output would
// differ from the files there.
//
// Usage:
//
//	go run ./internal/genranks NAME...
package main

import (
	"fmt"
	"os"

	"github.com/gcxwire/gcx/tokens/internal/ranktable"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: genranks NAME...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := generate(name); err != nil {
			fmt.Fprintln(os.Stderr, "genranks:", err)
			os.Exit(1)
		}
	}
}

// generate writes NAME.ranks from NAME.tiktoken.
func generate(name string) error {
	text, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return err
	}
	tokens, err := ranktable.Parse(name+".tiktoken", text)
	if err != nil {
		return err
	}
	data, err := ranktable.Build(tokens)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return os.WriteFile(name+".ranks", data, 0o644)
}
