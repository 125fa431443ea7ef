package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/spec"
)

// Implementation is what the runner checks. Each function performs one op;
// a nil function marks an op the implementation does not offer, and the
// steps that need it are skipped.
type Implementation struct {
	// Name says what is checked, for reports.
	Name string
	// Decode decodes a payload under the vector's limits (nil: the
	// decoder's own defaults) and returns the payload, or an error and no
	// payload [ERR-4].
	Decode func(payload []byte, limits Limits) (*spec.Payload, error)
	// Encode reads a wire view [WIRE-2] and returns the canonical bytes of
	// the payload it describes, or an error and no bytes [CAN-3].
	Encode func(view []byte) ([]byte, error)
	// EncodeJSON writes a JSON text as the result of tool in mode "gcx"
	// (always GCX1 [MAP-12]) or "auto" (the cheaper of GCX1 and compact
	// JSON [AUTO-1]) under the vector's limits (nil: the encoder's own
	// defaults) and returns the result's bytes; under limits it refuses,
	// with a limit error, a payload its decoder under them would refuse
	// [LIM-4].
	EncodeJSON func(text []byte, tool, mode string, limits Limits) ([]byte, error)
	// DecodeJSON reads a tool result, GCX1 or JSON [AUTO-3], under the
	// vector's limits (nil: the decoder's own defaults) and returns the
	// compact form of its value [MAP-3].
	DecodeJSON func(result []byte, limits Limits) ([]byte, error)
	// MCP runs an op of the MCP binding, OpMCPServer or OpMCPClient, on
	// a vector's input, a JSON object, and returns the outcome as a JSON
	// text of the shape of the vector's expected (docs/conformance.md).
	// An error the binding ends in is an outcome, not an error of MCP's:
	// that is for an input it cannot run.
	MCP func(op Op, input []byte) ([]byte, error)
	// Close, if set, ends what the implementation keeps running between
	// steps (a program's persistent processes); call it when done.
	Close func() error
	// Mode, if set, says how the steps ran, for reports: for a program,
	// in one process each or in persistent mode, and in how many.
	Mode func() string
}

// ErrSkip, returned (or wrapped) by an Implementation's function, marks a
// step the implementation declines, such as one with limits it does not
// support [LIM-1]. The runner counts the vector as skipped, never as
// passed.
var ErrSkip = errors.New("skipped by the implementation")

// Level is how much of an outcome the runner compares [ERR-6].
type Level int

const (
	// Core compares what a caller acts on: accept or refuse, the decoded
	// view, value or bytes, the error class (with the tag of an
	// unsupported version) and the error's line.
	Core Level = iota + 1
	// Diagnostic compares everything Core does and also the error's
	// column, its byte offset where the implementation reports one, and
	// the rule ID it names: what makes two implementations report an error
	// exactly alike.
	Diagnostic
)

// Levels lists the levels from the least to the most demanding.
var Levels = []Level{Core, Diagnostic}

