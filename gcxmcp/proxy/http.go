package proxy

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
)

// The Streamable HTTP transport of MCP: the host POSTs each message to the
// server's endpoint and reads the answer as a JSON body or as a stream of
// server-sent events; a GET opens a stream of the server's own messages; a
// session is named by the Mcp-Session-Id header and ended by a DELETE; a
// stream resumes from the Last-Event-ID header. The proxy passes every
// request and response on, headers and all, to the same path of the
// upstream, and applies to each message in a body what it applies to a
// line over stdio [PRX-5]. An event's other fields (id, event, retry) stay
// as they came, so resumption works through the proxy.

// sessionHeader names an MCP session in Streamable HTTP.
const sessionHeader = "Mcp-Session-Id"

// MaxSessions bounds the sessions an HTTP proxy keeps state for: past it,
// the oldest is forgotten, and its calls in flight pass untouched [PRX-6].
const MaxSessions = 4096

// HTTP is a Streamable HTTP proxy in front of one upstream endpoint.
type HTTP struct {
	opts     Options
	upstream *url.URL
	reverse  *httputil.ReverseProxy

	mu       sync.Mutex
	shared   *logger // every session's
	sessions map[string]*Proxy
	order    []string // session ids, oldest first
}

// NewHTTP returns a handler that proxies MCP's Streamable HTTP transport
// to upstream, an http or https URL, holding one Proxy per session.
func NewHTTP(opts Options, upstream string) (*HTTP, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q: want an http or https URL", upstream)
	}
	if _, err := New(opts); err != nil {
		return nil, err
	}
	h := &HTTP{opts: opts, upstream: u, sessions: map[string]*Proxy{}}
	h.reverse = &httputil.ReverseProxy{
		Rewrite:        h.rewrite,
		ModifyResponse: h.modifyResponse,
		// The reverse proxy's own reports, such as an upstream that
		// closed a stream midway, go where the proxy's go.
		ErrorLog: log.New(cmp.Or[io.Writer](opts.Log, io.Discard), "gcx proxy: ", 0),
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			h.log().printf("gcx proxy: %s %s: the upstream: %v", r.Method, r.URL.Path, err)
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return h, nil
}

// ServeHTTP passes one request of the host on to the upstream, and its
// answer back.
func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.reverse.ServeHTTP(w, r) }

// logger returns the logger every session shares.
func (h *HTTP) log() *logger {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.shared == nil {
		h.shared = newLogger(h.opts.Log)
	}
	return h.shared
}

// session returns the proxy of the session id names, making one for a
// request outside any session yet (an initialize): "" names the one
// session of a server that names none.
func (h *HTTP) session(id string) *Proxy {
	h.mu.Lock()
	defer h.mu.Unlock()
	if p, ok := h.sessions[id]; ok {
		return p
	}
	p, _ := New(h.opts) // NewHTTP checked the options
	if h.shared == nil {
		h.shared = newLogger(h.opts.Log)
	}
	p.log = h.shared
	if id != "" {
		h.remember(id, p)
	}
	return p
}

// remember keeps p as the proxy of session id, forgetting the oldest
// session past MaxSessions.
func (h *HTTP) remember(id string, p *Proxy) {
	if _, ok := h.sessions[id]; !ok {
		h.order = append(h.order, id)
	}
	h.sessions[id] = p
	for len(h.order) > MaxSessions {
		delete(h.sessions, h.order[0])
		h.order = h.order[1:]
	}
}

func (h *HTTP) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sessions, id)
	for i, s := range h.order {
		if s == id {
			h.order = append(h.order[:i], h.order[i+1:]...)
			break
		}
	}
}

type sessionKey struct{}

