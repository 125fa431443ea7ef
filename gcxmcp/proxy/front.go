package proxy

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// The front door of the HTTP proxy: who may send it a request [PRX-7].
// A browser sends any web page's requests to any address, loopback too,
// and a page whose name an attacker makes resolve to 127.0.0.1 (DNS
// rebinding) is of the same origin as the proxy in the browser's eyes.
// The Host header still names the attacker's name, and a page's request
// carries its Origin: the proxy admits only the names and origins its
// user allows, before anything is forwarded.

// admit returns 0 for a request the proxy passes on, or the status it is
// refused with and why.
func (h *HTTP) admit(r *http.Request) (int, string) {
	if !h.hostAllowed(r.Host) {
		return http.StatusForbidden, fmt.Sprintf("Host %s is not allowed (gcx proxy --allow-host)", quotePrefix([]byte(r.Host)))
	}
	if origin, ok := r.Header["Origin"]; ok && (len(origin) != 1 || !h.origins[canonicalOrigin(origin[0])]) {
		return http.StatusForbidden, fmt.Sprintf("Origin %s is not allowed (gcx proxy --allow-origin)", quotePrefix([]byte(strings.Join(origin, ","))))
	}
	if h.opts.Token != "" && !bearerMatches(r.Header.Get("Authorization"), h.opts.Token) {
		return http.StatusUnauthorized, "this proxy wants its token: Authorization: Bearer TOKEN"
	}
	if code, why := tunnel(r); code != 0 {
		return code, why
	}
	if r.URL.Path != h.endpoint {
		return http.StatusNotFound, fmt.Sprintf("the proxy serves MCP at %s only", h.endpoint)
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet, http.MethodDelete:
		if r.ContentLength != 0 {
			return http.StatusBadRequest, r.Method + " with a body"
		}
	default:
		return http.StatusMethodNotAllowed, r.Method + " is no method of MCP's Streamable HTTP transport"
	}
	return 0, ""
}

// tunnel refuses a request that asks for anything but one HTTP exchange:
// an Upgrade (WebSocket, h2c) or a CONNECT would leave a raw stream of
// bytes between the host and the upstream, past the path, the
// credentials and every bound [PRX-7]. PRI is HTTP/2's preface, which
// the proxy does not speak.
func tunnel(r *http.Request) (int, string) {
	if _, ok := r.Header["Upgrade"]; ok || headerHasToken(r.Header["Connection"], "upgrade") {
		return http.StatusBadRequest, "the proxy opens no tunnel: a request with Upgrade is refused"
	}
	if r.Method == http.MethodConnect || r.Method == "PRI" {
		return http.StatusMethodNotAllowed, "the proxy opens no tunnel: " + r.Method + " is refused"
	}
	return 0, ""
}

