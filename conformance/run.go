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

	"github.com/gcxwire/gcx/spec"
)

// Implementation is what the runner checks. Each function performs one op;
// a nil function marks an op the implementation does not offer, and the
// vectors that need it are skipped.
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
	// JSON [AUTO-1]) and returns the result's bytes.
	EncodeJSON func(text []byte, tool, mode string) ([]byte, error)
	// DecodeJSON reads a tool result, GCX1 or JSON [AUTO-3], and returns
	// the compact form of its value [MAP-3].
	DecodeJSON func(result []byte) ([]byte, error)
}

// ErrSkip, returned (or wrapped) by an Implementation's function, marks a
// vector the implementation declines, such as one with limits it does not
// support [LIM-1]. The runner counts it as skipped, not failed.
var ErrSkip = errors.New("skipped by the implementation")

// Options select vectors and how strictly errors are compared.
type Options struct {
	// Match, if set, selects vectors by their full name,
	// CATEGORY/GROUP/ID.
	Match func(name string) bool
	// Categories, if set, selects vectors by category.
	Categories []string
	// IgnorePositions makes the runner accept an error at another line
	// and column than the vector's [ERR-2], for implementations that
	// report positions differently. The class is always compared.
	IgnorePositions bool
	// IgnoreRules makes the runner accept an error without the expected
	// rule ID, for implementations that do not name rules. The class (for
	// a command, its exit status) is still compared.
	IgnoreRules bool
	// Parallel bounds the vectors run at once; 0 means GOMAXPROCS.
	Parallel int
}

func (o *Options) selects(v *Vector) bool {
	return (o.Match == nil || o.Match(v.Name())) && (len(o.Categories) == 0 || slices.Contains(o.Categories, v.Category))
}

// Status is the outcome of one vector.
type Status int

const (
	Pass Status = iota
	Fail
	Skip
)

func (s Status) String() string {
	switch s {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	}
	return "SKIP"
}

// Result is the outcome of one vector: its status, and what went wrong
// (Fail) or why it did not run (Skip).
type Result struct {
	Vector *Vector
	Status Status
	Detail string
}

// Report holds the results of one Check, in vector order.
type Report struct {
	Results                 []Result
	Passed, Failed, Skipped int
}

// Failures returns the failed results.
func (r *Report) Failures() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status == Fail {
			out = append(out, res)
		}
	}
	return out
}

// WriteSummary writes every failure with its detail (every result, if
// verbose), the reasons for skipped vectors, and last the line
// "N passed, M failed".
func (r *Report) WriteSummary(w io.Writer, verbose bool) {
	skips := map[string]int{}
	var reasons []string
	for _, res := range r.Results {
		if res.Status == Skip {
			if skips[res.Detail] == 0 {
				reasons = append(reasons, res.Detail)
			}
			skips[res.Detail]++
		}
		if res.Status != Fail && !verbose {
			continue
		}
		fmt.Fprintf(w, "%s %s\n", res.Status, res.Vector.Name())
		if res.Status == Fail {
			fmt.Fprintf(w, "     %s\n", res.Vector.Description)
		}
		if res.Detail != "" {
			for _, line := range strings.Split(strings.TrimRight(res.Detail, "\n"), "\n") {
				fmt.Fprintf(w, "     %s\n", line)
			}
			fmt.Fprintln(w)
		}
	}
	for _, reason := range reasons {
		fmt.Fprintf(w, "%d skipped: %s\n", skips[reason], reason)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", r.Passed, r.Failed)
}

// Check runs the selected vectors against impl and reports every result.
func Check(vectors []Vector, impl Implementation, opt Options) *Report {
	var picked []*Vector
	for i := range vectors {
		if opt.selects(&vectors[i]) {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = CheckVector(picked[i], impl, opt)
			}
		}()
	}
	for i := range picked {
		next <- i
	}
	close(next)
	wg.Wait()

	r := &Report{Results: results}
	for _, res := range results {
		switch res.Status {
		case Pass:
			r.Passed++
		case Fail:
			r.Failed++
		case Skip:
			r.Skipped++
		}
	}
	return r
}

