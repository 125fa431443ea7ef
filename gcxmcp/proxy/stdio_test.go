package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
)

// session is a proxy running the fake server, seen from the host's side.
type session struct {
	t      *testing.T
	p      *proxy.Proxy
	in     *io.PipeWriter // the host's messages
	out    *bufio.Reader  // what the host receives
	outW   *io.PipeWriter
	stderr *syncBuffer
	done   chan error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startFake starts a proxy with opts in front of the fake server in mode,
// with the extra environment env.
func startFake(t *testing.T, mode string, opts proxy.Options, env ...string) *session {
	t.Helper()
	s := &session{t: t, stderr: &syncBuffer{}, done: make(chan error, 1)}
	opts.Log = s.stderr
	p, err := proxy.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.p = p
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append([]string{"GCX_PROXY_FAKE=" + mode}, env...)...)
	cmd.Stderr = s.stderr
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s.in, s.outW = inW, outW
	s.out = bufio.NewReaderSize(outR, 1<<20)
	go func() {
		err := p.RunStdio(context.Background(), cmd, inR, outW)
		outW.Close()
		s.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return s
}

func (s *session) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l); err != nil {
			s.t.Fatalf("writing to the proxy: %v", err)
		}
	}
}

// receive returns the next line the host receives, with its line ending,
// failing the test after 20 seconds.
func (s *session) receive() string {
	s.t.Helper()
	type got struct {
		line string
		err  error
	}
	ch := make(chan got, 1)
	go func() {
		l, err := s.out.ReadString('\n')
		ch <- got{l, err}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			s.t.Fatalf("reading what the host receives: %v (got %q); stderr:\n%s", g.err, g.line, s.stderr)
		}
		return g.line
	case <-time.After(20 * time.Second):
		s.t.Fatalf("no message for the host after 20s; stderr:\n%s", s.stderr)
	}
	return ""
}

// end closes the host's side and returns how the proxy ended.
func (s *session) end() error {
	s.t.Helper()
	s.in.Close()
	return s.wait()
}

