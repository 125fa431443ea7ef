package proxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"unicode/utf8"
)

// badGateway answers a host's request that the upstream did not answer
// (down, refusing, timing out, closing the connection, failing TLS, or
// answering what is not HTTP) with 502 Bad Gateway and a body that says
// why in one line of plain text, which hosts show in their logs. An empty
// 502 leaves the user guessing whether the proxy, the URL or the server
// is at fault. The same line goes to the proxy's log.
func (h *HTTP) badGateway(w http.ResponseWriter, r *http.Request, err error) {
	msg := upstreamFailure(h.upstream, err)
	h.refusals.note("upstream errors", "%s (%s)", msg, r.Method)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusBadGateway)
	// The host may be gone (it cancelled the request): nothing to tell.
	_, _ = io.WriteString(w, msg+"\n")
}

// upstreamFailure is the line that tells the host why the upstream u gave
// no answer: "gcx proxy: upstream http://127.0.0.1:9/mcp unreachable:
// connection refused".
func upstreamFailure(u *url.URL, err error) string {
	// redactURL (front.go) names it as the log does: its user, password
	// and query values may be secrets, and a 502's body is read by
	// whoever made the request.
	return "gcx proxy: upstream " + redactURL(u.String()) + " " + scrubURL(u, whyUpstreamFailed(err))
}

// maxReasonBytes bounds the reason quoted from an error, some of whose
// texts quote what the upstream sent.
const maxReasonBytes = 200

// whyUpstreamFailed says in a few words why a request to the upstream
// failed. The *url.Error that net/http wraps around the cause is taken
// off: its text quotes the whole URL, query and all.
func whyUpstreamFailed(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var dns *net.DNSError
	var netErr net.Error
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	switch {
	case errors.Is(err, context.Canceled):
		return "not waited for: the host cancelled the request"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "unreachable: connection refused"
	case errors.As(err, &dns):
		return "unreachable: cannot resolve " + dns.Name + ": " + truncate(dns.Err)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "did not answer in time"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), err.Error() == serverClosedIdle:
		// Which of these a hang-up shows depends on when it came: before
		// the request was written (serverClosedIdle), while it was
		// (EPIPE, or net.ErrClosed where the transport's reader saw the
		// end first and closed the connection under its writer) or after
		// (EOF, a reset).
		return "closed the connection without an answer"
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid):
		return "refused: its TLS certificate does not verify: " + truncate(err.Error())
	case errors.As(err, &record):
		return "refused: TLS handshake failed (is it https?): " + truncate(err.Error())
	case errors.As(err, &netErr):
		return "unreachable: " + truncate(err.Error())
	}
	// net/http says "transport connection broken" around the cause when
	// the request was written before the answer went wrong, and not when
	// the upstream answered first: the host is told the cause alike.
	if inner := errors.Unwrap(err); inner != nil && strings.HasPrefix(err.Error(), transportBroken) {
		err = inner
	}
	return "failed: " + truncate(err.Error())
}

// serverClosedIdle is the text of net/http's error, which it does not
// export, for a connection that ended before its request was written.
const serverClosedIdle = "http: server closed idle connection"

// transportBroken begins the text of the error net/http wraps around what
// went wrong reading an answer to a request it wrote whole.
const transportBroken = "net/http: HTTP/1.x transport connection broken: "

// scrubURL takes out of reason the parts of u that redactURL hides,
// should a cause's text quote them after all.
func scrubURL(u *url.URL, reason string) string {
	for _, secret := range []string{u.RawQuery, u.Fragment, u.User.String()} {
		if secret != "" {
			reason = strings.ReplaceAll(reason, secret, "…")
		}
	}
	return reason
}

// truncate returns s, or its first maxReasonBytes bytes (whole runes) and
// an ellipsis, on one line.
func truncate(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxReasonBytes {
		return s
	}
	n := maxReasonBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
