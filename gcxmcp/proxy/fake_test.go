package proxy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// A fake MCP server for the tests that need a server to misbehave on cue:
// the test binary itself, run with GCX_PROXY_FAKE set. It answers
// initialize and tools/call, and writes every other line back as it read
// it, so that a message's round trip through the proxy, both ways, shows
// whether the proxy changed it.
//
// GCX_PROXY_FAKE:
//
//	echo    as above
//	die     exits with status 3 when a tools/call arrives, answering none
//	garbage as echo, and writes a line that is not JSON before each answer
//	child   as echo, having started a child (sleep) whose pid it writes
//	        to the file GCX_PROXY_FAKE_CHILD_PID names, and its own pid to
//	        the file GCX_PROXY_FAKE_PID names, if set; with
//	        GCX_PROXY_FAKE_STUBBORN=1 the child ignores SIGTERM
//
// GCX_PROXY_FAKE_OFFER=1 offers GCX1 in the initialize result, and answers
// a call that asks for it with a result whose _meta names GCX1.
// GCX_PROXY_FAKE_DEFER=N holds the answers to tools/call until N calls
// are in, then answers them last first.

func TestMain(m *testing.M) {
	if mode := os.Getenv("GCX_PROXY_FAKE"); mode != "" {
		os.Exit(fakeServer(mode))
	}
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

func fakeServer(mode string) int {
	if mode == "child" {
		// A child of the server's own, as npx starts node: it must not
		// outlive the proxy.
		child := exec.Command("sleep", "300")
		stubborn := os.Getenv("GCX_PROXY_FAKE_STUBBORN") == "1"
		var ready io.Reader
		if stubborn {
			// It says so once SIGTERM is ignored.
			child = exec.Command("sh", "-c", `trap "" TERM; echo ready; exec sleep 300`)
			ready, _ = child.StdoutPipe()
		}
		if err := child.Start(); err != nil {
			return 5
		}
		if stubborn {
			if _, err := bufio.NewReader(ready).ReadString('\n'); err != nil {
				return 5
			}
		}
		os.WriteFile(os.Getenv("GCX_PROXY_FAKE_CHILD_PID"), []byte(strconv.Itoa(child.Process.Pid)), 0o600)
		if name := os.Getenv("GCX_PROXY_FAKE_PID"); name != "" {
			os.WriteFile(name, []byte(strconv.Itoa(os.Getpid())), 0o600)
		}
		mode = "echo"
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	offer := os.Getenv("GCX_PROXY_FAKE_OFFER") == "1"
	deferN, _ := strconv.Atoi(os.Getenv("GCX_PROXY_FAKE_DEFER"))
	var held [][]byte
	write := func(b []byte) {
		if mode == "garbage" {
			out.WriteString("this is not JSON {\n")
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return 0
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				Meta      map[string]any  `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil {
			out.Write(line)
			out.Flush()
			continue
		}
		switch msg.Method {
		case "initialize":
			caps := `{"tools":{}}`
			if offer {
				caps = `{"tools":{},"extensions":{"io.github.gcxwire/gcx":{"offer":["GCX1"]}}}`
			}
			write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"fake","version":"1"}}}`))
		case "tools/call":
			if mode == "die" {
				os.Exit(3)
			}
			answer := fakeAnswer(msg.ID, msg.Params.Name, msg.Params.Arguments, msg.Params.Meta, offer)
			if deferN == 0 {
				write(answer)
				continue
			}
			held = append(held, answer)
			if len(held) == deferN {
				for i := len(held) - 1; i >= 0; i-- {
					write(held[i])
				}
				held = held[:0]
			}
		default:
			out.Write(line)
			out.Flush()
		}
	}
}

// fakeAnswer is the fake server's result for a call: a table of n rows
// (arguments {"n": n}, 3 by default; {"big": N}: one row with a name of
// N bytes; {"error": true}: an error result; {"echo": S}: S in every
// row's name) as pretty-printed JSON in the text and
// as structuredContent, the text in GCX1 when the call asked for it and
// the server offers it, and under _meta "seen" the request's _meta.
func fakeAnswer(id json.RawMessage, name string, arguments json.RawMessage, meta map[string]any, offer bool) []byte {
	var args struct {
		N     *int   `json:"n"`
		Big   int    `json:"big"`
		Error bool   `json:"error"`
		Echo  string `json:"echo"`
	}
	json.Unmarshal(arguments, &args)
	n := 3
	if args.N != nil {
		n = *args.N
	}
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{"id": i, "name": fmt.Sprintf("row %d%s", i, args.Echo), "call": string(id)}
	}
	if args.Big > 0 {
		rows = []map[string]any{{"id": 0, "name": strings.Repeat("x", args.Big), "call": string(id)}}
	}
	value := map[string]any{"rows": rows}
	pretty, _ := json.MarshalIndent(value, "", "  ")
	compact, _ := json.Marshal(value)
	text, resultMeta := string(pretty), map[string]any{"seen": meta}
	if tags, _ := meta[binding.MetaAccept].([]any); offer && len(tags) > 0 && tags[0] == "GCX1" {
		payload, err := jsonmap.Encode(name, compact)
		if err == nil {
			text, resultMeta[binding.MetaFormat] = string(payload), "GCX1"
		}
	}
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "structuredContent": json.RawMessage(compact), "_meta": resultMeta}
	if args.Error {
		result = map[string]any{"content": []any{map[string]any{"type": "text", "text": string(pretty)}}, "isError": true}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	return b
}