// headerHasToken reports whether a comma-separated header holds token,
// in any case.
func headerHasToken(values []string, token string) bool {
	for _, v := range values {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// deny answers a request the proxy refuses, saying why, notes it (a
// bounded number of lines per minute, the rest counted), and closes the
// connection: a refused peer keeps no connection slot [PRX-9].
func (h *HTTP) deny(w http.ResponseWriter, code int, why string) {
	h.refusals.note(fmt.Sprint(code, " refusals"), "gcx proxy: refused a request (%d): %s", code, why)
	w.Header().Set("Connection", "close")
	if code == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gcx proxy"`)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	fmt.Fprintf(w, "gcx proxy: %s\n", why)
}

// bearerMatches compares a request's Authorization with the token in
// time that does not depend on where they differ.
func bearerMatches(authorization, token string) bool {
	got, ok := strings.CutPrefix(authorization, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// loopbackNames are the names of this machine every browser resolves to
// a loopback address without asking DNS.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// allowed returns the Host values and the origins the proxy admits: the
// loopback names (any port, for Host; the listen port, for Origin), the
// listen address's own host, and what the user added.
func allowed(opts HTTPOptions) (hosts, origins map[string]bool, err error) {
	hosts, origins = map[string]bool{}, map[string]bool{}
	listenHost, port := "", ""
	if opts.Listen != "" {
		if listenHost, port, err = net.SplitHostPort(opts.Listen); err != nil {
			return nil, nil, fmt.Errorf("--listen %q: %v", opts.Listen, err)
		}
	}
	names := loopbackNames
	if listenHost != "" && !isWildcard(listenHost) {
		names = append(names[:len(names):len(names)], strings.ToLower(listenHost))
	}
	for _, n := range names {
		hosts[n] = true
		if port != "" {
			for _, scheme := range []string{"http", "https"} {
				origins[canonicalOrigin(scheme+"://"+net.JoinHostPort(n, port))] = true
			}
		}
	}
	for _, a := range opts.AllowHosts {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" || strings.ContainsAny(a, "/@ ") {
			return nil, nil, fmt.Errorf("--allow-host %q: want a host name, or a host name and a port", a)
		}
		if name, port, err := net.SplitHostPort(a); err == nil {
			hosts[net.JoinHostPort(strings.TrimSuffix(name, "."), port)] = true
		} else {
			hosts[strings.TrimSuffix(strings.Trim(a, "[]"), ".")] = true
		}
	}
	for _, o := range opts.AllowOrigins {
		c := canonicalOrigin(o)
		if c == "" {
			return nil, nil, fmt.Errorf("--allow-origin %q: want scheme://host[:port], as a browser sends it", o)
		}
		origins[c] = true
	}
	return hosts, origins, nil
}

// hostAllowed reports whether a request's Host names the proxy: a name
// allowed with any port, or a name and port allowed together.
func (h *HTTP) hostAllowed(host string) bool {
	host = strings.ToLower(host)
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = strings.Trim(host, "[]"), ""
	}
	name = strings.TrimSuffix(name, ".")
	return name != "" && (h.hosts[name] || port != "" && h.hosts[net.JoinHostPort(name, port)])
}

// canonicalOrigin returns an origin as scheme://host:port, lower case,
// with the scheme's default port written out, or "" for no origin of the
// web (such as "null").
func canonicalOrigin(origin string) string {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port))
}

func isWildcard(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// IsLoopback reports whether a listen address's host is this machine
// alone: localhost or a loopback address. An empty host, which listens
// everywhere, is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// MinTokenBytes is the shortest token the proxy accepts: one that cannot
// be guessed in any number of tries a network allows.
const MinTokenBytes = 16

// CheckListen refuses to listen beyond this machine unless the user said
// so (public) and set a token the proxy checks [PRX-7].
func CheckListen(addr string, public bool, token string) error {
	if token != "" && len(token) < MinTokenBytes {
		return fmt.Errorf("a token of %d bytes is too short to keep strangers out: give at least %d", len(token), MinTokenBytes)
	}
	if IsLoopback(addr) {
		return nil
	}
	if !public {
		return fmt.Errorf("--listen %q is reachable from other machines; listen on 127.0.0.1 or localhost, or give --public with a token (--token-file) that every host must send", addr)
	}
	if token == "" {
		return fmt.Errorf("--public needs a token (--token-file or GCX_PROXY_TOKEN) that every host must send: without one, anyone who reaches %q reaches the server's tools", addr)
	}
	return nil
}

// Serve serves the proxy on ln until ctx ends, with the front's bounds:
// timeouts for headers, bodies and idle connections, a limit on headers,
// and connection slots that a refused peer cannot hold. It serves
// HTTP/1 alone: no h2c, whose upgrade or preface would carry streams the
// front door never sees. It then gives open streams ShutdownGrace to
// end. It returns nil when ctx ended it.
func (h *HTTP) Serve(ctx context.Context, ln net.Listener) error {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          h.reverse.ErrorLog,
		Protocols:         &protocols,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, slotKey{}, c)
		},
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(newSlots(ln, MaxConnections, MaxWaitingConnections)) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
		defer cancel()
		srv.Shutdown(shutdown)
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// Connection slots. A connection waits in the waiting pool until one of
// its requests passes the front door; it then takes a slot of its own,
// which it keeps until it closes. A full waiting pool closes its oldest
// connection to make room, and a refused request closes its connection:
// so peers that do not pass (no token, a foreign Host) can never hold the
// slots of those that do [PRX-9]. At most MaxConnections +
// MaxWaitingConnections connections are open at once.

