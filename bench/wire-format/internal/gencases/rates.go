package main

import "math/rand/v2"

// The free text of the corpus (source lines, commit messages, issue and
// chat text, document chunks) is generated, and a generator that draws it
// from a short list repeats it far more than real tools do, which flatters
// any format that shares repeated text. The lengths and repetition rates
// below are measured on real data instead, with
//
//	go run ./bench/wire-format/internal/realstats -goroot "$(go env GOROOT)" \
//	    -git CLONE_OF_modelcontextprotocol/go-sdk,CLONE_OF_spf13/cobra
//
// run on Go 1.26's standard library and on the two repositories' histories
// as of 2026-08 (go-sdk, 764 commits; cobra, 1,106 commits). Only these
// figures are taken from them; no text is.
//
// What could not be measured offline is a stated judgement, marked as such.

// Call sites: the lines that call one widely used standard-library
// function (errors.New, strings.HasPrefix, filepath.Join, ... 8 functions,
// 209 to 2,327 sites each) are 77.8–90.9% distinct, median 84.4%; with one
// line of context either side, 92.1–96.9%, median 94.0%.
const (
	callLineRepeat    = 1 - 0.844
	callSnippetRepeat = 1 - 0.940
)

// callLineBytes is the length of such a line in bytes, leading tabs
// included; callIndent its leading tabs.
var (
	callLineBytes = quantiles{31, 35, 41, 52, 69, 88, 103}
	callIndent    = quantiles{1, 1, 1, 2, 2, 3, 4}
)

// Commit messages: in every run of 100 consecutive commits of either
// repository at least 97 messages are distinct (median 100), so git_log's
// messages are all distinct. Lengths are the mean of the two repositories'
// percentiles: subjects (go-sdk p50 51, cobra 44), how many commits have a
// body (92% and 53%) and the body's length (p50 323 and 88, long-tailed).
const commitBodyShare = (0.92 + 0.53) / 2

var (
	commitSubjectBytes = quantiles{23, 27, 36, 48, 59, 68, 74}
	commitBodyBytes    = quantiles{19, 38, 82, 206, 415, 894, 1512}
)

// Documentation: the prose paragraphs of the two repositories' Markdown
// files (814 paragraphs; code, headings, lists and tables left out). A
// document search returns chunks of one or two of them.
var docParagraphBytes = quantiles{32, 50, 89, 164, 252, 388, 485}

// Judgements, not measurements: issue titles and bodies are as long as
// commit subjects and bodies (the same kind of writing, by the same
// people); a fifth of issues have no body; every issue title, chat message
// and document chunk is distinct except the short chat acknowledgements
// ("+1", "thanks!"), which make up about a tenth of a channel.
const (
	issueNoBodyShare = 0.2
	chatAckShare     = 0.1
)

// quantiles are the 5th, 10th, 25th, 50th, 75th, 90th and 95th percentiles
// of a measured length.
type quantiles [7]float64

var quantileAt = [7]float64{0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95}

// draw returns a value distributed as measured: linear between the
// percentiles, the outer tenth clamped to the 5th and 95th.
func (q quantiles) draw(r *rand.Rand) int {
	u := r.Float64()
	if u <= quantileAt[0] {
		return int(q[0])
	}
	for i := 1; i < len(q); i++ {
		if u <= quantileAt[i] {
			f := (u - quantileAt[i-1]) / (quantileAt[i] - quantileAt[i-1])
			return int(q[i-1] + f*(q[i]-q[i-1]) + 0.5)
		}
	}
	return int(q[len(q)-1])
}

// closest makes n candidates with gen and returns the one whose length is
// nearest to target, so that generated text follows a measured length.
func closest(n, target int, gen func() string) string {
	best := ""
	for i := range n {
		s := gen()
		if i == 0 || abs(len(s)-target) < abs(len(best)-target) {
			best = s
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// texts hands out free text that repeats at a given rate: with probability
// repeat an earlier value comes back, otherwise a new one that differs from
// every earlier value.
type texts struct {
	repeat float64
	seen   map[string]bool
	order  []string
}

func newTexts(repeat float64) *texts { return &texts{repeat: repeat, seen: map[string]bool{}} }

// next returns the next value; gen makes new ones (it is called again
// while it makes one already handed out).
func (t *texts) next(r *rand.Rand, gen func() string) string {
	if len(t.order) > 0 && r.Float64() < t.repeat {
		return pick(r, t.order)
	}
	for tries := 0; ; tries++ {
		s := gen()
		if !t.seen[s] {
			t.seen[s] = true
			t.order = append(t.order, s)
			return s
		}
		if tries == 1000 {
			panic("texts: the generator keeps repeating itself: " + s)
		}
	}
}
