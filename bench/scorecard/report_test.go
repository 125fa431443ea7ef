package scorecard

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sample is a hand-made scorecard for testing the rendering; its numbers
// are test data, not measurements.
func sample(withTOON bool) *Scorecard {
	size := func(n int) *Size { return &Size{Bytes: 4 * n, CL100K: n, O200K: n - 1, Gzip: 2 * n} }
	yes := true
	r := func(name string, shape Shape, compact, gcx, toonTab int) Result {
		res := Result{
			Name: name, Tool: "t", Description: "d | with a pipe", Shape: shape,
			Pretty: *size(2 * compact), Compact: *size(compact), GCX: size(gcx), Rows: []int{3},
			HeaderCL100K: 9, RoundTrip: "pass", Auto: size(min(compact, gcx)), AutoFormat: "gcx", AutoRoundTrip: "pass",
		}
		if gcx > compact {
			res.AutoFormat = "json"
		}
		if withTOON {
			res.TOONComma, res.TOONTab, res.TOONRoundTrip = size(toonTab+5), size(toonTab), &yes
		}
		return res
	}
	sc := &Scorecard{Cases: []Result{
		r("big-table", ShapeTable, 1000, 600, 650),
		r("graph", ShapeTables, 500, 350, 340),
		r("tiny-object", ShapeObject, 20, 25, 22),
		r("nested-config", ShapeNested, 300, 310, 280),
	}}
	if withTOON {
		sc.TOONVersion = "9.9.9"
	} else {
		sc.TOONNote = "node is not on PATH"
	}
	return sc
}

