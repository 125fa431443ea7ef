package scorecard

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// Savings is how much smaller x is than base, in percent of base: positive
// when x costs less, negative when it costs more.
func Savings(base, x int) float64 {
	if base == 0 {
		if x == 0 {
			return 0
		}
		return math.Inf(-1)
	}
	return 100 * float64(base-x) / float64(base)
}

// A Stat summarises one saving over a set of cases.
type Stat struct {
	N                int
	Median, Min, Max float64
	MinCase, MaxCase string
}

// Valid reports whether the stat covers at least one case.
func (s Stat) Valid() bool { return s.N > 0 }

// statOf computes the stat of value over the cases where keep holds and
// value is defined.
func statOf(cases []Result, keep func(Result) bool, value func(Result) (float64, bool)) Stat {
	type point struct {
		v    float64
		name string
	}
	var ps []point
	for _, r := range cases {
		if !keep(r) {
			continue
		}
		if v, ok := value(r); ok {
			ps = append(ps, point{v, r.Name})
		}
	}
	if len(ps) == 0 {
		return Stat{}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].v < ps[j].v })
	s := Stat{N: len(ps), Min: ps[0].v, MinCase: ps[0].name, Max: ps[len(ps)-1].v, MaxCase: ps[len(ps)-1].name}
	if m := len(ps) / 2; len(ps)%2 == 1 {
		s.Median = ps[m].v
	} else {
		s.Median = (ps[m-1].v + ps[m].v) / 2
	}
	return s
}

// Metric picks one number out of a Size.
type Metric func(Size) int

var (
	CL100K Metric = func(s Size) int { return s.CL100K }
	O200K  Metric = func(s Size) int { return s.O200K }
	Bytes  Metric = func(s Size) int { return s.Bytes }
	Gzip   Metric = func(s Size) int { return s.Gzip }
)

// Baseline picks the spelling GCX1 is compared with; ok is false when it
// was not measured.
type Baseline func(Result) (Size, bool)

var (
	VsPretty  Baseline = func(r Result) (Size, bool) { return r.Pretty, true }
	VsCompact Baseline = func(r Result) (Size, bool) { return r.Compact, true }
	VsTOONTab Baseline = func(r Result) (Size, bool) {
		if r.TOONTab == nil {
			return Size{}, false
		}
		return *r.TOONTab, true
	}
)

// GCXSavings is the saving of forced GCX1 against the baseline in the
// metric; ok is false when either side is missing.
func GCXSavings(r Result, base Baseline, m Metric) (float64, bool) {
	b, ok := base(r)
	if !ok || r.GCX == nil {
		return 0, false
	}
	return Savings(m(b), m(*r.GCX)), true
}

// AutoSavings is the saving of auto mode against compact JSON.
func AutoSavings(r Result, m Metric) (float64, bool) {
	if r.Auto == nil {
		return 0, false
	}
	return Savings(m(r.Compact), m(*r.Auto)), true
}

func tabular(r Result) bool { return r.Shape.Tabular() }
func anyCase(Result) bool   { return true }

// A Summary is the scorecard's headline.
type Summary struct {
	Cases, Tabular int

	// Forced GCX1 against compact JSON and TOON with the tab delimiter, on
	// the tabular cases and on all cases.
	TabularVsCompact, TabularVsCompactO200K, AllVsCompact, AllVsCompactO200K Stat
	TabularVsTOONTab, TabularVsTOONTabO200K, AllVsTOONTab, AllVsTOONTabO200K Stat
	TabularBytesVsCompact, TabularGzipVsCompact                              Stat
	TabularVsPretty, AllVsPretty                                             Stat
	AutoVsCompact                                                            Stat

	// AutoCostlier lists the cases where auto mode costs more cl100k_base
	// tokens than compact JSON, which [AUTO-1] rules out; AutoFailed the
	// cases where it failed.
	AutoCostlier, AutoFailed []string
	// RoundTrips and AutoRoundTrips count the passing round trips.
	RoundTrips, AutoRoundTrips int
	// LosesToJSON lists the cases where forced GCX1 costs more cl100k_base
	// tokens than compact JSON; LosesToTOON those where it costs more than
	// TOON with the tab delimiter (all shapes; the goal is about tabular
	// ones).
	LosesToJSON, LosesToTOON, TabularLosesToTOON []string
	// TabularTiesOrBeatsTOON counts the tabular cases where GCX1 costs at
	// most what TOON-tab does.
	TabularTiesOrBeatsTOON, TabularWithTOON int
}

