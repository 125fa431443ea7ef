package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// runDecodeWire reads a GCX1 payload and writes its wire view [WIRE-1].
func runDecodeWire(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, limits := decoderFlags("decode", stderr)
	fs.Bool("wire", true, "write the wire view (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	p, code := decodeInput(stdin, *limits, stderr)
	if p == nil {
		return code
	}
	out, err := spec.MarshalWire(p)
	if err != nil {
		return fail(stderr, err)
	}
	stdout.Write(out)
	return exitOK
}

// runEncodeWire reads a wire view and writes the canonical GCX1 bytes of
// the payload it describes [CAN-2].
func runEncodeWire(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gcx encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("wire", true, "read the wire view (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fail(stderr, err)
	}
	p, err := spec.UnmarshalWire(in)
	if err != nil {
		return fail(stderr, err)
	}
	out, err := reference.Encode(p)
	if err != nil {
		return fail(stderr, err)
	}
	stdout.Write(out)
	return exitOK
}

// runCheck validates a payload and prints a one-line summary.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, limits := decoderFlags("check", stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	p, code := decodeInput(stdin, *limits, stderr)
	if p == nil {
		return code
	}
	rows := 0
	for _, s := range p.Sections {
		rows += len(s.Rows)
	}
	fmt.Fprintf(stdout, "valid GCX1: %d sections, %d rows\n", len(p.Sections), rows)
	return exitOK
}

// decoderFlags returns a flag set with the limit flags bound to a copy of
// spec.DefaultLimits.
func decoderFlags(name string, stderr io.Writer) (*flag.FlagSet, *spec.Limits) {
	fs := flag.NewFlagSet("gcx "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	lim := spec.DefaultLimits
	fs.IntVar(&lim.MaxLineBytes, "max-line-bytes", lim.MaxLineBytes, "longest line in bytes (0: no limit)")
	fs.IntVar(&lim.MaxFields, "max-fields", lim.MaxFields, "most fields per section (0: no limit)")
	fs.IntVar(&lim.MaxSections, "max-sections", lim.MaxSections, "most sections (0: no limit)")
	fs.IntVar(&lim.MaxRows, "max-rows", lim.MaxRows, "most rows per section (0: no limit)")
	return fs, &lim
}

// decodeInput reads and decodes stdin with the reference parser. On failure
// it reports on stderr and returns a nil payload and the exit status.
func decodeInput(stdin io.Reader, limits spec.Limits, stderr io.Writer) (*spec.Payload, int) {
	in, err := io.ReadAll(stdin)
	if err != nil {
		return nil, fail(stderr, err)
	}
	p, err := reference.DecodeLimits(in, limits)
	if err != nil {
		return nil, fail(stderr, err)
	}
	return p, exitOK
}
