package proxy

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// The Streamable HTTP transport of MCP: the host POSTs each message to the
// server's endpoint and reads the answer as a JSON body or as a stream of
// server-sent events; a GET opens a stream of the server's own messages; a
// session is named by the Mcp-Session-Id header and ended by a DELETE; a
// stream resumes from the Last-Event-ID header. The proxy passes every
// request to the upstream's endpoint and its answer back, headers and all,
// and applies to each message in a body what it applies to a line over
// stdio [PRX-5]. An event's other fields (id, event, retry) stay as they
// came, so resumption works through the proxy.
//
// What listens assumes hostile peers (docs/security.md) [PRX-7] to
// [PRX-9]: a request is admitted only on the endpoint's path, with a Host
// and an Origin the user allows (DNS rebinding: a web page on another
// origin must not reach the host's tools), and with the proxy's token when
// it has one; the host's credentials are not passed on unless the user
// asks; a session's state is made only for a session id the upstream
// issued in answer to an initialize through the proxy, is never shared
// between sessions, and is ended by the upstream alone.

// sessionHeader names an MCP session in Streamable HTTP.
const sessionHeader = "Mcp-Session-Id"

// DefaultMaxSessions bounds the sessions an HTTP proxy keeps state for.
// When it is reached, a new session takes the place of the one idle the
// longest if that one has been idle for SessionIdle; otherwise the
// initialize is refused with 503 [PRX-8].
const DefaultMaxSessions = 256

// MaxSessionIDBytes bounds a session id the proxy keeps state for: a
// longer one (an upstream may choose any) is passed on, its session's
// messages untouched.
const MaxSessionIDBytes = 1024

// Timeouts of the HTTP front.
const (
	// DefaultBodyTimeout is how long a request's body may take to arrive
	// whole; a slower one is cut [PRX-9].
	DefaultBodyTimeout = 30 * time.Second
	// DefaultSessionIdle is how long a session must have been idle before
	// a new one may take its place in a full table.
	DefaultSessionIdle = time.Hour
	// HeaderTimeout bounds the wait for a request's headers, and
	// IdleTimeout a kept-alive connection without a request.
	HeaderTimeout = 10 * time.Second
	IdleTimeout   = 2 * time.Minute
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes = 64 << 10
	// MaxConnections bounds the connections served at once that passed
	// the front door; a connection that has not yet waits in a pool of
	// MaxWaitingConnections, which closes its oldest when full [PRX-9].
	MaxConnections        = 1024
	MaxWaitingConnections = 1024
)

// HTTPOptions configures a Streamable HTTP proxy.
type HTTPOptions struct {
	// Options are each session's: the binding, the limits, the log.
	Options
	// Upstream is the URL of the MCP server's endpoint, http or https.
	// The proxy serves the same path and nothing else [PRX-7]. Its user
	// and password, if any, are the upstream's credentials, sent with
	// every request as HTTP basic authentication and never logged. Its
	// query, if any, is sent with every request instead of the host's,
	// and its values are never logged (an API key, say).
	Upstream string
	// Listen is the address the proxy listens on: a loopback host and its
	// port are allowed in Host and Origin without being listed.
	Listen string
	// AllowHosts lists more Host header values accepted: a name, or a
	// name and a port. Loopback names (localhost, 127.0.0.1, ::1) are
	// always accepted [PRX-7].
	AllowHosts []string
	// AllowOrigins lists the origins (scheme://host[:port]) of the web
	// pages whose requests are accepted besides the proxy's own. A
	// request without Origin comes from no web page and is accepted.
	AllowOrigins []string
	// Token, when set, must be sent by every host as
	// "Authorization: Bearer TOKEN"; it is not passed on.
	Token string
	// ForwardCredentials passes the host's Authorization and Cookie
	// headers on to the upstream, and the upstream's Set-Cookie back. Off
	// by default: credentials the host holds for the proxy's address are
	// not the upstream's [PRX-7].
	ForwardCredentials bool
	// UpstreamHeader is set on every request to the upstream: its own
	// credentials, for one.
	UpstreamHeader http.Header
	// MaxSessions bounds the sessions kept; 0 means DefaultMaxSessions.
	MaxSessions int
	// BodyTimeout bounds the time a request's body takes to arrive; 0
	// means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// SessionIdle is how long a session must have been idle to give its
	// place to a new one; 0 means DefaultSessionIdle.
	SessionIdle time.Duration
}

