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
