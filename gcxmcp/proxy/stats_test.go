package proxy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/tokens"
)

// statsFile opens a stats file in a fresh directory, as gcx proxy --stats
// does, and returns its recorder and path.
func statsFile(t *testing.T) (*proxy.Recorder, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stats.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	rec, err := proxy.NewRecorder(f, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return rec, path
}

// readStats reads a stats file, each line strictly as a StatsLine.
func readStats(t *testing.T, path string) []proxy.StatsLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []proxy.StatsLine
	for _, text := range strings.SplitAfter(string(b), "\n") {
		if text == "" {
			continue
		}
		if !strings.HasSuffix(text, "\n") {
			t.Fatalf("a line without its newline: %q", text)
		}
		var l proxy.StatsLine
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %q: %v", text, err)
		}
		lines = append(lines, l)
	}
	return lines
}

func intOf(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// serverText is the text block the fake server writes for a call.
func serverText(t *testing.T, id any, name, args string) string {
	t.Helper()
	idText, _ := json.Marshal(id)
	_, _, text := toolResult(t, string(fakeAnswer(idText, name, json.RawMessage(args), nil, false)))
	return text
}

// Through the proxy over stdio, each tools/call result gets a line whose
// format and reason are what the host saw, and whose figures are the
// tokens and bytes of the text the server wrote and of the text the host
// received, counted here on their own.
func TestStatsThroughStdio(t *testing.T) {
	rec, path := statsFile(t)
	opts := proxy.Options{
		Binding: binding.ServerOptions{Mode: binding.ModeAuto, Tools: map[string]binding.ToolOptions{"left_alone": {Mode: binding.ModeOff}}},
		Stats:   rec,
	}
	s := startFake(t, "echo", opts)
	s.initialize()
	optOut := fmt.Sprintf(`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"list_rows","arguments":{"n":30},"_meta":{%q:[]}}}`+"\n", binding.MetaAccept)
	cases := []struct {
		id            int
		request       string
		tool, args    string
		format, why   string
		wantRewritten bool
	}{
		{11, "", "list_rows", `{"n":30}`, "GCX1", "", true},
		{12, "", "left_alone", `{"n":30}`, proxy.FormatUntouched, string(binding.ReasonModeOff), false},
		{13, "", "list_rows", `{"n":30,"error":true}`, proxy.FormatUntouched, string(binding.ReasonErrorResult), false},
		{14, optOut, "list_rows", `{"n":30}`, proxy.FormatUntouched, string(binding.ReasonNotAccepted), false},
		{15, "", "list_rows", `{"n":0}`, binding.FormatJSON, string(binding.ReasonCompactCheaper), true},
	}
	received := map[string]string{}
	for _, c := range cases {
		req := c.request
		if req == "" {
			req = call(c.id, c.tool, c.args)
		}
		s.send(req)
		_, r, text := toolResult(t, s.receive())
		received[c.tool+c.args+fmt.Sprint(c.id)] = text
		if f, _ := r.Meta[binding.MetaFormat].(string); f != strings.TrimPrefix(c.format, proxy.FormatUntouched) {
			t.Errorf("call %d: the host read format %q, the case says %q", c.id, f, c.format)
		}
	}
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readStats(t, path)
	if len(lines) != len(cases) {
		t.Fatalf("%d lines for %d calls: %+v", len(lines), len(cases), lines)
	}
	for i, c := range cases {
		l := lines[i]
		wrote := serverText(t, c.id, c.tool, c.args)
		read := received[c.tool+c.args+fmt.Sprint(c.id)]
		if (wrote != read) != c.wantRewritten {
			t.Errorf("call %d: the host read a different text: %v, want %v", c.id, wrote != read, c.wantRewritten)
		}
		if l.Server != "fake" || l.Tool != c.tool || l.Format != c.format || l.Reason != c.why || l.Dropped != 0 {
			t.Errorf("call %d: server %q tool %q format %q reason %q, want fake %q %q %q", c.id, l.Server, l.Tool, l.Format, l.Reason, c.tool, c.format, c.why)
		}
		if got, want := intOf(l.ServerTokens), tokens.CL100KCount(wrote); got != want {
			t.Errorf("call %d: server_tokens %d, counted %d", c.id, got, want)
		}
		if got, want := intOf(l.ModelTokens), tokens.CL100KCount(read); got != want {
			t.Errorf("call %d: model_tokens %d, counted %d", c.id, got, want)
		}
		if intOf(l.ServerBytes) != len(wrote) || intOf(l.ModelBytes) != len(read) {
			t.Errorf("call %d: bytes %d and %d, want %d and %d", c.id, intOf(l.ServerBytes), intOf(l.ModelBytes), len(wrote), len(read))
		}
		if l.MsAdded == nil || *l.MsAdded < 0 || *l.MsAdded > 10_000 {
			t.Errorf("call %d: ms_added %v", c.id, l.MsAdded)
		}
	}
	if saved := *lines[0].ServerTokens - *lines[0].ModelTokens; saved <= 0 {
		t.Errorf("the rewritten call saved %d tokens", saved)
	}
}

// What a call asks and what a tool answers never reach the stats file:
// a secret in the arguments, the request's _meta and the result (the
// fake puts the argument in every row) appears nowhere in it.
func TestStatsRecordNoContent(t *testing.T) {
	const secret = "s3cr3t-Zq8HvW"
	rec, path := statsFile(t)
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, Stats: rec})
	s.initialize()
	args := fmt.Sprintf(`{"n":4,"echo":%q}`, secret)
	s.send(call(1, "list_rows", args))
	if _, _, text := toolResult(t, s.receive()); !strings.Contains(text, secret) || !strings.HasPrefix(text, "GCX1") {
		t.Fatalf("the fake did not answer with the secret in GCX1: %q", text)
	}
	s.send(call(2, "list_rows", fmt.Sprintf(`{"n":4,"echo":%q,"error":true}`, secret)))
	s.receive()
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_rows","arguments":%s,"_meta":{"note":%q}}}`+"\n", args, secret))
	s.receive()
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n != 3 {
		t.Fatalf("%d lines for 3 calls:\n%s", n, b)
	}
	for _, leak := range []string{secret, "row 0", "GCX1 tool=", `"rows"`} {
		if bytes.Contains(b, []byte(leak)) {
			t.Errorf("the stats file holds %q:\n%s", leak, b)
		}
	}
}