func (s *session) wait() error {
	s.t.Helper()
	go io.Copy(io.Discard, s.out)
	select {
	case err := <-s.done:
		return err
	case <-time.After(30 * time.Second):
		s.t.Fatalf("the proxy did not end within 30s; stderr:\n%s", s.stderr)
	}
	return nil
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}` + "\n"

func (s *session) initialize() {
	s.t.Helper()
	s.send(initialize)
	if l := s.receive(); !strings.Contains(l, `"serverInfo"`) {
		s.t.Fatalf("initialize answered with %q", l)
	}
}

func call(id any, name string, args string) string {
	idText, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", idText, name, args)
}

// toolResult reads the result of a tools/call response line.
func toolResult(t *testing.T, line string) (id json.RawMessage, r callResult, text string) {
	t.Helper()
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Result callResult      `json:"result"`
	}
	mustUnmarshal(t, []byte(line), &resp)
	if len(resp.Result.Content) > 0 {
		text, _ = resp.Result.Content[0]["text"].(string)
	}
	return resp.ID, resp.Result, text
}

// Every message that is not the result of a tools/call comes back from
// the echoing server as the host sent it, byte for byte, in order; the
// tools/call results come as GCX1 with structuredContent as the server
// wrote it; and when the host closes stdin the proxy ends with nil.
func TestStdioTransparentAndAnswers(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	s.initialize()
	others := []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
		`{"jsonrpc":"2.0","id":"p1","method":"ping"}` + "\n",
		`{ "jsonrpc" : "2.0", "method" : "notifications/progress", "params" : {"progressToken":7,"progress":0.5,"total":1e0} }` + "\n",
		`{"jsonrpc":"2.0","id":5,"result":{"model":"m","role":"assistant","content":{"type":"text","text":"caf\u00e9 \ud83d\ude00"}}}` + "\n",
		`{"jsonrpc":"2.0","id":6,"error":{"code":-1,"message":"no"}}` + "\r\n",
		`[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{}}},{"jsonrpc":"2.0","method":"x"}]` + "\n",
		`{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"file:///a"}}` + "\n",
		"not json at all\n",
		`{"jsonrpc":"2.0","id":9,"method":"tools/call"` + "\n",
		"\n",
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}` + "\n",
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"t","arguments":{}},"a":1,"a":2}` + "\n",
	}
	for _, m := range others {
		if strings.Contains(m, `"id":10`) {
			continue // a tools/call the server answers; sent below
		}
		s.send(m)
		if got := s.receive(); got != m {
			t.Errorf("sent %q\n got %q", m, got)
		}
	}
	s.send(call(11, "list_rows", `{"n":5}`))
	_, r, text := toolResult(t, s.receive())
	if !strings.HasPrefix(text, "GCX1 tool=list_rows") || r.Meta[binding.MetaFormat] != "GCX1" {
		t.Errorf("tools/call result: format %v, text %q", r.Meta[binding.MetaFormat], text)
	}
	value, err := jsonmap.DecodeValue([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(value.AppendCompact(nil)), string(r.StructuredContent); got != want {
		t.Errorf("payload decodes to %s, structuredContent is %s", got, want)
	}
	// An error result passes untouched, byte for byte.
	s.send(call(12, "list_rows", `{"error":true}`))
	want := fakeAnswer(json.RawMessage("12"), "list_rows", json.RawMessage(`{"error":true}`), nil, false)
	if got := s.receive(); got != string(want)+"\n" {
		t.Errorf("error result changed:\n got %q\nwant %q", got, want)
	}
	if err := s.end(); err != nil {
		t.Errorf("the host closed stdin: proxy ended with %v", err)
	}
	if !strings.Contains(s.stderr.String(), "not a JSON-RPC message") {
		t.Errorf("stderr does not report the line that is not JSON:\n%s", s.stderr)
	}
}

// A server that offers GCX1 is asked for it per call and its answer passed
// on as it wrote it; a host that opts in itself is left to the server.
func TestStdioUpstreamSpeaksBinding(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{}, "GCX_PROXY_FAKE_OFFER=1")
	s.initialize()
	s.send(call(1, "list_rows", `{"n":4}`))
	line := s.receive()
	want := fakeAnswer(json.RawMessage("1"), "list_rows", json.RawMessage(`{"n":4}`), map[string]any{binding.MetaAccept: []any{"GCX1"}}, true)
	if line != string(want)+"\n" {
		t.Errorf("the server's GCX1 answer changed:\n got %q\nwant %q", line, want)
	}
	// The host asks for JSON on this call: the request goes as it is.
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_rows","arguments":{},"_meta":{"io.github.gcxwire/accept":[]}}}` + "\n")
	_, r, text := toolResult(t, s.receive())
	seen, _ := json.Marshal(r.Meta["seen"])
	if string(seen) != `{"io.github.gcxwire/accept":[]}` || strings.HasPrefix(text, "GCX") || r.Meta[binding.MetaFormat] != nil {
		t.Errorf("host's own opt-out: server saw %s, format %v, text %.40q", seen, r.Meta[binding.MetaFormat], text)
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
}

// A server that dies in the middle of a call ends the session at once
// with a *ServerEndedError that counts the call, and nothing hangs.
func TestStdioServerDiesMidCall(t *testing.T) {
	s := startFake(t, "die", proxy.Options{})
	s.initialize()
	s.send(call(1, "list_rows", `{}`))
	err := s.wait()
	var ended *proxy.ServerEndedError
	if !errors.As(err, &ended) || ended.Unanswered != 1 || ended.State == nil || ended.State.ExitCode() != 3 {
		t.Fatalf("got %v, want the server's end with 1 unanswered call and exit status 3", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("the error does not give the server's exit status: %v", err)
	}
}

// A thousand calls in flight, answered last first, each come back once,
// in the order the server wrote them, each answered for its own call; the
// notifications sent among them come back in their order too.
func TestStdioThousandCallsInFlight(t *testing.T) {
	const n = 1000
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxCalls: n}, fmt.Sprintf("GCX_PROXY_FAKE_DEFER=%d", n))
	s.initialize()
	go func() {
		var b strings.Builder
		for i := range n {
			b.WriteString(call(i, "list_rows", `{"n":2}`))
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%d,"progress":1}}`+"\n", i)
		}
		io.WriteString(s.in, b.String())
	}()
	next := 0
	answer := n - 1
	for range 2 * n {
		line := s.receive()
		if strings.Contains(line, "notifications/progress") {
			want := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%d,"progress":1}}`+"\n", next)
			if line != want {
				t.Fatalf("notification %d: got %q", next, line)
			}
			next++
			continue
		}
		id, r, text := toolResult(t, line)
		if string(id) != fmt.Sprint(answer) || r.Meta[binding.MetaFormat] != "GCX1" || !strings.Contains(text, fmt.Sprintf("\n%d\t", answer)) {
			t.Fatalf("answer %d: id %s, format %v, text %q", answer, id, r.Meta[binding.MetaFormat], text)
		}
		answer--
	}
	if next != n || answer != -1 {
		t.Errorf("%d notifications and %d answers came back", next, n-1-answer)
	}
	if p := s.p.Pending(); p != 0 {
		t.Errorf("%d calls still pending", p)
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
}

