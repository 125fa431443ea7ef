package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// decodeWire reads a GCX1 payload and writes its wire view [WIRE-1].
func decodeWire(stdin io.Reader, limits spec.Limits, stdout, stderr io.Writer) int {
	p, code := decodeInput(stdin, limits, stderr)
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

// encodeWire reads a wire view and writes the canonical GCX1 bytes of the
// payload it describes [CAN-2].
func encodeWire(stdin io.Reader, stdout, stderr io.Writer) int {
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
	for _, f := range spec.LimitFlags {
		fs.IntVar(f.Field(&lim), f.Name, *f.Field(&lim), f.Usage+" (0: no limit)")
	}
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
