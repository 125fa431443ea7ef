package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// fakeHTTPUpstream is a Streamable HTTP server for the tests: initialize
// is answered as JSON with a session id; tools/call as an event stream of
// a progress notification, a comment and the result, its data split over
// two lines; a GET opens a stream holding a sampling request. It records
// the headers and bodies it received.
type fakeHTTPUpstream struct {
	requests []*http.Request
	bodies   []string
}

const (
	fakeProgressEvent = "id: e1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":0.5}}\n\n"
	fakeComment       = ": keep-alive\n\n"
	fakeGETStream     = "retry: 1000\nid: g1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":5}}\r\n\r\n"
)

func (f *fakeHTTPUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, string(body))
	w.Header().Set("X-Seen-Last-Event-ID", r.Header.Get("Last-Event-ID"))
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, fakeGETStream)
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &msg)
	switch msg.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "session-1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"}}}`, msg.ID)
	case "tools/call":
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, fakeProgressEvent+fakeComment)
		fmt.Fprintf(w, "id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\ndata: \"result\":{\"content\":[{\"type\":\"text\",\"text\":\"[{\\\"a\\\": 1, \\\"b\\\": \\\"x\\\"}, {\\\"a\\\": 2, \\\"b\\\": \\\"y\\\"}]\"}]}}\n\n", msg.ID)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
	}
}

// Over Streamable HTTP the proxy passes requests, headers, session ids,
// resumption headers, event ids, comments and every event but a
// tools/call result as they came, and answers the result, whose data came
// in two lines, with one data line in GCX1, keeping the event's id.
func TestHTTPTransparentAndAnswers(t *testing.T) {
	fake := &fakeHTTPUpstream{}
	upstream := httptest.NewServer(fake)
	defer upstream.Close()
	var log bytes.Buffer
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, Log: &log}, Upstream: upstream.URL + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	post := func(body string, header ...string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, front.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	read := func(resp *http.Response) string {
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	initBody := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	resp := post(initBody)
	if got := resp.Header.Get("Mcp-Session-Id"); got != "session-1" {
		t.Errorf("session id %q", got)
	}
	if got := read(resp); !strings.Contains(got, `"serverInfo"`) {
		t.Errorf("initialize: %s", got)
	}
	notification := `{ "jsonrpc": "2.0", "method": "notifications/initialized" }`
	read(post(notification, "Mcp-Session-Id", "session-1", "Mcp-Protocol-Version", "2025-11-25"))
	callBody := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pairs","arguments":{}}}`
	stream := read(post(callBody, "Mcp-Session-Id", "session-1"))
	if !strings.HasPrefix(stream, fakeProgressEvent+fakeComment+"id: e2\ndata: {") || !strings.HasSuffix(stream, "}\n\n") {
		t.Errorf("the event stream:\n%q", stream)
	}
	result := strings.TrimSuffix(strings.TrimPrefix(stream, fakeProgressEvent+fakeComment+"id: e2\ndata: "), "\n\n")
	_, r, text := toolResult(t, result)
	if r.Meta[binding.MetaFormat] != "GCX1" || !strings.HasPrefix(text, "GCX1 tool=pairs fields=a,b rows=2\n") {
		t.Errorf("the result: format %v, text %q", r.Meta[binding.MetaFormat], text)
	}
	// A GET stream, resumed: the header reaches the upstream, the events
	// come back byte for byte.
	req, _ := http.NewRequest(http.MethodGet, front.URL+"/mcp", nil)
	req.Header.Set("Mcp-Session-Id", "session-1")
	req.Header.Set("Last-Event-ID", "e1")
	get, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if got := get.Header.Get("X-Seen-Last-Event-ID"); got != "e1" {
		t.Errorf("Last-Event-ID reached the upstream as %q", got)
	}
	if got := read(get); got != fakeGETStream {
		t.Errorf("GET stream:\n got %q\nwant %q", got, fakeGETStream)
	}
	// What the upstream received: every body as the host sent it, the
	// session id and protocol version headers.
	for i, want := range []string{initBody, notification, callBody, ""} {
		if fake.bodies[i] != want {
			t.Errorf("request %d reached the upstream as %q, want %q", i, fake.bodies[i], want)
		}
	}
	if got := fake.requests[1].Header.Get("Mcp-Protocol-Version"); got != "2025-11-25" || fake.requests[2].Header.Get("Mcp-Session-Id") != "session-1" {
		t.Errorf("headers reached the upstream as %v", fake.requests[1].Header)
	}
	if fake.requests[2].URL.Path != "/mcp" {
		t.Errorf("path %q", fake.requests[2].URL.Path)
	}
}

