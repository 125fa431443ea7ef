package scorecard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/tokens"
)

// measureColumns measures the case with every selected codec, and its free
// text.
func measureColumns(r *Result, c Case, columns []Codec) error {
	text, err := FreeText(c.Response)
	if err != nil {
		return err
	}
	r.Text = &text
	for _, cd := range columns {
		res, err := measureCodec(c, cd)
		if err != nil {
			return err
		}
		r.Codecs = append(r.Codecs, res)
	}
	return nil
}

// measureCodec measures one codec on one case: the forced payload, checked
// by its wire view when it has one and always by decoding it again, auto
// mode, and each ablation.
func measureCodec(c Case, cd Codec) (CodecResult, error) {
	res := CodecResult{Tag: cd.tag(), RoundTrip: "not run: the value did not encode", AutoRoundTrip: "not run: auto mode failed"}
	payload, err := cd.Encode(c.Tool, c.Response)
	if err == nil && cd.Sections != nil {
		_, err = cd.Sections(payload)
	}
	if err != nil {
		res.Error = err.Error()
	} else {
		size, err := measure(payload)
		if err != nil {
			return res, err
		}
		res.Payload = &size
		res.RoundTrip = roundTrip(c.Response, payload, cd.Decode)
	}
	if out, isGCX, err := cd.Auto(c.Tool, c.Response); err != nil {
		res.AutoError = err.Error()
	} else {
		size, err := measure(out)
		if err != nil {
			return res, err
		}
		res.Auto = &size
		if isGCX {
			res.AutoFormat = "gcx"
			res.AutoRoundTrip = roundTrip(c.Response, out, cd.Decode)
		} else {
			res.AutoFormat = "json"
			res.AutoRoundTrip = verdict(SameValue(c.Response, out))
		}
	}
	for _, off := range Ablations(cd.Ideas) {
		a := Ablated{Off: off, RoundTrip: "not run: the value did not encode"}
		payload, err := cd.EncodeWithout(c.Tool, c.Response, off)
		if err != nil {
			a.Error = err.Error()
		} else {
			size, err := measure(payload)
			if err != nil {
				return res, err
			}
			a.Size = &size
			a.RoundTrip = roundTrip(c.Response, payload, cd.Decode)
		}
		res.Ablation = append(res.Ablation, a)
	}
	return res, nil
}

// Ablations returns the sets of ideas the scorecard switches off for a
// codec that combines the given ideas, in the order of the ablation table:
// each idea left out alone, then each idea kept alone, then every idea
// off. A set is never repeated, and the empty set — the codec's own
// payload — is measured as such. A codec with no ideas has none.
func Ablations(ideas []codec.Idea) [][]string {
	var names []string
	for _, idea := range ideas {
		names = append(names, idea.Name)
	}
	var out [][]string
	add := func(off []string) {
		if len(off) > 0 && !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, off) }) {
			out = append(out, off)
		}
	}
	for _, n := range names {
		add([]string{n})
	}
	for _, n := range names {
		add(slices.DeleteFunc(slices.Clone(names), func(m string) bool { return m == n }))
	}
	add(names)
	return out
}

// A Text is the free text of a response: what no table trick can shrink.
type Text struct {
	// Strings counts the distinct free-text strings.
	Strings int `json:"strings"`
	// CL100K and O200K are their tokens, each string counted once, alone.
	CL100K int `json:"cl100k"`
	O200K  int `json:"o200k"`
}

// FreeText measures the free text of a JSON value. A string value — not a
// member name — is free text when it holds a space, a TAB, a CR or a LF:
// words, sentences, code, signatures, as opposed to identifiers, paths,
// hashes, timestamps, numbers and enumerations. Each distinct text counts
// once, because repeating it is what a dictionary or a ditto mark can
// remove; its tokens are those of its JSON spelling without the quotes (as
// JSON.stringify writes it), counted alone, which may differ by a token
// from its count in context. A codec that keeps text as it is can save at
// most the share of the compact JSON that is not free text.
func FreeText(value []byte) (Text, error) {
	dec := json.NewDecoder(bytes.NewReader(value))
	// One frame per open container: whether it is an object, and for an
	// object whether its next token is a member name.
	type frame struct{ object, wantName bool }
	var stack []frame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantName = true
		}
	}
	seen := map[string]bool{}
	var t Text
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return Text{}, err
		}
		if n := len(stack); n > 0 && stack[n-1].wantName {
			if tok == json.Delim('}') {
				stack = stack[:n-1]
				valueDone()
			} else {
				stack[n-1].wantName = false // tok is a member name
			}
			continue
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, frame{object: v == '{', wantName: v == '{'})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
			continue
		case string:
			if strings.ContainsAny(v, " \t\r\n") && !seen[v] {
				seen[v] = true
				if err := t.add(v); err != nil {
					return Text{}, err
				}
			}
		}
		valueDone()
	}
}

