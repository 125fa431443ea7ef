package codec_test

import (
	"errors"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// A payload of GCX2-draft.3 from an untrusted peer: the decoder returns a
// value or an error with a class, whose position lies within the payload;
// a value it returns is written again and comes back.
func FuzzDraft3Decode(f *testing.F) {
	for _, s := range []string{
		"GCX2-draft.3 tool=t fields= json=tree rows=1\n{\"a\":{\"b\":\"@\"}}\nGCX2-draft.3 tool=t.a.b fields=x rows=2\n1\n^\n",
		"GCX2-draft.3 tool=t fields= json=tree rows=1\n{\"a\":[\"@\",\"@\"]}\nGCX2-draft.3 tool=t.a.1 fields=x rows=1 x=9\n\n",
		"GCX2-draft.3 tool=t fields= json=tree rows=1\n[{\"rows\":\"@\"},{\"rows\":\"@\"}]\nGCX2-draft.3 tool=t.0.rows fields=a rows=1\n1\nGCX2-draft.3 tool=t.1.rows fields=a rows=1\n2\n",
		"GCX2-draft.3 tool=t fields=a json=object rows=2 items=@ total=2\n1\n^\n",
		"GCX2-draft.3 tool=t fields= json=tree rows=1 total=3\n{}\n",
	} {
		f.Add([]byte(s))
	}
	d := codec.Draft3{}
	f.Fuzz(func(t *testing.T, payload []byte) {
		v, err := d.Decode(payload)
		if err != nil {
			if spec.ClassName(err) == "" || spec.ClassName(err) == "io" {
				t.Fatalf("an error of no class: %v", err)
			}
			var e *spec.Error
			if errors.As(err, &e) && (e.Offset < 0 || e.Offset > int64(len(payload))) {
				t.Fatalf("an error outside the payload (offset %d of %d): %v", e.Offset, len(payload), err)
			}
			return
		}
		again, err := d.Encode("t", v)
		if err != nil {
			t.Fatalf("re-encoding %s: %v", v.AppendCompact(nil), err)
		}
		if back, err := d.Decode(again); err != nil || !jsonmap.Equal(back, v) {
			t.Fatalf("the value does not come back: %v", err)
		}
	})
}