func (l Level) String() string {
	switch l {
	case Core:
		return "core"
	case Diagnostic:
		return "diagnostic"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// ParseLevel reads a level by its name, "core" or "diagnostic".
func ParseLevel(name string) (Level, error) {
	for _, l := range Levels {
		if l.String() == name {
			return l, nil
		}
	}
	return 0, fmt.Errorf("level %q is neither core nor diagnostic", name)
}

// Options select vectors and the level a run is judged at.
type Options struct {
	// Match, if set, selects vectors by their full name,
	// CATEGORY/GROUP/ID.
	Match func(name string) bool
	// Categories, if set, selects vectors by category.
	Categories []string
	// Level is the level that decides a vector's Status and so a run's
	// outcome; 0 means Diagnostic. Both levels are always reported.
	Level Level
	// Parallel bounds the vectors run at once; 0 means GOMAXPROCS.
	Parallel int
}

// Selects reports whether the options select v.
func (o *Options) Selects(v *Vector) bool {
	return (o.Match == nil || o.Match(v.Name())) && (len(o.Categories) == 0 || slices.Contains(o.Categories, v.Category))
}

func (o *Options) level() Level {
	if o.Level == 0 {
		return Diagnostic
	}
	return o.Level
}

// Status is the outcome of one vector at one level.
type Status int

const (
	Pass Status = iota
	Fail
	Skip
	// Timeout is a vector a step of which did not finish in its time,
	// even when tried again with twice as long (RunLimit), and that no
	// step failed: the implementation gave no answer to judge, which is
	// not the wrong answer a failure is.
	Timeout
)

func (s Status) String() string {
	switch s {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	case Timeout:
		return "TIMEOUT"
	}
	return "SKIP"
}

// Result is the outcome of one vector at each level, and what went wrong
// (Fail) or which step did not run and why (Skip).
type Result struct {
	Vector *Vector
	// Core and Diagnostic are the vector's status at each level. A
	// vector that fails at Core fails at Diagnostic too.
	Core, Diagnostic Status
	// Detail lists the problems, each at the level that checks it, or
	// the step that was skipped and why.
	Detail string
}

// Status returns the vector's status at level (0: Diagnostic).
func (r *Result) Status(level Level) Status {
	if level == Core {
		return r.Core
	}
	return r.Diagnostic
}

// Counts are the numbers of vectors that passed, failed, were skipped and
// timed out.
type Counts struct{ Passed, Failed, Skipped, TimedOut int }

// Add adds c's numbers to n's.
func (n *Counts) Add(c Counts) {
	n.Passed += c.Passed
	n.Failed += c.Failed
	n.Skipped += c.Skipped
	n.TimedOut += c.TimedOut
}

// String gives the closing line of a report: "N passed, N failed, N
// skipped", and ", N timed out" when one did.
func (n Counts) String() string {
	s := fmt.Sprintf("%d passed, %d failed, %d skipped", n.Passed, n.Failed, n.Skipped)
	if n.TimedOut > 0 {
		s += fmt.Sprintf(", %d timed out", n.TimedOut)
	}
	return s
}

// Report holds the results of one Check, in vector order, and the
// counts at each level.
type Report struct {
	// Tag is the version whose vectors were run, as Suite.For set it on
	// them ("" for vectors that did not come through it).
	Tag     string
	Results []Result
	// Level is the level the report is judged at: the one whose
	// failures WriteSummary lists and whose counts end it.
	Level            Level
	Core, Diagnostic Counts
}

// Counts returns the counts at level (0: the report's own level).
func (r *Report) Counts(level Level) Counts {
	if level == 0 {
		level = r.Level
	}
	if level == Core {
		return r.Core
	}
	return r.Diagnostic
}

// Failures returns the results that failed at the report's level.
func (r *Report) Failures() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status(r.Level) == Fail {
			out = append(out, res)
		}
	}
	return out
}

// maxSkipNames bounds the skipped vectors WriteSummary names per reason
// unless it is verbose.
const maxSkipNames = 10

// WriteSummary writes every failure at the report's level with its
// detail (every result, if verbose), then the skipped vectors under their
// reason, then one line per level, and last the line "N passed, N
// failed, N skipped" of the report's level.
func (r *Report) WriteSummary(w io.Writer, verbose bool) {
	skipped := map[string][]string{}
	var reasons []string
	for _, res := range r.Results {
		st := res.Status(r.Level)
		if st == Skip {
			if skipped[res.Detail] == nil {
				reasons = append(reasons, res.Detail)
			}
			skipped[res.Detail] = append(skipped[res.Detail], res.Vector.Name())
		}
		if st != Fail && st != Timeout && !verbose {
			continue
		}
		label := st.String()
		if r.Level == Diagnostic && res.Core == Pass && res.Diagnostic == Fail {
			label += " (diagnostic only)"
		}
		fmt.Fprintf(w, "%s %s\n", label, res.Vector.Name())
		if st == Fail {
			fmt.Fprintf(w, "     %s\n", res.Vector.Description)
			if res.Vector.Inherited {
				fmt.Fprintf(w, "     (a vector of %s, its payloads respelled for %s)\n", spec.Version, res.Vector.Tag)
			}
		}
		if res.Detail != "" && st != Pass && st != Skip {
			for _, line := range strings.Split(strings.TrimRight(res.Detail, "\n"), "\n") {
				fmt.Fprintf(w, "     %s\n", line)
			}
			fmt.Fprintln(w)
		}
	}
	for _, reason := range reasons {
		names := skipped[reason]
		fmt.Fprintf(w, "SKIP %s: %s\n", plural.Count(len(names), "vector"), reason)
		shown := names
		if !verbose && len(shown) > maxSkipNames {
			shown = shown[:maxSkipNames]
		}
		for _, name := range shown {
			fmt.Fprintf(w, "     %s\n", name)
		}
		if len(shown) < len(names) {
			fmt.Fprintf(w, "     ... and %d more (-v lists them all)\n", len(names)-len(shown))
		}
	}
	for _, l := range Levels {
		fmt.Fprintf(w, "%s level: %s\n", l, r.Counts(l))
	}
	fmt.Fprintln(w, r.Counts(0))
}