// HTTP is a Streamable HTTP proxy in front of one upstream endpoint.
type HTTP struct {
	opts     HTTPOptions
	upstream *url.URL // without its user and password
	redacted string   // the upstream's URL as the log names it
	endpoint string   // the path served
	auth     string   // the upstream's basic authentication, "" for none
	hosts    map[string]bool
	origins  map[string]bool
	reverse  *httputil.ReverseProxy
	decide   *binding.Intermediary // every session's: it holds only the settings
	log      *logger
	refusals *rateLog // what any peer can cause at will: refusals, unknown sessions, upstream errors
	budget   *budget

	mu       sync.Mutex
	sessions map[string]*httpSession
	opening  int // initialize requests in flight, each holding a place
}

// httpSession is one session's proxy and when it was last used.
type httpSession struct {
	p    *Proxy
	used atomic.Int64 // unix nanoseconds
}

// NewHTTP returns a handler that proxies MCP's Streamable HTTP transport
// to opts.Upstream, holding one Proxy per session the upstream began.
func NewHTTP(opts HTTPOptions) (*HTTP, error) {
	u, err := url.Parse(opts.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q: want an http or https URL", redactURL(opts.Upstream))
	}
	base, err := New(opts.Options)
	if err != nil {
		return nil, err
	}
	opts.MaxSessions = cmp.Or(opts.MaxSessions, DefaultMaxSessions)
	opts.BodyTimeout = cmp.Or(opts.BodyTimeout, DefaultBodyTimeout)
	opts.SessionIdle = cmp.Or(opts.SessionIdle, DefaultSessionIdle)
	h := &HTTP{
		opts:     opts,
		decide:   base.decide,
		endpoint: cmp.Or(u.Path, "/"),
		log:      newLogger(opts.Log),
		budget:   newBudget(cmp.Or(opts.MaxBufferedBytes, DefaultMaxBufferedBytes), opts.maxMessage()),
		sessions: map[string]*httpSession{},
	}
	if u.User != nil {
		password, _ := u.User.Password()
		h.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+password))
		u.User = nil
	}
	h.upstream = u
	h.redacted = redactURL(opts.Upstream)
	h.refusals = newRateLog(h.log, NotesPerInterval, NoteInterval)
	if h.hosts, h.origins, err = allowed(opts); err != nil {
		return nil, err
	}
	h.reverse = &httputil.ReverseProxy{
		Rewrite:        h.rewrite,
		ModifyResponse: h.modifyResponse,
		// The reverse proxy's own reports, such as an upstream that
		// closed a stream midway, go where the proxy's go.
		ErrorLog: log.New(cmp.Or[io.Writer](opts.Log, io.Discard), "gcx proxy: ", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			h.badGateway(w, r, err) // badgateway.go: a 502 that says why
		},
	}
	return h, nil
}

// Upstream returns the upstream's URL as the proxy names it in what it
// prints: its user, password and query values redacted.
func (h *HTTP) Upstream() string { return h.redacted }

// Sessions returns how many sessions the proxy keeps state for.
func (h *HTTP) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// Pending returns how many tools/call requests are in flight, in every
// session.
func (h *HTTP) Pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.sessions {
		n += s.p.Pending()
	}
	return n
}

// exchange is what the proxy knows of one request while its answer
// passes: the proxy that reads the answer (nil: the answer passes
// untouched), the session named, and whether it opens one.
type exchange struct {
	p          *Proxy
	session    string
	initialize bool
	reserved   bool         // a place for the session it opens is held
	scan       *passingScan // the body, passing unread, read as it passes
	call       string       // the key of the call it carried, followed once read so
}