// CheckVector runs one vector against impl. A vector runs in up to two
// steps: the op it names, then — when the first succeeds as expected —
// the way back: a canonical decode vector's view must encode to its input
// [CAN-1], and a json-encode vector's output must decode to its value
// [MAP-4]. The vector passes when every step that ran passed, and is
// skipped when none could run.
func CheckVector(v *Vector, impl Implementation, opt Options) Result {
	first := runStep(v, impl, opt)
	if first.Status == Fail {
		return first
	}
	var second Result
	switch {
	case v.Op == OpDecode && v.IsCanonical():
		second = reencode(v, impl)
	case v.Op == OpJSONEncode && v.Accepts():
		second = roundTrip(v, impl, opt)
	default:
		return first
	}
	switch {
	case second.Status == Fail:
		return second
	case first.Status == Skip && second.Status == Skip:
		return first
	}
	return Result{Vector: v, Status: Pass}
}

// runStep runs the op the vector names and compares the outcome.
func runStep(v *Vector, impl Implementation, opt Options) Result {
	res := Result{Vector: v}
	var problems []string
	var err error
	switch v.Op {
	case OpDecode:
		if impl.Decode == nil {
			return skip(res, "no decoder")
		}
		var got *spec.Payload
		got, err = impl.Decode(v.Input, v.Limits)
		if errors.Is(err, ErrSkip) {
			return skip(res, err.Error())
		}
		if v.Accepts() {
			problems = checkPayload(v.Expected.payload, got, err)
		} else if problems = checkError(v, err, opt); err != nil && got != nil {
			problems = append(problems, "returned a payload along with the error [ERR-4]")
		}
	case OpEncode, OpJSONEncode:
		var got []byte
		if v.Op == OpEncode {
			if impl.Encode == nil {
				return skip(res, "no encoder")
			}
			got, err = impl.Encode(v.Input)
		} else {
			if impl.EncodeJSON == nil {
				return skip(res, "no JSON encoder")
			}
			got, err = impl.EncodeJSON(v.Input, v.Tool, v.Mode)
		}
		if errors.Is(err, ErrSkip) {
			return skip(res, err.Error())
		}
		if v.Accepts() {
			problems = checkBytes("output", v.Expected.Output, got, err)
		} else if problems = checkError(v, err, opt); err != nil && len(got) > 0 {
			problems = append(problems, fmt.Sprintf("wrote %d bytes along with the error [CAN-3]", len(got)))
		}
	case OpJSONDecode:
		if impl.DecodeJSON == nil {
			return skip(res, "no JSON decoder")
		}
		var got []byte
		got, err = impl.DecodeJSON(v.Input)
		if errors.Is(err, ErrSkip) {
			return skip(res, err.Error())
		}
		if v.Accepts() {
			problems = checkBytes("value", []byte(*v.Expected.Value), got, err)
		} else if problems = checkError(v, err, opt); err != nil && len(got) > 0 {
			problems = append(problems, "returned a value along with the error [ERR-4]")
		}
	default:
		problems = []string{fmt.Sprintf("unknown op %q", v.Op)}
	}
	return finish(res, "", problems)
}

// reencode encodes a canonical decode vector's view and compares the bytes
// with its input [CAN-1].
func reencode(v *Vector, impl Implementation) Result {
	res := Result{Vector: v}
	if impl.Encode == nil {
		return skip(res, "no encoder")
	}
	got, err := impl.Encode(v.Expected.View)
	if errors.Is(err, ErrSkip) {
		return skip(res, err.Error())
	}
	return finish(res, "encoding the expected view, which must give the input back [CAN-1]", checkBytes("bytes", v.Input, got, err))
}

// roundTrip decodes a json-encode vector's expected output and compares
// the value with the vector's [MAP-4].
func roundTrip(v *Vector, impl Implementation, opt Options) Result {
	res := Result{Vector: v}
	if impl.DecodeJSON == nil {
		return skip(res, "no JSON decoder")
	}
	got, err := impl.DecodeJSON(v.Expected.Output)
	if errors.Is(err, ErrSkip) {
		return skip(res, err.Error())
	}
	return finish(res, "decoding the expected output, which must give the value back [MAP-4]", checkBytes("value", []byte(*v.Expected.Value), got, err))
}

func skip(res Result, why string) Result {
	res.Status, res.Detail = Skip, why
	return res
}

