package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"time"
)

// readBufferBytes is the read buffer of a direction: a message longer than
// this is gathered in a second buffer, up to the message limit.
const readBufferBytes = 64 << 10

// Direction names one of the two ways messages travel, for pump.
type Direction int

const (
	// HostToUpstream carries the host's messages to the server.
	HostToUpstream Direction = iota
	// UpstreamToHost carries the server's messages to the host.
	UpstreamToHost
)

func (d Direction) from() string {
	if d == HostToUpstream {
		return "host"
	}
	return "server"
}

// StreamError is a failure to read or write one of the proxy's streams:
// Stream names it.
type StreamError struct {
	Stream string // e.g. "reading the host's stdin"
	Err    error
}

func (e *StreamError) Error() string { return fmt.Sprintf("%s: %v", e.Stream, e.Err) }
func (e *StreamError) Unwrap() error { return e.Err }

// Pump copies newline-delimited messages from src to dst in one
// direction, each through the proxy's decision for that direction, until
// src ends. A message longer than the limit, or one the proxy has no room
// to hold [PRX-9], is copied on as it arrives, untouched, holding no more
// than the read buffer [PRX-6]. A last line without a newline is passed on
// without one. Each message is written with one Write. It returns nil at
// the end of src, or the first error, as a *StreamError that names
// readName or writeName.
func (p *Proxy) Pump(d Direction, dst io.Writer, src io.Reader, readName, writeName string) error {
	handle := p.FromUpstream
	if d == HostToUpstream {
		handle = p.hostHandler()
	}
	r := bufio.NewReaderSize(src, readBufferBytes)
	var long []byte // a message longer than the read buffer, gathered
	held := 0       // the budget long holds
	defer func() { p.budget.give(held) }()
	write := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		if _, err := dst.Write(b); err != nil {
			return &StreamError{writeName, err}
		}
		return nil
	}
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull || len(long) > 0:
			// Part of a message longer than the read buffer.
			if len(long)+len(chunk)-newlineLen(chunk) <= p.maxMessage && p.budget.take(len(chunk)) {
				held += len(chunk)
				long = append(long, chunk...)
				if err == bufio.ErrBufferFull {
					continue
				}
				werr := p.pass(long, handle, write)
				long = long[:0]
				p.budget.give(held)
				held = 0
				if werr != nil {
					return werr
				}
				break
			}
			// Over the limit, or no room: what came so far and the rest
			// of the line go on untouched, as they arrive, read only for
			// the id of the call they may answer.
			why := ReasonOverLimit
			if len(long)+len(chunk)-newlineLen(chunk) > p.maxMessage {
				p.log.overLimit(d.from(), p.maxMessage)
			} else {
				p.log.busy(d.from())
				why = ReasonBusy
			}
			var ids idScanner
			ids.write(long)
			werr := write(long)
			long = long[:0]
			p.budget.give(held)
			held = 0
			if werr != nil {
				return werr
			}
			for {
				ids.write(chunk)
				if err != bufio.ErrBufferFull && d == UpstreamToHost {
					// The call leaves before its answer reaches the host.
					p.passedUntouched(&ids, why)
				}
				if werr := write(chunk); werr != nil {
					return werr
				}
				if err != bufio.ErrBufferFull {
					break
				}
				chunk, err = r.ReadSlice('\n')
			}
		case len(chunk)-newlineLen(chunk) > p.maxMessage:
			// A whole line in the buffer, over a limit below its size.
			p.log.overLimit(d.from(), p.maxMessage)
			if d == UpstreamToHost {
				var ids idScanner
				ids.write(chunk)
				p.passedUntouched(&ids, ReasonOverLimit)
			}
			if werr := write(chunk); werr != nil {
				return werr
			}
		case len(chunk) > 0:
			if werr := p.pass(chunk, handle, write); werr != nil {
				return werr
			}
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return &StreamError{readName, err}
		}
	}
}

// passedUntouched ends the call that a response which passed untouched,
// unread, answered: it was answered, though not by the proxy [PRX-6].
// why says why it passed so, for --stats.
func (p *Proxy) passedUntouched(ids *idScanner, why string) {
	key, ok := ids.responseID()
	if !ok {
		return
	}
	p.mu.Lock()
	call, isCall := p.pending[key]
	delete(p.pending, key)
	server := p.server
	p.mu.Unlock()
	if isCall {
		p.stats.unread(time.Now(), server, call.Name, why)
	}
}

// hostHandler returns the decision for the host's messages over a stream:
// a call the proxy refuses [PRX-9] is answered to the host through
// p.reply, and nothing goes to the upstream; without p.reply it passes
// on, unfollowed.
func (p *Proxy) hostHandler() func([]byte) []byte {
	return func(msg []byte) []byte {
		h := p.fromHost(msg)
		if h.reply == nil {
			return h.out
		}
		if p.reply == nil {
			return msg
		}
		if err := p.reply(append(h.reply, '\n')); err != nil {
			p.log.printf("gcx proxy: answering the host that a call was refused: %v", err)
		}
		return nil
	}
}

// pass hands one message to the decision and writes what it returns,
// with the message's own line ending; nil from the decision writes
// nothing.
func (p *Proxy) pass(line []byte, handle func([]byte) []byte, write func([]byte) error) error {
	n := newlineLen(line)
	msg := line[:len(line)-n]
	out := handle(msg)
	if out == nil && msg != nil {
		return nil
	}
	if len(out) == len(msg) && (len(out) == 0 || &out[0] == &msg[0]) {
		return write(line) // passed as it is: the bytes it came in
	}
	return write(append(out, line[len(line)-n:]...))
}

// newlineLen is the length of the line ending of a line: 2 for CR LF,
// 1 for LF, 0 for none.
func newlineLen(line []byte) int {
	switch {
	case bytes.HasSuffix(line, []byte("\r\n")):
		return 2
	case bytes.HasSuffix(line, []byte("\n")):
		return 1
	}
	return 0
}
