package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/tokens"
)

// gcx proxy --stats: one JSON line per tools/call result that passes, saying
// what the proxy did with it and what that saved the model, and never what
// the call asked or the tool answered: the server's and the tool's names,
// the format, counts and times only.
//
// Counting the tokens of two texts costs more than deciding a result, so
// the call's own path does no more than copy the result's text blocks into
// a bounded queue; one goroutine counts and writes. A call made while the
// queue is full is not recorded, and the file says so: a line of its own
// gives the number of such calls.

// The queue's bounds: records, and bytes of text they hold.
const (
	StatsQueueRecords = 1024
	StatsQueueBytes   = 64 << 20
)

// Formats and reasons of a StatsLine besides the binding's tags and
// binding.Reason values.
const (
	// FormatUntouched is a result the host receives as the server wrote
	// it, with no format named.
	FormatUntouched = "untouched"
	// ReasonRPCError is a tools/call answered by a JSON-RPC error, not a
	// result [MCP-5].
	ReasonRPCError = "rpc-error"
	// ReasonNotAResult is a result the binding cannot read as a
	// CallToolResult (content not an array, a text block without text).
	ReasonNotAResult = "not-a-result"
	// ReasonOverLimit is a result longer than the message limit: the
	// proxy passes it unread, found only its id, so its texts are
	// unknown [PRX-6].
	ReasonOverLimit = "over-limit"
	// ReasonBusy: the result came while the proxy held
	// --max-buffered-bytes of messages, and passed unread [PRX-9].
	ReasonBusy = "busy"
)

// StatsLine is one line of a stats file. A line records either one call
// or, with Dropped, calls the recorder could not keep up with.
type StatsLine struct {
	// Time is when the result passed, RFC 3339 with milliseconds, UTC.
	Time string `json:"time"`
	// Server is the upstream's name: Options.ServerName, or the name the
	// upstream gave itself in its initialize result; "" when unknown (no
	// initialize seen, as over Streamable HTTP to a server that keeps no
	// session).
	Server string `json:"server,omitempty"`
	// Tool is the tool's name; "" when unknown (ReasonOverLimit).
	Tool string `json:"tool,omitempty"`
	// Format is the tag the model read (GCX1), "json" (marked JSON, the
	// text left as it was) or FormatUntouched.
	Format string `json:"format,omitempty"`
	// Reason says why the text was left as the server wrote it: a
	// binding.Reason or one of this package's; "" when rewritten.
	Reason string `json:"reason,omitempty"`
	// The cl100k_base tokens and the bytes of the result's text blocks,
	// summed: as the server wrote them, and as the host receives them.
	// Absent when the proxy did not read the result.
	ServerTokens *int `json:"server_tokens,omitempty"`
	ModelTokens  *int `json:"model_tokens,omitempty"`
	ServerBytes  *int `json:"server_bytes,omitempty"`
	ModelBytes   *int `json:"model_bytes,omitempty"`
	// MsAdded is the time the proxy spent on the result, from reading it
	// whole to its answer, in milliseconds.
	MsAdded *float64 `json:"ms_added,omitempty"`
	// Dropped counts calls not recorded because the queue was full.
	Dropped int `json:"dropped,omitempty"`
}

// StatsTimeLayout is the layout of StatsLine.Time.
const StatsTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// A Recorder writes stats lines to w. Every Proxy given it in
// Options.Stats records there; its methods are safe for concurrent use.
type Recorder struct {
	w   io.Writer
	log *logger
	enc *tokens.Encoding

	queue   chan record
	queued  atomic.Int64 // bytes of text in the queue
	dropped atomic.Int64 // calls not recorded since the last drop line
	done    chan struct{}

	mu     sync.RWMutex // held to send, taken whole to close
	closed bool
	late   atomic.Int64 // calls that ended after Close

	// The writer goroutine's, read after done.
	lines, failed int
	firstErr      error
}