type exchangeKey struct{}

// ServeHTTP admits one request of a host, passes it on to the upstream,
// and its answer back.
func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if code, why := h.admit(r); code != 0 {
		h.deny(w, code, why)
		return
	}
	if c, ok := r.Context().Value(slotKey{}).(*slotConn); ok && !c.s.admit(r.Context(), c) {
		return // the connection closed while it waited for a slot
	}
	rc := http.NewResponseController(w)
	// The body, if any, must arrive within the timeout; the deadline is
	// lifted once it has, for an answer may stream for hours.
	rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	x := &exchange{session: r.Header.Get(sessionHeader)}
	defer func() {
		if x.reserved {
			h.unreserve()
		}
		if x.call != "" {
			x.p.forget(x.call) // whichever way the exchange ends [PRX-6]
		}
	}()
	if x.session != "" {
		if s := h.lookup(x.session); s != nil {
			x.p = s.p
		} else {
			h.refusals.note("requests naming unknown sessions", "gcx proxy: a request names a session the proxy did not see begin (or has ended); its messages pass untouched")
		}
	} else if r.Method == http.MethodPost {
		// Outside any session: this request's own proxy, which keeps
		// nothing for another [PRX-8]. Its protocol version is the one
		// the request names.
		x.p = h.newProxy(r.Header.Get("Mcp-Protocol-Version"))
	}
	if r.Method != http.MethodPost {
		rc.SetReadDeadline(time.Time{})
		r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, x))
		h.reverse.ServeHTTP(w, r)
		return
	}
	body, err := readWhole(r.Body, h.opts.maxMessage(), h.budget.account(true)) // bounds.go
	defer body.release()
	if err != nil {
		h.deny(w, http.StatusRequestTimeout, "the request's body did not arrive in time")
		return
	}
	r = r.Clone(r.Context())
	if !body.whole {
		if len(body.msg) > h.opts.maxMessage() {
			h.log.overLimit("host", h.opts.maxMessage())
		} else {
			h.log.busy("host")
		}
		// Passed on untouched, as it arrives; the deadline is lifted
		// when it has. It is read as it passes, for the session an
		// initialize begins (scanstream.go).
		var rest io.Reader = io.MultiReader(bytes.NewReader(body.msg), r.Body)
		if x.p != nil {
			x.scan = newPassingScan(rest, h.decide)
			defer x.scan.stop()
			rest = x.scan
		}
		r.Body = &liftAtEOF{Reader: rest, closer: r.Body, lift: func() { rc.SetReadDeadline(time.Time{}) }}
	} else {
		rc.SetReadDeadline(time.Time{})
		out := body.msg
		if x.p != nil {
			decided := x.p.fromHost(body.msg)
			if decided.reply != nil {
				w.Header().Set("Content-Type", "application/json")
				w.Write(decided.reply)
				return
			}
			defer x.p.forget(decided.call) // whichever way the exchange ends [PRX-6]
			out = decided.out
			if decided.initialize && x.session == "" {
				if !h.reserve() {
					h.deny(w, http.StatusServiceUnavailable, fmt.Sprintf("the proxy keeps %d sessions, each used in the last %v; end one (DELETE) or try later", h.opts.MaxSessions, h.opts.SessionIdle))
					return
				}
				x.initialize, x.reserved = true, true
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(out))
		r.ContentLength = int64(len(out))
		r.Header.Set("Content-Length", strconv.Itoa(len(out)))
	}
	r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, x))
	h.reverse.ServeHTTP(w, r)
}

func (o HTTPOptions) maxMessage() int { return cmp.Or(o.MaxMessageBytes, DefaultMaxMessageBytes) }

// newProxy returns a proxy for one session, sharing the log and the
// budget of every other.
func (h *HTTP) newProxy(version string) *Proxy {
	p := newProxy(h.decide, h.opts.Options, h.budget, h.log)
	if isProtocolVersion(version) {
		p.session.ProtocolVersion = version
	}
	return p
}

