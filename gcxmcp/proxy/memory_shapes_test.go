package proxy_test

import (
	"bytes"
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

// The shapes of JSON whose decoded form is larger than their text, each
// the shape of a whole message of about size bytes: arrays of small
// numbers (two bytes of text each, a value of a parse tree each), objects
// of short members, and deep nesting; in a result's JSON block, in its
// structuredContent, and in a host's call's arguments.
// The padded shapes hold just as many bytes a value as the proxy decodes
// (proxy.MinBytesPerValue): the most expensive it rewrites.
var memoryShapes = []string{"zeros-text", "zeros-structured", "members-text", "deep-text", "deep-structured", "call-zeros", "call-deep",
	"padded-zeros-text", "padded-zeros-structured", "padded-deep-text"}

// shapeMessage returns the message of the shape, and whether it comes
// from the host (a tools/call) rather than from the upstream (its result).
func shapeMessage(shape string, size int) (msg []byte, fromHost bool) {
	pad := ""
	if padded, ok := strings.CutPrefix(shape, "padded-"); ok {
		shape, pad = padded, strings.Repeat(" ", proxy.MinBytesPerValue-1)
	}
	n := size / (2 + len(pad))
	var inner string // the JSON the message carries
	switch {
	case strings.HasPrefix(shape, "zeros") || shape == "call-zeros":
		inner = "[" + strings.Repeat("0"+pad+",", n-1) + "0]"
	case strings.HasPrefix(shape, "members"):
		inner = "[" + strings.Repeat(`{"a":0},`, size/8-1) + `{"a":0}]`
	default: // deep
		inner = strings.Repeat("["+pad, n/2) + strings.Repeat("]", n/2)
	}
	if strings.HasSuffix(shape, "text") {
		inner = strings.ReplaceAll(inner, `"`, `\"`)
	}
	switch {
	case strings.HasPrefix(shape, "call"):
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{"a":` + inner + `}}}`), true
	case strings.HasSuffix(shape, "structured"):
		return []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}],"structuredContent":{"rows":` + inner + `}}}`), false
	}
	return []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"rows\":` + inner + `}"}]}}`), false
}

// shapeMemory rewrites (or passes) one message of the shape in a process
// of its own, as rewriteMemory does, and prints its bytes and the rise of
// the resident set's peak above the resident set before it.
func shapeMemory(shape string, size int) {
	msg, fromHost := shapeMessage(shape, size)
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		panic(err)
	}
	small, _ := shapeMessage(shape, 64)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query","arguments":{}}}`)
	if !fromHost {
		p.FromHost(call)
		p.FromUpstream(small) // warm
		p.FromHost(call)
	} else {
		p.FromHost(small)
		p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	}
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		panic(fmt.Sprintf("cannot reset the peak resident set: %v", err))
	}
	before := procStatus("VmRSS:")
	var out []byte
	if fromHost {
		out = p.FromHost(msg)
	} else {
		out = p.FromUpstream(msg)
	}
	peak := procStatus("VmHWM:")
	fmt.Println(len(msg), peak-before, !bytes.Equal(out, msg))
}

func init() {
	if shape := os.Getenv("GCX_PROXY_SHAPE"); shape != "" {
		size, _ := strconv.Atoi(os.Getenv("GCX_PROXY_SHAPE_BYTES"))
		shapeMemory(shape, size)
		os.Exit(0)
	}
}

// shapeFactor is the most memory a message of any shape takes while the
// proxy reads or rewrites it, as a multiple of its bytes, measured as
// TestRewriteMemory measures: docs/security.md states it.
const shapeFactor = proxy.RewriteFactor

// A message whose decoded form is far larger than its text (arrays of
// small numbers, deep nesting) is charged in the form it would be held:
// the proxy estimates that form while it scans the message and passes
// the message untouched, never decoded whole, when it is more than the
// bound [PRX-6] [PRX-9]. Every shape then stays within shapeFactor times
// its message. Before, a result of 1.8 MB of zeros took 235-270 MB and a
// call of 3 MB of zeros 366-385 MB (issue 36).
func TestShapeMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the resident set and its peak are read from /proc/self/status as Linux reports them")
	}
	size := 3 << 20
	if testing.Short() {
		size = 1 << 20
	}
	// A small message carries the runtime's fixed costs (whole pages, the
	// heap the collector lets grow first): allowed on top.
	const fixed = 4 << 20
	for _, shape := range memoryShapes {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "GCX_PROXY_SHAPE="+shape, "GCX_PROXY_SHAPE_BYTES="+strconv.Itoa(size))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v: %s", shape, err, out)
		}
		var message, growth int64
		var changed bool
		if _, err := fmt.Sscan(string(out), &message, &growth, &changed); err != nil {
			t.Fatalf("%s: the measuring process said %q", shape, out)
		}
		t.Logf("%s: a message of %.1f MB took %.1f MB above the resident set before it, %.2f× the message (changed: %v)", shape, float64(message)/1e6, float64(growth)/1e6, float64(growth)/float64(message), changed)
		if allowed := shapeFactor*float64(message) + fixed; float64(growth) > allowed {
			t.Errorf("%s: took %.1f MB, over the %.1f MB allowed", shape, float64(growth)/1e6, allowed/1e6)
		}
	}
}
