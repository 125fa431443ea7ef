package proxy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// The memory a rewrite takes, measured as the growth of the resident set
// of a process that does nothing else: the test binary itself, run with
// GCX_PROXY_REWRITE_ROWS set. It builds one tools/call result of a
// PostgreSQL server's shape — its rows as pretty-printed JSON in the text
// block, as server-postgres writes them — rewrites it once, and prints
// the message's bytes and how far the peak of the resident set during the
// rewrite rose above the resident set just before it. With warm set, the
// process first rewrites a small result, so that what a process loads
// once (auto mode's token table) is not counted against the message.
// With optedIn, the host asks for GCX1 itself, and auto mode weighs the
// payload against the value's compact JSON instead of the text [PRX-2].
func rewriteMemory(rows int, mode binding.Mode, warm, optedIn bool) (message, growth int64, rewrote bool) {
	msg := postgresResult(rows)
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: mode}})
	if err != nil {
		panic(err)
	}
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{}}}`)
	if optedIn {
		call = []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{},"_meta":{"` + binding.MetaAccept + `":["GCX1"]}}}`)
	}
	if warm {
		p.FromHost(call)
		p.FromUpstream(postgresResult(20))
	}
	p.FromHost(call)
	runtime.GC()
	debug.FreeOSMemory()
	// The high-water mark starts again here: building the message left
	// a peak of its own, which would hide part of the rewrite's.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		panic(fmt.Sprintf("cannot reset the peak resident set: %v", err))
	}
	before := procStatus("VmRSS:")
	out := p.FromUpstream(msg)
	peak := procStatus("VmHWM:")
	return int64(len(msg)), peak - before, bytes.Contains(out, []byte("GCX1 tool=query"))
}

// procStatus returns a size in bytes that /proc/self/status gives in kB.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		panic(err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				panic(fmt.Sprintf("%s%s", field, rest))
			}
			return kb << 10
		}
	}
	panic("no " + field + " in /proc/self/status")
}

// postgresResult writes the response to call 1 whose text is rows rows of
// six columns as JSON.stringify(rows, null, 2) writes them, into a buffer
// of its exact size, so that building it leaves no peak of its own.
func postgresResult(rows int) []byte {
	row := func(i int) string {
		return fmt.Sprintf("  {\n    \"id\": %d,\n    \"name\": \"customer %d\",\n    \"email\": \"c%d@example.com\",\n    \"city\": \"Z\\u00fcrich\",\n    \"balance\": \"%d.50\",\n    \"note\": null\n  }", i, i, i, i*7)
	}
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	head, tail := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[\n`, `\n]"}],"isError":false}}`
	size := len(head) + len(tail)
	for i := range rows {
		size += len(quoted(row(i)))
		if i > 0 {
			size += len(`,\n`)
		}
	}
	b := make([]byte, 0, size)
	b = append(b, head...)
	for i := range rows {
		if i > 0 {
			b = append(b, `,\n`...)
		}
		b = append(b, quoted(row(i))...)
	}
	return append(b, tail...)
}

func init() {
	if rows := os.Getenv("GCX_PROXY_REWRITE_ROWS"); rows != "" {
		n, _ := strconv.Atoi(rows)
		message, growth, rewrote := rewriteMemory(n, binding.Mode(os.Getenv("GCX_PROXY_REWRITE_MODE")), os.Getenv("GCX_PROXY_REWRITE_WARM") != "", os.Getenv("GCX_PROXY_REWRITE_OPTED_IN") != "")
		fmt.Println(message, growth, rewrote)
		os.Exit(0)
	}
}

// measureRewrite runs rewriteMemory in a process of its own.
func measureRewrite(t *testing.T, rows int, mode binding.Mode, warm, optedIn bool) (message, growth int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "GCX_PROXY_REWRITE_ROWS="+strconv.Itoa(rows), "GCX_PROXY_REWRITE_MODE="+string(mode))
	if warm {
		cmd.Env = append(cmd.Env, "GCX_PROXY_REWRITE_WARM=1")
	}
	if optedIn {
		cmd.Env = append(cmd.Env, "GCX_PROXY_REWRITE_OPTED_IN=1")
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var rewrote bool
	if _, err := fmt.Sscan(string(out), &message, &growth, &rewrote); err != nil || !rewrote {
		t.Fatalf("the measuring process said %q", out)
	}
	return message, growth
}

// A rewrite of a large result takes at most about three times the message
// in memory, in either mode [PRX-9]: the figures of docs/performance.md
// ("gcx proxy: memory per message") come from this test run with -v.
//
// Each mode is measured twice, each time in a fresh process: a rewrite
// after a small one, which is what every message but a process's first
// costs, and a process's first rewrite, which in auto mode also loads
// the token table (package tokens) once for the process's life: that
// fixed cost is allowed on top, not counted per message. Auto mode is
// measured for a host that did not opt in, which the proxy answers
// weighing the text it replaces, and for one that did, answered weighing
// the value's compact JSON, which is counted as it is written and not
// held.
func TestRewriteMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the resident set and its peak are read from /proc/self/status as Linux reports them")
	}
	// A small message carries the runtime's fixed costs (the heap the
	// collector lets grow before its first cycle, whole pages) in its
	// ratio: 2.8× at 3.8 MB where 19.2 MB takes 2.4×.
	rows, bound := 100_000, 3.0
	if testing.Short() {
		rows, bound = 20_000, 3.5
	}
	const loadedOnce = 16 << 20 // the token table and its cache, with room: about 11 MB measured
	// Before the strings of the outer message were decoded into one
	// buffer (internal/jsontext) and a streamed element reused its Value
	// (jsonmap), a rewrite took 4.3–5.1× its message, and until auto mode
	// counted a large value's compact JSON as it was written, 4.2× for a
	// host that opted in; the bound catches a return to any of them, and
	// to the parse tree (binding.streamAbove).
	for _, c := range []struct {
		mode    binding.Mode
		optedIn bool
		name    string
	}{
		{binding.ModeGCX, false, "gcx"},
		{binding.ModeAuto, false, "auto"},
		{binding.ModeAuto, true, "auto for a host that opted in"},
	} {
		mode := c.name
		for _, warm := range []bool{true, false} {
			message, growth := measureRewrite(t, rows, c.mode, warm, c.optedIn)
			ratio := float64(growth) / float64(message)
			which, allowed := "a later rewrite", bound*float64(message)
			if !warm {
				which, allowed = "a process's first rewrite", allowed+loadedOnce
			}
			t.Logf("mode %s, %s: a message of %.1f MB took %.1f MB above the resident set before it, %.2f× the message", mode, which, float64(message)/1e6, float64(growth)/1e6, ratio)
			if float64(growth) > allowed {
				t.Errorf("mode %s, %s: took %.1f MB, over the %.1f MB allowed", mode, which, float64(growth)/1e6, allowed/1e6)
			}
		}
	}
}
