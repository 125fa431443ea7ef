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
