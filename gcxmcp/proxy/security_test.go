package proxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// sessionUpstream is a Streamable HTTP server that begins a session of its
// own for every initialize, answers 404 for a session it did not begin,
// and answers tools/call with a table naming the call's argument "who",
// so that a host can tell its own answer from another's. hold, when set,
// delays every tools/call answer until it is closed.
type sessionUpstream struct {
	mu       sync.Mutex
	sessions map[string]bool
	next     int
	hold     chan struct{}
	requests atomic.Int64
	headers  []http.Header
	calls    atomic.Int64
}

func newSessionUpstream() *sessionUpstream { return &sessionUpstream{sessions: map[string]bool{}} }

func (u *sessionUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.requests.Add(1)
	body, _ := io.ReadAll(r.Body)
	u.mu.Lock()
	u.headers = append(u.headers, r.Header.Clone())
	id := r.Header.Get("Mcp-Session-Id")
	known := u.sessions[id]
	u.mu.Unlock()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Arguments struct {
				Who    string `json:"who"`
				Repeat int    `json:"repeat"` // who, this many times
			} `json:"arguments"`
		} `json:"params"`
	}
	json.Unmarshal(body, &msg)
	if msg.Method == "initialize" {
		u.mu.Lock()
		u.next++
		id = fmt.Sprintf("s%d", u.next)
		u.sessions[id] = true
		u.mu.Unlock()
		w.Header().Set("Mcp-Session-Id", id)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"u","version":"1"}}}`, msg.ID)
		return
	}
	if id != "" && !known {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	if r.Method == http.MethodDelete {
		u.mu.Lock()
		delete(u.sessions, id)
		u.mu.Unlock()
		return
	}
	if msg.Method != "tools/call" {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	u.calls.Add(1)
	if u.hold != nil {
		select {
		case <-u.hold:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	who := strings.Repeat(msg.Params.Arguments.Who, max(1, msg.Params.Arguments.Repeat))
	text, _ := json.Marshal(fmt.Sprintf(`[{"who":%q,"n":1},{"who":%q,"n":2}]`, who, who))
	fmt.Fprintf(w, "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\n\n", msg.ID, text)
}

// host is one MCP host talking to the proxy.
type host struct {
	t       *testing.T
	url     string
	session string
	header  http.Header
}

func (h *host) post(body string) (*http.Response, string) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	for k, v := range h.header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func (h *host) initialize(caps string) {
	h.t.Helper()
	resp, body := h.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"h","version":"1"}}}`)
	if resp.StatusCode != 200 || resp.Header.Get("Mcp-Session-Id") == "" {
		h.t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	h.session = resp.Header.Get("Mcp-Session-Id")
}

