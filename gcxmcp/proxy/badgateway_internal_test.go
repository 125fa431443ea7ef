package proxy

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
)

// The reasons a 502 gives for causes the end-to-end test cannot make
// happen on every machine, and the bounds on what it quotes.
func TestUpstreamFailureReasons(t *testing.T) {
	u, err := url.Parse("https://mcp.example.com:8443/v1/mcp?token=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	long := errors.New(strings.Repeat("é", 300))
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"no such host", &url.Error{Op: "Post", URL: u.String(), Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "mcp.example.com", IsNotFound: true}}},
			"gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED unreachable: cannot resolve mcp.example.com: no such host"},
		{"timeout", &url.Error{Op: "Post", URL: u.String(), Err: os.ErrDeadlineExceeded},
			"gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED did not answer in time"},
		{"host cancelled", context.Canceled,
			"gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED not waited for: the host cancelled the request"},
		{"quotes the query", errors.New("bad answer to https://mcp.example.com:8443/v1/mcp?token=s3cret"),
			"gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED failed: bad answer to https://mcp.example.com:8443/v1/mcp?…"},
		{"long", long, "gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED failed: " + strings.Repeat("é", maxReasonBytes/2) + "…"},
		{"several lines", errors.New("first\nsecond"), "gcx proxy: upstream https://mcp.example.com:8443/v1/mcp?token=REDACTED failed: first second"},
	} {
		if got := upstreamFailure(u, c.err); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
	}
}
