package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/gcxwire/gcx/spec"
)

// A Decoder decodes one payload under the vector's limits (nil: the
// decoder's own defaults) and returns the decoded payload, or an error and
// no payload [ERR-4].
type Decoder func(payload []byte, limits Limits) (*spec.Payload, error)

// An Encoder reads a wire view [WIRE-2] and returns the GCX1 bytes of the
// payload it describes, or an error and no bytes [CAN-3].
type Encoder func(wire []byte) ([]byte, error)

// ErrSkip, returned (or wrapped) by a Decoder or Encoder, marks a vector the
// implementation declines, such as one with limits it does not support
// [LIM-1]. Run counts it as skipped, not failed.
var ErrSkip = errors.New("skipped by the implementation")

// Implementation is what Run checks: a decoder, an encoder, or both.
type Implementation struct {
	Decode Decoder // runs the valid and invalid vectors
	Encode Encoder // runs the valid and invalid-encoder vectors
}

// Options select vectors and how strictly errors are compared.
type Options struct {
	// Match, if set, selects the vectors to run by name, e.g.
	// "invalid/val-2-unknown-escape-q".
	Match func(name string) bool
	// Positions makes Run compare an error's line and column with the
	// vector's [ERR-2]. The class and rule are always compared.
	Positions bool
	// IgnoreRules makes Run accept an error without the expected rule ID,
	// for implementations that do not name rules. The class (or, for a
	// command, its exit status) is still compared.
	IgnoreRules bool
	// NoLimits skips the vectors that carry limits.
	NoLimits bool
	// Parallel bounds the vectors run at once; 0 means GOMAXPROCS.
	Parallel int
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

// Result is the outcome of running one vector in one direction.
type Result struct {
	Vector *Vector
	Encode bool // true for the encoder direction
	Status Status
	// Detail says what went wrong (Fail) or why the vector was skipped
	// (Skip): the expected and actual outcome, with a diff where there is
	// one.
	Detail string
}

// Name returns the vector's name with the direction, as reported:
// "decode valid/row-1-tab-separated".
func (r *Result) Name() string {
	if r.Encode {
		return "encode " + r.Vector.Name
	}
	return "decode " + r.Vector.Name
}

// Report holds every result of one Run, in vector order.
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

// WriteSummary writes every failure with its detail, then the counts, in
// the manner of toml-test: "N passed, M failed".
func (r *Report) WriteSummary(w io.Writer, verbose bool) {
	for _, res := range r.Results {
		if res.Status != Fail && !verbose {
			continue
		}
		fmt.Fprintf(w, "%s %s\n", res.Status, res.Name())
		if res.Detail != "" {
			for _, line := range strings.Split(strings.TrimRight(res.Detail, "\n"), "\n") {
				fmt.Fprintf(w, "     %s\n", line)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed", r.Passed, r.Failed)
	if r.Skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", r.Skipped)
	}
	fmt.Fprintln(w)
}

// Run checks impl against the vectors: with a decoder, every valid and
// invalid vector; with an encoder, every valid and invalid-encoder vector.
func Run(vectors []Vector, impl Implementation, opt Options) *Report {
	type job struct {
		v      *Vector
		encode bool
	}
	var jobs []job
	for i := range vectors {
		v := &vectors[i]
		if opt.Match != nil && !opt.Match(v.Name) {
			continue
		}
		if impl.Decode != nil && v.Kind != InvalidEncoder {
			jobs = append(jobs, job{v, false})
		}
		if impl.Encode != nil && v.Kind != Invalid {
			jobs = append(jobs, job{v, true})
		}
	}
	results := make([]Result, len(jobs))
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
				j := jobs[i]
				if j.encode {
					results[i] = runEncode(j.v, impl.Encode, opt)
				} else {
					results[i] = runDecode(j.v, impl.Decode, opt)
				}
			}
		}()
	}
	for i := range jobs {
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

func runDecode(v *Vector, dec Decoder, opt Options) Result {
	res := Result{Vector: v}
	if v.Limits != nil && opt.NoLimits {
		res.Status, res.Detail = Skip, "vector has limits"
		return res
	}
	got, err := dec(v.Payload, v.Limits)
	if errors.Is(err, ErrSkip) {
		res.Status, res.Detail = Skip, err.Error()
		return res
	}
	var problems []string
	if v.Kind == Valid {
		problems = checkDecoded(v, got, err)
	} else {
		problems = checkError(v, err, opt)
		if err != nil && got != nil {
			problems = append(problems, "returned a payload along with the error [ERR-4]")
		}
	}
	return finish(res, problems)
}

func runEncode(v *Vector, enc Encoder, opt Options) Result {
	res := Result{Vector: v, Encode: true}
	got, err := enc(v.Wire)
	if errors.Is(err, ErrSkip) {
		res.Status, res.Detail = Skip, err.Error()
		return res
	}
	var problems []string
	if v.Kind == Valid {
		problems = checkEncoded(v, got, err)
	} else {
		problems = checkError(v, err, opt)
		if err != nil && len(got) > 0 {
			problems = append(problems, fmt.Sprintf("wrote %d bytes along with the error [CAN-3]", len(got)))
		}
	}
	return finish(res, problems)
}

func finish(res Result, problems []string) Result {
	if len(problems) == 0 {
		res.Status = Pass
		return res
	}
	res.Status = Fail
	res.Detail = strings.Join(problems, "\n")
	return res
}

// checkDecoded compares a decoder's result with a valid vector's view.
func checkDecoded(v *Vector, got *spec.Payload, err error) []string {
	if err != nil {
		return []string{"want a payload, got error: " + describeError(err)}
	}
	if got == nil {
		return []string{"want a payload, got neither payload nor error"}
	}
	want, werr := spec.UnmarshalWire(v.Wire)
	if werr != nil {
		return []string{"the vector's own wire view is unreadable: " + werr.Error()}
	}
	if diff := diffPayloads(want, got); diff != "" {
		return []string{"wire view differs (-want +got):\n" + diff}
	}
	return nil
}

// checkEncoded compares an encoder's bytes with a valid vector's payload,
// byte for byte: every valid payload is canonical [CAN-1].
func checkEncoded(v *Vector, got []byte, err error) []string {
	if err != nil {
		return []string{"want the payload's bytes, got error: " + describeError(err)}
	}
	if string(got) != string(v.Payload) {
		return []string{"bytes differ [CAN-1] (-want +got):\n" + diffBytes(v.Payload, got)}
	}
	return nil
}

// checkError compares an implementation's error with the vector's
// expectation. A *spec.Error (an in-process Go implementation) is compared
// field by field; a *CommandError by exit status and by what its stderr
// names [WIRE-3]; any other error by its class (errors.Is) and its text.
func checkError(v *Vector, err error, opt Options) []string {
	want := v.Want
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
	var e *spec.Error
	if !errors.As(err, &e) {
		if !opt.IgnoreRules && !mentionsRule(err.Error(), want.Rule) {
			problems = append(problems, fmt.Sprintf("error %q does not name rule %s", err.Error(), want.Rule))
		}
		if want.Tag != "" && !strings.Contains(err.Error(), want.Tag) {
			problems = append(problems, fmt.Sprintf("error %q does not name the tag %s [VER-2]", err.Error(), want.Tag))
		}
		if opt.Positions && v.Kind == Invalid && !mentionsPosition(err.Error(), want.Line, want.Column) {
			problems = append(problems, fmt.Sprintf("error %q does not give line %d, column %d", err.Error(), want.Line, want.Column))
		}
		return problems
	}
	if !opt.IgnoreRules && e.Rule != want.Rule {
		problems = append(problems, fmt.Sprintf("rule %s, want %s", e.Rule, want.Rule))
	}
	if e.Tag != want.Tag {
		problems = append(problems, fmt.Sprintf("tag %q, want %q [VER-2]", e.Tag, want.Tag))
	}
	if opt.Positions && v.Kind == Invalid {
		if e.Line != want.Line || e.Column != want.Column {
			problems = append(problems, fmt.Sprintf("position line %d, column %d, want line %d, column %d [ERR-2]",
				e.Line, e.Column, want.Line, want.Column))
		} else if off, ok := offsetOf(v.Payload, want.Line, want.Column); ok && e.Offset != off {
			problems = append(problems, fmt.Sprintf("offset %d, want %d for line %d, column %d [ERR-2]",
				e.Offset, off, want.Line, want.Column))
		}
	}
	if len(problems) > 0 {
		problems = append(problems, "error: "+err.Error())
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
// column in payload. The column may point one past the line's last byte
// (the end of the input).
func offsetOf(payload []byte, line, column int) (int64, bool) {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(payload[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	off := start + column - 1
	if off > len(payload) {
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