// An event longer than the limit passes untouched, as does a request body
// over it, and both are reported.
func TestHTTPOverLimit(t *testing.T) {
	big := strings.Repeat("z", 300_000)
	event := "id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"" + big + "\"}}\n\n"
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, event+event)
	}))
	defer upstream.Close()
	var log bytes.Buffer
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{MaxMessageBytes: 100_000, Log: &log}, Upstream: upstream.URL})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	resp, err := http.Post(front.URL, "application/json", strings.NewReader(`{"x":"`+big+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != event+event {
		t.Errorf("the events came back changed (%d bytes, want %d)", len(got), 2*len(event))
	}
	if n := strings.Count(log.String(), "longer than --max-message-bytes"); n < 3 {
		t.Errorf("%d messages over the limit reported, want 3:\n%s", n, log.String())
	}
}

// An upstream that dies in the middle of an event stream: the host gets
// what was sent and then the end of the stream, nothing hangs, and the
// proxy serves the next request.
func TestHTTPUpstreamDiesMidStream(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"ping"`) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":2,"result":{}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, fakeProgressEvent)
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer upstream.Close()
	var log bytes.Buffer
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Log: &log}, Upstream: upstream.URL + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	done := make(chan string, 1)
	go func() {
		resp, err := http.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`))
		if err != nil {
			done <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- string(b)
	}()
	select {
	case got := <-done:
		if !strings.HasPrefix(got, fakeProgressEvent) {
			t.Errorf("the host got %q, want the event sent before the upstream died", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the host still waits 20s after the upstream died")
	}
	resp, err := http.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("the next request got %q", b)
	}
	if !strings.Contains(log.String(), "gcx proxy: ") || !strings.Contains(log.String(), "unexpected EOF") {
		t.Errorf("the upstream's end is not reported: %q", log.String())
	}
}

// A server that names no session keeps nothing between requests, and
// neither does the proxy [PRX-8]: what one host's initialize said applies
// to no later request, its own or another host's. A sessionless call is
// decided by what it carries: a host that opts out on the call itself is
// not overruled; one that opted out in initialize alone cannot be told
// from a host that said nothing, and gets what the user opted in to.
func TestHTTPStatelessServerKeepsNothing(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(body), `"initialize"`) {
			io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`)
	}))
	defer upstream.Close()
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}}, Upstream: upstream.URL})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	const asJSON, asGCX = `"text":"[{\"a\":1},{\"a\":2}]"`, `"text":"GCX1 tool=t`
	for _, tc := range []struct{ caps, meta, want string }{
		{`{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}`, `{"io.github.gcxwire/accept":[]}`, asJSON}, // opted out on the call
		{`{"extensions":{"io.github.gcxwire/gcx":{"accept":[]}}}`, `{}`, asGCX},                               // in initialize only
		{`{}`, `{}`, asGCX}, // said nothing
		{`{"extensions":{"io.github.gcxwire/gcx":{"accept":["GCX1"]}}}`, `{"io.github.gcxwire/accept":[]}`, asJSON},
	} {
		for i, body := range []string{
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + tc.caps + `,"clientInfo":{"name":"h","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":` + tc.meta + `}}`,
		} {
			resp, err := http.Post(front.URL, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if i == 1 && !strings.Contains(string(got), tc.want) {
				t.Errorf("capabilities %s, _meta %s: the host got %s", tc.caps, tc.meta, got)
			}
		}
	}
	if n := h.Sessions(); n != 0 {
		t.Errorf("the proxy keeps %d sessions for a server that names none", n)
	}
}
