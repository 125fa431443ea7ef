package proxy_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	stdlog "log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// An upstream that gives no answer gives the host a 502 whose body says
// why in one line of plain text, naming the upstream by scheme, host,
// port and path only: its user, password, query and fragment (where API
// keys go) appear neither there nor in the log. An upstream that answers,
// even with an error status, is passed on as it answered.
func TestHTTPBadGatewaySaysWhy(t *testing.T) {
	downAddr := refusedAddr(t)
	// An upstream that accepts and hangs up at once, and one that answers
	// what is not HTTP.
	hangUp := listenAndDo(t, func(c net.Conn) { c.Close() })
	// It reads the whole request before it answers: closing with the
	// request unread, or while the proxy still writes it, resets the
	// connection, and the proxy then rightly says that instead.
	notHTTP := listenAndDo(t, func(c net.Conn) {
		defer c.Close()
		if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
			io.Copy(io.Discard, req.Body)
		}
		io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n")
	})
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer plain.Close()
	selfSigned := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	selfSigned.Config.ErrorLog = stdlog.New(io.Discard, "", 0) // the handshake it refuses
	selfSigned.StartTLS()
	defer selfSigned.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "the database is down", http.StatusInternalServerError)
	}))
	defer failing.Close()

	const secrets = "user:hunter2@"
	const query = "?api_key=s3cret#frag"
	for _, c := range []struct {
		name     string
		upstream string // scheme://host:port; the test adds secrets, /mcp and the query
		status   int
		body     string // the body, or its start; %s: the upstream's URL as redactURL names it
	}{
		{"down", "http://" + downAddr, 502, "gcx proxy: upstream %s unreachable: connection refused\n"},
		{"hangs up", "http://" + hangUp, 502, "gcx proxy: upstream %s closed the connection without an answer\n"},
		// Go words the rest of these.
		{"not HTTP", "http://" + notHTTP, 502, "gcx proxy: upstream %s failed: malformed HTTP response"},
		{"https to plain HTTP", "https://" + strings.TrimPrefix(plain.URL, "http://"), 502, "gcx proxy: upstream %s refused: TLS handshake failed (is it https?): "},
		{"unknown certificate", selfSigned.URL, 502, "gcx proxy: upstream %s refused: its TLS certificate does not verify: "},
		{"answers 500", failing.URL, 500, "the database is down\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			scheme, hostPort, _ := strings.Cut(c.upstream, "://")
			var log bytes.Buffer
			h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Log: &log}, Upstream: scheme + "://" + secrets + hostPort + "/mcp" + query})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(h)
			defer front.Close()
			resp, err := http.Post(front.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			want := c.body
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, scheme+"://"+hostPort+"/mcp?api_key=REDACTED")
			}
			if resp.StatusCode != c.status || !strings.HasPrefix(string(body), want) || strings.Count(string(body), "\n") != 1 || !strings.HasSuffix(string(body), "\n") {
				t.Errorf("the host got %d %q, want %d and one line %q...", resp.StatusCode, body, c.status, want)
			}
			if c.status == 502 {
				if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
					t.Errorf("Content-Type %q", ct)
				}
				if !strings.Contains(log.String(), strings.TrimSuffix(string(body), "\n")) {
					t.Errorf("the log does not say it: %q", log.String())
				}
			}
			for _, secret := range []string{"hunter2", "user", "s3cret", "frag"} {
				if strings.Contains(string(body), secret) || strings.Contains(log.String(), secret) {
					t.Errorf("%q shows in the body %q or the log %q", secret, body, log.String())
				}
			}
		})
	}
}

// listenAndDo listens on a loopback port, does do with every connection,
// and returns the port's address.
func listenAndDo(t *testing.T, do func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go do(c)
		}
	}()
	return ln.Addr().String()
}