// Summarize computes the headline of a scorecard.
func (sc *Scorecard) Summarize() Summary {
	cs := sc.Cases
	gcx := func(base Baseline, m Metric) func(Result) (float64, bool) {
		return func(r Result) (float64, bool) { return GCXSavings(r, base, m) }
	}
	s := Summary{
		Cases:                 len(cs),
		TabularVsCompact:      statOf(cs, tabular, gcx(VsCompact, CL100K)),
		TabularVsCompactO200K: statOf(cs, tabular, gcx(VsCompact, O200K)),
		AllVsCompact:          statOf(cs, anyCase, gcx(VsCompact, CL100K)),
		AllVsCompactO200K:     statOf(cs, anyCase, gcx(VsCompact, O200K)),
		TabularVsTOONTab:      statOf(cs, tabular, gcx(VsTOONTab, CL100K)),
		TabularVsTOONTabO200K: statOf(cs, tabular, gcx(VsTOONTab, O200K)),
		AllVsTOONTab:          statOf(cs, anyCase, gcx(VsTOONTab, CL100K)),
		AllVsTOONTabO200K:     statOf(cs, anyCase, gcx(VsTOONTab, O200K)),
		TabularBytesVsCompact: statOf(cs, tabular, gcx(VsCompact, Bytes)),
		TabularGzipVsCompact:  statOf(cs, tabular, gcx(VsCompact, Gzip)),
		TabularVsPretty:       statOf(cs, tabular, gcx(VsPretty, CL100K)),
		AllVsPretty:           statOf(cs, anyCase, gcx(VsPretty, CL100K)),
		AutoVsCompact: statOf(cs, anyCase, func(r Result) (float64, bool) {
			return AutoSavings(r, CL100K)
		}),
	}
	for _, r := range cs {
		if tabular(r) {
			s.Tabular++
		}
		if r.RoundTrip == "pass" {
			s.RoundTrips++
		}
		if r.AutoRoundTrip == "pass" {
			s.AutoRoundTrips++
		}
		if r.Auto == nil {
			s.AutoFailed = append(s.AutoFailed, r.Name)
		} else if r.Auto.CL100K > r.Compact.CL100K {
			s.AutoCostlier = append(s.AutoCostlier, r.Name)
		}
		if r.GCX == nil {
			continue
		}
		if r.GCX.CL100K > r.Compact.CL100K {
			s.LosesToJSON = append(s.LosesToJSON, r.Name)
		}
		if r.TOONTab != nil {
			if r.GCX.CL100K > r.TOONTab.CL100K {
				s.LosesToTOON = append(s.LosesToTOON, r.Name)
			}
			if tabular(r) {
				s.TabularWithTOON++
				if r.GCX.CL100K <= r.TOONTab.CL100K {
					s.TabularTiesOrBeatsTOON++
				} else {
					s.TabularLosesToTOON = append(s.TabularLosesToTOON, r.Name)
				}
			}
		}
	}
	return s
}

