package proxy

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// TestToolNamesKept holds the session's kept tool names to their bounds,
// whatever names the host sends, and a name called before to its kept
// string, taken without an allocation.
func TestToolNamesKept(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxCalls: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * keptNames {
		name := "tool_" + strconv.Itoa(i)
		if i%2 == 1 {
			name += strings.Repeat("x", keptNameBytes)
		}
		p.FromHost([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{}}}`))
	}
	if p.Pending() != 3*keptNames {
		t.Fatalf("%d calls pending, want %d", p.Pending(), 3*keptNames)
	}
	if len(p.names) != keptNames {
		t.Fatalf("%d names kept, want %d", len(p.names), keptNames)
	}
	for name := range p.names {
		if len(name) > keptNameBytes {
			t.Errorf("kept a name of %d bytes", len(name))
		}
	}
	msg := []byte("tool_0")
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.toolName(string(msg))
	if got := testing.AllocsPerRun(100, func() { kept = p.toolName(string(msg[:])) }); got != 0 {
		t.Errorf("a kept name took %v allocations", got)
	}
	msg[0] = 'T' // the message's memory is reused: the kept name is not
	if kept != "tool_0" {
		t.Errorf("kept name %q", kept)
	}
}
