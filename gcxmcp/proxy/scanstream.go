package proxy

import (
	"errors"
	"io"
	"sync"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
)

// A host's body that the proxy cannot hold whole — over the message
// limit, or arriving while the shared budget is short — passes on as it
// arrives [PRX-9]. It is still read token by token as it passes, for the
// initialize it may be: so a session that begins while the budget is
// short is followed for its life all the same, and reading it costs no
// budget, only a window of ScanWindowBytes per request, bounded by the
// connection slots as OwnBodyBytes is.

// ScanWindowBytes bounds what reading a body as it passes holds: the
// longest token the reader keeps (strings are clipped to clipStringBytes
// first, so only a number could be longer, and such a body is not read
// further: its session, if it begins one, is not followed).
const ScanWindowBytes = 64 << 10

// clipStringBytes is how much of a string literal's text the scan keeps.
// Whatever is clipped can only be a string the proxy does not use: a tag
// it writes, a method or member name it reads are all far shorter, and an
// id of clipStringBytes raw bytes compacts to over MaxIDBytes (no escape
// is longer than six bytes for two bytes of compact JSON), so it would not
// be followed anyway.
const clipStringBytes = 4 << 10

// clipStrings passes a JSON text on, dropping of each string literal what
// comes after its first clipStringBytes bytes, up to its closing quote. It
// cuts only before a byte that begins a character and is no part of an
// escape, nor right after a \u escape (a surrogate pair stays whole), so
// what it passes is JSON whenever its input is.
type clipStrings struct {
	r        io.Reader
	inString bool
	dropping bool
	escaped  bool // a backslash was just read
	hex      int  // hex digits of a \u escape still due
	afterU   bool // the last byte kept ended a \u escape
	kept     int
}

func (c *clipStrings) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		out := 0
		for _, b := range p[:n] {
			if c.keep(b) {
				p[out] = b
				out++
			}
		}
		if out > 0 || err != nil || n == 0 {
			return out, err
		}
	}
}

// keep takes one byte and reports whether it passes.
func (c *clipStrings) keep(b byte) bool {
	if !c.inString {
		if b == '"' {
			c.inString, c.dropping, c.kept, c.afterU = true, false, 0, false
		}
		return true
	}
	if !c.dropping && c.kept >= clipStringBytes && !c.escaped && c.hex == 0 && !c.afterU && b != '"' && (b < 0x80 || b >= 0xC0) {
		c.dropping = true
	}
	if c.dropping {
		switch {
		case c.escaped:
			c.escaped = false
		case b == '\\':
			c.escaped = true
		case b == '"':
			c.inString = false
			return true
		}
		return false
	}
	c.kept++
	c.afterU = false
	switch {
	case c.escaped:
		c.escaped = false
		if b == 'u' {
			c.hex = 4
		}
	case c.hex > 0:
		c.hex--
		c.afterU = c.hex == 0
	case b == '\\':
		c.escaped = true
	case b == '"':
		c.inString = false
	}
	return true
}

// passingScan reads a body that passes unread, as it passes: Read hands
// the upstream what the body holds and the scan a copy, through a pipe
// the scan reads at its own pace. The scan never stops the body: once it
// has read what it needs, or failed, it drains the pipe.
type passingScan struct {
	src  io.Reader
	pw   *io.PipeWriter
	off  bool // the pipe refused a write: the rest is not copied
	done chan struct{}
	once sync.Once

	h     hostMessage
	ok    bool
	bytes int64 // the body's length, when ok
}

// counted counts the bytes read through it.
type counted struct {
	r io.Reader
	n int64
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// errScanEnded ends a scan whose body did not end before its answer came.
var errScanEnded = errors.New("gcx proxy: the exchange ended before the body did")

// newPassingScan starts reading src as it passes.
func newPassingScan(src io.Reader, keep *binding.Intermediary) *passingScan {
	pr, pw := io.Pipe()
	s := &passingScan{src: src, pw: pw, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		c := &counted{r: pr}
		r := jsontext.NewReader(&clipStrings{r: c})
		r.MaxTokenBytes = ScanWindowBytes
		s.h, s.ok = scanHostFrom(r, keep)
		io.Copy(io.Discard, c) // whatever is left passes on unread
		s.bytes = c.n
	}()
	return s
}

func (s *passingScan) Read(b []byte) (int, error) {
	n, err := s.src.Read(b)
	if n > 0 && !s.off {
		if _, werr := s.pw.Write(b[:n]); werr != nil {
			s.off = true
		}
	}
	if err != nil {
		s.pw.CloseWithError(err) // io.EOF: the scan sees the body's end
	}
	return n, err
}

// message returns what was read of the body and its length, false when
// it was not one JSON object whole. It ends the scan first: a body that
// has not ended by now is not read.
func (s *passingScan) message() (*hostMessage, int64, bool) {
	s.stop()
	return &s.h, s.bytes, s.ok
}

// stop ends the scan, if it is still reading, and waits for it.
func (s *passingScan) stop() {
	s.once.Do(func() { s.pw.CloseWithError(errScanEnded) })
	<-s.done
}

// idKey returns the key of a scalar id read as a token, false when there
// is none or it is longer than the proxy follows [PRX-6].
func (h *hostMessage) idKey() (string, bool) {
	var v jsonmap.Value
	switch h.idToken.Kind {
	case jsontext.String:
		v = jsonmap.Value{Kind: jsonmap.String, Text: h.idToken.Text}
	case jsontext.Number:
		v = jsonmap.Value{Kind: jsonmap.Number, Text: h.idToken.Text}
	default:
		return "", false
	}
	k := idKey(v)
	return k, len(k) <= MaxIDBytes
}