func (h *host) call(id int, who string) string {
	h.t.Helper()
	_, body := h.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{"who":%q}}}`, id, who))
	return body
}

func startProxy(t *testing.T, u http.Handler, opts proxy.HTTPOptions) (*proxy.HTTP, *httptest.Server, *syncBuffer) {
	t.Helper()
	upstream := httptest.NewServer(u)
	t.Cleanup(upstream.Close)
	log := &syncBuffer{}
	opts.Log = log
	opts.Upstream = upstream.URL + "/mcp"
	if opts.Binding.Mode == "" {
		opts.Binding.Mode = binding.ModeGCX
	}
	front := httptest.NewUnstartedServer(nil)
	opts.Listen = front.Listener.Addr().String()
	h, err := proxy.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	front.Config.Handler = h
	front.Start()
	t.Cleanup(front.Close)
	return h, front, log
}

// DNS rebinding: a page whose name resolves to 127.0.0.1 sends its own
// name in Host and its origin in Origin. Neither reaches the upstream
// [PRX-7]; the proxy's own names and origin, and what the user allows, do.
func TestHTTPRefusesForeignHostAndOrigin(t *testing.T) {
	u := newSessionUpstream()
	_, front, log := startProxy(t, u, proxy.HTTPOptions{AllowHosts: []string{"mcp.internal:9000"}, AllowOrigins: []string{"http://localhost:6274"}})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(front.URL, "http://"))
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example", "http://evil.example", 403},
		{"evil.example:" + port, "", 403},
		{"127.0.0.1:" + port, "http://evil.example", 403},
		{"127.0.0.1:" + port, "null", 403},
		{"localhost:" + port, "http://localhost:" + port + "0", 403}, // another port of this machine is another origin
		{"mcp.internal:9001", "", 403},
		{"127.0.0.1.evil.example", "", 403},
		{"127.0.0.1:" + port, "", 200},
		{"localhost:" + port, "http://localhost:" + port, 200},
		{"LOCALHOST.:" + port, "http://127.0.0.1:" + port, 200},
		{"[::1]:" + port, "", 200},
		{"mcp.internal:9000", "", 200},
		{"localhost:" + port, "http://localhost:6274", 200},
	} {
		before := u.requests.Load()
		req, _ := http.NewRequest(http.MethodPost, front.URL+"/mcp", strings.NewReader(init))
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		reached := u.requests.Load() > before
		if resp.StatusCode != tc.want || reached != (tc.want == 200) {
			t.Errorf("Host %q, Origin %q: status %d, upstream reached %v; want %d", tc.host, tc.origin, resp.StatusCode, reached, tc.want)
		}
	}
	if !strings.Contains(log.String(), `refused a request (403): Host "evil.example" is not allowed`) {
		t.Errorf("the refusal is not reported:\n%s", log)
	}
}

// Only the MCP endpoint is passed on: the upstream's other paths (a debug
// page, say) are not the host's to reach, nor are other methods.
func TestHTTPOnlyTheEndpoint(t *testing.T) {
	u := newSessionUpstream()
	_, front, _ := startProxy(t, u, proxy.HTTPOptions{})
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/debug/pprof/", 404},
		{"POST", "/mcp/../admin", 404},
		{"POST", "/", 404},
		{"PUT", "/mcp", 405},
		{"OPTIONS", "/mcp", 405},
	} {
		req, _ := http.NewRequest(tc.method, front.URL+tc.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
		}
	}
	if n := u.requests.Load(); n != 0 {
		t.Errorf("the upstream was reached %d times", n)
	}
}

// One host's requests never change what another receives [PRX-8]: a
// sessionless request makes no state; each session keeps its own opt-out
// and its own calls in flight, though both number their calls from 1.
func TestHTTPSessionsApart(t *testing.T) {
	u := newSessionUpstream()
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{})
	stranger := &host{t: t, url: front.URL + "/mcp"}
	if resp, _ := stranger.post(`{"jsonrpc":"2.0","id":9,"method":"ping"}`); resp.StatusCode != 202 {
		t.Fatalf("ping: %d", resp.StatusCode)
	}
	stranger.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if n := h.Sessions(); n != 0 {
		t.Fatalf("sessionless requests made %d sessions", n)
	}
	optedOut := &host{t: t, url: front.URL + "/mcp"}
	optedOut.initialize(`{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}`)
	silent := &host{t: t, url: front.URL + "/mcp"}
	silent.initialize(`{}`)
	if n := h.Sessions(); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}
	u.hold = make(chan struct{})
	var wg sync.WaitGroup
	got := make([]string, 2)
	for i, hst := range []*host{optedOut, silent} {
		wg.Go(func() { got[i] = hst.call(1, hst.session) })
	}
	for u.calls.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	if n := h.Pending(); n != 2 {
		t.Errorf("%d calls in flight, want 2 (one per session, both id 1)", n)
	}
	close(u.hold)
	wg.Wait()
	if !strings.Contains(got[0], `[{\"who\":\"`+optedOut.session) || strings.Contains(got[0], "GCX1 tool") {
		t.Errorf("the host that opted out got %s", got[0])
	}
	if !strings.Contains(got[1], `"text":"GCX1 tool=t fields=who,n rows=2\n`+silent.session+`\t1`) {
		t.Errorf("the host that said nothing got %s", got[1])
	}
	if n := h.Pending(); n != 0 {
		t.Errorf("%d calls still in flight", n)
	}
}