// A result longer than the message limit is recorded as left alone: the
// proxy finds its call's id as it passes, so the tool is known, but not its
// texts, for it passes unread.
func TestStatsOverLimit(t *testing.T) {
	rec, path := statsFile(t)
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxMessageBytes: 2000, Stats: rec})
	s.initialize()
	s.send(call(1, "list_rows", `{"big":5000}`))
	if _, r, _ := toolResult(t, s.receive()); r.Meta[binding.MetaFormat] != nil {
		t.Fatalf("an answer over the limit was rewritten: %v", r.Meta)
	}
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readStats(t, path)
	if len(lines) != 1 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	l := lines[0]
	if l.Tool != "list_rows" || l.Format != proxy.FormatUntouched || l.Reason != proxy.ReasonOverLimit || l.ServerTokens != nil || l.ModelTokens != nil {
		t.Errorf("over the limit: %+v", l)
	}
}

// Over Streamable HTTP, the result in an event stream is recorded as over
// stdio.
func TestStatsThroughHTTP(t *testing.T) {
	rec, path := statsFile(t)
	upstream := httptest.NewServer(&fakeHTTPUpstream{})
	defer upstream.Close()
	h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, Stats: rec}, Upstream: upstream.URL + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	session := ""
	post := func(body string) string {
		req, _ := http.NewRequest(http.MethodPost, front.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		return string(b)
	}
	post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	stream := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pairs","arguments":{}}}`)
	i := strings.LastIndex(stream, "data: ")
	_, _, read := toolResult(t, strings.TrimSpace(stream[i+len("data: "):]))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readStats(t, path)
	if len(lines) != 1 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	l := lines[0]
	wrote := `[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]`
	if l.Server != "fake" || l.Tool != "pairs" || l.Format != "GCX1" || intOf(l.ServerTokens) != tokens.CL100KCount(wrote) || intOf(l.ModelTokens) != tokens.CL100KCount(read) || intOf(l.ModelBytes) != len(read) {
		t.Errorf("line %+v; the host read %q", l, read)
	}
}

