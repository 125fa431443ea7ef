package proxy_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// freePort returns a TCP port on the loopback that nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startListening starts cmd and waits until something accepts
// connections on port, failing after 20 seconds. The process is stopped
// when the test ends.
func startListening(t *testing.T, cmd *exec.Cmd, port int) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s does not listen on port %d after 20s:\n%s", cmd.Path, port, stderr.Bytes())
}

// Over Streamable HTTP, with server-everything answering in event streams
// with session ids and an event store for resumption: the TypeScript
// client sees the same server, tools and errors through gcx proxy
// --listen, and get-env in GCX1.
func TestInteropHTTPEverythingServer(t *testing.T) {
	node := needNode(t)
	serverPort, proxyPort := freePort(t), freePort(t)
	server := exec.Command(node, "node_modules/@modelcontextprotocol/server-everything/dist/index.js", "streamableHttp")
	server.Dir = nodeDir
	server.Env = append(server.Environ(), fmt.Sprintf("PORT=%d", serverPort))
	startListening(t, server, serverPort)
	upstream := fmt.Sprintf("http://127.0.0.1:%d/mcp", serverPort)
	startListening(t, exec.Command(built(t, "gcx"), "proxy", "--listen", fmt.Sprintf("127.0.0.1:%d", proxyPort), "--upstream", upstream), proxyPort)
	calls := []toolCall{
		{Name: "get-env"},
		{Name: "get-structured-content", Arguments: map[string]any{"location": "New York"}},
		{Name: "echo", Arguments: map[string]any{"message": "[1,2,3]"}},
		{Name: "get-sum", Arguments: map[string]any{"a": "two"}},
		{Name: "no-such-tool"},
	}
	direct := runSession(t, node, script{HTTP: upstream, Calls: calls})
	through := runSession(t, node, script{HTTP: fmt.Sprintf("http://127.0.0.1:%d/mcp", proxyPort), Calls: calls})
	sameSession(t, direct, through)
	if gcx := compareCalls(t, direct, through); gcx["get-env"] != "GCX1" {
		t.Error("get-env: the model did not read GCX1 through the proxy")
	}
}

// The example Go server over Streamable HTTP speaks the binding: through
// gcx proxy --listen, a Go SDK client that did not opt in reads GCX1 the
// server wrote on the proxy's request, and the same tools as directly.
func TestInteropHTTPExampleGoServer(t *testing.T) {
	root, err := filepath.Abs("../../jsonmap")
	if err != nil {
		t.Fatal(err)
	}
	serverPort, proxyPort := freePort(t), freePort(t)
	startListening(t, exec.Command(built(t, "mcpserver"), "-root", root, "-http", fmt.Sprintf("127.0.0.1:%d", serverPort)), serverPort)
	upstream := fmt.Sprintf("http://127.0.0.1:%d/mcp", serverPort)
	startListening(t, exec.Command(built(t, "gcx"), "proxy", "--listen", fmt.Sprintf("127.0.0.1:%d", proxyPort), "--upstream", upstream), proxyPort)
	ctx := context.Background()
	call := func(endpoint string) (*mcp.ListToolsResult, *mcp.CallToolResult) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "gcx-proxy-test", Version: "1"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_symbols", Arguments: map[string]any{"query": "Decode", "limit": 20}})
		if err != nil {
			t.Fatal(err)
		}
		return tools, r
	}
	directTools, direct := call(upstream)
	tools, proxied := call(fmt.Sprintf("http://127.0.0.1:%d/mcp", proxyPort))
	if !reflect.DeepEqual(directTools, tools) {
		t.Error("tools/list differs through the proxy")
	}
	if direct.Meta[binding.MetaFormat] != nil || proxied.Meta[binding.MetaFormat] != "GCX1" {
		t.Fatalf("format %v directly, %v through the proxy; want none, then GCX1", direct.Meta[binding.MetaFormat], proxied.Meta[binding.MetaFormat])
	}
	value := gcxDecode(t, proxied.Content[0].(*mcp.TextContent).Text)
	want, _ := jsonmap.Compact([]byte(direct.Content[0].(*mcp.TextContent).Text))
	if !bytes.Equal(value, want) {
		t.Errorf("gcx decode gives\n%s\nthe server's JSON is\n%s", value, want)
	}
	// DNS rebinding: the Go SDK's handler refuses a foreign Host and
	// Origin itself, and the proxy refuses them too, before they reach
	// it [PRX-7].
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"1"}}}`
	for _, endpoint := range []string{upstream, fmt.Sprintf("http://127.0.0.1:%d/mcp", proxyPort)} {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(initialize))
		req.Host = "evil.example"
		req.Header.Set("Origin", "http://evil.example")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s answered a rebound page's initialize with %d, want 403", endpoint, resp.StatusCode)
		}
	}
}
