package codec_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/codec"
)

// The order of versions, oldest first: drafts of a major between the
// release before it and their own release; unranked tags below them all.
func TestCompare(t *testing.T) {
	oldestFirst := []string{"GCX01", "GCX1-stream", "GCX1.1", "GCX2-draft.0", "GCXa",
		"GCX1", "GCX2-draft.1", "GCX2-draft.2", "GCX2-draft.10", "GCX2", "GCX3-draft.1", "GCX3", "GCX10"}
	for i, a := range oldestFirst {
		for j, b := range oldestFirst {
			if got, want := codec.Compare(a, b), cmpInt(i, j); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	shuffled := slices.Clone(oldestFirst)
	slices.Reverse(shuffled)
	shuffled = append(shuffled, "GCX1", "GCX2")
	want := slices.Clone(oldestFirst)
	slices.Reverse(want)
	if diff := cmp.Diff(want, codec.NewestFirst(shuffled)); diff != "" {
		t.Errorf("NewestFirst (-want +got):\n%s", diff)
	}
	for tag, ranked := range map[string]bool{"GCX1": true, "GCX2-draft.1": true, "GCX12": true,
		"GCX1-stream": false, "GCX0": false, "GCX01": false, "GCX2-draft.01": false, "GCX2-draft.": false, "GCX2-beta.1": false} {
		if codec.Ranked(tag) != ranked {
			t.Errorf("Ranked(%s) = %v", tag, !ranked)
		}
		if want := ranked && tag != "GCX1" && tag != "GCX12"; codec.IsDraft(tag) != want {
			t.Errorf("IsDraft(%s) = %v", tag, !want)
		}
	}
}

func cmpInt(i, j int) int {
	switch {
	case i < j:
		return -1
	case i > j:
		return 1
	}
	return 0
}

// Negotiation follows the server's preference, takes only what the client
// lists, and is JSON ("") when they share nothing [MCP-4].
func TestNegotiate(t *testing.T) {
	cases := []struct {
		accept, offer []string
		want          string
	}{
		{[]string{"GCX1"}, []string{"GCX1"}, "GCX1"},
		{[]string{"GCX1", "GCX2-draft.1"}, []string{"GCX2-draft.1", "GCX1"}, "GCX2-draft.1"},
		{[]string{"GCX2-draft.1", "GCX1"}, []string{"GCX1", "GCX2-draft.1"}, "GCX1"},
		{[]string{"GCX1"}, []string{"GCX2-draft.1"}, ""},
		{nil, []string{"GCX1"}, ""},
		{[]string{"GCX1"}, nil, ""},
		{[]string{"GCX1", "GCX3"}, codec.NewestFirst([]string{"GCX1", "GCX2", "GCX3"}), "GCX3"},
	}
	for _, c := range cases {
		if got := codec.Negotiate(c.accept, c.offer); got != c.want {
			t.Errorf("Negotiate(%v, %v) = %q, want %q", c.accept, c.offer, got, c.want)
		}
	}
}
