// Package proxy is gcx proxy: an MCP intermediary that writes GCX1 for the
// model a host serves, in front of any MCP server, for hosts and servers
// that know nothing of the binding (section 15.9 of docs/wire-format.md,
// rules PRX-1 to PRX-9).
//
// It works on the JSON-RPC messages as text and links no MCP SDK: package
// gcxmcp/binding makes every decision, and this package applies them to
// the messages that pass. Every message passes byte for byte, in order,
// except the results of tools/call requests that the binding answers and,
// for an upstream that speaks the binding, the tools/call requests that
// ask it for GCX1 [PRX-5]. What it keeps is bounded by the calls in flight
// [PRX-6]. RunStdio runs a server over stdio (newline-delimited messages);
// HTTP serves the Streamable HTTP transport in front of a server's URL.
package proxy

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// DefaultMaxMessageBytes is the longest message the proxy reads whole by
// default: 16 MiB. A longer message passes through untouched [PRX-6].
const DefaultMaxMessageBytes = 16 << 20

// Options configures a proxy.
type Options struct {
	// Binding is the mode and the per-tool settings [MCP-6] [PRX-1].
	Binding binding.ServerOptions
	// MaxMessageBytes is the longest message, without its newline, that
	// the proxy reads whole; 0 means DefaultMaxMessageBytes.
	MaxMessageBytes int
	// MaxCalls is how many tools/call requests one session may have in
	// flight through the proxy; 0 means DefaultMaxCalls. A call beyond it
	// is refused with a JSON-RPC error [PRX-9].
	MaxCalls int
	// MaxBufferedBytes bounds the bytes of the messages held whole at
	// once, across sessions and directions; 0 means
	// DefaultMaxBufferedBytes. A message that would go over passes
	// untouched [PRX-9]. Over HTTP no session or request holds more than
	// a quarter of it (or one message), and the hosts' request bodies
	// together at most half (bounds.go).
	MaxBufferedBytes int64
	// Log receives one line per notable event: a message over the limit,
	// a message that is not JSON. nil discards them.
	Log io.Writer
	// Stats, when not nil, records every tools/call result that passes
	// (gcx proxy --stats); stats.go.
	Stats *Recorder
	// ServerName names the upstream in the stats lines (gcx proxy
	// --server-name). "" takes the name the upstream gives itself in its
	// initialize result (serverInfo.name), cut to MaxServerNameBytes.
	ServerName string
	// Subreaper, on Linux, makes this process a child subreaper for
	// RunStdio: a process the server starts that leaves its process group
	// (setsid, a daemon's double fork) becomes this process's child when
	// its parent ends, is reaped when it ends during the session, and is
	// stopped with the group when the session ends. Set it only in a
	// process that runs one stdio session and starts no children of its
	// own meanwhile (gcx proxy): every child of this process that is not
	// the server or the watchdog and started after the server is taken
	// for an escaped descendant of the server. The setting is the
	// process's and outlives the session. Elsewhere it does nothing.
	Subreaper bool
}

// Proxy holds one session's state and makes its decisions. Its methods
// may be called from one goroutine per direction.
type Proxy struct {
	decide     *binding.Intermediary
	maxMessage int
	maxCalls   int
	budget     *account // the session's share of the shared budget
	log        *logger
	stats      *Recorder
	// reply writes the proxy's own answer to the host, over stdio; nil
	// where the transport answers otherwise.
	reply func([]byte) error

	mu        sync.Mutex
	session   binding.Session
	initID    string                     // the initialize request's id, "" when none is in flight
	server    string                     // the upstream's name for the stats lines
	named     bool                       // server is Options.ServerName: the upstream's own is not taken
	subreaper bool                       // Options.Subreaper
	pending   map[string]binding.Pending // tools/call requests in flight, by id
	names     map[string]string          // tool names called before (toolName)
}

// keptNames and keptNameBytes bound the tool names a session keeps
// (toolName): at most keptNames names of at most keptNameBytes bytes,
// a few KiB, whatever the host sends.
const (
	keptNames     = 64
	keptNameBytes = 64
)