// rewrite sends the host's request to the same path of the upstream, with
// its headers, and its body through the session's proxy.
func (h *HTTP) rewrite(pr *httputil.ProxyRequest) {
	pr.SetURL(h.upstream)
	pr.Out.URL.Path, pr.Out.URL.RawPath = pr.In.URL.Path, pr.In.URL.RawPath
	pr.Out.Host = h.upstream.Host
	// The proxy reads bodies: the upstream is asked for them
	// uncompressed, and the transport decompresses what comes anyway.
	pr.Out.Header.Del("Accept-Encoding")
	p := h.session(pr.In.Header.Get(sessionHeader))
	pr.Out = pr.Out.WithContext(context.WithValue(pr.Out.Context(), sessionKey{}, p))
	if pr.In.Method != http.MethodPost || pr.Out.Body == nil {
		return
	}
	body, whole, err := readUpTo(pr.Out.Body, p.maxMessage)
	if err != nil || !whole {
		if !whole {
			p.overLimit("host")
		}
		pr.Out.Body = readCloser{io.MultiReader(bytes.NewReader(body), pr.Out.Body), pr.Out.Body}
		return
	}
	pr.Out.Body.Close()
	out := p.FromHost(body)
	pr.Out.Body = io.NopCloser(bytes.NewReader(out))
	pr.Out.ContentLength = int64(len(out))
	pr.Out.Header.Set("Content-Length", fmt.Sprint(len(out)))
}

// modifyResponse passes the upstream's answer through the session's
// proxy: a JSON body as one message, an event stream event by event.
func (h *HTTP) modifyResponse(resp *http.Response) error {
	p, _ := resp.Request.Context().Value(sessionKey{}).(*Proxy)
	if p == nil {
		return nil
	}
	if resp.Request.Header.Get(sessionHeader) == "" && resp.StatusCode/100 == 2 {
		// The upstream named the session this proxy began; a server
		// that names none keeps no sessions, and its hosts share one
		// proxy, so that what initialize said is kept.
		h.mu.Lock()
		h.remember(resp.Header.Get(sessionHeader), p)
		h.mu.Unlock()
	}
	if resp.Request.Method == http.MethodDelete && resp.StatusCode/100 == 2 {
		h.forget(resp.Request.Header.Get(sessionHeader))
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		body, whole, err := readUpTo(resp.Body, p.maxMessage)
		if err != nil || !whole {
			if !whole {
				p.overLimit("server")
			}
			resp.Body = readCloser{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
			return nil
		}
		resp.Body.Close()
		out := p.FromUpstream(body)
		resp.Body = io.NopCloser(bytes.NewReader(out))
		resp.ContentLength = int64(len(out))
		resp.Header.Set("Content-Length", fmt.Sprint(len(out)))
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

// events copies a stream of server-sent events from src to dst, each
// event's data, the message, through FromUpstream. An event the proxy
// does not change is written as it came, byte for byte; one it changes
// keeps its other fields and their order, its data lines replaced by one.
// An event longer than the message limit passes untouched, as it
// arrives [PRX-6].
func (p *Proxy) events(dst io.Writer, src io.Reader) error {
	r := bufio.NewReaderSize(src, readBufferBytes)
	var event []byte // the event's lines as they came
	atLineStart := true
	over := false
	write := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		_, err := dst.Write(b)
		return err
	}
	for {
		chunk, err := r.ReadSlice('\n')
		complete := err == nil
		blank := atLineStart && complete && isBlankLine(chunk)
		switch {
		case over:
			if werr := write(chunk); werr != nil {
				return werr
			}
			over = !blank
		case len(event)+len(chunk) > p.maxMessage:
			p.overLimit("server")
			if werr := write(append(event, chunk...)); werr != nil {
				return werr
			}
			event, over = event[:0], !blank
		default:
			event = append(event, chunk...)
			if blank {
				if werr := p.flushEvent(write, event); werr != nil {
					return werr
				}
				event = event[:0]
			}
		}
		atLineStart = complete
		if err == bufio.ErrBufferFull {
			continue
		}
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

// flushEvent writes one event, ending with its blank line: as it came, or
// with its data, the message, replaced by what FromUpstream returns.
func (p *Proxy) flushEvent(write func([]byte) error, event []byte) error {
	var data []byte
	lines := 0
	for rest := event; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if value, ok := field(rest[:i+1], "data"); ok {
			if lines > 0 {
				data = append(data, '\n')
			}
			data = append(data, value...)
			lines++
		}
		rest = rest[i+1:]
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
		i := bytes.IndexByte(rest, '\n')
		line := rest[:i+1]
		rest = rest[i+1:]
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

// readUpTo reads r to its end if it holds at most max bytes: whole is
// false, and b what was read, when it holds more.
func readUpTo(r io.Reader, max int) (b []byte, whole bool, err error) {
	b, err = io.ReadAll(io.LimitReader(r, int64(max)+1))
	return b, len(b) <= max, err
}

type readCloser struct {
	io.Reader
	io.Closer
}
