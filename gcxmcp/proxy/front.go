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

// deny answers a request the proxy refuses, saying why, and notes it.
func (h *HTTP) deny(w http.ResponseWriter, code int, why string) {
	h.log.note(fmt.Sprint("refused ", code), "gcx proxy: refused a request (%d): %s", code, why)
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
// timeouts for headers, bodies and idle connections, a limit on headers
// and on connections at once. It then gives open streams ShutdownGrace
// to end. It returns nil when ctx ended it.
func (h *HTTP) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          h.reverse.ErrorLog,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(limitListener(ln, MaxConnections)) }()
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

// limitListener accepts at most n connections at once; the next waits
// for one to close.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, free: make(chan struct{}, n), closed: make(chan struct{})}
}

type limited struct {
	net.Listener
	free      chan struct{}
	closed    chan struct{}
	closeOnce sync.Once
}

func (l *limited) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.free <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.free
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.free }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// redactURL returns a URL with its password, if any, hidden.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unreadable URL)"
	}
	return u.Redacted()
}
