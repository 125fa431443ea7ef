// Command gcxmcp-vectors runs one input of the MCP binding's vectors
// (section 15.8 of docs/wire-format.md) through package gcxmcp:
//
//	gcxmcp-vectors mcp-server < input.json   # the result the server sends
//	gcxmcp-vectors mcp-client < input.json   # the calls the client made and its outcome
//
// It reads a vector's input on stdin and writes, on stdout, a JSON object
// of the shape of the vector's expected, for a runner to compare as a JSON
// value. Exit status: 0 when it wrote an outcome (an outcome may be an
// error the vector expects), 1 when the input could not be read, 2 on a
// usage error. It is the adapter a conformance runner drives; an SDK
// wrapper in another language offers the same two ops.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/gcxwire/gcx/gcxmcp/vectors"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] != vectors.OpServer && os.Args[1] != vectors.OpClient {
		fmt.Fprintf(os.Stderr, "usage: gcxmcp-vectors %s|%s < input.json\n", vectors.OpServer, vectors.OpClient)
		os.Exit(2)
	}
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gcxmcp-vectors: reading stdin:", err)
		os.Exit(1)
	}
	out, err := vectors.Run(os.Args[1], input)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gcxmcp-vectors:", err)
		os.Exit(1)
	}
	if _, err := fmt.Printf("%s\n", out); err != nil {
		fmt.Fprintln(os.Stderr, "gcxmcp-vectors: writing stdout:", err)
		os.Exit(1)
	}
}
