package codec_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// The measurement of GCX2-draft.1 on the token scorecard's corpus, with
// its ablation table: docs/drafts/GCX2-draft.1.md quotes what
//
//	go test ./codec -run TestDraft1Ablation -v
//
// prints. Every configuration must give every case back [MAP-4].

// benchCase is one fixture of bench/wire-format/cases with the scorecard's
// figures for it.
type benchCase struct {
	name, tool, shape string
	value             jsonmap.Value
	json              [2]int // compact JSON: cl100k_base, o200k_base
	toonTab           [2]int
}

var encodings = [2]string{tokens.CL100K, tokens.O200K}

// loadBenchCases reads the corpus, and the scorecard for each case's shape
// and TOON-tab figures, which need node to measure.
func loadBenchCases(t *testing.T) []benchCase {
	t.Helper()
	raw, err := os.ReadFile("../bench/wire-format/scorecard.json")
	if err != nil {
		t.Fatal(err)
	}
	var card struct {
		Cases []struct {
			Name, Shape string
			ToonTab     *struct{ CL100K, O200K int } `json:"toon_tab"`
		}
	}
	if err := json.Unmarshal(raw, &card); err != nil {
		t.Fatal(err)
	}
	var out []benchCase
	for _, c := range card.Cases {
		text, err := os.ReadFile(filepath.Join("../bench/wire-format/cases", c.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		wrapper, err := jsonmap.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		tool, _ := wrapper.Lookup("tool")
		resp, _ := wrapper.Lookup("response")
		bc := benchCase{name: c.Name, tool: tool.Text, shape: c.Shape, value: resp}
		for k, enc := range encodings {
			bc.json[k] = count(t, enc, string(resp.AppendCompact(nil)))
		}
		if c.ToonTab == nil {
			t.Fatalf("%s: the scorecard has no TOON-tab figures", c.Name)
		}
		bc.toonTab = [2]int{c.ToonTab.CL100K, c.ToonTab.O200K}
		out = append(out, bc)
	}
	return out
}

func count(t *testing.T, enc, text string) int {
	n, err := tokens.Count(enc, text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// tabular reports whether the scorecard counts a case as tabular.
func tabular(shape string) bool {
	return shape == "table" || shape == "table+nested" || shape == "tables"
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func saving(json, n int) float64 { return 100 * float64(json-n) / float64(json) }

// ablated is the draft with some ideas switched off.
type ablated struct {
	codec.Ablatable
	off []string
}

func (a ablated) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return a.EncodeWithout(tool, v, a.off)
}

func TestDraft1Ablation(t *testing.T) {
	if testing.Short() {
		t.Skip("counts the tokens of the whole corpus in every configuration")
	}
	cases := slices.DeleteFunc(loadBenchCases(t), func(c benchCase) bool { return !tabular(c.shape) })
	var draft codec.Ablatable = codec.Draft1{}
	var all []string
	for _, idea := range draft.Ideas() {
		all = append(all, idea.Name)
	}
	type config struct {
		name  string
		codec codec.Codec
	}
	configs := []config{{"GCX1", codec.GCX1{}}, {"draft, no idea", ablated{draft, all}}}
	for _, idea := range all {
		configs = append(configs, config{"draft, only " + idea, ablated{draft, slices.DeleteFunc(slices.Clone(all), func(s string) bool { return s == idea })}})
	}
	for _, idea := range all {
		configs = append(configs, config{"draft, all but " + idea, ablated{draft, []string{idea}}})
	}
	configs = append(configs, config{"GCX2-draft.1 (all ideas)", draft})

	var table, perCase strings.Builder
	table.WriteString("| encoder | median saving, cl100k_base | median saving, o200k_base | tokens, cl100k_base | tokens, o200k_base | cases ≥ 40% (cl100k) | fewer tokens than TOON-tab (both) |\n| --- | ---: | ---: | ---: | ---: | ---: | --- |\n")
	perCase.WriteString("| case | rows | compact JSON | TOON-tab | GCX1 | GCX2-draft.1 | saving | ahead of TOON-tab | compact JSON | TOON-tab | GCX1 | GCX2-draft.1 | saving |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
	gcx1 := map[string][2]int{}
	for _, cf := range configs {
		var saves [2][]float64
		var total [2]int
		var over int
		var behind []string
		for _, bc := range cases {
			payload, err := cf.codec.Encode(bc.tool, bc.value)
			if err != nil {
				t.Fatalf("%s, %s: %v", cf.name, bc.name, err)
			}
			back, err := cf.codec.Decode(payload)
			if err != nil || !jsonmap.Equal(back, bc.value) {
				t.Fatalf("%s, %s: the payload does not give the value back (%v)", cf.name, bc.name, err)
			}
			var n [2]int
			for k, enc := range encodings {
				n[k] = count(t, enc, string(payload))
				total[k] += n[k]
				saves[k] = append(saves[k], saving(bc.json[k], n[k]))
			}
			if saving(bc.json[0], n[0]) >= 40 {
				over++
			}
			ahead := n[0] < bc.toonTab[0] && n[1] < bc.toonTab[1]
			if !ahead {
				behind = append(behind, bc.name)
			}
			switch cf.name {
			case "GCX1":
				gcx1[bc.name] = n
			case "GCX2-draft.1 (all ideas)":
				g := gcx1[bc.name]
				fmt.Fprintf(&perCase, "| %s | %s | %d | %d | %d | %d | %+.1f%% | %s | %d | %d | %d | %d | %+.1f%% |\n",
					bc.name, rowsOf(bc.value), bc.json[0], bc.toonTab[0], g[0], n[0], saving(bc.json[0], n[0]), yesNo(ahead),
					bc.json[1], bc.toonTab[1], g[1], n[1], saving(bc.json[1], n[1]))
			}
		}
		verdict := "all"
		if len(behind) > 0 {
			verdict = fmt.Sprintf("%d of %d (not %s)", len(cases)-len(behind), len(cases), strings.Join(behind, ", "))
		}
		fmt.Fprintf(&table, "| %s | %+.1f%% | %+.1f%% | %d | %d | %d of %d | %s |\n",
			cf.name, median(saves[0]), median(saves[1]), total[0], total[1], over, len(cases), verdict)
	}
	t.Logf("GCX2-draft.1 on the %d tabular cases of bench/wire-format/cases:\n\n%s\n%s\n%s", len(cases), table.String(), perCase.String(), rejected(t, cases))
}

// rejected measures the ideas the draft left out, on the same cases: each
// as a variant of the draft's payloads, or of the texts it would change.
func rejected(t *testing.T, cases []benchCase) string {
	rows := regexp.MustCompile(` rows=[0-9]+`)
	variants := []struct {
		name string
		edit func(bc benchCase, payload []byte) string
	}{
		{"GCX2-draft.1", func(_ benchCase, p []byte) string { return string(p) }},
		{"without rows= (a cut payload would decode as a shorter table)", func(_ benchCase, p []byte) string {
			return rows.ReplaceAllString(string(p), "")
		}},
		{"without the keywords tool= and fields= (a new header grammar)", func(_ benchCase, p []byte) string {
			return strings.NewReplacer(" tool=", " ", " fields=", " ").Replace(string(p))
		}},
		{"abbreviating indented and multi-line texts too", func(bc benchCase, _ []byte) string {
			p, err := codec.Draft1AbbreviatingCode().Encode(bc.tool, bc.value)
			if err != nil {
				t.Fatal(err)
			}
			return string(p)
		}},
	}
	var b strings.Builder
	b.WriteString("| variant | median saving, cl100k_base | median saving, o200k_base | tokens, cl100k_base | tokens, o200k_base |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, v := range variants {
		var saves [2][]float64
		var total [2]int
		for _, bc := range cases {
			payload, err := codec.Draft1{}.Encode(bc.tool, bc.value)
			if err != nil {
				t.Fatal(err)
			}
			text := v.edit(bc, payload)
			for k, enc := range encodings {
				n := count(t, enc, text)
				total[k] += n
				saves[k] = append(saves[k], saving(bc.json[k], n))
			}
		}
		fmt.Fprintf(&b, "| %s | %+.1f%% | %+.1f%% | %d | %d |\n", v.name, median(saves[0]), median(saves[1]), total[0], total[1])
	}
	// Multi-line texts as comment lines under their row, raw: TAB and
	// backslash need no escape in a comment [CMT-1], and each line begins
	// with #.
	var escaped, comments [2]int
	for _, bc := range cases {
		for _, text := range multiline(bc.value) {
			cell := "\t" + string(spec.ValueEscapes.Append(nil, text)) + "\n"
			lines := "\t\n#" + strings.ReplaceAll(text, "\n", "\n#") + "\n"
			for k, enc := range encodings {
				escaped[k] += count(t, enc, cell)
				comments[k] += count(t, enc, lines)
			}
		}
	}
	fmt.Fprintf(&b, "\nMulti-line texts of the tabular cases written as comment lines under their row instead of escaped in the cell: %d against %d tokens (cl100k_base), %d against %d (o200k_base).\n",
		comments[0], escaped[0], comments[1], escaped[1])
	return b.String()
}

// multiline returns the strings of v that hold a LF.
func multiline(v jsonmap.Value) []string {
	var out []string
	switch v.Kind {
	case jsonmap.String:
		if strings.Contains(v.Text, "\n") {
			out = append(out, v.Text)
		}
	case jsonmap.Array:
		for _, e := range v.Elems {
			out = append(out, multiline(e)...)
		}
	case jsonmap.Object:
		for _, m := range v.Members {
			out = append(out, multiline(m.Value)...)
		}
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// rowsOf says how many rows a tabular value has: the elements of an array,
// or of each array member of an object.
func rowsOf(v jsonmap.Value) string {
	if v.Kind == jsonmap.Array {
		return fmt.Sprint(len(v.Elems))
	}
	var parts []string
	for _, m := range v.Members {
		if m.Value.Kind == jsonmap.Array {
			parts = append(parts, fmt.Sprint(len(m.Value.Elems)))
		}
	}
	return strings.Join(parts, "+")
}
