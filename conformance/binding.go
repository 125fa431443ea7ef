package conformance

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/jsonmap"
)

// The vectors of the MCP binding (chapter 15 of docs/wire-format.md),
// category mcp, state the binding's rules for an SDK wrapper in any
// language. Their input is a JSON object — a tool result with the server's
// settings and the client's opt-in, or the answers a client receives — and
// their expected outcome a JSON object the implementation must give,
// compared as a JSON value; docs/conformance.md gives both shapes.

// Binding reports whether o is an op of the MCP binding, whose input and
// outcome are JSON objects.
func (o Op) Binding() bool { return o == OpMCPServer || o == OpMCPClient || o == OpMCPProxy }

// outcomeMembers lists, for each op of the binding, the members its
// expected outcome must have and those it may have.
var outcomeMembers = map[Op]struct{ required, allowed []string }{
	OpMCPServer: {required: []string{"result"}, allowed: []string{"result"}},
	OpMCPProxy:  {required: []string{"request_meta", "result"}, allowed: []string{"request_meta", "result"}},
	OpMCPClient: {
		required: []string{"requests"},
		allowed:  []string{"requests", "format", "value", "total", "truncated", "reissued", "error"},
	},
}

// bindingClasses are the classes of a client's error: those of [ERR-1] a
// payload's decoder reports, and the binding's own two [MCP-8].
var bindingClasses = map[string]bool{
	"not-gcx": true, "unsupported-version": true, "syntax": true, "constraint": true, "limit": true,
	"mismatch": true, "invalid-result": true,
}

// checkBinding checks a vector of a binding op: it has an input object and
// an expected outcome of its op's shape, and none of the keys of the other
// ops. It sets Input to the compact form of the input, the bytes a program
// reads on stdin.
func (v *Vector) checkBinding() error {
	if v.InputJSON == nil {
		return fmt.Errorf("the input of op %s is a JSON object", v.Op)
	}
	if v.InputBase64 != nil || v.Limits != nil || v.Tool != "" || v.Mode != "" || v.Canonical != nil {
		return fmt.Errorf("op %s takes only input and expected: no input_base64, limits, tool, mode or canonical", v.Op)
	}
	in, err := jsonmap.Parse(v.InputJSON)
	if err != nil {
		return fmt.Errorf("input: %v", err)
	}
	if in.Kind != jsonmap.Object {
		return fmt.Errorf("the input of op %s is a JSON object, not %s", v.Op, in.Kind)
	}
	v.Input = in.AppendCompact(nil)
	out, err := jsonmap.Parse(v.Expected.Outcome)
	if err != nil {
		return fmt.Errorf("expected: %v", err)
	}
	if out.Kind != jsonmap.Object {
		return fmt.Errorf("the expected outcome of op %s is a JSON object, not %s", v.Op, out.Kind)
	}
	shape := outcomeMembers[v.Op]
	for _, m := range out.Members {
		if !slices.Contains(shape.allowed, m.Key) {
			return fmt.Errorf("expected: %q is no member of an outcome of %s (%s)", m.Key, v.Op, strings.Join(shape.allowed, ", "))
		}
	}
	for _, key := range shape.required {
		if _, ok := out.Lookup(key); !ok {
			return fmt.Errorf("expected: an outcome of %s has %q", v.Op, key)
		}
	}
	if v.Op == OpMCPClient {
		e, failed := out.Lookup("error")
		_, format := out.Lookup("format")
		_, value := out.Lookup("value")
		switch {
		case failed && (format || value), !failed && !(format && value):
			return errors.New(`expected: a client's outcome has "error", or "format" and "value"`)
		case failed:
			class, _ := e.Lookup("class")
			if e.Kind != jsonmap.Object || class.Kind != jsonmap.String || !bindingClasses[class.Text] {
				return errors.New(`expected: "error" is an object whose "class" is a class of [ERR-1], "mismatch" or "invalid-result"`)
			}
		}
	}
	v.Expected.outcome = out
	return nil
}

// maxDifferences bounds the differences a failed binding vector lists.
const maxDifferences = 5

// checkOutcome compares the outcome a binding op gave with the expected
// one as JSON values: objects as sets of members, arrays element by
// element, strings by their characters (so payloads byte for byte) and
// numbers by the number they denote. Every difference is core but one in
// the rule ID of an expected error, which, as for every other error, is
// compared at the diagnostic level [ERR-6].
func checkOutcome(v *Vector, got []byte, err error) []problem {
	if err != nil {
		return []problem{core("want an outcome, got error: %s", describeError(err))}
	}
	value, err := jsonmap.Parse(got)
	if err != nil {
		return []problem{core("the outcome %s is not a JSON text: %v", quoteShort(got), err)}
	}
	var diffs differences
	diffJSON(withoutFalseIsError(v.Expected.outcome), withoutFalseIsError(value), nil, &diffs)
	var problems []problem
	for _, d := range diffs.shown {
		p := core("outcome differs at %s: %s", d.path, d.text)
		if d.path == ".error.rule" {
			p.level = Diagnostic
		}
		problems = append(problems, p)
	}
	if diffs.more > 0 {
		problems = append(problems, problem{minLevel(problems), fmt.Sprintf("... and %s", plural.Count(diffs.more, "more difference"))})
	}
	return problems
}