// Check runs the selected vectors against impl, at most opt.Parallel at a
// time, and reports every result.
func Check(vectors []Vector, impl Implementation, opt Options) *Report {
	var picked []*Vector
	for i := range vectors {
		if opt.Selects(&vectors[i]) {
			picked = append(picked, &vectors[i])
		}
	}
	results := make([]Result, len(picked))
	workers := opt.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				results[i] = CheckVector(picked[i], impl)
			}
		})
	}
	for i := range picked {
		next <- i
	}
	close(next)
	wg.Wait()

	r := &Report{Results: results, Level: opt.level()}
	if len(picked) > 0 {
		r.Tag = picked[0].Tag
	}
	for _, res := range results {
		count(&r.Core, res.Core)
		count(&r.Diagnostic, res.Diagnostic)
	}
	return r
}

func count(c *Counts, s Status) {
	switch s {
	case Pass:
		c.Passed++
	case Fail:
		c.Failed++
	case Skip:
		c.Skipped++
	case Timeout:
		c.TimedOut++
	}
}

// problem is one difference between what a step did and what the vector
// expects, at the level that checks it.
type problem struct {
	level Level
	text  string
}

func core(format string, args ...any) problem {
	return problem{Core, fmt.Sprintf(format, args...)}
}

func diagnostic(format string, args ...any) problem {
	return problem{Diagnostic, fmt.Sprintf(format, args...)}
}

// step is the outcome of one step of a vector: its problems, or why it
// did not run.
type step struct {
	skipped  string // the reason, if the step did not run
	timedOut string // what timed out, if the step ran out of time
	problems []problem
}

// timedOut returns the step of a run that timed out, if err says so.
func timedOutStep(err error) (step, bool) {
	var e *CommandError
	if errors.As(err, &e) && e.Timeout > 0 {
		return step{timedOut: e.Error()}, true
	}
	return step{}, false
}

func skipped(why string) step { return step{skipped: why} }

// declined returns the step an implementation declined with err, which
// wraps ErrSkip, saying why without repeating that it was skipped.
func declined(err error) step {
	return skipped(strings.TrimPrefix(err.Error(), ErrSkip.Error()+": "))
}

// CheckVector runs one vector against impl and judges it at both levels.
// A vector runs in up to two steps: the op it names, then — when the
// first succeeds as expected — the way back: a canonical decode vector's
// view must encode to its input [CAN-1], and a json-encode vector's output
// must decode to its value [MAP-4]. At each level the vector fails if a
// step that ran failed, is skipped if a step did not run, and passes only
// when every step ran and passed: a step never run is never a pass.
func CheckVector(v *Vector, impl Implementation) Result {
	steps := []step{runStep(v, impl)}
	if first := steps[0]; first.timedOut == "" && (first.skipped != "" || !hasCore(first.problems)) {
		switch {
		case v.Op == OpDecode && v.IsCanonical():
			steps = append(steps, reencode(v, impl))
		case v.Op == OpJSONEncode && v.Accepts():
			steps = append(steps, roundTrip(v, impl))
		}
	}
	return judge(v, steps)
}

func hasCore(problems []problem) bool {
	return slices.ContainsFunc(problems, func(p problem) bool { return p.level == Core })
}

// stepNames name the steps of a vector in details, and stepPurposes say
// what the second step checks.
var (
	stepNames = map[Op][2]string{
		OpDecode:     {"decode", "re-encode"},
		OpJSONEncode: {"json-encode", "decode back"},
		OpEncode:     {"encode"},
		OpJSONDecode: {"json-decode"},
		OpMCPServer:  {"mcp-server"},
		OpMCPClient:  {"mcp-client"},
		OpMCPProxy:   {"mcp-proxy"},
	}
	stepPurposes = map[Op]string{
		OpDecode:     "encoding the expected view, which must give the input back [CAN-1]",
		OpJSONEncode: "decoding the expected output, which must give the value back [MAP-4]",
	}
)

