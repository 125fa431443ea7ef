package binding

import "testing"

// Every proper prefix of a response is no response: ReadResponse leaves
// it to the tree, which refuses it, and never reads past its end.
func TestReadResponseLeavesPrefixes(t *testing.T) {
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":\"x y\"}]"}],"structuredContent":[{"a":"x y"}],"_meta":{"k":1}}}`,
		`{"jsonrpc":"2.0","id":"q","result":{"structuredContent":{"r":["\u003c"]},"content":[{"text":"{\"r\":[\"<\"]}","type":"text"}]}}`,
	} {
		for n := range len(msg) {
			if _, ok := ReadResponse([]byte(msg[:n])); ok {
				t.Errorf("ReadResponse read the prefix %q", msg[:n])
			}
		}
	}
}
