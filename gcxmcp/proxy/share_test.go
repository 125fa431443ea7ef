package proxy_test

import (
	"fmt"
	"net"
	"strings"
	"syscall"
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
	time.Sleep(time.Second) // the proxy reads what was sent
}

// Many peers together cannot turn GCX1 off for another: eight sessions
// whose hosts leave large results unread on their event streams, and
// eight connections holding back their bodies' last byte, fill the whole
// budget; a session that begins after UnreadGrace is still followed and
// gets GCX1, for the oldest unread stream gives way [PRX-9]. Before,
// about four unread streams held the results' half of the budget for as
// long as their hosts liked (issue 36).
func TestHTTPManyPeersHoldNoBudget(t *testing.T) {
	const message = 8 << 20
	u := newSessionUpstream()
	_, front, _ := startProxy(t, u, proxy.HTTPOptions{
		Options:     proxy.Options{MaxMessageBytes: message, MaxBufferedBytes: 4 * message},
		BodyTimeout: 60 * time.Second,
	})
	addr := strings.TrimPrefix(front.URL, "http://")
	for i := range 8 {
		peer := &host{t: t, url: front.URL + "/mcp"}
		peer.initialize(`{}`)
		// A host that reads nothing, with a small receive window so that
		// the kernel's buffers hold little of what the proxy writes.
		d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { setReceiveBuffer(fd, 4<<10) })
		}}
		conn, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		call := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{"who":"x","repeat":%d}}}`, i, 5<<19)
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s", addr, peer.session, len(call), call)
	}
	holdBodies(t, front.URL, 8, message/4)
	time.Sleep(proxy.UnreadGrace + time.Second)
	victim := &host{t: t, url: front.URL + "/mcp"}
	victim.initialize(`{}`)
	// A result of 4 MB: more than the room the unread streams and the
	// bodies leave.
	_, got := victim.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"who":"v","repeat":2097152}}}`)
	if !strings.Contains(got[:min(len(got), 200)], "GCX1 tool=t") {
		t.Errorf("while eight sessions left their results unread and eight bodies held back their last byte, another session got %.200s", got)
	}
}

// A call too long for the connection's own bytes, sent while slow bodies
// fill the hosts' half of the budget, passes unread but is read as it
// passes: it is followed, and its result is GCX1 [PRX-9].
func TestHTTPLongCallWhileBusyIsFollowed(t *testing.T) {
	const message = 1 << 20
	_, front, log := startProxy(t, newSessionUpstream(), proxy.HTTPOptions{
		Options:     proxy.Options{MaxMessageBytes: message, MaxBufferedBytes: 4 * message},
		BodyTimeout: 20 * time.Second,
	})
	victim := &host{t: t, url: front.URL + "/mcp"}
	victim.initialize(`{}`)
	holdBodies(t, front.URL, 8, message)
	_, got := victim.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"who":"v","pad":"` + strings.Repeat("x", 300<<10) + `"}}}`)
	if !strings.Contains(log.String(), "from the host came while the proxy already held") {
		t.Fatalf("the call was read whole, not while the budget was short; log:\n%s", log.String())
	}
	if !strings.Contains(got, "GCX1 tool=t") {
		t.Errorf("a long call sent while the budget was short got %.300s", got)
	}
}

// A call over the message limit is not followed, though it is read as it
// passes: its result passes untouched [PRX-6].
func TestHTTPCallOverTheLimitNotFollowed(t *testing.T) {
	const message = 100 << 10
	_, front, _ := startProxy(t, newSessionUpstream(), proxy.HTTPOptions{
		Options: proxy.Options{MaxMessageBytes: message},
	})
	victim := &host{t: t, url: front.URL + "/mcp"}
	victim.initialize(`{}`)
	_, got := victim.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"who":"v","pad":"` + strings.Repeat("x", message) + `"}}}`)
	if !strings.Contains(got, `"result":{"content":[{"type":"text","text":"[{\"who\":\"v\"`) {
		t.Errorf("a call over the limit got %.300s", got)
	}
}
