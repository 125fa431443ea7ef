package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
)

// The measurement of GCX2-draft.2 on the token scorecard's corpus wrapped
// as a server of MCP 2025-11-25 returns it (a value that is not an object
// becomes {"result": value}, as gcxmcp's corpus tests wrap it), with the
// ablation of its two ideas: docs/drafts/GCX2-draft.2.md quotes what
//
//	go test ./codec -run TestDraft2Ablation -v
//
// prints. Each configuration is counted as gcx mode writes it and as auto
// mode would choose, the cheaper of the payload and the compact JSON
// [AUTO-1] in cl100k_base; every configuration must give every case back [MAP-4].
func TestDraft2Ablation(t *testing.T) {
	cases := loadBenchCases(t)
	wrap := func(v jsonmap.Value) jsonmap.Value {
		if v.Kind == jsonmap.Object {
			return v
		}
		return jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "result", Value: v}}}
	}
	d := codec.Draft2{}
	type config struct {
		name  string
		value func(jsonmap.Value) jsonmap.Value
		enc   func(tool string, v jsonmap.Value) ([]byte, error)
	}
	without := func(off ...string) func(string, jsonmap.Value) ([]byte, error) {
		return func(tool string, v jsonmap.Value) ([]byte, error) { return d.EncodeWithout(tool, v, off) }
	}
	bare := func(v jsonmap.Value) jsonmap.Value { return v }
	gcx1 := codec.GCX1{}
	configs := []config{
		{"GCX1, bare values", bare, gcx1.Encode},
		{"GCX1, wrapped values", wrap, gcx1.Encode},
		{"draft, no idea, wrapped", wrap, without("layout", "bare")},
		{"draft, only layout, wrapped", wrap, without("bare")},
		{"draft, only bare, wrapped", wrap, without("layout")},
		{"GCX2-draft.2, wrapped values", wrap, d.Encode},
		{"GCX2-draft.2, bare values", bare, d.Encode},
	}
	var b strings.Builder
	b.WriteString("| encoder | tokens, cl100k_base | tokens, o200k_base | auto: tokens, cl100k_base | auto: saving, cl100k_base | auto: tokens, o200k_base | auto: saving, o200k_base |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, cf := range configs {
		var payloads, auto, json [2]int
		for _, c := range cases {
			v := cf.value(c.value)
			out, err := cf.enc(c.tool, v)
			if err != nil {
				t.Fatalf("%s, %s: %v", cf.name, c.name, err)
			}
			dec := codec.Codec(d)
			if strings.HasPrefix(string(out), "GCX1 ") {
				dec = gcx1
			}
			back, err := dec.Decode(out)
			if err != nil || !jsonmap.Equal(back, v) {
				t.Fatalf("%s, %s: the payload does not read back (%v)", cf.name, c.name, err)
			}
			var n, j [2]int
			for k, enc := range encodings {
				n[k], j[k] = count(t, enc, string(out)), count(t, enc, string(v.AppendCompact(nil)))
				payloads[k] += n[k]
				json[k] += j[k]
			}
			gcxWins := n[0] < j[0] // auto mode decides in cl100k_base [AUTO-1]
			for k := range encodings {
				if gcxWins {
					auto[k] += n[k]
				} else {
					auto[k] += j[k]
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %+.2f%% | %d | %+.2f%% |\n", cf.name, payloads[0], payloads[1],
			auto[0], saving(json[0], auto[0]), auto[1], saving(json[1], auto[1]))
	}
	t.Logf("the %d cases of the corpus (auto: each case the payload when it costs fewer cl100k_base tokens than the compact JSON, else the JSON):\n%s", len(cases), b.String())
}
