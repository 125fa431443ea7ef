package explore

import (
	"errors"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
)

// TestNestingBeyondTheMinimum checks that a case nested past the least
// bound [MAP-4] allows admits either conforming answer: where the
// reference refuses it past its own bound, the case is drawn again (a
// program with a higher bound decodes it); where the reference decodes
// it, a limit error on the line that holds the nesting is as good.
func TestNestingBeyondTheMinimum(t *testing.T) {
	ref := GCX1()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name    string
		c       Case
		drawn   bool // drawn again: no expectation
		orError int  // the or_error's line, 0 for none
	}{
		{"decode past the reference's bound", Case{Op: conformance.OpJSONDecode,
			Input: []byte("GCX1 tool=t fields= Json=value rows=2\n1\n" + deep(jsonmap.MaxDepth+1) + "\n")}, true, 0},
		{"decode within it", Case{Op: conformance.OpJSONDecode,
			Input: []byte("GCX1 tool=t fields=a rows=2\n1\n" + deep(minNestingBound+1) + "\n")}, false, 3},
		{"decode at the least bound", Case{Op: conformance.OpJSONDecode,
			Input: []byte("GCX1 tool=t fields=a rows=1\n" + deep(minNestingBound) + "\n")}, false, 0},
		{"decode with an error before it", Case{Op: conformance.OpJSONDecode,
			Input: []byte("GCX1 tool=t fields=a,a rows=1\n" + deep(jsonmap.MaxDepth+1) + "\n")}, false, 0},
		{"encode past the reference's bound", Case{Op: conformance.OpJSONEncode, Tool: "t", Mode: "gcx",
			Input: []byte(deep(jsonmap.MaxDepth + 1))}, true, 0},
		{"encode within it, over two lines", Case{Op: conformance.OpJSONEncode, Tool: "t", Mode: "gcx",
			Input: []byte("[\n" + deep(minNestingBound+1) + "]")}, false, 2},
		{"encode with bounds on two lines", Case{Op: conformance.OpJSONEncode, Tool: "t", Mode: "gcx",
			Input: []byte(strings.Repeat("[", minNestingBound+1) + "\n" + deep(1) + strings.Repeat("]", minNestingBound+1))}, true, 0},
		{"encode under limits", Case{Op: conformance.OpJSONEncode, Tool: "t", Mode: "gcx", Limits: conformance.Limits{"max-rows": 5},
			Input: []byte(deep(minNestingBound + 1))}, true, 0},
		{"a server's deep value", Case{Op: conformance.OpMCPServer,
			Input: []byte(`{"settings":{"mode":"gcx"},"request":{"name":"t"},"result":{"content":[{"type":"text","text":"` + deep(minNestingBound+1) + `"}]}}`)}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ref.Expect(tc.c)
			if tc.drawn {
				if !errors.Is(err, errNoCase) {
					t.Fatalf("want the case drawn again, got %+v, %v", f != nil && f.Vectors[0].Expected.OrError != nil, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := f.Vectors[0].Expected.OrError
			switch {
			case tc.orError == 0 && got != nil:
				t.Errorf("or_error %+v, want none", got)
			case tc.orError != 0 && (got == nil || got.Line != tc.orError || got.Rule != "MAP-4" || got.Class != "limit"):
				t.Errorf("or_error %+v, want a limit error [MAP-4] on line %d", got, tc.orError)
			}
		})
	}
}
