package proxy

import (
	"strings"
	"testing"
)

// TestCallKeyAsParsed: the key of a tools/call's id taken from the token
// the scan kept is the key of the id parsed anew, for every kind of id
// and form of it: escapes, numbers as written, ids of more than one
// token, and ids whose literal is over MaxIDBytes while their key is not.
func TestCallKeyAsParsed(t *testing.T) {
	ids := []string{
		`1`, `-0`, `1e2`, `1.50`, `123456789012345678901234567890`,
		`"1"`, `""`, `"a\"b"`, `"\u00e9\/\u003c"`, `"é😀"`, `"\ud83d\ude00"`, `"tab\tline\n"`,
		`null`, `true`, `false`, `{}`, `{"a":[1,"x"]}`, `[1, 2]`, `{ "b" : 2 }`,
		`"` + strings.Repeat(`\u0041`, 50) + `"`, // 302 bytes as written, a 52-byte key
		`"` + strings.Repeat("a", MaxIDBytes-2) + `"`,
		`"` + strings.Repeat("a", MaxIDBytes-1) + `"`,
		strings.Repeat("7", MaxIDBytes+1),
	}
	for _, id := range ids {
		msg := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{}}}`)
		h, ok := scanHost(msg, nil)
		if !ok {
			t.Fatalf("scanHost(%s) failed", msg)
		}
		wantKey, wantOK := key(msg, h.id)
		gotKey, gotOK := h.callKey(msg)
		if gotKey != wantKey || gotOK != wantOK {
			t.Errorf("id %s: callKey = %q, %v; key = %q, %v", id, gotKey, gotOK, wantKey, wantOK)
		}
	}
}