// withoutFalseIsError returns an outcome whose result (a server's or an
// intermediary's) has no isError member of false: MCP's default for an
// absent isError is false, and MCP libraries drop the member when it is
// false, so both spell the same result [MCP-5]. Other outcomes come back
// as they are.
func withoutFalseIsError(outcome jsonmap.Value) jsonmap.Value {
	if outcome.Kind != jsonmap.Object {
		return outcome
	}
	members := slices.Clone(outcome.Members)
	for i, m := range members {
		if m.Key != "result" || m.Value.Kind != jsonmap.Object {
			continue
		}
		result := m.Value
		result.Members = slices.DeleteFunc(slices.Clone(result.Members), func(r jsonmap.Member) bool {
			return r.Key == "isError" && r.Value.Kind == jsonmap.False
		})
		members[i].Value = result
	}
	outcome.Members = members
	return outcome
}

// difference is one place where two JSON values differ.
type difference struct {
	path string // where, as .member[index]...; "the top" for the whole value
	text string
}

// differences are what diffJSON found: the first maxDifferences spelled
// out, and how many more there were, which are counted, not spelled.
type differences struct {
	shown []difference
	more  int
}

// add records a difference at, whose text says how the values differ.
// Only a shown difference has its path and text spelled, so that finding
// the differences of two deep values costs no more than walking them.
func (d *differences) add(at *jsonPath, text func() string) {
	if len(d.shown) == maxDifferences {
		d.more++
		return
	}
	d.shown = append(d.shown, difference{at.String(), text()})
}

// count returns how many differences were found.
func (d *differences) count() int { return len(d.shown) + d.more }

// A jsonPath is where diffJSON stands in the two values: a member or an
// element of the place parent, or the top when nil. Each step holds its
// parent rather than a string of the path so far, which would make a walk
// down nesting d cost d² bytes.
type jsonPath struct {
	parent *jsonPath
	key    string // a member's key, when member is set
	index  int    // an element's index, when member is not
	member bool
}

// String spells the path as .member[index]..., or "the top".
func (p *jsonPath) String() string {
	if p == nil {
		return "the top"
	}
	var steps []*jsonPath
	for q := p; q != nil; q = q.parent {
		steps = append(steps, q)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		if s := steps[i]; s.member {
			b.WriteString("." + s.key)
		} else {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		}
	}
	return b.String()
}

// diffJSON adds to diffs the places where got differs from want, as JSON
// values. It takes time linear in the values, a sort of each object's
// members aside.
func diffJSON(want, got jsonmap.Value, at *jsonPath, diffs *differences) {
	if want.Kind != got.Kind && !(isBool(want) && isBool(got)) {
		diffs.add(at, func() string { return fmt.Sprintf("want %s, got %s", short(want), short(got)) })
		return
	}
	switch want.Kind {
	case jsonmap.False, jsonmap.True, jsonmap.String:
		if want.Kind != got.Kind || want.Text != got.Text {
			diffs.add(at, func() string { return fmt.Sprintf("want %s, got %s", short(want), short(got)) })
		}
	case jsonmap.Number:
		if numberKey(want.Text) != numberKey(got.Text) {
			diffs.add(at, func() string { return fmt.Sprintf("want %s, got %s", want.Text, got.Text) })
		}
	case jsonmap.Array:
		for i := range min(len(want.Elems), len(got.Elems)) {
			diffJSON(want.Elems[i], got.Elems[i], &jsonPath{parent: at, index: i}, diffs)
		}
		if len(want.Elems) != len(got.Elems) {
			diffs.add(at, func() string {
				return fmt.Sprintf("want %s, got %d", plural.Count(len(want.Elems), "element"), len(got.Elems))
			})
		}
	case jsonmap.Object:
		byKey := make(map[string]jsonmap.Value, len(got.Members))
		for _, m := range got.Members {
			byKey[m.Key] = m.Value
		}
		for _, m := range want.Members {
			member := &jsonPath{parent: at, key: m.Key, member: true}
			g, ok := byKey[m.Key]
			if !ok {
				diffs.add(member, func() string { return fmt.Sprintf("want %s, got no such member", short(m.Value)) })
				continue
			}
			delete(byKey, m.Key)
			diffJSON(m.Value, g, member, diffs)
		}
		for _, m := range got.Members {
			if _, extra := byKey[m.Key]; extra {
				diffs.add(&jsonPath{parent: at, key: m.Key, member: true}, func() string {
					return fmt.Sprintf("want no such member, got %s", short(m.Value))
				})
			}
		}
	}
}

func isBool(v jsonmap.Value) bool { return v.Kind == jsonmap.False || v.Kind == jsonmap.True }

// short returns the compact JSON of v for a one-line message, cut after a
// screenful.
func short(v jsonmap.Value) string {
	const max = 120
	b := v.AppendCompact(nil)
	if len(b) > max {
		return fmt.Sprintf("%s... (%d bytes)", b[:max], len(b))
	}
	return string(b)
}

// numberKey returns a spelling of the number that a JSON number literal
// denotes, the same for every literal of that number: 1, 1.0, 10e-1 and
// 0.1E1 all give "1e0", -0 and 0e5 give "0". The literal is a valid JSON
// number.
func numberKey(literal string) string {
	sign, rest := "", literal
	if r, ok := strings.CutPrefix(rest, "-"); ok {
		sign, rest = "-", r
	}
	mantissa, exponent, _ := strings.Cut(strings.ToLower(rest), "e")
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+fraction, "0")
	if digits == "" {
		return "0"
	}
	significant := strings.TrimRight(digits, "0")
	// The exponent of the last significant digit: the written exponent,
	// less the fraction's digits, plus the zeros cut at the end.
	exp := new(big.Int)
	if exponent != "" {
		exp.SetString(exponent, 10)
	}
	exp.Add(exp, big.NewInt(int64(len(digits)-len(significant)-len(fraction))))
	return sign + significant + "e" + exp.String()
}