// add counts one free-text string.
func (t *Text) add(s string) error {
	var b bytes.Buffer
	quote(&b, s)
	spelled := strings.TrimSuffix(strings.TrimPrefix(b.String(), `"`), `"`)
	cl, err := tokens.Count(tokens.CL100K, spelled)
	if err != nil {
		return err
	}
	o2, err := tokens.Count(tokens.O200K, spelled)
	if err != nil {
		return err
	}
	t.Strings++
	t.CL100K += cl
	t.O200K += o2
	return nil
}

// codecColumns writes the section of the selected codecs: a headline row
// and the goals of each, the cases with a column per codec and their free
// text, and the ablation of every codec that combines several ideas. The
// default scorecard, GCX1 alone, has none.
func (sc *Scorecard) codecColumns(b *strings.Builder) {
	if len(sc.Codecs) == 0 {
		return
	}
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	var tags []string
	for _, c := range sc.Codecs {
		tags = append(tags, c.Tag)
	}
	p("## Codecs\n\n")
	p("The selected codecs (`--codec %s`), each measured on every case and shown in a column of its own; the tables above report the first. ", strings.Join(tags, ","))
	p("Savings are against compact JSON unless another baseline is named. Every payload is decoded again by its own codec, which must give the value back.\n\n")
	p("| codec | tabular median, cl100k_base | tabular median, o200k_base | all cases, cl100k_base | tabular vs TOON-tab | tabular cases ahead of / tied with / behind TOON-tab | values back | through auto mode |\n")
	p("| --- | ---: | ---: | ---: | ---: | --- | --- | --- |\n")
	for i := range sc.Codecs {
		s := sc.CodecSummary(i)
		toon := "not measured"
		if sc.TOONVersion != "" {
			toon = fmt.Sprintf("%d / %d / %d", s.TabularAheadOfTOON, s.TabularTiesTOON, len(s.TabularBehindTOON))
		}
		p("| %s | %s | %s | %s | %s | %s | %d of %d | %d of %d |\n", s.Tag, statMedian(s.TabularVsCompact), statMedian(s.TabularVsCompactO200K),
			statMedian(s.AllVsCompact), statMedian(s.TabularVsTOONTab), toon, s.RoundTrips, len(sc.Cases), s.AutoRoundTrips, len(sc.Cases))
	}
	p("\n### Goals\n\n")
	for i, c := range sc.Codecs {
		p("- **%s**", c.Tag)
		if c.Goals == nil {
			p(" states no goals of its own (codec.Goaler)")
		}
		p(":\n")
		for _, g := range sc.GoalResults(i) {
			verdict := "**missed**"
			switch {
			case !g.Measured:
				verdict = "not measured"
			case g.Met:
				verdict = "**met**"
			}
			p("  - %s, %s.\n", g.Text, verdict)
		}
	}
	p("\n")

	p("### Per case, cl100k_base tokens\n\n")
	p("*free text* is the share of the compact JSON that is free text (below); *ceiling* is the most a codec that keeps free text as it is can save against compact JSON, 100%% minus that share.\n\n")
	p("| case | shape | JSON | TOON tab | free text | ceiling |")
	for _, t := range tags {
		p(" %s | vs JSON |", t)
	}
	p("\n| --- | --- |%s\n", strings.Repeat(" ---: |", 4+2*len(tags)))
	for _, r := range sc.Cases {
		share, ceiling := "—", "—"
		if v, ok := TextShare(r); ok {
			share, ceiling = fmt.Sprintf("%.1f%%", v), pct(100-v)
		}
		p("| %s | %s | %d | %s | %s | %s |", r.Name, r.Shape, r.Compact.CL100K, sizeCell(r.TOONTab, CL100K), share, ceiling)
		for i := range sc.Codecs {
			size := codecSize(r, i)
			saving := "—"
			if v, ok := savingsOf(func(Result) *Size { return size }, VsCompact, CL100K)(r); ok {
				saving = pct(v)
			}
			p(" %s | %s |", sizeCell(size, CL100K), saving)
		}
		p("\n")
	}
	shares := statOf(sc.Cases, tabular, TextShare)
	p("\n### Free text\n\n")
	p("A string value of a response — not a member name — is *free text* when it holds a space, a TAB, a CR or a LF: words, sentences, code, signatures, as opposed to identifiers, paths, hashes, timestamps, numbers and enumerations. ")
	p("No table trick shrinks it: a dictionary or a ditto mark removes repeats, and each distinct text is counted once here; a declared prefix, a derived column or a typed column removes structure, which free text is not. ")
	p("A case's free text is measured as the cl100k_base tokens of each distinct free-text string, spelled as in the compact JSON without its quotes and counted alone (which may differ by a token from its count in context), and its share is that sum over the compact JSON's tokens (`scorecard.FreeText`). ")
	if shares.Valid() {
		p("On the tabular cases the share has a median of %.1f%% (%.1f%% %s … %.1f%% %s).", shares.Median, shares.Min, shares.MinCase, shares.Max, shares.MaxCase)
	}
	p("\n\n")

	for i, c := range sc.Codecs {
		if len(c.Ideas) > 0 {
			sc.ablationTable(b, i)
		}
	}
}