// A message over the limit passes untouched both ways, whether it fits
// the read buffer or not, and the session goes on.
func TestStdioMessageOverLimit(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxMessageBytes: 100_000})
	s.initialize()
	for _, size := range []int{150_000, 1_000_000} {
		long := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", size) + `"}}` + "\n"
		s.send(long)
		if got := s.receive(); got != long {
			t.Errorf("a %d-byte notification came back changed (%d bytes)", len(long), len(got))
		}
	}
	s.send(call(1, "list_rows", `{"big":200000}`))
	want := fakeAnswer(json.RawMessage("1"), "list_rows", json.RawMessage(`{"big":200000}`), nil, false)
	if got := s.receive(); got != string(want)+"\n" {
		t.Errorf("a result over the limit changed (%d bytes, want %d)", len(got), len(want)+1)
	}
	s.send(call(2, "list_rows", `{"big":20000}`))
	if _, _, text := toolResult(t, s.receive()); !strings.HasPrefix(text, "GCX1 ") {
		t.Errorf("a result under the limit after one over it: %.40q", text)
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
	if got := strings.Count(s.stderr.String(), "longer than --max-message-bytes (100000)"); got != 5 {
		t.Errorf("stderr reports %d messages over the limit, want 5 (2 each way and the result):\n%s", got, s.stderr)
	}
}

// Lines that are not JSON pass in both directions and are reported.
func TestStdioInvalidJSONBothWays(t *testing.T) {
	s := startFake(t, "garbage", proxy.Options{})
	s.send(initialize)
	if got := s.receive(); got != "this is not JSON {\n" {
		t.Errorf("the server's garbage: got %q", got)
	}
	s.receive() // the initialize result
	for _, garbage := range []string{"{{{\n", "<html>\n"} {
		s.send(garbage)
		if got := s.receive(); got != garbage {
			t.Errorf("the host's garbage came back as %q", got)
		}
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
	log := s.stderr.String()
	if !strings.Contains(log, "from the host is not a JSON-RPC message") || !strings.Contains(log, "from the server is not a JSON-RPC message") {
		t.Errorf("stderr:\n%s", log)
	}
}

// A host that closes stdin with calls in flight ends the session: the
// server gets the end of its input and the proxy ends with nil.
func TestStdioHostClosesStdinMidCall(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{}, "GCX_PROXY_FAKE_DEFER=10")
	s.initialize()
	s.send(call(1, "list_rows", `{}`), call(2, "list_rows", `{}`))
	start := time.Now()
	if err := s.end(); err != nil {
		t.Errorf("proxy ended with %v", err)
	}
	if d := time.Since(start); d > proxy.ShutdownGrace {
		t.Errorf("the proxy took %v to end after the host left", d)
	}
}

// A server that cannot be started is an error, not a hang.
func TestStdioServerMissing(t *testing.T) {
	p, err := proxy.New(proxy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = p.RunStdio(context.Background(), exec.Command("/nonexistent/mcp-server"), strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "starting the server") {
		t.Errorf("got %v", err)
	}
}