// A stats file that cannot be written does not break the proxy: every
// call is answered as without it, each failure is reported, and Close
// says how many lines were lost and why.
func TestStatsWriteFailure(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Skipf("no /dev/full to fail writes on: %v", err)
	}
	defer full.Close()
	var log syncBuffer
	rec, err := proxy.NewRecorder(full, &log)
	if err != nil {
		t.Fatal(err)
	}
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, Stats: rec})
	s.initialize()
	for id := range 3 {
		s.send(call(id+1, "list_rows", `{"n":5}`))
		if _, _, text := toolResult(t, s.receive()); !strings.HasPrefix(text, "GCX1 tool=list_rows") {
			t.Errorf("call %d: %q", id+1, text)
		}
	}
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
	err = rec.Close()
	if err == nil || !strings.Contains(err.Error(), "3 of 3 lines could not be written") || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Close: %v", err)
	}
	if !strings.Contains(log.String(), "gcx proxy --stats: a line could not be written") {
		t.Errorf("the failures were not reported: %q", log.String())
	}
}

// gate is a writer that holds its first Write until opened, so that the
// recorder's queue fills behind it.
type gate struct {
	entered chan struct{}
	open    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	b       bytes.Buffer
}

func (g *gate) Write(p []byte) (int, error) {
	g.once.Do(func() { close(g.entered); <-g.open })
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.Write(p)
}

// When the writer falls behind, a call past the queue's bound is not
// recorded and does not wait: the file says how many were dropped, and
// every call is either a line or counted in a dropped line.
func TestStatsDropsWhenBehind(t *testing.T) {
	g := &gate{entered: make(chan struct{}), open: make(chan struct{})}
	var log syncBuffer
	rec, err := proxy.NewRecorder(g, &log)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, Stats: rec})
	if err != nil {
		t.Fatal(err)
	}
	result := memoryGraph(3)
	answer := func() {
		p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_graph","arguments":{}}}`))
		p.FromUpstream(result)
	}
	answer()
	<-g.entered // the writer holds the first line
	const extra = 7
	for range proxy.StatsQueueRecords + extra {
		answer()
	}
	close(g.open)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	calls, dropped := 0, 0
	sc := bufio.NewScanner(&g.b)
	for sc.Scan() {
		var l proxy.StatsLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Dropped > 0 {
			dropped += l.Dropped
		} else {
			calls++
		}
	}
	if calls != 1+proxy.StatsQueueRecords || dropped != extra {
		t.Errorf("%d lines of calls and %d dropped; want %d and %d", calls, dropped, 1+proxy.StatsQueueRecords, extra)
	}
	if !strings.Contains(log.String(), "the recorder is behind") {
		t.Errorf("the drops were not reported: %q", log.String())
	}
}

