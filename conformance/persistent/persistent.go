// Package persistent is the persistent mode of the conformance protocol
// (docs/conformance.md, "The persistent mode"): started with the single
// argument Flag, a program writes the line Hello, then answers requests,
// one JSON line each, in order, until its stdin ends. A request holds the
// arguments a run would be given and its stdin; the response holds what
// the run would have written and its exit status. Bytes travel in base64,
// so the framing (one LF ends each line) holds for any bytes at all.
//
// Serve is a program's side; Offers, Start and Pool the caller's, which the
// conformance runner and codec.Program (a draft codec written as a
// program) share. The package imports nothing of this module, so a program
// built on it (gcx --persistent) reaches neither the runner nor its
// oracles, and package codec, which the runner imports, can use it.
package persistent

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

const (
	// Flag is the single argument that starts a program in the mode.
	Flag = "--persistent"
	// Hello is the line a program writes first (without its LF).
	Hello = `{"persistent":1}`
	// MaxRequest bounds a request line Serve reads: the base64 of the
	// largest input a vector holds (64 MiB, "Long texts" in
	// docs/conformance.md) and room to spare.
	MaxRequest = 128 << 20
)

// Request is a request line: the run's number in the session from 1, its
// arguments and its stdin in base64.
type Request struct {
	ID    int      `json:"id"`
	Args  []string `json:"args"`
	Stdin string   `json:"stdin"`
}

// Response is a response line: the request's number, the exit status
// the run ends with, and its stdout and stderr in base64.
type Response struct {
	ID     int    `json:"id"`
	Status *int   `json:"status"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// ErrLineTooLong is ReadLine's error for a line over its bound.
var ErrLineTooLong = errors.New("line too long")

// ReadLine reads one line ending in LF, without it, of at most max bytes.
// A line the input ends in without LF is returned with
// io.ErrUnexpectedEOF; no line at all, with io.EOF.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return line[:0], ErrLineTooLong
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) > 0:
			return line, io.ErrUnexpectedEOF
		default:
			return line, err
		}
	}
}

// Serve answers the requests of the persistent mode read from r
// until r ends, writing the hello line and then one response per request
// to w: run is one run of the program, with the request's arguments and
// stdin, and returns its exit status. It returns nil when r ends, and an
// error for a request that is not one.
func Serve(r io.Reader, w io.Writer, run func(args []string, stdin []byte, stdout, stderr io.Writer) int) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriter(w)
	if _, err := io.WriteString(out, Hello+"\n"); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	for {
		line, err := ReadLine(in, MaxRequest)
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("persistent mode: reading a request: %v", err)
		}
		var req Request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("persistent mode: a request is not a JSON line: %v", err)
		}
		stdin, err := base64.StdEncoding.DecodeString(req.Stdin)
		if err != nil {
			return fmt.Errorf("persistent mode: request %d: stdin is not base64: %v", req.ID, err)
		}
		var stdout, stderr bytes.Buffer
		status := run(req.Args, stdin, &stdout, &stderr)
		resp, err := json.Marshal(Response{ID: req.ID, Status: &status,
			Stdout: base64.StdEncoding.EncodeToString(stdout.Bytes()), Stderr: base64.StdEncoding.EncodeToString(stderr.Bytes())})
		if err != nil {
			return err
		}
		if _, err := out.Write(append(resp, '\n')); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}