// pct formats a saving with one decimal and an explicit sign.
func pct(v float64) string {
	if math.IsInf(v, -1) {
		return "-inf%"
	}
	v = math.Round(v*10) / 10
	if v == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

// Name returns the tag of the codec the main tables report: the first
// selected, GCX1 by default.
func (sc *Scorecard) Name() string {
	if len(sc.Codecs) > 0 {
		return sc.Codecs[0].Tag
	}
	return spec.Version
}

// A CodecSummary is the headline of one codec's column.
type CodecSummary struct {
	Tag string
	// Savings of the forced payload against compact JSON and TOON-tab.
	TabularVsCompact, TabularVsCompactO200K, AllVsCompact Stat
	TabularVsTOONTab, TabularVsTOONTabO200K               Stat
	// Tabular cases with TOON measured, and those where the payload costs
	// fewer (Ahead), the same (Ties) or more (Behind) cl100k_base tokens
	// than TOON-tab.
	TabularWithTOON, TabularAheadOfTOON, TabularTiesTOON int
	TabularBehindTOON                                    []string
	// AutoCostlier and AutoFailed list the cases where auto mode cost
	// more than compact JSON or failed; RoundTrips and AutoRoundTrips count
	// the values that came back.
	AutoCostlier, AutoFailed   []string
	RoundTrips, AutoRoundTrips int
}

// codecSize returns the payload size of codec column i, or nil.
func codecSize(r Result, i int) *Size {
	if i >= len(r.Codecs) {
		return nil
	}
	return r.Codecs[i].Payload
}

// savingsOf returns the saving of a size picked from a result against a
// baseline, in a metric.
func savingsOf(size func(Result) *Size, base Baseline, m Metric) func(Result) (float64, bool) {
	return func(r Result) (float64, bool) {
		b, ok := base(r)
		x := size(r)
		if !ok || x == nil {
			return 0, false
		}
		return Savings(m(b), m(*x)), true
	}
}

// CodecSummary computes the headline of codec column i (Scorecard.Codecs).
func (sc *Scorecard) CodecSummary(i int) CodecSummary {
	cs := sc.Cases
	size := func(r Result) *Size { return codecSize(r, i) }
	s := CodecSummary{
		Tag:                   sc.Codecs[i].Tag,
		TabularVsCompact:      statOf(cs, tabular, savingsOf(size, VsCompact, CL100K)),
		TabularVsCompactO200K: statOf(cs, tabular, savingsOf(size, VsCompact, O200K)),
		AllVsCompact:          statOf(cs, anyCase, savingsOf(size, VsCompact, CL100K)),
		TabularVsTOONTab:      statOf(cs, tabular, savingsOf(size, VsTOONTab, CL100K)),
		TabularVsTOONTabO200K: statOf(cs, tabular, savingsOf(size, VsTOONTab, O200K)),
	}
	for _, r := range cs {
		if i >= len(r.Codecs) {
			continue
		}
		c := r.Codecs[i]
		if c.RoundTrip == "pass" {
			s.RoundTrips++
		}
		if c.AutoRoundTrip == "pass" {
			s.AutoRoundTrips++
		}
		if c.Auto == nil {
			s.AutoFailed = append(s.AutoFailed, r.Name)
		} else if c.Auto.CL100K > r.Compact.CL100K {
			s.AutoCostlier = append(s.AutoCostlier, r.Name)
		}
		if c.Payload == nil || r.TOONTab == nil || !tabular(r) {
			continue
		}
		s.TabularWithTOON++
		switch {
		case c.Payload.CL100K < r.TOONTab.CL100K:
			s.TabularAheadOfTOON++
		case c.Payload.CL100K == r.TOONTab.CL100K:
			s.TabularTiesTOON++
		default:
			s.TabularBehindTOON = append(s.TabularBehindTOON, r.Name)
		}
	}
	return s
}

// A GoalResult is one goal of a codec and whether the scorecard meets it;
// Measured is false when the scorecard cannot tell (TOON not measured).
type GoalResult struct {
	Text          string
	Met, Measured bool
}

// GoalResults returns the goals of codec column i with their outcome:
// those it states (codec.Goals), then the laws every codec is held to —
// auto mode never costlier than compact JSON, every value back.
func (sc *Scorecard) GoalResults(i int) []GoalResult {
	s := sc.CodecSummary(i)
	var out []GoalResult
	if g := sc.Codecs[i].Goals; g != nil {
		if g.MedianSaving > 0 {
			toks := g.Tokenizers
			if len(toks) == 0 {
				toks = []string{tokens.CL100K}
			}
			for _, tok := range toks {
				st := s.TabularVsCompact
				if tok == tokens.O200K {
					st = s.TabularVsCompactO200K
				}
				out = append(out, GoalResult{
					Text:     fmt.Sprintf("median saving of at least %.1f%% against compact JSON on the tabular cases (%s): %s", g.MedianSaving, tok, statMedian(st)),
					Met:      st.Valid() && st.Median >= g.MedianSaving,
					Measured: st.Valid(),
				})
			}
		}
		if g.TOONTab != "" {
			word, met := "at least ties", len(s.TabularBehindTOON) == 0
			n := s.TabularAheadOfTOON + s.TabularTiesTOON
			if g.TOONTab == codec.BeatTOON {
				word, met, n = "costs fewer tokens than", s.TabularAheadOfTOON == s.TabularWithTOON, s.TabularAheadOfTOON
			}
			out = append(out, GoalResult{
				Text:     fmt.Sprintf("%s TOON-tab on every tabular case (cl100k_base): %d of %d", word, n, s.TabularWithTOON),
				Met:      sc.TOONVersion != "" && met,
				Measured: sc.TOONVersion != "",
			})
		}
	}
	costlier := append(slices.Clone(s.AutoCostlier), s.AutoFailed...)
	out = append(out,
		GoalResult{Text: fmt.Sprintf("auto mode never costs more than compact JSON: %d of %d cases cost more or failed%s", len(costlier), len(sc.Cases), listSuffix(costlier)),
			Met: len(costlier) == 0, Measured: true},
		GoalResult{Text: fmt.Sprintf("every value comes back: %d of %d, through auto mode %d of %d", s.RoundTrips, len(sc.Cases), s.AutoRoundTrips, len(sc.Cases)),
			Met: s.RoundTrips == len(sc.Cases) && s.AutoRoundTrips == len(sc.Cases), Measured: true},
	)
	return out
}