func finish(res Result, step string, problems []string) Result {
	if len(problems) == 0 {
		res.Status = Pass
		return res
	}
	res.Status = Fail
	if step != "" {
		problems = append([]string{"while " + step + ":"}, problems...)
	}
	res.Detail = strings.Join(problems, "\n")
	return res
}

// checkPayload compares a decoder's result with the expected view.
func checkPayload(want, got *spec.Payload, err error) []string {
	if err != nil {
		return []string{"want a payload, got error: " + describeError(err)}
	}
	if got == nil {
		return []string{"want a payload, got neither payload nor error"}
	}
	if diff := diffPayloads(want, got); diff != "" {
		return []string{"wire view differs (-want +got):\n" + diff}
	}
	return nil
}

// checkBytes compares bytes an implementation wrote with the expected
// ones, byte for byte.
func checkBytes(what string, want, got []byte, err error) []string {
	if err != nil {
		return []string{fmt.Sprintf("want %s %s, got error: %s", what, quoteShort(want), describeError(err))}
	}
	if !bytes.Equal(got, want) {
		return []string{what + " differs (-want +got):\n" + diffBytes(want, got)}
	}
	return nil
}

// checkError compares an implementation's error with the vector's. A
// *spec.Error (an in-process Go implementation) is compared field by
// field; a *CommandError by exit status and by what its stderr names
// [WIRE-3]; any other error by its class (errors.Is) and its text.
func checkError(v *Vector, err error, opt Options) []string {
	want := v.Expected.Error
	if err == nil {
		return []string{fmt.Sprintf("want %s error [%s], got success", want.Class, want.Rule)}
	}
	var cmdErr *CommandError
	if errors.As(err, &cmdErr) {
		return cmdErr.check(v, opt)
	}
	var problems []string
	if got := spec.ClassName(err); got != want.Class {
		problems = append(problems, fmt.Sprintf("class %q, want %q", got, want.Class))
	}
	checkPos := !opt.IgnorePositions && want.Line > 0
	var e *spec.Error
	if !errors.As(err, &e) {
		text := err.Error()
		if !opt.IgnoreRules && !mentionsRule(text, want.Rule) {
			problems = append(problems, fmt.Sprintf("error does not name rule %s", want.Rule))
		}
		if want.Tag != "" && !strings.Contains(text, want.Tag) {
			problems = append(problems, fmt.Sprintf("error does not name the tag %s [VER-2]", want.Tag))
		}
		if checkPos && !mentionsPosition(text, want.Line, want.Column) {
			problems = append(problems, fmt.Sprintf("error does not give line %d, column %d", want.Line, want.Column))
		}
	} else {
		if !opt.IgnoreRules && e.Rule != want.Rule {
			problems = append(problems, fmt.Sprintf("rule %s, want %s", e.Rule, want.Rule))
		}
		if e.Tag != want.Tag {
			problems = append(problems, fmt.Sprintf("tag %q, want %q [VER-2]", e.Tag, want.Tag))
		}
		if checkPos {
			if e.Line != want.Line || e.Column != want.Column {
				problems = append(problems, fmt.Sprintf("position line %d, column %d, want line %d, column %d [ERR-2]",
					e.Line, e.Column, want.Line, want.Column))
			} else if off, ok := offsetOf(v.Input, want.Line, want.Column); ok && e.Offset != off {
				problems = append(problems, fmt.Sprintf("offset %d, want %d for line %d, column %d [ERR-2]",
					e.Offset, off, want.Line, want.Column))
			}
		}
	}
	if len(problems) > 0 {
		problems = append(problems, "error: "+describeError(err))
	}
	return problems
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

// mentionsPosition reports whether text gives the position as "line L,
// column C" (in any case, with "col" for "column" and ":" or "=" allowed
// after the words) or as "L:C".
func mentionsPosition(text string, line, column int) bool {
	l, c := fmt.Sprint(line), fmt.Sprint(column)
	words := regexp.MustCompile(`(?is)\bline[\s:=]*` + l + `\b.*?\bcol(umn)?[\s:=]*` + c + `\b`)
	pair := regexp.MustCompile(`(^|[^0-9])` + l + `:` + c + `($|[^0-9])`)
	return words.MatchString(text) || pair.MatchString(text)
}
