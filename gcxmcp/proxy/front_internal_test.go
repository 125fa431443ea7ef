package proxy

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// Every line that names the upstream names it through redactURL: no user,
// no password, no query value, no fragment.
func TestRedactor(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:3000/mcp", "http://127.0.0.1:3000/mcp"},
		{"https://alice:pa55@mcp.example/mcp", "https://REDACTED@mcp.example/mcp"},
		{"https://alice@mcp.example/mcp", "https://REDACTED@mcp.example/mcp"},
		{"https://mcp.example/mcp?key=sk-123&region=eu", "https://mcp.example/mcp?key=REDACTED&region=REDACTED"},
		{"https://mcp.example/mcp?sk-123", "https://mcp.example/mcp?REDACTED"},
		{"https://mcp.example/mcp?a=&&b", "https://mcp.example/mcp?a=REDACTED&&REDACTED"},
		{"https://mcp.example/mcp?key=sk-123#frag", "https://mcp.example/mcp?key=REDACTED"},
		{"http://u:p@[::1]:80/mcp?token=x", "http://REDACTED@[::1]:80/mcp?token=REDACTED"},
		{"http://a b/%zz?key=secret", "(an unreadable URL)"},
	} {
		if got := redactURL(tc.in); got != tc.want {
			t.Errorf("redactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Refusals are logged at a bounded rate that never falls silent for
// good: past the first notes of an interval they are counted, a summary
// says how many when the interval ends, and the next interval logs
// again. Kinds are counted apart.
func TestLoggerKeepsCounting(t *testing.T) {
	var out lockedBuffer
	h, err := NewHTTP(HTTPOptions{Options: Options{Log: &out}, Upstream: "http://127.0.0.1:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	h.refusals.interval, h.refusals.what = 100*time.Millisecond, "100ms"
	refuse := func(n int, host string) {
		for range n {
			req, _ := http.NewRequest(http.MethodPost, "http://"+host+"/mcp", strings.NewReader("{}"))
			h.ServeHTTP(discard{}, req)
		}
	}
	refuse(NotesPerInterval+15, "evil.example")
	refuse(3, "127.0.0.1/elsewhere") // 404: another kind
	waitFor(t, func() bool {
		return strings.Contains(out.String(), "gcx proxy: 15 more 403 refusals in the last 100ms\n")
	}, "summing up the 403 refusals")
	if got := strings.Count(out.String(), "refused a request (403)"); got != NotesPerInterval {
		t.Errorf("%d refusals printed in one interval, want %d", got, NotesPerInterval)
	}
	if got := strings.Count(out.String(), "refused a request (404)"); got != 3 || strings.Contains(out.String(), "404 refusals") {
		t.Errorf("%d refusals of another kind printed, or summed up though all were printed:\n%s", got, out.String())
	}
	refuse(2, "evil.example")
	if got := strings.Count(out.String(), "refused a request (403)"); got != NotesPerInterval+2 {
		t.Errorf("after the interval, %d refusals printed in all, want %d", got, NotesPerInterval+2)
	}
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// An event stream's line may end with CR alone: such an event is
// rewritten as soon as its blank line has come, not held until more
// bytes or the end of the stream, and it is rewritten as the same event
// with LF or CR LF endings is, whichever way the stream is cut.
func TestEventsBareCR(t *testing.T) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	result := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`
	newProxyWithCall := func() *Proxy {
		p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
		if err != nil {
			t.Fatal(err)
		}
		if p.fromHost(call).call == "" {
			t.Fatal("the call is not followed")
		}
		return p
	}
	// Rewritten at once, the stream still open.
	p := newProxyWithCall()
	src, feed := io.Pipe()
	var out lockedBuffer
	done := make(chan error, 1)
	go func() { done <- p.events(&out, src) }()
	go feed.Write([]byte("id: 7\rdata: " + result + "\r\r"))
	waitFor(t, func() bool { return strings.Contains(out.String(), "GCX1 tool=t") }, "rewriting an event ended by a bare CR while the stream is open")
	feed.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The same event under each ending, read whole or a byte at a time.
	var want string
	for _, end := range []string{"\n", "\r\n", "\r"} {
		for _, oneByte := range []bool{false, true} {
			p := newProxyWithCall()
			stream := "id: 7" + end + "data: " + result + end + end + ": after" + end
			var r io.Reader = strings.NewReader(stream)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			var b bytes.Buffer
			if err := p.events(&b, r); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			prefix, suffix := "id: 7"+end+"data: ", "\n"+end+": after"+end
			if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, suffix) {
				t.Fatalf("ending %q, one byte at a time %v: %q", end, oneByte, got)
			}
			data := strings.TrimSuffix(strings.TrimPrefix(got, prefix), suffix)
			if want == "" {
				want = data
			}
			if data != want || !strings.Contains(data, "GCX1 tool=t") {
				t.Errorf("ending %q, one byte at a time %v: data %q, want %q", end, oneByte, data, want)
			}
		}
	}
}

// An upstream's 101 is never relayed, whatever it switches to.
func TestModifyResponseRefuses101(t *testing.T) {
	h, err := NewHTTP(HTTPOptions{Upstream: "http://127.0.0.1:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/mcp", nil)
	for _, header := range []http.Header{{}, {"Connection": {"Upgrade"}, "Upgrade": {"websocket"}}} {
		resp := &http.Response{StatusCode: http.StatusSwitchingProtocols, Header: header, Body: http.NoBody, Request: req}
		if err := h.modifyResponse(resp); err == nil {
			t.Errorf("a 101 with %v was let through", header)
		}
	}
}
