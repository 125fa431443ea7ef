package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// roundTrip is an upstream in memory, for the fuzz targets: it counts the
// requests that reach it and answers with the response fuzzed for it.
type roundTrip struct {
	reached  int
	response string
}

func (u *roundTrip) RoundTrip(r *http.Request) (*http.Response, error) {
	u.reached++
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(u.response)), r)
	if err != nil {
		return &http.Response{StatusCode: 502, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	}
	return resp, nil
}

// Any request a stranger can send, answered by any response an upstream
// can make: never a panic; a request refused at the front never reaches
// the upstream; a request with a foreign Host or Origin is refused; and
// nothing is left behind — no call in flight, no session but one an
// initialize through the proxy began [PRX-6] to [PRX-9].
func FuzzHTTPFront(f *testing.F) {
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`
	result := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1}]"}]}}`
	for _, seed := range []struct{ method, path, header, body, response string }{
		{"POST", "/mcp", "Host: 127.0.0.1\r\n", initialize, "HTTP/1.1 200 OK\r\nMcp-Session-Id: s1\r\nContent-Type: application/json\r\n\r\n" + `{"jsonrpc":"2.0","id":0,"result":{}}`},
		{"POST", "/mcp", "Host: localhost\r\nMcp-Session-Id: s1\r\n", call, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: " + result + "\n\n"},
		{"POST", "/mcp", "Host: evil.example\r\nOrigin: http://evil.example\r\n", call, "HTTP/1.1 200 OK\r\n\r\n"},
		{"GET", "/mcp", "Host: [::1]:1\r\nLast-Event-ID: 3\r\n", "", "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nid: 4\ndata: {\"id\":1,\ndata: \"result\":{}}\n\n"},
		{"DELETE", "/mcp", "Host: 127.0.0.1\r\nMcp-Session-Id: s1\r\n", "", "HTTP/1.1 404 Not Found\r\n\r\n"},
		{"POST", "/other", "Host: 127.0.0.1\r\n", call, "HTTP/1.1 200 OK\r\n\r\n"},
		{"POST", "/mcp", "Host: 127.0.0.1\r\nMcp-Session-Id: \x00\r\n", call, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + result},
		// Tunnels: refused before the upstream, which would switch.
		{"GET", "/mcp", "Host: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n", "", "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"},
		{"POST", "/mcp", "Host: 127.0.0.1\r\nConnection: keep-alive, HTTP2-Settings, upgrade\r\nUpgrade: h2c\r\n", call, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"},
		{"CONNECT", "127.0.0.1:8931", "Host: 127.0.0.1:8931\r\n", "", "HTTP/1.1 200 OK\r\n\r\n"},
		{"PRI", "*", "Host: 127.0.0.1\r\n", "", "HTTP/1.1 200 OK\r\n\r\n"},
		// An upstream that switches unasked, and events ended by bare CRs.
		{"POST", "/mcp", "Host: 127.0.0.1\r\n", call, "HTTP/1.1 101 Switching Protocols\r\n\r\n"},
		{"POST", "/mcp?key=forged", "Host: 127.0.0.1\r\n", call, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nid: 1\rdata: " + result + "\r\r"},
		{"POST", "/mcp", "Host: 127.0.0.1\r\n", call, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {\"id\":1,\rdata: \"result\":{}}\r\n\r\n\r"},
	} {
		f.Add(seed.method, seed.path, seed.header, seed.body, seed.response)
	}
	f.Fuzz(func(t *testing.T, method, path, header, body, response string) {
		raw := fmt.Sprintf("%s %s HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s", method, path, header, len(body), body)
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			return
		}
		u := &roundTrip{response: response}
		h, err := NewHTTP(HTTPOptions{Options: Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxMessageBytes: 1 << 12, MaxCalls: 2}, Upstream: "http://upstream.test/mcp", Listen: "127.0.0.1:8931"})
		if err != nil {
			t.Fatal(err)
		}
		h.reverse.Transport = u
		req.RemoteAddr = "127.0.0.1:1"
		code, _ := h.admit(req)
		tunnel := req.Method == http.MethodConnect || req.Method == "PRI" || req.Header["Upgrade"] != nil || headerHasToken(req.Header["Connection"], "upgrade")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		io.Copy(io.Discard, w.Result().Body)
		if code != 0 && u.reached != 0 {
			t.Fatalf("a request refused with %d reached the upstream", code)
		}
		if code != 0 && w.Result().Header.Get("Connection") != "close" {
			t.Fatalf("a request refused with %d left its connection open", code)
		}
		if tunnel && (code == 0 || u.reached != 0) {
			t.Fatalf("a tunnel (%s, Upgrade %q) was let through", req.Method, req.Header.Get("Upgrade"))
		}
		if w.Code == http.StatusSwitchingProtocols {
			t.Fatal("the upstream's 101 was relayed")
		}
		if !h.hostAllowed(req.Host) && code == 0 {
			t.Fatalf("Host %q was admitted", req.Host)
		}
		if o := req.Header.Get("Origin"); o != "" && code == 0 && !h.origins[canonicalOrigin(o)] {
			t.Fatalf("Origin %q was admitted", o)
		}
		if n := h.Pending(); n != 0 {
			t.Fatalf("%d calls left in flight after the exchange", n)
		}
		if n := h.Sessions(); n > 1 || n == 1 && !strings.Contains(body, "initialize") {
			t.Fatalf("%d sessions after one request", n)
		}
	})
}

// Any event stream passes through byte for byte when no call is in
// flight, whatever its lines, fields and line endings (CR LF, LF, a bare
// CR), read whole or a byte at a time.
func FuzzEvents(f *testing.F) {
	for _, seed := range []string{
		"id: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		": comment\r\n\r\nretry: 10\ndata:x\ndata: y\n\n",
		"data: " + strings.Repeat("z", 5000) + "\n\ndata: {}\n",
		"\n\n\n", "data", "event: message\r\ndata: {\"id\":1,\r\ndata: \"error\":{}}\r\n\r\n",
		"id: 1\rdata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\r", "data: x\r\r\n\n\r\r\n", "\r\n\r\r\n\n\r",
		"data: " + strings.Repeat("z", 5000) + "\r\rdata: {}\r",
	} {
		f.Add(seed, 100)
	}
	f.Fuzz(func(t *testing.T, stream string, limit int) {
		if limit <= 0 || limit > 1<<16 {
			return
		}
		for _, oneByte := range []bool{false, true} {
			p, err := New(Options{MaxMessageBytes: limit})
			if err != nil {
				t.Fatal(err)
			}
			var src io.Reader = strings.NewReader(stream)
			if oneByte {
				src = iotest.OneByteReader(src)
			}
			var out bytes.Buffer
			if err := p.events(&out, src); err != nil {
				t.Fatal(err)
			}
			if out.String() != stream {
				t.Fatalf("one byte at a time %v, the stream changed:\n got %q\nwant %q", oneByte, out.String(), stream)
			}
			if free := p.budget.b.free; free != DefaultMaxBufferedBytes {
				t.Fatalf("the budget holds %d bytes after the stream", DefaultMaxBufferedBytes-free)
			}
		}
	})
}

// The id scanner, which reads a message passing untouched in pieces,
// finds the id a JSON parser finds in a response, and none elsewhere,
// wherever the message is cut.
func FuzzIDScanner(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"result":{"id":5,"x":[{"id":6}]},"id":"a\"b"}`,
		`{"\u0069d":7,"error":{}}`,
		`{"id" : -1.5e3 , "result":null}`,
		`{"method":"x","id":2}`,
		`{"id":{"x":1},"result":1}`,
		`[{"id":1,"result":1}]`,
	} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, msg string, cut int) {
		v, err := jsonmap.Parse([]byte(msg))
		if err != nil || v.Kind != jsonmap.Object {
			return
		}
		var s idScanner
		if cut < 0 || cut > len(msg) {
			cut = len(msg) / 2
		}
		s.write([]byte(msg[:cut]))
		s.write([]byte(msg[cut:]))
		got, ok := s.responseID()
		id, hasID := v.Lookup("id")
		_, hasResult := v.Lookup("result")
		_, hasError := v.Lookup("error")
		want := hasID && (hasResult || hasError) && (id.Kind == jsonmap.String || id.Kind == jsonmap.Number || id.Kind == jsonmap.Null)
		if want && len(idKey(id)) <= MaxIDBytes && (!ok || got != idKey(id)) {
			t.Fatalf("%s: scanned %q, %v; want %q", msg, got, ok, idKey(id))
		}
		if ok && (!hasID || got != idKey(id)) {
			t.Fatalf("%s: scanned %q, want none or %q", msg, got, idKey(id))
		}
	})
}
