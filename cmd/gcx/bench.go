package main

import (
	"io"

	"github.com/gcxwire/gcx/bench/scorecard"
)

// runBench is `gcx bench`: the token scorecard of bench/wire-format, the
// same command as `go run ./bench/wire-format`. It finds the corpus from
// the working directory upwards unless -cases and -out say where.
func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return scorecard.Command(args, scorecard.DefaultCodec(), stdout, stderr)
}