func TestSavings(t *testing.T) {
	cases := []struct {
		base, x int
		want    float64
	}{
		{100, 70, 30}, {100, 130, -30}, {100, 100, 0}, {0, 0, 0}, {0, 1, math.Inf(-1)},
	}
	for _, c := range cases {
		if got := Savings(c.base, c.x); got != c.want {
			t.Errorf("Savings(%d, %d) = %v, want %v", c.base, c.x, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := sample(true).Summarize()
	// Tabular savings vs compact JSON: big-table 40%, graph 30%.
	want := Stat{N: 2, Median: 35, Min: 30, MinCase: "graph", Max: 40, MaxCase: "big-table"}
	if diff := cmp.Diff(want, s.TabularVsCompact); diff != "" {
		t.Errorf("TabularVsCompact (-want +got):\n%s", diff)
	}
	// All cases: 40, 30, -25, -3.33...: median is the mean of 30 and -3.33.
	if got, want := s.AllVsCompact.Median, (30+Savings(300, 310))/2; math.Abs(got-want) > 1e-9 {
		t.Errorf("AllVsCompact.Median = %v, want %v", got, want)
	}
	if diff := cmp.Diff([]string{"tiny-object", "nested-config"}, s.LosesToJSON); diff != "" {
		t.Errorf("LosesToJSON (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"graph", "tiny-object", "nested-config"}, s.LosesToTOON); diff != "" {
		t.Errorf("LosesToTOON (-want +got):\n%s", diff)
	}
	if s.TabularTiesOrBeatsTOON != 1 || s.TabularWithTOON != 2 {
		t.Errorf("tabular ties = %d of %d, want 1 of 2", s.TabularTiesOrBeatsTOON, s.TabularWithTOON)
	}
	if len(s.AutoCostlier) != 0 || s.RoundTrips != 4 {
		t.Errorf("AutoCostlier = %v, RoundTrips = %d", s.AutoCostlier, s.RoundTrips)
	}
}

func TestSummarizeCountsAutoCostlier(t *testing.T) {
	sc := sample(false)
	sc.Cases[0].Auto = &Size{CL100K: 1001}
	sc.Cases[1].Auto = nil
	s := sc.Summarize()
	if diff := cmp.Diff([]string{"big-table"}, s.AutoCostlier); diff != "" {
		t.Errorf("AutoCostlier (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"graph"}, s.AutoFailed); diff != "" {
		t.Errorf("AutoFailed (-want +got):\n%s", diff)
	}
}

func TestCheckExplanations(t *testing.T) {
	sc := sample(true)
	full := Explanations{
		"graph":         {TOON: "because"},
		"tiny-object":   {JSON: "header", TOON: "header"},
		"nested-config": {JSON: "nesting", TOON: "nesting"},
	}
	if problems := sc.CheckExplanations(full); len(problems) != 0 {
		t.Errorf("complete explanations: %v", problems)
	}
	cases := []struct {
		name string
		edit func(Explanations)
		want string
	}{
		{"missing vs_json", func(e Explanations) { e["tiny-object"] = Explanation{TOON: "header"} }, "tiny-object: GCX1 costs more than compact JSON"},
		{"missing vs_toon", func(e Explanations) { delete(e, "graph") }, "graph: GCX1 costs more than TOON-tab"},
		{"stale vs_json", func(e Explanations) { e["big-table"] = Explanation{JSON: "x"} }, "big-table: a vs_json explanation"},
		{"stale vs_toon", func(e Explanations) { e["big-table"] = Explanation{TOON: "x"} }, "big-table: a vs_toon explanation"},
		{"unknown case", func(e Explanations) { e["gone"] = Explanation{JSON: "x"} }, "gone: explained, but there is no such case"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := Explanations{}
			for k, v := range full {
				e[k] = v
			}
			c.edit(e)
			problems := sc.CheckExplanations(e)
			if len(problems) != 1 || !strings.HasPrefix(problems[0], c.want) {
				t.Errorf("problems = %q, want one starting %q", problems, c.want)
			}
		})
	}
	// Without TOON figures, TOON explanations cannot be checked either way.
	noTOON := sample(false)
	if problems := noTOON.CheckExplanations(full); len(problems) != 0 {
		t.Errorf("TOON not measured: %v", problems)
	}
}

func TestHeadline(t *testing.T) {
	for _, withTOON := range []bool{true, false} {
		h := sample(withTOON).Headline()
		if got := ExtractHeadline("# README\n\nintro\n" + h + "\nmore\n"); got != h {
			t.Errorf("ExtractHeadline did not find the block:\n%s", got)
		}
		if !strings.Contains(h, "+35.0% (+30.0% … +40.0%)") {
			t.Errorf("headline lacks the tabular median and range:\n%s", h)
		}
		if withTOON != strings.Contains(h, "@toon-format/toon 9.9.9") {
			t.Errorf("headline (TOON %v) names the TOON version wrongly:\n%s", withTOON, h)
		}
	}
	if got := ExtractHeadline("no block here"); got != "" {
		t.Errorf("ExtractHeadline of text without a block = %q", got)
	}
	if got := ExtractHeadline(HeadlineBegin + "\nunterminated"); got != "" {
		t.Errorf("ExtractHeadline of an unterminated block = %q", got)
	}
}

func TestMarkdown(t *testing.T) {
	md := sample(true).Markdown(Explanations{"tiny-object": {JSON: "The header costs more than the keys it saves."}})
	for _, want := range []string{
		"| big-table | table | 3 | 2000 | 1000 | 655 | 650 | 600 | 600 g | +40.0% | +7.7% | 9 | pass | yes |",
		"| tiny-object | object | 3 | 40 | 20 | 27 | 22 | 25 | 20 j | -25.0% | -13.6% | 9 | pass | yes |",
		"- **tiny-object** (object, rows 3): GCX1 25 tokens, compact JSON 20 (-25.0%); the header lines alone cost 9; auto mode sends JSON (20). The header costs more than the keys it saves.",
		"- **nested-config** (nested, rows 3): GCX1 310 tokens, compact JSON 300 (-3.3%); the header lines alone cost 9; auto mode sends JSON (300). **Not explained yet.**",
		"- **graph** (tables, tabular, rows 3): GCX1 350 tokens, TOON-tab 340 (-2.9%), TOON-comma 345. **Not explained yet.**",
		"| big-table | `t` | table | d \\| with a pipe |",
		"GCX1 at least ties TOON-tab on every tabular case: 1 of 2 (graph), **missed**",
		"npm ci --prefix bench/toon",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	md = sample(false).Markdown(nil)
	if !strings.Contains(md, "**TOON: not measured** (node is not on PATH)") {
		t.Errorf("Markdown without TOON does not say TOON was not measured")
	}
}

func TestScorecardJSONRoundTrip(t *testing.T) {
	sc := sample(true)
	b, err := sc.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseScorecard(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sc, back); diff != "" {
		t.Errorf("record round trip (-want +got):\n%s", diff)
	}
}

// The chart must be well-formed XML with an svg root, one bar per measured
// saving, and a figure beside each bar.
func TestSVGWellFormed(t *testing.T) {
	for _, withTOON := range []bool{true, false} {
		b, err := sample(withTOON).SVG()
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(b))
		counts := map[string]int{}
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("TOON %v: SVG is not well-formed XML: %v", withTOON, err)
			}
			if se, ok := tok.(xml.StartElement); ok {
				if root == "" {
					root = se.Name.Local
					if se.Name.Space != "http://www.w3.org/2000/svg" {
						t.Errorf("root namespace = %q", se.Name.Space)
					}
				}
				counts[se.Name.Local]++
			}
		}
		if root != "svg" {
			t.Errorf("root element = %q, want svg", root)
		}
		series := 1
		if withTOON {
			series = 2
		}
		// Bars, the background and the legend swatches are rects.
		if want := 4*series + 1 + series; counts["rect"] != want {
			t.Errorf("TOON %v: %d rects, want %d", withTOON, counts["rect"], want)
		}
		if !bytes.Contains(b, []byte("+40.0% JSON")) {
			t.Errorf("TOON %v: the chart lacks the figure of big-table", withTOON)
		}
	}
}
