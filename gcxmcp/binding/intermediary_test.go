package binding

import (
	"fmt"
	"slices"
	"testing"
)

// Keep keeps a tag only while fewer than MaxKeptTags are kept, whatever
// they are [PRX-6]: a list already that long is returned as it is.
func TestKeepBoundsTheList(t *testing.T) {
	p, err := NewIntermediary(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for i := range MaxKeptTags - 1 {
		kept = append(kept, fmt.Sprintf("X%d", i))
	}
	kept = p.Keep(kept, "GCX1")
	if len(kept) != MaxKeptTags || kept[MaxKeptTags-1] != "GCX1" {
		t.Fatalf("with %d kept, GCX1 not kept: %v", MaxKeptTags-1, kept)
	}
	full := slices.Clone(kept[:MaxKeptTags-1])
	full = append(full, "X99")
	if got := p.Keep(full, "GCX1"); len(got) != MaxKeptTags {
		t.Fatalf("with %d kept, Keep kept another: %v", MaxKeptTags, got)
	}
}

// From PerRequestCapabilities on, a call's own capabilities say what the
// host reads, not the session's; before it they are not read [MCP-2]
// [MCP-10]: a host that opts out in a call's capabilities gets the result
// as it is only where they count.
func TestRequestReadsPerRequestCapabilities(t *testing.T) {
	p, err := NewIntermediary(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	optedOut := map[string]any{MetaClientCapabilities: map[string]any{
		"extensions": map[string]any{Extension: map[string]any{SettingAccept: []any{}}},
	}}
	table := `{"rows":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"},{"id":4,"name":"d"}]}`
	for _, c := range []struct {
		version string
		why     Reason
		written bool
	}{
		{"2025-11-25", "", true},
		{PerRequestCapabilities, ReasonNotAccepted, false},
	} {
		call := p.Request(Session{ProtocolVersion: c.version}, "t", optedOut)
		d := p.Decide(call, &Result{Content: []Block{{IsText: true, Text: table}}})
		if d.Why != c.why || d.Answered != c.written {
			t.Errorf("protocol %s: decision %+v, want why %q, answered %v", c.version, d, c.why, c.written)
		}
	}
}
