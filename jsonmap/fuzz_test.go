package jsonmap_test

import (
	"errors"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// FuzzEncode: every JSON text Parse accepts round-trips through GCX1
// under a generic and a declared tool name [MAP-4]; everything else is
// refused with a classified error [MAP-1].
func FuzzEncode(f *testing.F) {
	for _, c := range shapeCases {
		f.Add([]byte(c.json))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		v, err := jsonmap.Parse(text)
		if err != nil {
			if !errors.Is(err, jsonmap.ErrInvalidJSON) && !errors.Is(err, spec.ErrLimit) {
				t.Fatalf("Parse(%q): unclassified error %v", text, err)
			}
			return
		}
		want := v.AppendCompact(nil)
		for _, tool := range []string{"t", "search_symbols", "get_callers"} {
			payload, err := jsonmap.Encode(tool, text)
			if err != nil {
				t.Fatalf("Encode(%s, %q): %v", tool, text, err)
			}
			back, err := jsonmap.Decode(payload)
			if err != nil || string(back) != string(want) {
				t.Fatalf("Decode(Encode(%s, %q)) = %q, %v; want %q", tool, text, back, err, want)
			}
		}
	})
}

// FuzzDecode: any input either fails with a classified error or is a
// payload whose value re-encodes to a payload holding the same value
// [MAP-7].
func FuzzDecode(f *testing.F) {
	for _, c := range shapeCases {
		f.Add([]byte(c.gcx))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		sameFromString(t, payload)
		v, err := jsonmap.DecodeValue(payload)
		if err != nil {
			if spec.ClassName(err) == "io" {
				t.Fatalf("Decode(%q): unclassified error %v", payload, err)
			}
			return
		}
		p, err := reference.Decode(payload)
		if err != nil {
			t.Fatalf("DecodeValue accepted what reference.Decode refuses: %v", err)
		}
		again, err := jsonmap.EncodeValue(p.Sections[0].Tool, v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := jsonmap.DecodeValue(again)
		if err != nil || !jsonmap.Equal(back, v) {
			t.Fatalf("value of %q does not survive re-encoding as %q: %v", payload, again, err)
		}
	})
}
