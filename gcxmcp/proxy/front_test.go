package proxy_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// serveProxy serves a proxy of upstreamURL as gcx proxy does, with
// HTTP.Serve on a loopback listener, and returns its address.
func serveProxy(t *testing.T, upstreamURL string, opts proxy.HTTPOptions) (*proxy.HTTP, string, *syncBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	opts.Log = log
	opts.Upstream = upstreamURL
	opts.Listen = ln.Addr().String()
	if opts.Binding.Mode == "" {
		opts.Binding.Mode = binding.ModeGCX
	}
	h, err := proxy.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return h, ln.Addr().String(), log
}

// tunnelUpstream switches to any protocol a request asks for, WebSocket
// or h2c, and then echoes raw bytes: what a tunnel through the proxy
// would reach. always makes it answer 101 to every request.
type tunnelUpstream struct {
	requests atomic.Int64
	always   bool
}

func (u *tunnelUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.requests.Add(1)
	upgrade := r.Header.Get("Upgrade")
	if upgrade == "" && !u.always {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		return
	}
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n", upgrade)
	rw.Flush()
	io.Copy(conn, rw)
}

// rawExchange sends raw on a new connection to addr and returns the
// status line of the answer, whether it said Connection: close, and
// whether the proxy closed the connection after it.
func rawExchange(t *testing.T, addr, raw string) (status string, saidClose, closed bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	// A second request on the same connection (one the proxy refuses,
	// so that it reaches no upstream): a closed connection answers
	// nothing.
	io.WriteString(c, "GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	_, err = br.ReadByte()
	return resp.Status, resp.Close, err != nil
}

// No Upgrade and no CONNECT passes: a WebSocket or h2c upgrade, to an
// upstream that would accept it, is refused before anything reaches the
// upstream, and so is HTTP/2's preface; the connection is closed after
// the refusal [PRX-7] [PRX-9]. A tunnel would carry raw bytes to any
// path, with any credentials, past every bound.
func TestHTTPOpensNoTunnel(t *testing.T) {
	u := &tunnelUpstream{}
	upstream := httptest.NewServer(u)
	defer upstream.Close()
	_, addr, log := serveProxy(t, upstream.URL+"/mcp", proxy.HTTPOptions{})
	for _, tc := range []struct {
		name, raw string
		want      int
	}{
		{"websocket", "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", 400},
		{"h2c", "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", 400},
		{"h2c on a POST", "POST /mcp HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive,  UPGRADE\r\nUpgrade: h2c\r\nContent-Length: 2\r\n\r\n{}", 400},
		{"Upgrade alone", "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\r\n", 400},
		{"Connection: upgrade alone", "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: upgrade\r\n\r\n", 400},
		{"CONNECT", "CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n\r\n", 405},
		{"HTTP/2 preface", "PRI * HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\nSM\r\n\r\n", 405},
	} {
		status, saidClose, closed := rawExchange(t, addr, tc.raw)
		if !strings.HasPrefix(status, fmt.Sprint(tc.want)) || !saidClose || !closed {
			t.Errorf("%s: %s (Connection: close %v), connection closed %v; want %d and closed", tc.name, status, saidClose, closed, tc.want)
		}
	}
	if n := u.requests.Load(); n != 0 {
		t.Errorf("the upstream was reached %d times", n)
	}
	if !strings.Contains(log.String(), "refused a request (400): the proxy opens no tunnel") {
		t.Errorf("the refusal is not reported:\n%s", log)
	}
	// A plain request still passes.
	body := `{"jsonrpc":"2.0","id":1,"method":"x"}`
	if status, _, _ := rawExchange(t, addr, fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)); !strings.HasPrefix(status, "200") {
		t.Errorf("a plain request: %s", status)
	}
}

// An upstream that switches protocols, asked or not, is answered 502:
// the host's connection never becomes a tunnel.
func TestHTTPUpstream101IsRefused(t *testing.T) {
	u := &tunnelUpstream{always: true}
	upstream := httptest.NewServer(u)
	defer upstream.Close()
	_, addr, _ := serveProxy(t, upstream.URL+"/mcp", proxy.HTTPOptions{})
	for _, raw := range []string{
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
		"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
	} {
		status, _, _ := rawExchange(t, addr, raw)
		if strings.HasPrefix(status, "101") || strings.HasPrefix(status, "2") {
			t.Errorf("%q: %s", raw, status)
		}
	}
}