// The recorder counts after the call has returned, when the message's
// buffer holds the next message: it must count its own copy.
func TestStatsCountsItsOwnCopy(t *testing.T) {
	g := &gate{entered: make(chan struct{}), open: make(chan struct{})}
	rec, err := proxy.NewRecorder(g, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeOff}, Stats: rec})
	if err != nil {
		t.Fatal(err)
	}
	text := "some prose the model reads as it is"
	msg := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":%q}]}}`, text))
	// A first call holds the writer, so that the second is counted only
	// after its buffer is overwritten.
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"tools/call","params":{"name":"t"}}`))
	p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"content":[]}}`))
	<-g.entered
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`))
	p.FromUpstream(msg)
	copy(msg, bytes.Repeat([]byte("\x00"), len(msg)))
	close(g.open)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var l proxy.StatsLine
	second := bytes.SplitAfter(g.b.Bytes(), []byte("\n"))[1]
	if err := json.Unmarshal(second, &l); err != nil {
		t.Fatal(err)
	}
	if want := tokens.CL100KCount(text); intOf(l.ServerTokens) != want || intOf(l.ModelTokens) != want {
		t.Errorf("line %s; want %d tokens each", second, want)
	}
}

// The proxy's own reasons: a tools/call answered by a JSON-RPC error, and
// a result the binding cannot read, are recorded as left alone, with no
// figures, for the proxy read no texts; a response to another request is
// not recorded at all.
func TestStatsProxyReasons(t *testing.T) {
	var out bytes.Buffer
	rec, err := proxy.NewRecorder(&out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Stats: rec})
	if err != nil {
		t.Fatal(err)
	}
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`))
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`))
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"x"}}`))
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":"not an array"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"contents":[]}}`,
	} {
		if got := p.FromUpstream([]byte(msg)); string(got) != msg {
			t.Errorf("%s became %s", msg, got)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var l proxy.StatsLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.ServerTokens != nil || l.ModelTokens != nil || l.MsAdded == nil {
			t.Errorf("figures in %s", line)
		}
		got = append(got, l.Tool+" "+l.Format+" "+l.Reason)
	}
	want := []string{"a untouched " + proxy.ReasonRPCError, "b untouched " + proxy.ReasonNotAResult}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("lines %q, want %q", got, want)
	}
}

// A stats line names the server: as --server-name says, or else as the
// upstream's initialize result does (serverInfo.name), cut to
// MaxServerNameBytes; no name where the upstream gave none.
func TestStatsServerName(t *testing.T) {
	long := strings.Repeat("é", 300)
	for _, c := range []struct {
		name       string
		serverInfo string // the initialize result's serverInfo, JSON
		option     string // Options.ServerName
		want       string
	}{
		{"the upstream's name", `{"name":"sqlite-db","version":"1.4.0"}`, "", "sqlite-db"},
		{"--server-name wins", `{"name":"sqlite-db","version":"1.4.0"}`, "orders", "orders"},
		{"a long name is cut", fmt.Sprintf(`{"name":%q,"version":"1"}`, long), "", strings.Repeat("é", proxy.MaxServerNameBytes/2)},
		{"a name that is not a string", `{"name":7}`, "", ""},
		{"no serverInfo", `null`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var msg struct {
					ID     json.RawMessage `json:"id"`
					Method string          `json:"method"`
				}
				json.NewDecoder(r.Body).Decode(&msg)
				w.Header().Set("Content-Type", "application/json")
				switch msg.Method {
				case "initialize":
					w.Header().Set("Mcp-Session-Id", "s1")
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":%s}}`, msg.ID, c.serverInfo)
				case "tools/call":
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"[{\"a\": 1}, {\"a\": 2}]"}]}}`, msg.ID)
				default:
					w.WriteHeader(http.StatusAccepted)
				}
			}))
			defer upstream.Close()
			rec, path := statsFile(t)
			h, err := proxy.NewHTTP(proxy.HTTPOptions{Options: proxy.Options{Stats: rec, ServerName: c.option}, Upstream: upstream.URL + "/mcp"})
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(h)
			defer front.Close()
			session := ""
			for _, body := range []string{
				`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rows","arguments":{}}}`,
			} {
				req, _ := http.NewRequest(http.MethodPost, front.URL+"/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				if session != "" {
					req.Header.Set("Mcp-Session-Id", session)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				session = resp.Header.Get("Mcp-Session-Id")
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			lines := readStats(t, path)
			if len(lines) != 1 || lines[0].Tool != "rows" || lines[0].Server != c.want {
				t.Errorf("lines %+v, want one of tool rows and server %q", lines, c.want)
			}
		})
	}
}