// record is what the call's path hands the writer: owned copies of the
// texts, nothing shared with the message.
type record struct {
	when   time.Time
	server string
	tool   string
	format string
	why    string
	read   bool      // the texts were read; else they are unknown
	texts  *textCopy // the text blocks as the server wrote them
	block  int       // the block replaced, -1 for none
	answer string    // its replacement
	added  time.Duration
	size   int64
	flush  chan struct{} // a Flush mark, not a call
}

// textCopy holds a result's text blocks, copied end to end into one
// buffer. The buffers are reused, so that a call's copy costs a copy and
// not an allocation the collector must then reclaim.
type textCopy struct {
	buf   []byte
	spans []textSpan
}

// textSpan is a text block's place: its index in the content, and its
// bytes in buf.
type textSpan struct{ block, from, to int }

var textCopies = sync.Pool{New: func() any { return new(textCopy) }}

// NewRecorder returns a recorder writing to w, each line with one Write,
// reporting on log (nil discards) what it could not write or keep up
// with. Close it at the end.
func NewRecorder(w io.Writer, log io.Writer) (*Recorder, error) {
	enc, err := tokens.Get(tokens.CL100K)
	if err != nil {
		return nil, err
	}
	r := &Recorder{w: w, log: newLogger(log), enc: enc, queue: make(chan record, StatsQueueRecords), done: make(chan struct{})}
	go r.run()
	return r, nil
}

// Flush returns when every call recorded before it is written.
func (r *Recorder) Flush() {
	mark := make(chan struct{})
	r.mu.RLock()
	if r.closed {
		r.mu.RUnlock()
		return
	}
	r.queue <- record{flush: mark}
	r.mu.RUnlock()
	<-mark
}

// Close writes what is queued and stops the recorder. Its error says how
// many lines could not be written, and why the first could not, and how
// many calls ended too late to be recorded.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	close(r.queue)
	r.mu.Unlock()
	<-r.done
	var errs []string
	if r.failed > 0 {
		errs = append(errs, fmt.Sprintf("%d of %s could not be written (the first: %v)", r.failed, plural.Count(r.lines, "line"), r.firstErr))
	}
	if n := r.late.Load(); n > 0 {
		errs = append(errs, fmt.Sprintf("%s ended after the stats file was closed, unrecorded", plural.Count(int(n), "call")))
	}
	if errs != nil {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// enqueue hands rec to the writer, or counts it dropped when the queue is
// full, without waiting.
func (r *Recorder) enqueue(rec record) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.closed {
		r.late.Add(1)
		r.log.printf("gcx proxy --stats: a call ended after the stats file was closed; it is not recorded")
		return
	}
	if r.queued.Add(rec.size) > StatsQueueBytes && rec.size > 0 {
		r.queued.Add(-rec.size)
		r.drop(rec)
		return
	}
	select {
	case r.queue <- rec:
	default:
		r.queued.Add(-rec.size)
		r.drop(rec)
	}
}

func (r *Recorder) drop(rec record) {
	rec.release()
	r.dropped.Add(1)
	r.log.printf("gcx proxy --stats: the recorder is behind; calls are not recorded, and the file says how many")
}

// The hooks Proxy calls. A nil *Recorder records nothing.

// decided records a result the binding decided on.
func (r *Recorder) decided(start time.Time, server, tool string, res *binding.Result, d binding.Decision) {
	if r == nil {
		return
	}
	res.DecodeTexts()
	added := time.Since(start)
	rec := record{when: start, server: server, tool: tool, why: string(d.Why), read: true, block: -1, added: added}
	switch {
	case !d.Answered:
		rec.format = FormatUntouched
	case d.Answer.Block >= 0:
		rec.format, rec.block, rec.answer = d.Answer.Format, d.Answer.Block, d.Answer.Text
		rec.size += int64(len(d.Answer.Text))
	default:
		rec.format = d.Answer.Format
	}
	// The message's buffer is reused once the call returns: the texts
	// are copied.
	c := textCopies.Get().(*textCopy)
	c.buf, c.spans = c.buf[:0], c.spans[:0]
	for i, b := range res.Content {
		if b.IsText {
			from := len(c.buf)
			c.buf = append(c.buf, b.Text...)
			c.spans = append(c.spans, textSpan{i, from, len(c.buf)})
		}
	}
	rec.texts = c
	rec.size += int64(len(c.buf))
	r.enqueue(rec)
}

