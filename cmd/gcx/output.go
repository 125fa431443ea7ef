package main

import (
	"fmt"
	"io"
)

// holdLimit is how much of a result a command holds back before it starts
// passing the result on: a result that fails within it leaves stdout empty
// [WIRE-3]; a longer one streams, so memory stays bounded, and a failure
// marks what was written [WIRE-4].
const holdLimit = 4 << 20

// result is a command's stdout. Bytes written to it are held until Commit,
// or until more than holdLimit are held; from then on they go straight
// through. Write errors are kept as *streamError values [WIRE-5].
type result struct {
	w       io.Writer
	held    []byte
	passing bool  // holdLimit was passed: bytes have gone out
	err     error // the first write error
}

func newResult(w io.Writer) *result { return &result{w: w} }

func (r *result) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.passing {
		if len(r.held)+len(p) <= holdLimit {
			r.held = append(r.held, p...)
			return len(p), nil
		}
		r.passing = true
		r.send(r.held)
		r.held = nil
	}
	r.send(p)
	if r.err != nil {
		return 0, r.err
	}
	return len(p), nil
}

func (r *result) send(p []byte) {
	if r.err != nil || len(p) == 0 {
		return
	}
	if _, err := r.w.Write(p); err != nil {
		r.err = &streamError{stream: "stdout", err: err}
	}
}

// Commit writes what is held: the result is complete. It returns the first
// write error, if any.
func (r *result) Commit() error {
	r.send(r.held)
	r.held = nil
	return r.err
}

// Abandon drops the result after a failure. If nothing has gone out, stdout
// stays empty; otherwise marker, which makes the output unreadable as a
// result, ends it [WIRE-4].
func (r *result) Abandon(marker string) {
	r.held = nil
	if r.passing {
		r.send([]byte(marker))
	}
}

// Markers that end an abandoned result [WIRE-4]. A JSON result needs none:
// its closing bytes are never written, so it is not a JSON text. A GCX1
// result ends at a line boundary, where the line "GCX!" follows; no decoder
// accepts it [VER-3].
const (
	abandonedJSON = ""
	abandonedGCX  = "GCX!\n"
)

// input is stdin, with its read errors marked as such [WIRE-5].
type input struct{ r io.Reader }

func (in input) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if err != nil && err != io.EOF {
		err = &streamError{stream: "stdin", err: err}
	}
	return n, err
}

// report writes output a command was asked for on stderr, such as
// --stats, and returns the exit status: 0, or 4 when stderr could not take
// it, since requested output lost is no success [WIRE-5]. There is no
// stream left to say so on.
func report(stderr io.Writer, format string, args ...any) int {
	if _, err := fmt.Fprintf(stderr, format, args...); err != nil {
		return exitIO
	}
	return exitOK
}