// isProtocolVersion reports whether v has the form of an MCP protocol
// version, a date: what a request's header may set it to.
func isProtocolVersion(v string) bool {
	if len(v) != len("2006-01-02") {
		return false
	}
	_, err := time.Parse("2006-01-02", v)
	return err == nil
}

// lookup returns the session of the id, nil when the proxy keeps none.
func (h *HTTP) lookup(id string) *httpSession {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s != nil {
		s.used.Store(time.Now().UnixNano())
	}
	return s
}

// reserve holds a place for the session an initialize may open: a free
// one, or the place of the session idle the longest if it has been idle
// for SessionIdle. Only a session nobody uses can lose its place.
func (h *HTTP) reserve() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.sessions)+h.opening < h.opts.MaxSessions {
		h.opening++
		return true
	}
	oldest, when := "", int64(0)
	for id, s := range h.sessions {
		if u := s.used.Load(); oldest == "" || u < when {
			oldest, when = id, u
		}
	}
	if oldest == "" || time.Since(time.Unix(0, when)) < h.opts.SessionIdle {
		return false
	}
	delete(h.sessions, oldest)
	h.log.note("idle", "gcx proxy: a session idle for over %v gave its place to a new one", h.opts.SessionIdle)
	h.opening++
	return true
}

func (h *HTTP) unreserve() {
	h.mu.Lock()
	h.opening--
	h.mu.Unlock()
}

// open keeps the exchange's proxy as the state of the session id, which
// the upstream issued in answer to an initialize through the proxy, in
// the place the exchange reserved.
func (h *HTTP) open(id string, x *exchange) {
	if len(id) > MaxSessionIDBytes {
		h.log.note("long session id", "gcx proxy: the upstream named a session with an id over %d bytes; its messages pass untouched", MaxSessionIDBytes)
		return
	}
	s := &httpSession{p: x.p}
	s.used.Store(time.Now().UnixNano())
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sessions[id] = s // an id issued again begins anew
	h.opening--
	x.reserved = false
}

// scanned follows the initialize a body that passed unread was, as if it
// had been read whole: the answer's session is kept, in a place reserved
// now, for none was before the body passed [PRX-8].
func (h *HTTP) scanned(x *exchange) {
	m, n, ok := x.scan.message()
	if !ok || !m.hasID {
		return
	}
	switch m.method {
	case "tools/call":
		if n <= int64(h.opts.maxMessage()) {
			// A call over the limit is not followed, read whole or
			// not [PRX-6].
			x.call = x.p.followPassed(m)
		}
		return
	case "initialize":
	default:
		return
	}
	id, ok := m.idKey()
	if !ok {
		return
	}
	x.p.begin(id, m.initializeCaps)
	if x.session != "" {
		return
	}
	if !h.reserve() {
		h.log.note("full", "gcx proxy: a session began whose initialize passed unread while the proxy kept %d sessions, each used in the last %v; it is not followed", h.opts.MaxSessions, h.opts.SessionIdle)
		return
	}
	x.initialize, x.reserved = true, true
}

// end forgets the session id: the upstream ended it.
func (h *HTTP) end(id string) {
	h.mu.Lock()
	delete(h.sessions, id)
	h.mu.Unlock()
}

// rewrite sends the host's request to the upstream's endpoint, with its
// headers less the host's credentials, and with the upstream's own.
func (h *HTTP) rewrite(pr *httputil.ProxyRequest) {
	pr.SetURL(h.upstream)
	pr.Out.URL.Path, pr.Out.URL.RawPath = h.upstream.Path, h.upstream.RawPath
	// The upstream's own query (an API key, say) is the user's to give;
	// the host's is not sent [PRX-7].
	pr.Out.URL.RawQuery = h.upstream.RawQuery
	pr.Out.Host = h.upstream.Host
	// The proxy reads bodies: the upstream is asked for them
	// uncompressed, and the transport decompresses what comes anyway.
	pr.Out.Header.Del("Accept-Encoding")
	if h.opts.Token != "" || !h.opts.ForwardCredentials {
		pr.Out.Header.Del("Authorization")
	}
	if !h.opts.ForwardCredentials {
		pr.Out.Header.Del("Cookie")
	}
	for name, values := range h.opts.UpstreamHeader {
		pr.Out.Header[http.CanonicalHeaderKey(name)] = values
	}
	if h.auth != "" {
		pr.Out.Header.Set("Authorization", h.auth)
	}
}

