package main

import (
	"strings"
	"testing"
)

// gcx proxy's usage errors exit 2 and say what is wrong; a server that
// cannot be started exits 4 [WIRE-5]. The sessions themselves are tested
// in package gcxmcp/proxy, with a fake server and with real ones.
func TestProxyExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"proxy"}, exitUsage, "no server to run"},
		{[]string{"proxy", "--mode", "sometimes", "--", "true"}, exitUsage, "unknown mode"},
		{[]string{"proxy", "--layout", "x", "--", "true"}, exitUsage, "want TOOL=DECLARED"},
		{[]string{"proxy", "--layout", "x=no_such_layout", "--", "true"}, exitUsage, "no declared tool"},
		{[]string{"proxy", "--max-message-bytes", "0", "--", "true"}, exitUsage, "positive count"},
		{[]string{"proxy", "--", "/nonexistent/server"}, exitIO, "starting the server"},
		{[]string{"proxy", "--upstream", "http://127.0.0.1:1/mcp", "--listen", ":0"}, exitUsage, "reachable from other machines"},
		{[]string{"proxy", "--upstream", "http://127.0.0.1:1/mcp", "--listen", "0.0.0.0:0", "--public"}, exitUsage, "--public needs a token"},
		{[]string{"proxy", "--upstream", "http://127.0.0.1:1/mcp", "--token-file", "/nonexistent/token"}, exitUsage, "--token-file"},
		{[]string{"proxy", "--upstream", "http://user:hunter2secret@127.0.0.1:1/mcp", "--listen", "nonsense"}, exitUsage, "--listen"},
		{[]string{"proxy", "--upstream", "ftp://user:hunter2secret@127.0.0.1:1/mcp"}, exitUsage, "want an http or https URL"},
		{[]string{"proxy", "--listen", "127.0.0.1:0"}, exitUsage, "--upstream names the server"},
		{[]string{"proxy", "--max-calls", "0", "--", "true"}, exitUsage, "positive counts"},
	} {
		code, _, stderr := gcx(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.says) {
			t.Errorf("gcx %v: exit %d, stderr %q; want exit %d saying %q", tc.args, code, stderr, tc.code, tc.says)
		}
		if strings.Contains(stderr, "hunter2") {
			t.Errorf("gcx %v printed the upstream's password: %q", tc.args, stderr)
		}
	}
	// The host closes stdin at once: the server gets the end of its
	// input, exits, and so does the proxy, with 0.
	if code, stdout, stderr := gcx(t, "", "proxy", "--", "cat"); code != exitOK || stdout != "" {
		t.Errorf("gcx proxy -- cat with empty stdin: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	line := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	if code, stdout, stderr := gcx(t, line, "proxy", "--", "cat"); code != exitOK || stdout != line {
		t.Errorf("gcx proxy -- cat: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
