package proxy_test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// Connections that each send a body of spaces and hold back its last byte
// hold no more than the hosts' half of the shared budget, so another
// session still begins, is followed, and gets GCX1 [PRX-9]. Before the
// budget had shares, four such bodies held it all for the body timeout:
// the other session's initialize passed unread, it was never followed,
// and its calls got JSON for its whole life (issue 36).
func TestHTTPNoPeerHoldsTheBudget(t *testing.T) {
	const message = 1 << 20
	h, front, _ := startProxy(t, newSessionUpstream(), proxy.HTTPOptions{
		Options:     proxy.Options{MaxMessageBytes: message, MaxBufferedBytes: 4 * message},
		BodyTimeout: 20 * time.Second,
	})
	_ = h
	addr := strings.TrimPrefix(front.URL, "http://")
	for i := range 6 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, message)
		if _, err := conn.Write([]byte(strings.Repeat(" ", message-1))); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
	}
	time.Sleep(500 * time.Millisecond) // the proxy reads what was sent
	victim := &host{t: t, url: front.URL + "/mcp"}
	victim.initialize(`{}`)
	if got := victim.call(1, "v"); !strings.Contains(got, "GCX1 tool=t") {
		t.Errorf("while bodies held back their last byte, another session got %s", got)
	}
}

// An initialize too long for the connection's own bytes, sent while slow
// bodies fill the hosts' half of the budget, passes unread but is read
// as it passes: its session is followed and gets GCX1 [PRX-8] [PRX-9].
// Before, it passed unread and its session was never followed (issue 36).
func TestHTTPLongInitializeWhileBusyIsFollowed(t *testing.T) {
	const message = 1 << 20
	_, front, log := startProxy(t, newSessionUpstream(), proxy.HTTPOptions{
		Options:     proxy.Options{MaxMessageBytes: message, MaxBufferedBytes: 4 * message},
		BodyTimeout: 20 * time.Second,
	})
	holdBodies(t, front.URL, 8, message)
	victim := &host{t: t, url: front.URL + "/mcp"}
	// A long string (clipped as it is read), escapes, a surrogate pair
	// and a long array before the binding's member.
	pad := strings.Repeat(`x\"\u00e9\ud83d\ude00`, 40<<10)
	victim.initialize(`{"experimental":{"pad":"` + pad + `","list":[` + strings.Repeat(`1,`, 40<<10) + `1]},"extensions":{"io.github.gcxwire/gcx":{"accept":["GCX1"]}}}`)
	if !strings.Contains(log.String(), "from the host came while the proxy already held") {
		t.Fatalf("the initialize was read whole, not while the budget was short; log:\n%s", log.String())
	}
	if got := victim.call(1, "v"); !strings.Contains(got, "GCX1 tool=t") {
		t.Errorf("a session whose long initialize passed while the budget was short got %s", got)
	}
}

// holdBodies opens n connections that each send a body of size spaces
// but its last byte, and waits for the proxy to read what they sent.
func holdBodies(t *testing.T, url string, n, size int) {
	t.Helper()
	addr := strings.TrimPrefix(url, "http://")
	for i := range n {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, size)
		if _, err := conn.Write([]byte(strings.Repeat(" ", size-1))); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
	}
	time.Sleep(500 * time.Millisecond) // the proxy reads what was sent
}