// modifyResponse keeps or ends the session the answer begins or ends, and
// passes the answer through the session's proxy: a JSON body as one
// message, an event stream event by event.
func (h *HTTP) modifyResponse(resp *http.Response) error {
	if resp.StatusCode < 100 || resp.StatusCode > 999 {
		return fmt.Errorf("a status of %d", resp.StatusCode)
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		// Never relayed: the connection would become a tunnel [PRX-7].
		return fmt.Errorf("the upstream switched protocols (101 %s); the proxy opens no tunnel", quotePrefix([]byte(resp.Header.Get("Upgrade"))))
	}
	if !h.opts.ForwardCredentials {
		resp.Header.Del("Set-Cookie")
	}
	if resp.StatusCode == http.StatusUnauthorized && !h.opts.ForwardCredentials && h.auth == "" && len(h.opts.UpstreamHeader) == 0 {
		h.refusals.note("upstream 401 answers", "gcx proxy: the upstream answered 401 Unauthorized; the host's credentials are not passed on unless --forward-credentials is given, and the upstream's own can be given with --upstream-header-file")
	}
	x, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		return nil
	}
	ok := resp.StatusCode/100 == 2
	if x.scan != nil {
		h.scanned(x)
	}
	switch {
	case x.initialize && ok && resp.Header.Get(sessionHeader) != "":
		h.open(resp.Header.Get(sessionHeader), x)
	case x.session != "" && resp.Request.Method == http.MethodDelete && ok,
		x.session != "" && resp.StatusCode == http.StatusNotFound:
		// Ended by the host, or by the upstream, which no longer knows
		// the session [PRX-8].
		h.end(x.session)
	}
	p := x.p
	if p == nil {
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		body, err := readWhole(resp.Body, p.maxMessage, p.budget)
		if err != nil || !body.whole {
			why := ReasonOverLimit
			if !body.whole && err == nil {
				if len(body.msg) > p.maxMessage {
					p.log.overLimit("server", p.maxMessage)
				} else {
					p.log.busy("server")
					why = ReasonBusy
				}
			}
			// Passed on as it arrives, read only for the id of the call
			// it answers.
			rest := resp.Body
			through := &scanThrough{r: io.MultiReader(bytes.NewReader(body.msg), rest), end: func(ids *idScanner) { p.passedUntouched(ids, why) }}
			resp.Body = readCloser{through, closerFunc(func() error { body.release(); return rest.Close() })}
			return nil
		}
		resp.Body.Close()
		out := p.FromUpstream(body.msg)
		body.release()
		resp.Body = io.NopCloser(bytes.NewReader(out))
		resp.ContentLength = int64(len(out))
		resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	case "text/event-stream":
		r, w := io.Pipe()
		src := resp.Body
		go func() {
			err := p.events(w, src)
			src.Close()
			w.CloseWithError(err)
		}()
		resp.Body = r
		// The events may change length: the stream goes chunked.
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	}
	return nil
}

// scanThrough reads a message passing untouched for the id of the call
// it answers, and hands the scanner to end once it has passed.
type scanThrough struct {
	r    io.Reader
	ids  idScanner
	end  func(*idScanner)
	once sync.Once
}

func (s *scanThrough) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	s.ids.write(b[:n])
	if err == io.EOF {
		s.once.Do(func() { s.end(&s.ids) })
	}
	return n, err
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// liftAtEOF calls lift once its reader has ended.
type liftAtEOF struct {
	io.Reader
	closer io.Closer
	lift   func()
	once   sync.Once
}

func (l *liftAtEOF) Read(b []byte) (int, error) {
	n, err := l.Reader.Read(b)
	if err == io.EOF {
		l.once.Do(l.lift)
	}
	return n, err
}

