package codec_test

import (
	"errors"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Every registered tag is a well-formed version tag [VER-1] with a place in
// the order of versions, registered once; GCX1 comes first and is no
// draft.
func TestRegistry(t *testing.T) {
	all := codec.All()
	if len(all) == 0 || all[0].Tag() != spec.Version {
		t.Fatalf("GCX1 is not the first codec: %v", all)
	}
	seen := map[string]bool{}
	for _, c := range all {
		tag := c.Tag()
		if got, kind, n := spec.ReadTag([]byte(tag)); got != tag || n != len(tag) || kind == spec.TagMalformed {
			t.Errorf("tag %q is not a well-formed version tag", tag)
		}
		if !codec.Ranked(tag) {
			t.Errorf("tag %q has no place in the order of versions", tag)
		}
		if seen[tag] {
			t.Errorf("tag %q is registered twice", tag)
		}
		seen[tag] = true
		if c2, ok := codec.Lookup(tag); !ok || c2.Tag() != tag {
			t.Errorf("Lookup(%q) = %v, %v", tag, c2, ok)
		}
		if tag == spec.Version && codec.IsDraft(tag) {
			t.Errorf("%s counts as a draft", tag)
		}
	}
	if _, ok := codec.Lookup("GCX9"); ok {
		t.Error("Lookup finds an unregistered tag")
	}
}

// The GCX1 codec is the JSON mapping: it reads back what it writes, and
// refuses another version naming its tag [MAP-4] [VER-2].
func TestGCX1(t *testing.T) {
	c, _ := codec.Lookup("GCX1")
	v, err := jsonmap.Parse([]byte(`[{"a":1,"b":"x"},{"a":2}]`))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := c.Encode("t", v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := c.Decode(payload)
	if err != nil || !jsonmap.Equal(v, back) {
		t.Fatalf("Decode(Encode(v)) = %v, %v", back, err)
	}
	_, err = c.Decode([]byte("GCX2-draft.1 tool=t fields=a\n"))
	var e *spec.Error
	if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != "GCX2-draft.1" {
		t.Errorf("a draft payload: %v", err)
	}
}
