package proxy

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/internal/jsontext"
	"pgregory.net/rapid"
)

// compactScanAsReader fails t when scanCompactHost reads msg otherwise
// than the reader reads it token by token (scanHostFrom), and reports
// whether it read it.
func compactScanAsReader(t interface{ Fatalf(string, ...any) }, msg []byte, keep *binding.Intermediary) bool {
	got, ok := scanCompactHost(msg, keep)
	want, wantOK := scanHostFrom(jsontext.NewStringReader(string(msg)), keep)
	if ok && (!wantOK || !reflect.DeepEqual(got, want)) {
		t.Fatalf("%s: read\n %+v, the reader read (%v)\n %+v", msg, got, wantOK, want)
	}
	return ok
}

// A compact request is read member by member as the reader reads it
// token by token: every id, method and params the proxy reads, in any
// order, beside members it skips; and whatever it leaves (whitespace,
// _meta, capabilities, a repeated name, another form of a string) the
// reader reads.
func TestPropertyCompactScanAsReader(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	gen.Check(t, 2000, func(t *rapid.T) {
		value := func(label string, more ...string) string {
			return rapid.SampledFrom(append([]string{`1`, `-0.5e+3`, `"a"`, `"a\"b\\n"`, `"tools/call"`, `true`, `false`, `null`, `{}`, `[]`, `[1,{"x":"]}"}]`, `{"a":{"b":[]},"c":"}"}`}, more...)).Draw(t, label)
		}
		var members []string
		add := func(name, v string) {
			at := rapid.IntRange(0, len(members)).Draw(t, "at "+name)
			members = append(members[:at], append([]string{`"` + name + `":` + v}, members[at:]...)...)
		}
		if rapid.Bool().Draw(t, "jsonrpc") {
			add("jsonrpc", `"2.0"`)
		}
		if rapid.Bool().Draw(t, "has id") {
			add("id", value("id", `"\u001f"`, `12345678901234567890`))
		}
		if rapid.Bool().Draw(t, "has method") {
			add("method", value("method", `"initialize"`, `"notifications/cancelled"`, `"tools\/call"`))
		}
		if rapid.Bool().Draw(t, "has params") {
			var params []string
			for _, name := range []string{"name", "arguments", "requestId", "_meta", "capabilities", "other", "nam\\u0065"} {
				if rapid.IntRange(0, 3).Draw(t, "params "+name) == 0 {
					params = append(params, `"`+name+`":`+value("params "+name+" value", `"search_symbols"`))
				}
			}
			add("params", rapid.SampledFrom([]string{`{` + strings.Join(params, ",") + `}`, `[]`, `"x"`}).Draw(t, "params"))
		}
		if rapid.IntRange(0, 5).Draw(t, "repeated") == 0 {
			add("id", `2`)
		}
		msg := `{` + strings.Join(members, ",") + `}`
		if rapid.IntRange(0, 5).Draw(t, "spaced") == 0 {
			msg = strings.Replace(msg, ":", ": ", 1)
		}
		if compactScanAsReader(t, []byte(msg), p.decide) {
			read++
		}
	})
	if read == 0 {
		t.Error("no compact request read")
	}
}

// Whatever the bytes, what the compact scan reads is what the reader
// reads.
func FuzzCompactScanAsReader(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_symbols","arguments":{}}}`,
		`{"id":"a\"b","method":"tools/call","params":{"arguments":[1,"}",{"a":"\\"}],"name":"t\u0001"}}`,
		`{"method":"notifications/cancelled","params":{"requestId":"x"}}`,
		`{"id":null,"result":{}}`,
		`{"id":1,"method":"tools/call","params":{"name":"t","_meta":{}}}`,
		`{"id":-1.5e3,"method":{},"params":[]}`,
		`{}`,
	} {
		f.Add([]byte(seed))
	}
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		compactScanAsReader(t, msg, p.decide)
	})
}

// A request nested deeper than compactScanDepth is left to the reader,
// which reads it to its own bound.
func TestCompactScanLeavesDeepRequests(t *testing.T) {
	p, err := New(Options{Binding: binding.ServerOptions{Mode: binding.ModeGCX}})
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{compactScanDepth - 3, compactScanDepth - 2, 100} {
		msg := []byte(`{"id":1,"method":"tools/call","params":{"name":"t","arguments":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}`)
		_, compact := scanCompactHost(msg, p.decide)
		if want := depth+2 <= compactScanDepth; compact != want {
			t.Errorf("nested %d deep: read by the compact scan %v, want %v", depth+2, compact, want)
		}
		if h, ok := scanHost(msg, p.decide); !ok || h.name != "t" || h.method != "tools/call" {
			t.Errorf("nested %d deep: read %v, %+v", depth+2, ok, h)
		}
	}
}
