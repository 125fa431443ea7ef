package proxy

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcxwire/gcx/jsonmap"
)

// Clipping a JSON text's long strings leaves JSON, its short strings as
// they were, and the long ones no longer than clipStringBytes and a few
// bytes (scanstream.go).
func FuzzClipStrings(f *testing.F) {
	long := strings.Repeat("é\\u00e9\\ud83d\\ude00\\\"x", clipStringBytes/8)
	for _, s := range []string{`{"a":"b"}`, `["` + long + `",1,"c"]`, `{"` + long + `":"` + long + `"}`, `"` + strings.Repeat(`\ud83d\ude00`, clipStringBytes) + `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		in, err := jsonmap.Parse([]byte(text))
		if err != nil {
			return
		}
		out, err := io.ReadAll(&clipStrings{r: iotest.OneByteReader(strings.NewReader(text))})
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonmap.Parse(out)
		if err != nil {
			t.Fatalf("clipped %q to %q, not JSON: %v", text, out, err)
		}
		if len(text) <= clipStringBytes && string(got.AppendCompact(nil)) != string(in.AppendCompact(nil)) {
			t.Errorf("clipped %q, whose strings are all short, to %q", text, out)
		}
	})
}
