package main

import (
	"fmt"
	"io"

	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
	"github.com/gcxwire/gcx/wire"
)

// runCheck validates a payload and prints a one-line summary. It reads the
// payload line by line and keeps none of it.
func runCheck(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	limits := limitFlags(fs)
	if code, ok := parseFlags(fs, args, s.stderr); !ok {
		return code
	}
	d := streaming.NewDecoder(input{s.input(c.name)})
	d.Limits = *limits
	d.ReuseRecord = true
	sections, rows := 0, 0
	for {
		kind, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(s.stderr, err)
		}
		switch kind {
		case streaming.KindHeader:
			sections++
		case streaming.KindRow:
			rows++
		}
	}
	out := newResult(s.stdout)
	fmt.Fprintf(out, "valid GCX1: %s, %s\n", plural.Count(sections, "section"), plural.Count(rows, "row"))
	if err := out.Commit(); err != nil {
		return fail(s.stderr, err)
	}
	return exitOK
}

// decodeWire reads a GCX1 payload and writes its wire view [WIRE-1] as the
// lines arrive.
func decodeWire(in io.Reader, limits spec.Limits, stdout, stderr io.Writer) int {
	d := streaming.NewDecoder(input{in})
	d.Limits = limits
	d.ReuseRecord = true // the view copies each item out before the next
	out := newResult(stdout)
	w := wire.NewWriter(out)
	for {
		kind, err := d.Next()
		if err == io.EOF {
			err = w.Close()
			if err == nil {
				err = out.Commit()
			}
			if err != nil {
				return fail(stderr, spillFailure(err))
			}
			return exitOK
		}
		switch {
		case err != nil:
		case kind == streaming.KindHeader:
			h := d.Header()
			err = w.WriteHeader(h.Tool, h.Fields, h.Meta)
		case kind == streaming.KindRow:
			err = w.WriteRow(d.Row())
		case kind == streaming.KindComment:
			err = w.WriteComment(d.Comment())
		}
		if err != nil {
			w.Abandon()
			out.Abandon(abandonedJSON)
			return fail(stderr, spillFailure(err))
		}
	}
}

// encodeWire reads a wire view and writes the canonical GCX1 bytes of the
// payload it describes [CAN-2], as the view arrives.
func encodeWire(in io.Reader, limits spec.Limits, stdout, stderr io.Writer) int {
	out := newResult(stdout)
	if err := wire.Encode(out, input{in}, limits); err != nil {
		out.Abandon(abandonedGCX)
		return fail(stderr, spillFailure(err))
	}
	if err := out.Commit(); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}