// slotKey keys the request context's connection, a *slotConn.
type slotKey struct{}

// slots is a listener whose connections take their slots as above.
type slots struct {
	net.Listener
	admitted   chan struct{} // a slot held by each admitted connection
	maxWaiting int

	mu      sync.Mutex
	waiting slotList // oldest first
}

func newSlots(ln net.Listener, maxAdmitted, maxWaiting int) *slots {
	return &slots{Listener: ln, admitted: make(chan struct{}, maxAdmitted), maxWaiting: maxWaiting}
}

// Accept never waits for a slot: the new connection waits in the pool,
// in place of the oldest when the pool is full.
func (s *slots) Accept() (net.Conn, error) {
	c, err := s.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &slotConn{Conn: c, s: s, gone: make(chan struct{})}
	s.mu.Lock()
	s.waiting.push(sc)
	var evict *slotConn
	if s.waiting.n > s.maxWaiting {
		evict = s.waiting.head
		s.waiting.remove(evict)
	}
	s.mu.Unlock()
	if evict != nil {
		evict.Close()
	}
	return sc, nil
}

// admit gives the request's connection a slot, waiting for one while the
// connection is still open and the request wanted. A connection served
// without slots (a handler under another server) is admitted.
func (s *slots) admit(ctx context.Context, c *slotConn) bool {
	if c.isAdmitted() {
		return true
	}
	select {
	case s.admitted <- struct{}{}:
	case <-c.gone:
		return false
	case <-ctx.Done():
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.closed {
		<-s.admitted
		return false
	}
	s.waiting.remove(c)
	c.admitted = true
	return true
}

// slotConn is a connection and its place: in the waiting pool, or
// holding a slot.
type slotConn struct {
	net.Conn
	s          *slots
	prev, next *slotConn // in the waiting pool
	inList     bool
	admitted   bool // guarded by s.mu
	closed     bool // guarded by s.mu
	gone       chan struct{}
}

func (c *slotConn) isAdmitted() bool {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.admitted
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.closed {
		return err
	}
	c.closed = true
	close(c.gone)
	if c.admitted {
		<-c.s.admitted
	} else {
		c.s.waiting.remove(c)
	}
	return err
}

// slotList is a doubly linked list of waiting connections: each is added
// and removed in constant time.
type slotList struct {
	head, tail *slotConn
	n          int
}

func (l *slotList) push(c *slotConn) {
	c.prev, c.next, c.inList = l.tail, nil, true
	if l.tail != nil {
		l.tail.next = c
	} else {
		l.head = c
	}
	l.tail = c
	l.n++
}

func (l *slotList) remove(c *slotConn) {
	if !c.inList {
		return
	}
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		l.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		l.tail = c.prev
	}
	c.prev, c.next, c.inList = nil, nil, false
	l.n--
}

// redactURL returns a URL as the proxy prints it: its user and password
// and the values of its query (and a name without a value), where
// secrets travel, replaced by
// REDACTED, its fragment left out. Every line that names the upstream
// names it so.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unreadable URL)"
	}
	if u.User != nil {
		u.User = url.User("REDACTED")
	}
	if u.RawQuery != "" {
		var q strings.Builder
		for i, pair := range strings.Split(u.RawQuery, "&") {
			if i > 0 {
				q.WriteByte('&')
			}
			// A name without a value may itself be the secret.
			if name, _, hasValue := strings.Cut(pair, "="); hasValue {
				q.WriteString(name + "=REDACTED")
			} else if pair != "" {
				q.WriteString("REDACTED")
			}
		}
		u.RawQuery = q.String()
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