// TextShare is the share, in percent, of a case's compact JSON that is
// free text, in cl100k_base tokens; ok is false when it was not measured.
func TextShare(r Result) (float64, bool) {
	if r.Text == nil || r.Compact.CL100K == 0 {
		return 0, false
	}
	return 100 * float64(r.Text.CL100K) / float64(r.Compact.CL100K), true
}

// ablationTable writes the ablation of codec column i: the codec with all
// its ideas, and with each set of Ablations switched off.
func (sc *Scorecard) ablationTable(b *strings.Builder, i int) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	info := sc.Codecs[i]
	p("### Ablation of %s\n\n", info.Tag)
	p("%s combines %d ideas; each row switches some off (`EncodeWithout`) and measures the payload again, which must still decode to the value.\n\n", info.Tag, len(info.Ideas))
	var names []string
	for _, idea := range info.Ideas {
		rules := ""
		if len(idea.Rules) > 0 {
			rules = " [" + strings.Join(idea.Rules, "] [") + "]"
		}
		p("- **%s**%s: %s\n", idea.Name, rules, cell(idea.Summary))
		names = append(names, idea.Name)
	}
	p("\n| ideas | tabular median, cl100k_base | tabular median, o200k_base | change from all ideas, cl100k_base | tabular cases ahead of TOON-tab | values back |\n")
	p("| --- | ---: | ---: | ---: | --- | --- |\n")
	all := sc.CodecSummary(i)
	row := func(label string, size func(Result) *Size, back func(Result) bool) {
		cl := statOf(sc.Cases, tabular, savingsOf(size, VsCompact, CL100K))
		o2 := statOf(sc.Cases, tabular, savingsOf(size, VsCompact, O200K))
		change := "—"
		if cl.Valid() && all.TabularVsCompact.Valid() {
			change = fmt.Sprintf("%+.1f pts", math.Round((cl.Median-all.TabularVsCompact.Median)*10)/10)
		}
		ahead, with, passed := 0, 0, 0
		for _, r := range sc.Cases {
			if back(r) {
				passed++
			}
			if x := size(r); x != nil && r.TOONTab != nil && tabular(r) {
				with++
				if x.CL100K < r.TOONTab.CL100K {
					ahead++
				}
			}
		}
		toon := "not measured"
		if sc.TOONVersion != "" {
			toon = fmt.Sprintf("%d of %d", ahead, with)
		}
		p("| %s | %s | %s | %s | %s | %d of %d |\n", label, statMedian(cl), statMedian(o2), change, toon, passed, len(sc.Cases))
	}
	row("all", func(r Result) *Size { return codecSize(r, i) }, func(r Result) bool { return i < len(r.Codecs) && r.Codecs[i].RoundTrip == "pass" })
	for _, off := range Ablations(info.Ideas) {
		ablated := func(r Result) *Ablated {
			if i >= len(r.Codecs) {
				return nil
			}
			for j := range r.Codecs[i].Ablation {
				if a := &r.Codecs[i].Ablation[j]; slices.Equal(a.Off, off) {
					return a
				}
			}
			return nil
		}
		row(ablationLabel(names, off), func(r Result) *Size {
			if a := ablated(r); a != nil {
				return a.Size
			}
			return nil
		}, func(r Result) bool { a := ablated(r); return a != nil && a.RoundTrip == "pass" })
	}
	p("\n")
}

// ablationLabel names a set of ideas switched off by what is left.
func ablationLabel(names, off []string) string {
	var on []string
	for _, n := range names {
		if !slices.Contains(off, n) {
			on = append(on, n)
		}
	}
	switch {
	case len(on) == 0:
		return "none"
	case len(off) == 1:
		return "all but " + off[0]
	}
	return "only " + strings.Join(on, ", ")
}
