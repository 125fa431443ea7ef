// Command wire-format measures GCX1 against JSON and TOON on the corpus in
// bench/wire-format/cases and writes the scorecard beside it. Run it from the
// repository root:
//
//	npm ci --prefix bench/toon   # once: the pinned TOON encoder
//	go run ./bench/wire-format
//
// Flags (-cases, -out, -toon, -explanations, -realservers, -check, -codec) are described by -h;
// `gcx bench` is the same command.
package main

import (
	"os"

	"github.com/gcxwire/gcx/bench/scorecard"
)

func main() {
	os.Exit(scorecard.Command(os.Args[1:], scorecard.DefaultCodec(), os.Stdout, os.Stderr))
}
