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
//
// The held bytes are kept in chunks of holdChunk bytes, each filled before
// the next is made: one slice grown by append to holdLimit would be copied
// at every growth and leave each old copy behind, and fresh memory is
// costly (a page fault per page), so gcx encode of a large input spent
// nearly 40% of its time on the first 4 MiB of its output.
type result struct {
	w       io.Writer
	held    [][]byte // full chunks, and the last one filling
	size    int      // bytes held
	passing bool     // holdLimit was passed: bytes have gone out
	err     error    // the first write error
}

// holdChunk is the size of the chunks a result holds its bytes in.
const holdChunk = 256 << 10

func newResult(w io.Writer) *result { return &result{w: w} }

func (r *result) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.passing {
		if r.size+len(p) <= holdLimit {
			r.hold(p)
			return len(p), nil
		}
		r.passing = true
		r.sendHeld()
	}
	r.send(p)
	if r.err != nil {
		return 0, r.err
	}
	return len(p), nil
}

// hold appends p to the held bytes.
func (r *result) hold(p []byte) {
	r.size += len(p)
	for len(p) > 0 {
		n := len(r.held)
		if n == 0 || len(r.held[n-1]) == cap(r.held[n-1]) {
			r.held = append(r.held, make([]byte, 0, holdChunk))
			n++
		}
		last := r.held[n-1]
		k := min(len(p), cap(last)-len(last))
		r.held[n-1] = append(last, p[:k]...)
		p = p[k:]
	}
}

// sendHeld writes the held bytes and lets them go.
func (r *result) sendHeld() {
	for _, c := range r.held {
		r.send(c)
	}
	r.held, r.size = nil, 0
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
	r.sendHeld()
	return r.err
}

// Abandon drops the result after a failure. If nothing has gone out, stdout
// stays empty; otherwise marker, which makes the output unreadable as a
// result, ends it [WIRE-4].
func (r *result) Abandon(marker string) {
	r.held, r.size = nil, 0
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