// Made-up session ids, thousands of them, neither make state nor evict a
// real host's: its opt-out is still kept afterwards [PRX-8]. The calls
// the upstream refuses leave nothing behind.
func TestHTTPStrangersCannotEvict(t *testing.T) {
	u := newSessionUpstream()
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{MaxSessions: 8})
	real := &host{t: t, url: front.URL + "/mcp"}
	real.initialize(`{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}`)
	big := strings.Repeat("x", 100<<10)
	for i := range 3000 {
		s := &host{t: t, url: front.URL + "/mcp", session: fmt.Sprintf("made-up-%d", i)}
		if i%100 == 0 {
			s.session += big
		}
		resp, _ := s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":{}}}`, i, strings.Repeat("n", 100)))
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a made-up session: %d", resp.StatusCode)
		}
	}
	if n, p := h.Sessions(), h.Pending(); n != 1 || p != 0 {
		t.Errorf("after 3000 refused calls: %d sessions, %d calls in flight; want 1 and 0", n, p)
	}
	if got := real.call(1, "me"); strings.Contains(got, "GCX1 tool") {
		t.Errorf("the real host's opt-out was forgotten: %s", got)
	}
}

// A full table of sessions refuses a new one rather than drop a session
// in use [PRX-8]; a DELETE or the upstream's 404 frees a place.
func TestHTTPSessionTableFull(t *testing.T) {
	u := newSessionUpstream()
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{MaxSessions: 2})
	a := &host{t: t, url: front.URL + "/mcp"}
	a.initialize(`{}`)
	b := &host{t: t, url: front.URL + "/mcp"}
	b.initialize(`{}`)
	c := &host{t: t, url: front.URL + "/mcp"}
	resp, body := c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "keeps 2 sessions") {
		t.Errorf("a third session: %d %s", resp.StatusCode, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, a.url, nil)
	req.Header.Set("Mcp-Session-Id", a.session)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	u.mu.Lock()
	delete(u.sessions, b.session) // the upstream forgets b
	u.mu.Unlock()
	if got := b.call(1, "b"); !strings.Contains(got, "no such session") {
		t.Fatalf("b: %s", got)
	}
	if n := h.Sessions(); n != 0 {
		t.Errorf("%d sessions after a DELETE and a 404, want 0", n)
	}
	c.initialize(`{}`)
}

// A session's calls in flight are bounded: the call beyond is refused
// with a JSON-RPC error, and never reaches the upstream [PRX-9].
func TestHTTPCallsBoundedPerSession(t *testing.T) {
	u := newSessionUpstream()
	u.hold = make(chan struct{})
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{Options: proxy.Options{MaxCalls: 2}})
	a := &host{t: t, url: front.URL + "/mcp"}
	a.initialize(`{}`)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() { a.call(i, "a") })
	}
	for u.calls.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	got := a.call(7, "a")
	var refusal struct {
		ID    int
		Error struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(got), &refusal); err != nil || refusal.ID != 7 || refusal.Error.Code != proxy.RefusalCode || !strings.Contains(refusal.Error.Message, "2 tools/call requests in flight") {
		t.Errorf("the third call: %s", got)
	}
	if n := u.calls.Load(); n != 2 {
		t.Errorf("the upstream got %d calls, want 2", n)
	}
	close(u.hold)
	wg.Wait()
	if n := h.Pending(); n != 0 {
		t.Errorf("%d calls in flight after all were answered", n)
	}
}