func judge(v *Vector, steps []step) Result {
	res := Result{Vector: v}
	var lines, skips, timeouts []string
	var coreFail, diagFail bool
	for i, s := range steps {
		if s.timedOut != "" {
			timeouts = append(timeouts, fmt.Sprintf("%s %s", stepNames[v.Op][i], s.timedOut))
			continue
		}
		if s.skipped != "" {
			skips = append(skips, fmt.Sprintf("%s not run (%s)", stepNames[v.Op][i], s.skipped))
			continue
		}
		if len(s.problems) == 0 {
			continue
		}
		if i > 0 {
			lines = append(lines, "while "+stepPurposes[v.Op]+":")
		}
		for _, p := range s.problems {
			if p.level == Core {
				coreFail = true
				lines = append(lines, p.text)
			} else {
				diagFail = true
				lines = append(lines, "(diagnostic) "+p.text)
			}
		}
	}
	skip, timeout := len(skips) > 0, len(timeouts) > 0
	res.Core = status(coreFail, timeout, skip)
	res.Diagnostic = status(coreFail || diagFail, timeout, skip)
	switch {
	case coreFail || diagFail:
		res.Detail = strings.Join(slices.Concat(lines, timeouts, skips), "\n")
	case timeout:
		res.Detail = strings.Join(slices.Concat(timeouts, skips), "\n")
	case skip:
		res.Detail = strings.Join(skips, "; ")
	}
	return res
}

func status(failed, timeout, skip bool) Status {
	switch {
	case failed:
		return Fail
	case timeout:
		return Timeout
	case skip:
		return Skip
	}
	return Pass
}

// runStep runs the op the vector names and compares the outcome.
func runStep(v *Vector, impl Implementation) step {
	var problems []problem
	var err error
	switch v.Op {
	case OpDecode:
		if impl.Decode == nil {
			return skipped("no decoder")
		}
		var got *spec.Payload
		got, err = impl.Decode(v.Input, v.Limits)
		if errors.Is(err, ErrSkip) {
			return declined(err)
		}
		if st, ok := timedOutStep(err); ok {
			return st
		}
		switch {
		case v.Accepts() && err != nil && v.Expected.OrError != nil:
			// Input beyond the minimums of [LIM-2]: a limit error is as
			// good as the view [LIM-1].
			problems = checkError(v, v.Expected.OrError, err)
		case v.Accepts():
			problems = checkPayload(v.Expected.payload, got, err)
		default:
			problems = checkError(v, v.Expected.Error, err)
		}
		if err != nil && got != nil {
			problems = append(problems, core("returned a payload along with the error [ERR-4]"))
		}
	case OpEncode, OpJSONEncode:
		var got []byte
		if v.Op == OpEncode {
			if impl.Encode == nil {
				return skipped("no encoder")
			}
			got, err = impl.Encode(v.Input)
		} else {
			if impl.EncodeJSON == nil {
				return skipped("no JSON encoder")
			}
			got, err = impl.EncodeJSON(v.Input, v.Tool, v.Mode, v.Limits)
		}
		if errors.Is(err, ErrSkip) {
			return declined(err)
		}
		if st, ok := timedOutStep(err); ok {
			return st
		}
		if v.Accepts() && err != nil && v.Expected.OrError != nil {
			// A nesting beyond the encoder's bound: a limit error is as
			// good as the payload [MAP-4].
			problems = checkError(v, v.Expected.OrError, err)
		} else if v.Accepts() {
			problems = checkBytes("output", v.Expected.Output, got, err)
		} else if problems = checkError(v, v.Expected.Error, err); err != nil && len(got) > 0 {
			problems = append(problems, core("wrote %d bytes along with the error [CAN-3]", len(got)))
		}
	case OpJSONDecode:
		if impl.DecodeJSON == nil {
			return skipped("no JSON decoder")
		}
		var got []byte
		got, err = impl.DecodeJSON(v.Input, v.Limits)
		if errors.Is(err, ErrSkip) {
			return declined(err)
		}
		if st, ok := timedOutStep(err); ok {
			return st
		}
		if v.Accepts() && err != nil && v.Expected.OrError != nil {
			problems = checkError(v, v.Expected.OrError, err) // [MAP-4], as above
		} else if v.Accepts() {
			problems = checkBytes("value", []byte(*v.Expected.Value), got, err)
		} else if problems = checkError(v, v.Expected.Error, err); err != nil && len(got) > 0 {
			problems = append(problems, core("returned a value along with the error [ERR-4]"))
		}
	case OpMCPServer, OpMCPClient, OpMCPProxy:
		if impl.MCP == nil {
			return skipped("no MCP binding")
		}
		var got []byte
		got, err = impl.MCP(v.Op, v.Input)
		if errors.Is(err, ErrSkip) {
			return declined(err)
		}
		if st, ok := timedOutStep(err); ok {
			return st
		}
		problems = checkOutcome(v, got, err)
	default:
		problems = []problem{core("unknown op %q", v.Op)}
	}
	return step{problems: problems}
}