// unread records a tools/call result passed without the binding reading
// it, for the reason why.
func (r *Recorder) unread(start time.Time, server, tool, why string) {
	if r == nil {
		return
	}
	r.enqueue(record{when: start, server: server, tool: tool, format: FormatUntouched, why: why, block: -1, added: time.Since(start)})
}

// run is the writer goroutine.
func (r *Recorder) run() {
	defer close(r.done)
	for rec := range r.queue {
		if rec.flush != nil {
			r.writeDropped()
			close(rec.flush)
			continue
		}
		l := r.line(rec)
		rec.release()
		r.write(l)
		r.queued.Add(-rec.size)
		r.writeDropped()
	}
	r.writeDropped()
}

func (r *Recorder) writeDropped() {
	if n := r.dropped.Swap(0); n > 0 {
		r.write(StatsLine{Time: time.Now().UTC().Format(StatsTimeLayout), Dropped: int(n)})
	}
}

// line counts rec's texts and makes its line.
func (r *Recorder) line(rec record) StatsLine {
	l := StatsLine{Time: rec.when.UTC().Format(StatsTimeLayout), Server: rec.server, Tool: rec.tool, Format: rec.format, Reason: rec.why}
	if rec.added >= 0 {
		ms := float64(rec.added.Microseconds()) / 1000
		l.MsAdded = &ms
	}
	if !rec.read {
		return l
	}
	var serverTokens, modelTokens, serverBytes, modelBytes int
	for _, span := range rec.texts.spans {
		text := rec.texts.buf[span.from:span.to]
		n := r.enc.CountBytes(text)
		serverTokens += n
		serverBytes += len(text)
		if span.block == rec.block {
			n = r.enc.Count(rec.answer)
			modelTokens += n
			modelBytes += len(rec.answer)
			continue
		}
		modelTokens += n
		modelBytes += len(text)
	}
	l.ServerTokens, l.ModelTokens, l.ServerBytes, l.ModelBytes = &serverTokens, &modelTokens, &serverBytes, &modelBytes
	return l
}

// release returns the record's copy of the texts for reuse; a copy of a
// result over a mebibyte is left to the collector, so that one long result
// does not keep its buffer's size in the pool.
func (rec record) release() {
	if c := rec.texts; c != nil && cap(c.buf) <= 1<<20 {
		textCopies.Put(c)
	}
}

// write writes one line with one Write, so that lines never interleave in
// a file opened for append; a failure is counted and reported, and the
// proxy goes on.
func (r *Recorder) write(l StatsLine) {
	b, err := json.Marshal(l)
	if err == nil {
		b = append(b, '\n')
		var n int
		n, err = r.w.Write(b)
		if err == nil && n < len(b) {
			err = io.ErrShortWrite
		}
	}
	r.lines++
	if err != nil {
		r.failed++
		if r.firstErr == nil {
			r.firstErr = err
		}
		r.log.printf("gcx proxy --stats: a line could not be written: %v", err)
	}
}

// MaxServerNameBytes bounds a server's name in the stats lines: a name,
// not a place for an upstream to write what the file must not hold.
const MaxServerNameBytes = 100

// clipName returns name, or its first MaxServerNameBytes bytes (whole
// runes) when longer. Strings the proxy keeps are its own: the message's
// buffer is reused.
func clipName(name string) string {
	if len(name) > MaxServerNameBytes {
		n := MaxServerNameBytes
		for n > 0 && !utf8.RuneStart(name[n]) {
			n--
		}
		name = name[:n]
	}
	return strings.Clone(name)
}