// A call whose host went away leaves the table: the host's disconnect
// ends the exchange, and with it the call [PRX-6].
func TestHTTPAbortedCallsLeave(t *testing.T) {
	u := newSessionUpstream()
	u.hold = make(chan struct{})
	defer close(u.hold)
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{})
	a := &host{t: t, url: front.URL + "/mcp"}
	a.initialize(`{}`)
	const n = 50
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{}}}`, i)))
			req.Header.Set("Mcp-Session-Id", a.session)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		})
	}
	for u.calls.Load() < n {
		time.Sleep(time.Millisecond)
	}
	if p := h.Pending(); p != n {
		t.Errorf("%d calls in flight, want %d", p, n)
	}
	cancel()
	wg.Wait()
	waitFor(t, func() bool { return h.Pending() == 0 }, "the aborted calls to leave the table")
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The host's credentials for the proxy's address are not the upstream's:
// Authorization and Cookie are dropped unless the user asks, the proxy's
// own token is checked and never passed on, and the upstream gets its own
// credentials [PRX-7].
func TestHTTPCredentials(t *testing.T) {
	const token = "0123456789abcdef-token"
	for _, tc := range []struct {
		name               string
		opts               proxy.HTTPOptions
		userinfo           bool
		send               http.Header
		status             int
		wantAuth, wantCook string
	}{
		{name: "dropped", send: http.Header{"Authorization": {"Bearer host-secret"}, "Cookie": {"sid=host-secret"}}, status: 200},
		{name: "forwarded", opts: proxy.HTTPOptions{ForwardCredentials: true}, send: http.Header{"Authorization": {"Bearer host-secret"}, "Cookie": {"sid=host-secret"}}, status: 200, wantAuth: "Bearer host-secret", wantCook: "sid=host-secret"},
		{name: "no token", opts: proxy.HTTPOptions{Token: token}, status: 401},
		{name: "wrong token", opts: proxy.HTTPOptions{Token: token}, send: http.Header{"Authorization": {"Bearer " + token + "x"}}, status: 401},
		{name: "token", opts: proxy.HTTPOptions{Token: token, ForwardCredentials: true}, send: http.Header{"Authorization": {"Bearer " + token}}, status: 200},
		{name: "upstream's own", opts: proxy.HTTPOptions{UpstreamHeader: http.Header{"X-Api-Key": {"upstream-key"}}}, send: http.Header{"Authorization": {"Bearer host-secret"}}, status: 200},
		{name: "userinfo", userinfo: true, status: 200, wantAuth: "Basic dXNlcjpwYXNzd29yZA=="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newSessionUpstream()
			upstream := httptest.NewServer(u)
			defer upstream.Close()
			log := &syncBuffer{}
			tc.opts.Log = log
			tc.opts.Upstream = upstream.URL + "/mcp"
			if tc.userinfo {
				tc.opts.Upstream = strings.Replace(upstream.URL, "http://", "http://user:password@", 1) + "/mcp"
			}
			h, err := proxy.NewHTTP(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(h.Upstream(), "password") {
				t.Errorf("the upstream is named with its password: %s", h.Upstream())
			}
			front := httptest.NewServer(h)
			defer front.Close()
			a := &host{t: t, url: front.URL + "/mcp", header: tc.send}
			resp, _ := a.post(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
			if resp.StatusCode/100 != tc.status/100 {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 200 {
				if u.requests.Load() != 0 {
					t.Error("a refused request reached the upstream")
				}
				return
			}
			got := u.headers[0]
			if got.Get("Authorization") != tc.wantAuth || got.Get("Cookie") != tc.wantCook {
				t.Errorf("the upstream got Authorization %q, Cookie %q", got.Get("Authorization"), got.Get("Cookie"))
			}
			if tc.opts.UpstreamHeader != nil && got.Get("X-Api-Key") != "upstream-key" {
				t.Errorf("the upstream's own header did not reach it: %v", got)
			}
			if strings.Contains(log.String(), "secret") || strings.Contains(log.String(), "password") || strings.Contains(log.String(), token) {
				t.Errorf("a credential is in the log: %s", log)
			}
		})
	}
}

// A listen address other machines can reach needs the user's word and a
// token [PRX-7].
func TestCheckListen(t *testing.T) {
	const token = "0123456789abcdef"
	for _, tc := range []struct {
		addr   string
		public bool
		token  string
		ok     bool
	}{
		{"127.0.0.1:8931", false, "", true},
		{"localhost:8931", false, "", true},
		{"[::1]:8931", false, "", true},
		{"127.8.9.10:8931", false, "", true},
		{":8931", false, "", false},
		{"0.0.0.0:8931", false, "", false},
		{"[::]:8931", false, "", false},
		{"0.0.0.0:8931", true, "", false},
		{"0.0.0.0:8931", false, token, false},
		{"0.0.0.0:8931", true, token, true},
		{"192.0.2.7:8931", true, token, true},
		{"0.0.0.0:8931", true, "short", false},
		{"example.com:8931", false, "", false},
	} {
		err := proxy.CheckListen(tc.addr, tc.public, tc.token)
		if (err == nil) != tc.ok {
			t.Errorf("CheckListen(%q, %v, %q) = %v", tc.addr, tc.public, tc.token, err)
		}
	}
}

// A request whose body trickles in is cut once the body timeout passes;
// an answer that streams for longer than that is not [PRX-9].
func TestHTTPSlowBodyCut(t *testing.T) {
	stream := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-stream
		io.WriteString(w, fakeProgressEvent)
	}))
	defer upstream.Close()
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Upstream: upstream.URL + "/mcp", BodyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	start := time.Now()
	for range 20 {
		if _, err := conn.Write([]byte(" ")); err != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	status, _ := bufio.NewReader(conn).ReadString('\n')
	if !strings.Contains(status, "408") && status != "" {
		t.Errorf("a body sent a byte every 100ms got %q", status)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("the slow body was held for %v", time.Since(start))
	}
	// A stream that outlasts the body timeout is not cut.
	go func() { time.Sleep(time.Second); close(stream) }()
	resp, err := http.Post("http://"+ln.Addr().String()+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != fakeProgressEvent {
		t.Errorf("a stream of 1s through a body timeout of 300ms: %q, %v", b, err)
	}
}

// Many hosts at once, hundreds of calls in flight, some hosts going away,
// strangers with made-up sessions: every answer reaches its own host, and
// afterwards the proxy holds no call and no more memory than before.
func TestHTTPLoad(t *testing.T) {
	u := newSessionUpstream()
	h, front, _ := startProxy(t, u, proxy.HTTPOptions{})
	baseline := heapInUse()
	const hosts, calls = 8, 40
	var wg sync.WaitGroup
	errs := make(chan string, hosts*calls)
	for i := range hosts {
		wg.Go(func() {
			a := &host{t: t, url: front.URL + "/mcp"}
			a.initialize(`{}`)
			var inner sync.WaitGroup
			for j := range calls {
				inner.Go(func() {
					if i%4 == 3 && j%2 == 1 {
						// This host gives up on half its calls.
						ctx, cancel := context.WithTimeout(context.Background(), time.Duration(j%5)*time.Millisecond)
						defer cancel()
						req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{"who":"x"}}}`, j)))
						req.Header.Set("Mcp-Session-Id", a.session)
						if resp, err := http.DefaultClient.Do(req); err == nil {
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
						}
						return
					}
					who := fmt.Sprintf("%s-%d", a.session, j)
					got := a.call(j, who)
					if !strings.Contains(got, fmt.Sprintf(`"id":%d,`, j)) || !strings.Contains(got, `rows=2\n`+who+`\t1\n`) {
						errs <- fmt.Sprintf("host %s call %d got %s", a.session, j, got)
					}
				})
			}
			stranger := &host{t: t, url: front.URL + "/mcp", session: fmt.Sprintf("nope-%d", i)}
			for j := range calls {
				stranger.call(j, "x")
			}
			inner.Wait()
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	waitFor(t, func() bool { return h.Pending() == 0 }, "every call to leave the table")
	if n := h.Sessions(); n != hosts {
		t.Errorf("%d sessions, want %d", n, hosts)
	}
	http.DefaultClient.CloseIdleConnections()
	if after := heapInUse(); after > baseline+8<<20 {
		t.Errorf("the heap grew from %d to %d bytes and stayed", baseline, after)
	}
}

// heapInUse returns the bytes the heap holds after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