// toolName returns name, which shares the host's message, as a string
// of its own, for a call's bookkeeping that outlives the message: the
// string kept when a call of the session named that tool before, so that
// a call of a tool called before allocates nothing for its name. It is
// called with p.mu held.
func (p *Proxy) toolName(name string) string {
	if s, ok := p.names[name]; ok {
		return s
	}
	s := strings.Clone(name)
	if len(p.names) < keptNames && len(s) <= keptNameBytes {
		if p.names == nil {
			p.names = make(map[string]string)
		}
		p.names[s] = s
	}
	return s
}

// New returns a proxy for one session. It refuses settings the binding
// refuses (an unknown mode, a tool name GCX1 cannot carry).
func New(opts Options) (*Proxy, error) {
	decide, err := binding.NewIntermediary(opts.Binding)
	if err != nil {
		return nil, err
	}
	if opts.MaxMessageBytes < 0 || opts.MaxCalls < 0 || opts.MaxBufferedBytes < 0 {
		return nil, fmt.Errorf("gcx proxy: negative limits (message %d bytes, %d calls, %d bytes buffered)", opts.MaxMessageBytes, opts.MaxCalls, opts.MaxBufferedBytes)
	}
	b := newBudget(cmp.Or(opts.MaxBufferedBytes, DefaultMaxBufferedBytes), cmp.Or(opts.MaxMessageBytes, DefaultMaxMessageBytes))
	b.share = b.total // one session, the budget's only owner
	return newProxy(decide, opts, b, newLogger(opts.Log)), nil
}

// newProxy returns the proxy of one session, with the decisions, the
// budget and the log it shares with the transport's other sessions.
func newProxy(decide *binding.Intermediary, opts Options, b *budget, log *logger) *Proxy {
	return &Proxy{
		decide:     decide,
		maxMessage: cmp.Or(opts.MaxMessageBytes, DefaultMaxMessageBytes),
		maxCalls:   cmp.Or(opts.MaxCalls, DefaultMaxCalls),
		budget:     b.account(false),
		log:        log,
		stats:      opts.Stats,
		server:     clipName(opts.ServerName),
		named:      opts.ServerName != "",
		subreaper:  opts.Subreaper,
		pending:    map[string]binding.Pending{},
	}
}

// Pending returns how many tools/call requests are in flight.
func (p *Proxy) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending)
}

// forget ends the call of the key, however it ended: answered elsewhere,
// refused, aborted, over the limit [PRX-6]. An empty key is no call.
func (p *Proxy) forget(key string) {
	if key == "" {
		return
	}
	p.mu.Lock()
	delete(p.pending, key)
	p.mu.Unlock()
}

// FromHost takes one message from the host, without its line ending, and
// returns what the upstream receives: msg itself, or for a tools/call
// request to an upstream that speaks the binding, the request asking it
// for GCX1 [PRX-3]. A call the proxy refuses [PRX-9] passes on untouched
// here; the transports use fromHost, which answers it.
func (p *Proxy) FromHost(msg []byte) []byte {
	h := p.fromHost(msg)
	if h.reply != nil {
		return msg
	}
	return h.out
}

// fromHost is what becomes of one message of the host.
type fromHost struct {
	out        []byte // what the upstream receives
	call       string // the key of the call the proxy began to follow, "" for none
	initialize bool   // msg is an initialize request
	reply      []byte // when not nil, the proxy's own answer: msg goes nowhere
}

func (p *Proxy) fromHost(msg []byte) fromHost {
	pass := fromHost{out: msg}
	if !mayHold(msg, hostMethods) {
		if !looksLikeObjectOrArray(msg) && !isBlank(msg) {
			p.log.notJSON("host", msg)
		}
		return pass
	}
	// Read token by token, never decoded whole (scan.go) [PRX-6].
	m, ok := looksLikeObject(msg), false
	var h hostMessage
	if m {
		h, ok = scanHost(msg, p.decide)
	}
	if !ok {
		if !isBlank(msg) && !isArray(msg) {
			p.log.notJSON("host", msg)
		}
		return pass
	}
	if h.method == "" {
		return pass // a response to the upstream's request
	}
	switch h.method {
	case "initialize":
		if h.hasID {
			p.initialize(msg, &h)
			pass.initialize = true
		}
	case "notifications/cancelled":
		// The host no longer waits for that result; forget the call so
		// that a server that never answers it costs nothing [PRX-6].
		if h.hasRequestID {
			if k, ok := key(msg, h.requestID); ok {
				p.forget(k)
			}
		}
	case "tools/call":
		if h.hasID && h.paramsIsObject {
			return p.toolsCall(msg, &h)
		}
	}
	return pass
}

