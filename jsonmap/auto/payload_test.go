package auto_test

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
)

// TestPropertyChoosePayloadAgrees: given GCX1's payload, the codec-generic
// entry point chooses what ChooseValue chooses, with the same counts.
func TestPropertyChoosePayloadAgrees(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		want, err := auto.ChooseValueFull("t", v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := auto.ChoosePayload(want.Payload, v)
		if err != nil {
			t.Fatal(err)
		}
		if got.Format != want.Format || !bytes.Equal(got.Output, want.Output) || got.GCXTokens != want.GCXTokens || got.JSONTokens != want.JSONTokens {
			t.Fatalf("ChoosePayload = %+v, ChooseValue = %+v", got, want)
		}
	})
}

// A payload that costs as much as the JSON, or more, is not written
// [AUTO-1]; one that costs less is.
func TestChoosePayload(t *testing.T) {
	v, err := jsonmap.Parse([]byte(`[1,2,3]`))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := auto.ChoosePayload([]byte("GCX9 tool=t fields=a,b,c,d,e,f,g rows=1\n1\t2\t3\n"), v); c.Format != jsonmap.FormatJSON || string(c.Output) != "[1,2,3]" {
		t.Errorf("a dearer payload: %+v", c)
	}
	if c, _ := auto.ChoosePayload([]byte("G"), v); c.Format != jsonmap.FormatGCX || string(c.Output) != "G" {
		t.Errorf("a cheaper payload: %+v", c)
	}
}
