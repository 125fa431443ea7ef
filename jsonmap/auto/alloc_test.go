package auto_test

import (
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// TestAutoAllocatesAsEncode holds auto mode to mode gcx's allocations on a
// result it writes as GCX1: the counts allocate nothing a call, and the
// choice nothing beyond the payload (an error target declared for every
// call once cost an allocation each).
func TestAutoAllocatesAsEncode(t *testing.T) {
	value := results(t, "search_symbols-60", 60)[0]
	if _, f, err := auto.Encode("search_symbols", value); err != nil || f != jsonmap.FormatGCX {
		t.Fatalf("auto.Encode: format %q, error %v; want GCX1", f, err)
	}
	gcx := testing.AllocsPerRun(20, func() {
		if _, err := jsonmap.Encode("search_symbols", value); err != nil {
			t.Fatal(err)
		}
	})
	au := testing.AllocsPerRun(20, func() {
		if _, _, err := auto.Encode("search_symbols", value); err != nil {
			t.Fatal(err)
		}
	})
	if au > gcx {
		t.Errorf("auto.Encode allocates %v times a call, jsonmap.Encode %v", au, gcx)
	}
}