// initialize keeps of the host's initialize request what the binding
// reads: what the binding's member of its extensions says, reduced by
// binding.Keep [MCP-2] [PRX-6].
func (p *Proxy) initialize(msg []byte, h *hostMessage) {
	id, _ := key(msg, h.id)
	p.begin(id, h.initializeCaps)
}

// begin keeps what the host's initialize request of the id said, and
// waits for its result.
func (p *Proxy) begin(id string, caps binding.Said) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.initID = id
	p.session.Host = caps
}

func (p *Proxy) toolsCall(msg []byte, h *hostMessage) fromHost {
	pass := fromHost{out: msg}
	if !h.nameIsString {
		return pass
	}
	k, ok := h.callKey(msg)
	if !ok || len(h.name) > MaxToolNameBytes {
		p.log.printf("gcx proxy: a tools/call request whose id or tool name is over %d bytes is not followed; its result will pass untouched", MaxIDBytes)
		return pass
	}
	p.mu.Lock()
	_, again := p.pending[k]
	if !again && len(p.pending) >= p.maxCalls {
		p.mu.Unlock()
		p.log.printf("gcx proxy: a session has %d tools/call requests in flight; the proxy refuses more until some are answered", p.maxCalls)
		id, _ := jsonmap.Parse(msg[h.id.from:h.id.to])
		return fromHost{reply: refusal(id, fmt.Sprintf("gcx proxy: this session already has %d tools/call requests in flight, the most the proxy follows at once (--max-calls); try again when some are answered", p.maxCalls))}
	}
	call := p.decide.Call(p.session, p.toolName(h.name), h.perCall, h.perRequest)
	p.pending[k] = call
	p.mu.Unlock()
	pass.call = k
	if call.Ask == nil {
		return pass
	}
	pass.out = h.ask(msg, call.Ask)
	return pass
}

// followPassed follows a tools/call that passed on unread, read as it
// passed (scanstream.go), and returns its key; "" when it is not followed.
// Its result is answered as any call's when the binding asks the upstream
// for nothing: a tag cannot be put into a body already sent, so a call
// that would ask is not followed, and its result passes untouched. Nor is
// one beyond --max-calls: it can no longer be refused.
func (p *Proxy) followPassed(h *hostMessage) string {
	k, ok := h.idKey()
	if !ok || !h.paramsIsObject || !h.nameIsString || len(h.name) > MaxToolNameBytes {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, again := p.pending[k]; again || len(p.pending) >= p.maxCalls {
		return ""
	}
	call := p.decide.Call(p.session, p.toolName(h.name), h.perCall, h.perRequest)
	if call.Ask != nil {
		return ""
	}
	p.pending[k] = call
	return k
}

// RefusalCode is the JSON-RPC error code of the proxy's own refusals: one
// of the codes JSON-RPC leaves to implementations [PRX-9].
const RefusalCode = -32000

// refusal is the JSON-RPC error response to the request id, with message.
func refusal(id jsonmap.Value, message string) []byte {
	resp := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
		{Key: "jsonrpc", Value: jsonmap.Value{Kind: jsonmap.String, Text: "2.0"}},
		{Key: "id", Value: id},
		{Key: "error", Value: jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "code", Value: jsonmap.Value{Kind: jsonmap.Number, Text: fmt.Sprint(RefusalCode)}},
			{Key: "message", Value: jsonmap.Value{Kind: jsonmap.String, Text: message}},
		}}},
	}}
	return resp.AppendCompact(nil)
}

