package binding

import (
	"encoding/json"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// A content block's member names are matched as ResultFromJSON matches
// them, exactly: "Type" or "TEXT" is no "type" or "text", so the block
// they are in is no text block for the reader either.
func TestReadResponseNamesCaseSensitive(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"Type":"text","text":"hi"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"TYPE":"text","text":"{\"a\":1}"}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"image","Type":"text","text":"hi"}]}}`,
	} {
		m, err := jsonmap.Parse([]byte(msg))
		if err != nil {
			t.Fatal(err)
		}
		result, _ := m.Lookup("result")
		want, err := ResultFromJSON(result, false)
		if err != nil {
			t.Fatalf("ResultFromJSON: %v: %s", err, msg)
		}
		resp, ok := ReadResponse([]byte(msg))
		if !ok {
			t.Fatalf("ReadResponse refuses %s", msg)
		}
		if len(resp.Result.Content) != len(want.Content) {
			t.Fatalf("%d blocks, ResultFromJSON %d: %s", len(resp.Result.Content), len(want.Content), msg)
		}
		for i := range want.Content {
			if got := resp.Result.Content[i]; got.IsText != want.Content[i].IsText || got.Text != want.Content[i].Text {
				t.Errorf("block %d is %+v, ResultFromJSON's %+v: %s", i, got, want.Content[i], msg)
			}
		}
	}
}

// A member name longer than a word, in the text block's literal as itself,
// against structuredContent's name of the same length but another first
// byte ('}'): the in-line member match gives the member up whole, and the
// reader finds the values differ (it does not take the '}' for the
// object's end).
func TestReadResponseLongNameDiffers(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"abcdefghij\":\"x\"}"}],"structuredContent":{"}bcdefghij":"x"}}}`
	resp, ok := ReadResponse([]byte(msg))
	if !ok {
		t.Fatalf("ReadResponse refuses %s", msg)
	}
	if s, _ := resp.Result.Structured.(*json.RawMessage); s == nil || string(*s) != `{"}bcdefghij":"x"}` {
		t.Errorf("structuredContent %v, want {\"}bcdefghij\":\"x\"}", resp.Result.Structured)
	}
	if known := resp.Result.known; known == nil || !known.differs {
		t.Errorf("the text block is not known as differing from structuredContent: %+v", known)
	}
}