func (l *liftAtEOF) Close() error { return l.closer.Close() }

// events copies a stream of server-sent events from src to dst, each
// event's data, the message, through FromUpstream. An event the proxy
// does not change is written as it came, byte for byte; one it changes
// keeps its other fields and their order, its data lines replaced by one.
// An event longer than the message limit passes untouched, as it
// arrives [PRX-6].
func (p *Proxy) events(dst io.Writer, src io.Reader) error {
	r := eventLines{r: bufio.NewReaderSize(src, readBufferBytes)}
	var event []byte // the event's lines as they came
	held := 0        // the budget event holds
	defer func() { p.budget.give(held) }()
	atLineStart := true
	over := false
	var ids dataIDs // an event passing untouched
	passed := ""    // why it passes so
	write := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		_, err := dst.Write(b)
		return err
	}
	for {
		chunk, complete, err := r.next()
		if r.lf {
			// The LF of a CR LF whose CR ended the line before it: it
			// goes where that line went.
			if len(event) == 0 || over {
				if werr := write(chunk); werr != nil {
					return werr
				}
			} else {
				event = append(event, chunk...)
			}
			continue
		}
		blank := atLineStart && complete && isBlankLine(chunk)
		switch {
		case over:
			ids.write(chunk)
			if blank {
				p.passedUntouched(&ids.s, passed)
			}
			if werr := write(chunk); werr != nil {
				return werr
			}
			over = !blank
		case len(event)+len(chunk) > p.maxMessage || !p.budget.take(len(chunk)):
			// Over the limit, or no room to hold it [PRX-9]: the event
			// passes untouched, read only for the id of the call it
			// may answer.
			passed = ReasonOverLimit
			if len(event)+len(chunk) > p.maxMessage {
				p.log.overLimit("server", p.maxMessage)
			} else {
				p.log.busy("server")
				passed = ReasonBusy
			}
			ids = dataIDs{}
			ids.write(event)
			ids.write(chunk)
			if blank {
				p.passedUntouched(&ids.s, passed)
			}
			werr := write(append(event, chunk...))
			p.budget.give(held)
			event, held, over = event[:0], 0, !blank
			if werr != nil {
				return werr
			}
		default:
			held += len(chunk)
			event = append(event, chunk...)
			if blank {
				// While its host leaves it unread, the event holds the
				// budget only until an owner short of room cuts the
				// stream (bounds.go) [PRX-9].
				u := p.budget.writing(dst)
				werr := p.flushEvent(write, event)
				p.budget.give(held)
				u.end()
				event, held = event[:0], 0
				if werr != nil {
					return werr
				}
			}
		}
		atLineStart = complete
		if err != nil {
			// The stream ended inside an event: what came goes on.
			if werr := write(event); werr != nil {
				return werr
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// errUnreadCut ends an event stream whose host left an event unread while
// another session needed the room it held.
var errUnreadCut = errors.New("gcx proxy: the host left an event unread while the proxy needed the room it held; the stream is cut (resume it with Last-Event-ID)")

// flushEvent writes one event, ending with its blank line: as it came, or
// with its data, the message, replaced by what FromUpstream returns.
func (p *Proxy) flushEvent(write func([]byte) error, event []byte) error {
	var data []byte
	lines := 0
	for rest := event; len(rest) > 0; {
		var line []byte
		line, rest = cutEventLine(rest)
		if value, ok := field(line, "data"); ok {
			if lines > 0 {
				data = append(data, '\n')
			}
			data = append(data, value...)
			lines++
		}
	}
	if lines == 0 {
		return write(event)
	}
	out := p.FromUpstream(data)
	if len(out) == len(data) && (len(out) == 0 || &out[0] == &data[0]) {
		return write(event)
	}
	var b bytes.Buffer
	wrote := false
	for rest := event; len(rest) > 0; {
		var line []byte
		line, rest = cutEventLine(rest)
		if _, ok := field(line, "data"); ok {
			if !wrote {
				b.WriteString("data: ")
				b.Write(out)
				b.WriteByte('\n')
				wrote = true
			}
			continue
		}
		b.Write(line)
	}
	return write(b.Bytes())
}

// dataIDs reads the data lines of an event passing untouched for the id
// of the message they hold, as they pass. It is given whole lines or the
// pieces of a long line in order, and a line's first piece holds the
// line's start, the read buffer's size or all of it.
type dataIDs struct {
	s       idScanner
	midway  bool // in a line
	inData  bool // the line is a data line
	afterCR bool // the last line ended with CR: an LF next is its end too
	lines   int
}

func (d *dataIDs) write(b []byte) {
	for len(b) > 0 {
		if d.afterCR && b[0] == '\n' {
			b = b[1:]
			d.afterCR = false
			continue
		}
		d.afterCR = false
		i := bytes.IndexAny(b, "\r\n")
		line := b
		if i >= 0 {
			d.afterCR = b[i] == '\r'
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if !d.midway {
			value, ok := bytes.CutPrefix(line, []byte("data:"))
			d.inData = ok
			if ok {
				if d.lines > 0 {
					d.s.write([]byte{'\n'})
				}
				d.lines++
				line = bytes.TrimPrefix(value, []byte(" "))
			}
		}
		if d.inData {
			d.s.write(line)
		}
		d.midway = i < 0
	}
}

// An event stream's line ends with CR LF, LF or CR alone: all three are
// legal, and a line must reach the host as soon as its end has come.

// eventLines reads an event stream line by line without waiting past a
// line's end: a CR ends its line at once, and an LF that then follows is
// returned alone, with lf set, as the rest of that line's ending.
type eventLines struct {
	r       *bufio.Reader
	afterCR bool // the last line ended with a CR
	lf      bool // what next returned is that CR's LF
}

// next returns the next line with its ending (complete), or a piece of a
// line longer than the read buffer (not complete), or at the end of the
// stream what is left, with the error. What it returns is valid until
// the next call.
func (l *eventLines) next() (piece []byte, complete bool, err error) {
	l.lf = false
	if l.afterCR {
		l.afterCR = false
		if b, err := l.r.Peek(1); err == nil && b[0] == '\n' {
			l.r.Discard(1)
			l.lf = true
			return b[:1], true, nil
		}
	}
	scanned := 0
	for n := 1; ; {
		data, err := l.r.Peek(n)
		if i := bytes.IndexAny(data[scanned:], "\r\n"); i >= 0 {
			end := scanned + i + 1
			if data[end-1] == '\r' {
				if end < len(data) && data[end] == '\n' {
					end++
				} else {
					l.afterCR = true
				}
			}
			l.r.Discard(end)
			return data[:end], true, nil
		}
		scanned = len(data)
		if err != nil {
			l.r.Discard(len(data))
			if err == bufio.ErrBufferFull {
				return data, false, nil
			}
			return data, false, err
		}
		n = max(len(data)+1, l.r.Buffered())
	}
}

// cutEventLine cuts an event's first line, with its ending, from the
// event's bytes, which hold whole lines (a CR LF whole too).
func cutEventLine(b []byte) (line, rest []byte) {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return b, nil
	}
	end := i + 1
	if b[i] == '\r' && end < len(b) && b[end] == '\n' {
		end++
	}
	return b[:end], b[end:]
}

// field returns the value of an event stream line of the named field: the
// text after the colon, less one space, less the line ending.
func field(line []byte, name string) ([]byte, bool) {
	line = bytes.TrimRight(line, "\r\n")
	rest, ok := bytes.CutPrefix(line, []byte(name))
	if !ok {
		return nil, false
	}
	if len(rest) == 0 {
		return rest, true
	}
	if rest[0] != ':' {
		return nil, false
	}
	return bytes.TrimPrefix(rest[1:], []byte(" ")), true
}

func isBlankLine(line []byte) bool {
	return len(bytes.TrimRight(line, "\r\n")) == 0 && len(line) > 0
}

type readCloser struct {
	io.Reader
	io.Closer
}