// FromUpstream takes one message from the upstream, without its line
// ending, and returns what the host receives: msg itself, or for the
// result of a tools/call request, the answer the binding decides [PRX-1].
func (p *Proxy) FromUpstream(msg []byte) []byte {
	var start time.Time // stats
	if p.stats != nil {
		start = time.Now()
	}
	p.mu.Lock()
	waiting := len(p.pending) > 0 || p.initID != ""
	p.mu.Unlock()
	if !waiting {
		// Nothing to match a response against: spare the parse. A line
		// that is not JSON is still reported.
		if !looksLikeObjectOrArray(msg) && !isBlank(msg) {
			p.log.notJSON("server", msg)
		}
		return msg
	}
	if !mayHold(msg, responseKeys) {
		if !looksLikeObjectOrArray(msg) && !isBlank(msg) {
			p.log.notJSON("server", msg)
		}
		return msg
	}
	if p.dense(msg) {
		return msg // estimate.go
	}
	if out, done := p.answerCompact(msg, start); done {
		return out
	}
	m, ok := parseObject(msg)
	if !ok {
		if !isBlank(msg) && !isArray(msg) {
			p.log.notJSON("server", msg)
		}
		return msg
	}
	if _, isRequest := m.Lookup("method"); isRequest {
		return msg
	}
	id, ok := m.Lookup("id")
	if !ok {
		return msg
	}
	key := idKey(id)
	p.mu.Lock()
	call, isCall := p.pending[key]
	delete(p.pending, key)
	isInit := p.initID != "" && key == p.initID
	if isInit {
		p.initID = ""
	}
	server := p.server
	p.mu.Unlock()
	result, ok := m.Lookup("result")
	if !ok {
		if isCall {
			p.stats.unread(start, server, call.Name, ReasonRPCError)
		}
		return msg // an error response passes untouched [MCP-5]
	}
	if isInit {
		p.initialized(result)
		return msg
	}
	if !isCall {
		return msg
	}
	r, err := binding.ResultFromJSON(result, false)
	if err != nil {
		p.stats.unread(start, server, call.Name, ReasonNotAResult)
		return msg
	}
	d := p.decide.Decide(call, r)
	if !d.Answered {
		p.stats.decided(start, server, call.Name, r, d)
		return msg
	}
	a := d.Answer
	a.ApplyJSON(&m)
	// The answer is the message with the JSON block's text replaced by
	// the payload, which JSON escapes at a few more bytes: sized so, the
	// rewrite holds no second copy of the message [PRX-9].
	size := len(msg) + 64
	if a.Block >= 0 {
		size += len(a.Text) + len(a.Text)/8 - len(r.Content[a.Block].Text)
	}
	out := m.AppendCompact(make([]byte, 0, max(size, 64)))
	p.stats.decided(start, server, call.Name, r, d)
	return out
}

// answerCompact is FromUpstream for the response most servers write, a
// result in compact JSON, read in one pass without decoding it whole and
// answered by splicing the payload into its text (binding.ReadResponse):
// what FromUpstream's parse and rewrite would write, at a fraction of
// the work. done is false, having changed nothing, for any other message
// and for the initialize result, which the caller then reads.
func (p *Proxy) answerCompact(msg []byte, start time.Time) (out []byte, done bool) {
	resp, ok := binding.ReadResponse(msg)
	if !ok {
		return nil, false
	}
	key := string(resp.ID)
	p.mu.Lock()
	if p.initID != "" && key == p.initID {
		p.mu.Unlock()
		return nil, false
	}
	call, isCall := p.pending[key]
	delete(p.pending, key)
	server := p.server
	p.mu.Unlock()
	if !isCall {
		return msg, true
	}
	d := p.decide.Decide(call, resp.Result)
	if !d.Answered {
		p.stats.decided(start, server, call.Name, resp.Result, d)
		return msg, true
	}
	out = resp.Apply(d.Answer)
	p.stats.decided(start, server, call.Name, resp.Result, d)
	return out, true
}

