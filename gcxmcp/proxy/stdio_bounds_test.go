package proxy_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
)

// A result over the limit passes untouched and its call leaves the table
// all the same, whether the result fits the read buffer or not: it was
// answered [PRX-6]. The session then ends with no call unanswered.
func TestStdioOverLimitResultLeavesTable(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxMessageBytes: 10_000})
	s.initialize()
	for i, big := range []int{20_000, 200_000} {
		s.send(call(i+1, "list_rows", fmt.Sprintf(`{"big":%d}`, big)))
		got := s.receive()
		if !strings.Contains(got, `"id":`+strconv.Itoa(i+1)) || strings.Contains(got, "GCX1 tool") {
			t.Errorf("result %d came back changed (%d bytes)", i+1, len(got))
		}
		if n := s.p.Pending(); n != 0 {
			t.Errorf("after a result of %d bytes over the limit, %d calls are in flight", big, n)
		}
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
}

// Over stdio too, the calls in flight are bounded: the call beyond is
// answered by the proxy with a JSON-RPC error and never reaches the
// server [PRX-9].
func TestStdioCallsBounded(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{MaxCalls: 2}, "GCX_PROXY_FAKE_DEFER=3")
	s.initialize()
	s.send(call(1, "t", `{}`), call(2, "t", `{}`), call(3, "t", `{}`))
	var refusal struct {
		ID    int
		Error struct{ Code int }
	}
	if got := s.receive(); json.Unmarshal([]byte(got), &refusal) != nil || refusal.ID != 3 || refusal.Error.Code != proxy.RefusalCode {
		t.Errorf("the third call got %q", got)
	}
	if n := s.p.Pending(); n != 2 {
		t.Errorf("%d calls in flight, want 2", n)
	}
	s.end()
}

// The bytes held to rewrite are bounded across the proxy: a result that
// would go over passes untouched, as it arrives, and is reported, though
// it is under the message limit; the next one that fits is answered
// [PRX-9].
func TestBufferedBytesBounded(t *testing.T) {
	s := startFake(t, "echo", proxy.Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}, MaxBufferedBytes: 100_000})
	s.initialize()
	s.send(call(1, "list_rows", `{"big":150000}`))
	if got := s.receive(); strings.Contains(got, "GCX1 tool") || !strings.Contains(got, `"id":1`) {
		t.Errorf("a result over the budget came back changed (%d bytes)", len(got))
	}
	if !strings.Contains(s.stderr.String(), "--max-buffered-bytes") {
		t.Errorf("the result passed untouched without a word:\n%s", s.stderr)
	}
	s.send(call(2, "list_rows", `{"n":2}`))
	if got := s.receive(); !strings.Contains(got, "GCX1 tool") {
		t.Errorf("a small result after it was not answered: %s", got)
	}
	if n := s.p.Pending(); n != 0 {
		t.Errorf("%d calls in flight", n)
	}
	if err := s.end(); err != nil {
		t.Error(err)
	}
}