// Peers that do not pass the front door hold no connection slot [PRX-9]:
// more refused connections than there are slots, each kept open after
// its 401, and as many more that send nothing, and then the host with
// the token still gets through at once, on a new connection and on the
// one it opened before them, which no stranger could close.
func TestHTTPRefusedPeersHoldNoSlot(t *testing.T) {
	if testing.Short() {
		t.Skip("opens over 2,000 connections")
	}
	u := newSessionUpstream()
	upstream := httptest.NewServer(u)
	defer upstream.Close()
	const token = "a-token-of-sixteen-bytes-or-more"
	_, addr, _ := serveProxy(t, upstream.URL+"/mcp", proxy.HTTPOptions{Token: token})
	notification := `{"jsonrpc":"2.0","method":"notifications/x"}`
	ping := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", token, len(notification), notification)
	kept, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	keptReader := bufio.NewReader(kept)
	pingKept := func(when string) {
		t.Helper()
		kept.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(kept, ping)
		resp, err := http.ReadResponse(keptReader, nil)
		if err != nil {
			t.Fatalf("the host's kept connection, %s: %v", when, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted || resp.Close {
			t.Fatalf("the host's kept connection, %s: %d, Connection: close %v", when, resp.StatusCode, resp.Close)
		}
	}
	pingKept("before the strangers")
	n := proxy.MaxConnections + 6
	var (
		mu    sync.Mutex
		conns []net.Conn
		wg    sync.WaitGroup
		work  = make(chan bool)
	)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for refused := range work {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					continue
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				if !refused {
					continue // a peer that sends nothing
				}
				c.SetDeadline(time.Now().Add(2 * time.Second))
				io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}")
				if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
					resp.Body.Close()
				}
			}
		}()
	}
	for i := range 2 * n {
		work <- i < n
	}
	close(work)
	wg.Wait()
	h := &host{t: t, url: "http://" + addr + "/mcp", header: http.Header{"Authorization": {"Bearer " + token}}}
	client := &http.Client{Timeout: 5 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`))
	req.Header = h.header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("the host with the token, after %d refused and %d silent connections: %v", n, n, err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("the host with the token: %d", resp.StatusCode)
	}
	t.Logf("the host got through in %v after %d refused and %d silent connections", time.Since(start).Round(time.Millisecond), n, n)
	pingKept("after the strangers")
}

// The upstream's URL may carry secrets: a user and password, an API key
// in its query. None is printed, at start or on an upstream error; the
// upstream's own query is sent with every request, and the host's is not.
func TestHTTPUpstreamSecrets(t *testing.T) {
	queries := make(chan string, 8)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries <- r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	secretURL := strings.Replace(upstream.URL, "http://", "http://alice:pa55word@", 1) + "/mcp?key=sk-SECRET1&token=SECRET2&SECRET3"
	h, addr, log := serveProxy(t, secretURL, proxy.HTTPOptions{})
	if got := h.Upstream(); strings.Contains(got, "SECRET") || strings.Contains(got, "pa55word") || strings.Contains(got, "alice") || !strings.Contains(got, "key=REDACTED") {
		t.Errorf("Upstream() = %q", got)
	}
	post := func() int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp?host=mine&key=forged", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(); code != 200 {
		t.Fatalf("status %d", code)
	}
	if got := <-queries; got != "key=sk-SECRET1&token=SECRET2&SECRET3" {
		t.Errorf("the upstream was asked with the query %q, want its own", got)
	}
	upstream.Close()
	if code := post(); code != http.StatusBadGateway {
		t.Errorf("status %d with the upstream gone", code)
	}
	if s := log.String(); !strings.Contains(s, "unreachable: connection refused") || strings.Contains(s, "SECRET") || strings.Contains(s, "pa55word") {
		t.Errorf("the log:\n%s", s)
	}
}