// initialized keeps of the upstream's initialize result the negotiated
// version and the tags the upstream offers [MCP-2] [PRX-3], and the name
// it gives itself, for the stats lines.
func (p *Proxy) initialized(result jsonmap.Value) {
	info, _ := result.Lookup("serverInfo")
	name, _ := info.Lookup("name")
	version, _ := result.Lookup("protocolVersion")
	caps, _ := result.Lookup("capabilities")
	extensions, _ := caps.Lookup("extensions")
	var offer []string
	if extensions.Kind == jsonmap.Object {
		offer = readableOffer(binding.Offer(decodeObject(extensions)))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if version.Kind == jsonmap.String {
		p.session.ProtocolVersion = strings.Clone(version.Text)
	}
	if name.Kind == jsonmap.String && !p.named {
		p.server = clipName(name.Text)
	}
	p.session.UpstreamOffer = offer
}

// The words a message must hold for the proxy to read it: the methods it
// follows from the host, the members of a response from the server. A
// message without them, or without any backslash (an escape could spell
// them otherwise), passes without being parsed; a message with them is
// parsed and decided on what it says. The most frequent come first.
var (
	hostMethods  = [][]byte{[]byte("tools/call"), []byte("initialize"), []byte("notifications/cancelled")}
	responseKeys = [][]byte{[]byte(`"result"`), []byte(`"error"`)}
)

func mayHold(msg []byte, words [][]byte) bool {
	if bytes.IndexByte(msg, '\\') >= 0 {
		return true
	}
	for _, w := range words {
		if bytes.Contains(msg, w) {
			return true
		}
	}
	return false
}

// parseObject parses msg when it is one JSON object. The values may share
// msg's bytes; what outlives the call is cloned.
func parseObject(msg []byte) (jsonmap.Value, bool) {
	if !looksLikeObject(msg) {
		return jsonmap.Value{}, false
	}
	v, _, err := jsonmap.ParseShared(msg)
	if err != nil || v.Kind != jsonmap.Object {
		return jsonmap.Value{}, false
	}
	return v, true
}

func firstByte(msg []byte) byte {
	for _, c := range msg {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func looksLikeObject(msg []byte) bool        { return firstByte(msg) == '{' }
func isArray(msg []byte) bool                { return firstByte(msg) == '[' }
func isBlank(msg []byte) bool                { return firstByte(msg) == 0 }
func looksLikeObjectOrArray(msg []byte) bool { c := firstByte(msg); return c == '{' || c == '[' }

// idKey is the key of a JSON-RPC id: its compact JSON, so that the string
// "1" and the number 1 stay apart, as JSON-RPC keeps them.
func idKey(id jsonmap.Value) string {
	var room [32]byte // most ids' compact JSON: written here, then copied once
	return string(id.AppendCompact(room[:0]))
}

// decodeObject returns an object as encoding/json decodes it, the form the
// binding reads _meta and capabilities in.
func decodeObject(v jsonmap.Value) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(v.AppendCompact(nil), &m); err != nil {
		return nil
	}
	return m
}

// logger writes the proxy's notes on stderr, one line each, quoting at
// most a short prefix of a message; it stops after maxNotes lines of one
// kind so that a flood of bad lines cannot flood stderr.
type logger struct {
	mu    sync.Mutex
	w     io.Writer
	count map[string]int
}

const maxNotes = 20

func newLogger(w io.Writer) *logger { return &logger{w: w, count: map[string]int{}} }

func (l *logger) printf(format string, args ...any) { l.note(format, format, args...) }

func (l *logger) note(kind, format string, args ...any) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count[kind]++
	switch n := l.count[kind]; {
	case n < maxNotes:
		fmt.Fprintf(l.w, format+"\n", args...)
	case n == maxNotes:
		fmt.Fprintf(l.w, format+" (further ones are not reported)\n", args...)
	}
}

func (l *logger) notJSON(from string, msg []byte) {
	l.note("notjson "+from, "gcx proxy: a line from the %s is not a JSON-RPC message; passed on as it is: %s", from, quotePrefix(msg))
}

func (l *logger) overLimit(from string, limit int) {
	l.note("over "+from, "gcx proxy: a message from the %s is longer than --max-message-bytes (%d); passed on untouched", from, limit)
}

func (l *logger) busy(from string) {
	l.note("busy "+from, "gcx proxy: a message from the %s came while the proxy already held --max-buffered-bytes of messages, or its sender's share of them; passed on untouched", from)
}

// quotePrefix quotes at most 40 bytes of msg.
func quotePrefix(msg []byte) string {
	const n = 40
	if len(msg) > n {
		return fmt.Sprintf("%q... (%d bytes)", msg[:n], len(msg))
	}
	return fmt.Sprintf("%q", msg)
}