// reencode encodes a canonical decode vector's view and compares the bytes
// with its input [CAN-1].
func reencode(v *Vector, impl Implementation) step {
	if impl.Encode == nil {
		return skipped("no encoder")
	}
	got, err := impl.Encode(v.Expected.View)
	if errors.Is(err, ErrSkip) {
		return declined(err)
	}
	if st, ok := timedOutStep(err); ok {
		return st
	}
	if v.Expected.OrError != nil && err != nil {
		// The input lies beyond a decoder's own bounds: an encoder under
		// the same bounds refuses to write it, as its decoder refuses to
		// read it [LIM-4].
		return step{problems: checkError(v, &ExpectedError{Class: "limit", Rule: "LIM-4"}, err)}
	}
	return step{problems: checkBytes("bytes", v.Input, got, err)}
}

// roundTrip decodes a json-encode vector's expected output, under the
// limits it was written under, and compares the value with the vector's
// [MAP-4]: what an encoder writes under limits its decoder reads under
// them [LIM-4].
func roundTrip(v *Vector, impl Implementation) step {
	if impl.DecodeJSON == nil {
		return skipped("no JSON decoder")
	}
	got, err := impl.DecodeJSON(v.Expected.Output, v.Limits)
	if errors.Is(err, ErrSkip) {
		return declined(err)
	}
	if st, ok := timedOutStep(err); ok {
		return st
	}
	if v.Expected.OrError != nil && err != nil {
		// A decoder bounded below the value's nesting refuses the payload
		// as its encoder refuses the value [MAP-4]; the line is the
		// payload's, not the JSON text's, so only class and rule count.
		return step{problems: checkError(v, &ExpectedError{Class: "limit", Rule: "MAP-4"}, err)}
	}
	return step{problems: checkBytes("value", []byte(*v.Expected.Value), got, err)}
}

// checkPayload compares a decoder's result with the expected view.
func checkPayload(want, got *spec.Payload, err error) []problem {
	if err != nil {
		return []problem{core("want a payload, got error: %s", describeError(err))}
	}
	if got == nil {
		return []problem{core("want a payload, got neither payload nor error")}
	}
	if diff := diffPayloads(want, got); diff != "" {
		return []problem{core("wire view differs (-want +got):\n%s", diff)}
	}
	return nil
}

// checkBytes compares bytes an implementation wrote with the expected
// ones, byte for byte.
func checkBytes(what string, want, got []byte, err error) []problem {
	if err != nil {
		return []problem{core("want %s %s, got error: %s", what, quoteShort(want), describeError(err))}
	}
	if !bytes.Equal(got, want) {
		return []problem{core("%s differs (-want +got):\n%s", what, diffBytes(want, got))}
	}
	return nil
}

// checkError compares an implementation's error with the one the vector
// expects. A *spec.Error (an in-process Go implementation) is compared
// field by field; a *CommandError by exit status and by what its stderr
// names [WIRE-3]; any other error by its class (errors.Is) and its text.
func checkError(v *Vector, want *ExpectedError, err error) []problem {
	if err == nil {
		return []problem{core("want %s error [%s], got success", want.Class, want.Rule)}
	}
	var cmdErr *CommandError
	if errors.As(err, &cmdErr) {
		return cmdErr.check(want)
	}
	var problems []problem
	if got := spec.ClassName(err); got != want.Class {
		problems = append(problems, core("class %q, want %q", got, want.Class))
	}
	var e *spec.Error
	if !errors.As(err, &e) {
		text := err.Error()
		problems = append(problems, checkText(text, want)...)
	} else {
		if e.Tag != want.Tag {
			problems = append(problems, core("tag %q, want %q [VER-2]", e.Tag, want.Tag))
		}
		if want.Line > 0 && e.Line != want.Line {
			problems = append(problems, core("line %d, want %d [ERR-2]", e.Line, want.Line))
		}
		if want.Column > 0 && e.Column != want.Column {
			problems = append(problems, diagnostic("column %d, want %d [ERR-2]", e.Column, want.Column))
		}
		if want.Line > 0 && want.Column > 0 && e.Line == want.Line && e.Column == want.Column {
			if off, ok := offsetOf(v.Input, want.Line, want.Column); ok && e.Offset != off {
				problems = append(problems, diagnostic("offset %d, want %d for line %d, column %d [ERR-2]",
					e.Offset, off, want.Line, want.Column))
			}
		}
		if e.Rule != want.Rule {
			problems = append(problems, diagnostic("rule %s, want %s", e.Rule, want.Rule))
		}
	}
	if len(problems) > 0 {
		problems = append(problems, problem{minLevel(problems), "error: " + describeError(err)})
	}
	return problems
}

