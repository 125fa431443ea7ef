package binding

import (
	"bytes"
	"strings"
	"testing"
)

// structuredContent that is not the compact form of the block's value is
// compared token by token: an object with fewer members differs, and the
// same object with a space in it is the same value, written anew in
// compact form; ReadResponse reads both and writes what the tree writes.
func TestReadResponseComparesObjects(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		msg     string
		differs bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":{\"b\":1}}"}],"structuredContent":{"a":{}}}}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a": 1}}}`, false},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":{\"b\":1}}"}],"structuredContent":{"a":{"b": 1}}}}`, false},
	} {
		want, wantD, _ := viaTree(s, []byte(c.msg))
		got, gotD, resp, ok := viaText(s, []byte(c.msg))
		if !ok || resp.Result.known == nil || resp.Result.known.differs != c.differs {
			t.Fatalf("%s: read %v, want structuredContent read as differing %v", c.msg, ok, c.differs)
		}
		if gotD != wantD || !bytes.Equal(got, want) {
			t.Fatalf("decision %+v, the tree's %+v; wrote\n%s\nthe tree writes\n%s", gotD, wantD, got, want)
		}
	}
}

// structuredContent nested as deep as the reader allows, the block's
// value in another form than the compact one, is passed over, not read
// token by token: the answer rewrites in place only its one string in
// another form rather than the whole value, and writes what the tree
// writes.
func TestReadResponseDeepestStructured(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	// The response and its result hold structuredContent two deep: its
	// value may nest MaxDepth-2 deep.
	d := 9998
	val := strings.Repeat("[", d-1) + `["<"]` + strings.Repeat("]", d-1)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` +
		strings.ReplaceAll(val, `"`, `\"`) + `"}],"structuredContent":` + strings.ReplaceAll(val, `<`, `\u003c`) + `}}`)
	want, wantD, treeOK := viaTree(s, msg)
	got, gotD, resp, ok := viaText(s, msg)
	if !treeOK || !ok || resp.Result.known == nil || resp.Result.known.differs {
		t.Fatalf("tree read %v, ReadResponse read %v: want both, structuredContent the block's value", treeOK, ok)
	}
	if gotD != wantD || !bytes.Equal(got, want) {
		t.Fatalf("decision %+v, the tree's %+v; wrote %d bytes unlike the tree's %d", gotD, wantD, len(got), len(want))
	}
	if resp.recompact || len(resp.fixes) != 1 {
		t.Fatalf("structuredContent read token by token (written anew %v, %d strings rewritten), not passed over", resp.recompact, len(resp.fixes))
	}
}

// structuredContent in another form than the compact one (Go's \u003c)
// that differs from the text's value by one byte at the end of a run of
// plain bytes, before an escape or the closing quote, or by its length,
// is found to differ (and left to the tree); the same value is not; and
// the answer is the tree's.
func TestReadResponseOtherEscapesDiffer(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		structured string
		differs    bool
	}{
		{`"xa\u003cbc"`, false},
		{`"xb\u003cbc"`, true},
		{`"xa\u003cbd"`, true},
		{`"xa\u003cbcd"`, true},
		{`"xa\u003cb"`, true},
		{`"x\u003cbc"`, true},
		{`"xa\u003c\u003cbc"`, true},
	} {
		msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"k\":\"xa<bc\"},{\"k\":\"y\"}]"}],"structuredContent":[{"k":` + tc.structured + `},{"k":"y"}]}}`)
		want, _, _ := viaTree(s, msg)
		got, _, resp, ok := viaText(s, msg)
		switch {
		case !ok && tc.differs:
			continue // left to the tree: its compact form is not at hand
		case !ok || resp.Result.known == nil:
			t.Fatalf("%s: not read", tc.structured)
		case resp.Result.known.differs != tc.differs:
			t.Errorf("%s: differs = %v, want %v", tc.structured, resp.Result.known.differs, tc.differs)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: wrote\n%s\nthe tree writes\n%s", tc.structured, got, want)
		}
	}
}

// A member name of structuredContent is matched where it lies (name): as
// the compact form of the block's name, with its ':', it is passed; a name
// with escapes, in another form (\u0061 for "a", Go's \u003c), or a colon
// apart from it is matched or read as any string is, and the answer is
// the tree's.
func TestReadResponseComparesNames(t *testing.T) {
	s, err := NewServer(ServerOptions{Mode: ModeGCX})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, structured string
		differs          bool
	}{
		{`{\"a\":1,\"bc\":2}`, `{"a":1,"bc":2}`, false},
		{`{\"a\":1,\"bc\":2}`, `{"a":1,"bd":2}`, true},
		{`{\"a\":1,\"bc\":2}`, `{"a":1,"b":2}`, true},
		{`{\"a\":1,\"bc\":2}`, `{"a":1,"bcd":2}`, true},
		{`{\"a\":1,\"bc\":2}`, `{"\u0061":1,"bc":2}`, false},
		{`{\"a\":1,\"bc\":2}`, `{"a" :1,"bc":2}`, false},
		{`{\"a\\\"b\":1}`, `{"a\"b":1}`, false},
		{`{\"a\\tb\":1}`, `{"a\tb":1}`, false},
		{`{\"a\\tb\":1}`, "{\"a\tb\":1}", false}, // a raw tab: no JSON
		{`{\"a\\u0009b\":1}`, `{"a\tb":1}`, false},
		{`{\"\\u003c\":1}`, `{"\u003c":1}`, false},
		{`{\"<\":1}`, `{"<":1}`, false},
		{`{\"<\":1}`, `{"\u003c":1}`, false},
		{`{\"\":1}`, `{"":1}`, false},
		{`{\"\":1}`, `{"":1`, false},
	} {
		msg := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + c.text + `"}],"structuredContent":` + c.structured + `}}`
		want, wantD, treeOK := viaTree(s, []byte(msg))
		got, gotD, resp, ok := viaText(s, []byte(msg))
		if !treeOK {
			if ok {
				t.Fatalf("%s: ReadResponse read a message the tree refuses", msg)
			}
			continue
		}
		if !ok || resp.Result.known == nil || resp.Result.known.differs != c.differs {
			t.Fatalf("%s: read %v, want structuredContent read as differing %v", msg, ok, c.differs)
		}
		if gotD != wantD || !bytes.Equal(got, want) {
			t.Fatalf("%s: decision %+v, the tree's %+v; wrote\n%s\nthe tree writes\n%s", msg, gotD, wantD, got, want)
		}
	}
}
