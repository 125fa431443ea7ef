package explore_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/conformance/explore"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The registered draft keeps the laws on every generated value, and a
// copy of it with a planted bug breaks one, shrunk to a small value.
func TestLaws(t *testing.T) {
	draft, ok := codec.Lookup("GCX2-draft.1")
	if !ok {
		t.Skip("GCX2-draft.1 is not registered")
	}
	limited, ok := draft.(codec.Limited)
	if !ok {
		t.Fatal("GCX2-draft.1 is not codec.Limited")
	}
	rep, err := explore.Laws(limited, explore.Options{Seed: 1, Cases: 300})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Finding; f != nil {
		t.Fatalf("GCX2-draft.1 breaks %q on %s:\n%s", f.Law, f.Value.AppendCompact(nil), f.Detail)
	}
	buggy := dropsEmptyStrings{limited}
	rep, err = explore.Laws(buggy, explore.Options{Seed: 1, Cases: 300})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Finding
	if f == nil || !strings.Contains(f.Law, "MAP-4") {
		t.Fatalf("the planted bug is not found: %+v", f)
	}
	if got, orig := len(f.Value.AppendCompact(nil)), len(f.Original.AppendCompact(nil)); got > orig || got > 40 {
		t.Errorf("shrunk from %d to %d bytes: %s", orig, got, f.Value.AppendCompact(nil))
	}
	t.Logf("%s: %s", f.Law, f.Value.AppendCompact(nil))
}

// dropsEmptyStrings decodes "" as null: the value does not come back.
type dropsEmptyStrings struct{ codec.Limited }

func (d dropsEmptyStrings) Decode(payload []byte) (jsonmap.Value, error) {
	v, err := d.Limited.Decode(payload)
	if err != nil {
		return v, err
	}
	out, err := jsonmap.Parse(bytes.ReplaceAll(v.AppendCompact(nil), []byte(`:""`), []byte(`:null`)))
	return out, err
}

func (d dropsEmptyStrings) DecodeLimits(payload []byte, l spec.Limits) (jsonmap.Value, error) {
	return d.Limited.DecodeLimits(payload, l)
}