// checkText compares an error known only by its text — a command's stderr,
// or a Go error of another type — with the expected one: the tag and the
// line are core, the column and the rule diagnostic.
func checkText(text string, want *ExpectedError) []problem {
	var problems []problem
	if want.Tag != "" && !strings.Contains(text, want.Tag) {
		problems = append(problems, core("does not name the tag %s [VER-2]", want.Tag))
	}
	if want.Line > 0 {
		switch {
		case !mentionsLine(text, want.Line):
			problems = append(problems, core("does not give line %d [ERR-2]", want.Line))
		case want.Column > 0 && !mentionsPosition(text, want.Line, want.Column):
			problems = append(problems, diagnostic("does not give line %d, column %d [ERR-2]", want.Line, want.Column))
		}
	}
	if !mentionsRule(text, want.Rule) {
		problems = append(problems, diagnostic("does not name rule %s", want.Rule))
	}
	return problems
}

// minLevel returns the lowest level among problems, so that a line quoting
// the error is shown at the level of the first thing that is wrong.
func minLevel(problems []problem) Level {
	l := Diagnostic
	for _, p := range problems {
		l = min(l, p.level)
	}
	return l
}

func describeError(err error) string {
	var cmdErr *CommandError
	if errors.As(err, &cmdErr) {
		return cmdErr.Error()
	}
	if c := spec.ClassName(err); c != "io" {
		return fmt.Sprintf("%s: %v", c, err)
	}
	return err.Error()
}

// offsetOf returns the 0-based byte offset of a 1-based line and byte
// column in input. The column may point one past the line's last byte
// (the end of the input).
func offsetOf(input []byte, line, column int) (int64, bool) {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(input[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	off := start + column - 1
	if off > len(input) {
		return 0, false
	}
	return int64(off), true
}

// mentionsRule reports whether text names rule as a whole token: found in
// "[VAL-2]" or "rule VAL-2:", but not as the start of a longer number or the
// end of a longer word.
func mentionsRule(text, rule string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9-])` + regexp.QuoteMeta(rule) + `($|[^0-9])`)
	return re.MatchString(text)
}

// mentionsClass reports whether text names an error class of [ERR-1] as a
// whole word, in any case, a space allowed for the hyphen: "not-gcx" is
// found in "not GCX: empty input", "limit" in "limit exceeded".
func mentionsClass(text, class string) bool {
	words := strings.Split(regexp.QuoteMeta(class), "-")
	re := regexp.MustCompile(`(?i)(^|[^A-Za-z0-9-])` + strings.Join(words, "[- ]") + `($|[^A-Za-z0-9-])`)
	return re.MatchString(text)
}

// mentionsLine reports whether text gives line as "line L" (in any case,
// ":" or "=" allowed after the word) or as "L:C" with any column.
func mentionsLine(text string, line int) bool {
	l := fmt.Sprint(line)
	word := regexp.MustCompile(`(?i)\bline[\s:=]*` + l + `\b`)
	pair := regexp.MustCompile(`(^|[^0-9])` + l + `:[0-9]+($|[^0-9])`)
	return word.MatchString(text) || pair.MatchString(text)
}

// mentionsPosition reports whether text gives the position as "line L,
// column C" (in any case, with "col" for "column" and ":" or "=" allowed
// after the words) or as "L:C".
func mentionsPosition(text string, line, column int) bool {
	l, c := fmt.Sprint(line), fmt.Sprint(column)
	words := regexp.MustCompile(`(?is)\bline[\s:=]*` + l + `\b.*?\bcol(umn)?[\s:=]*` + c + `\b`)
	pair := regexp.MustCompile(`(^|[^0-9])` + l + `:` + c + `($|[^0-9])`)
	return words.MatchString(text) || pair.MatchString(text)
}
