package explore

import (
	"bytes"
	"maps"
	"slices"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
)

// shrinker makes a failing case smaller, one candidate at a time: it keeps
// a candidate when the reference can judge it and the implementation still
// disagrees with the reference, and stops after a bounded number of tries.
// Every try runs the program, so the candidates come biggest cut first.
type shrinker struct {
	fails    func(Case) (*conformance.File, conformance.Result, bool)
	budget   int // tries left
	tries    int
	accepted int
	best     Case
	file     *conformance.File
	result   conformance.Result
}

// try runs candidate c and keeps it if it is smaller and still fails.
func (s *shrinker) try(c Case) bool {
	if s.budget <= 0 || !smaller(c, s.best) {
		return false
	}
	s.budget--
	s.tries++
	f, res, ok := s.fails(c)
	if !ok {
		return false
	}
	s.best, s.file, s.result = c, f, res
	s.accepted++
	return true
}

// smaller orders cases by size: fewer input bytes, then fewer limits, then
// fewer bytes other than 'a' (the character a simplified byte becomes).
func smaller(a, b Case) bool {
	if len(a.Input) != len(b.Input) {
		return len(a.Input) < len(b.Input)
	}
	if len(a.Limits) != len(b.Limits) {
		return len(a.Limits) < len(b.Limits)
	}
	return plain(a.Input) < plain(b.Input)
}

func plain(b []byte) int { return len(b) - bytes.Count(b, []byte("a")) }

// run shrinks until no candidate helps or the budget is spent.
func (s *shrinker) run() {
	for s.budget > 0 {
		progress := s.limitsPass()
		if s.best.Op.Binding() || isJSONInput(s.best) {
			progress = s.treePass() || progress
		}
		progress = s.bytesPass() || progress
		if !progress {
			return
		}
	}
}

func isJSONInput(c Case) bool {
	switch c.Op {
	case conformance.OpEncode, conformance.OpJSONEncode:
		return true
	case conformance.OpJSONDecode:
		return len(c.Input) > 0 && !bytes.HasPrefix(c.Input, []byte("GCX"))
	}
	return false
}

// limitsPass drops limits one at a time.
func (s *shrinker) limitsPass() bool {
	progress := false
	for _, name := range slices.Sorted(maps.Keys(s.best.Limits)) {
		c := s.best
		c.Limits = maps.Clone(c.Limits)
		delete(c.Limits, name)
		if len(c.Limits) == 0 {
			c.Limits = nil
		}
		progress = s.try(c) || progress
	}
	return progress
}

// bytesPass cuts lines, then spans halving in size, then single bytes of a
// short input, then turns bytes into 'a'.
func (s *shrinker) bytesPass() bool {
	progress := false
	with := func(in []byte) bool {
		c := s.best
		c.Input = in
		if s.try(c) {
			return true
		}
		// A case about the line limit keeps its point only if the limit
		// shrinks with the line: try the cut with the limit lowered as much.
		limit, cut := c.Limits["max-line-bytes"], len(s.best.Input)-len(in)
		if limit > cut && cut > 0 {
			c.Limits = maps.Clone(c.Limits)
			c.Limits["max-line-bytes"] = limit - cut
			return s.try(c)
		}
		return false
	}
	// whole lines, last first
	for i := bytes.Count(s.best.Input, []byte("\n")); i >= 0 && s.budget > 0; i-- {
		lines := bytes.SplitAfter(s.best.Input, []byte("\n"))
		if i < len(lines) && len(lines) > 1 {
			progress = with(bytes.Join(slices.Delete(slices.Clone(lines), i, i+1), nil)) || progress
		}
	}
	// spans
	for size := len(s.best.Input) / 2; size >= 1 && s.budget > 0; size /= 2 {
		if size == 1 && len(s.best.Input) > 48 {
			break
		}
		for at := len(s.best.Input) - size; at >= 0 && s.budget > 0; at -= size {
			if at+size <= len(s.best.Input) {
				progress = with(slices.Delete(slices.Clone(s.best.Input), at, at+size)) || progress
			}
		}
	}
	// simpler bytes: letters and digits become 'a', multi-byte characters too
	if len(s.best.Input) <= 64 {
		for at := 0; at < len(s.best.Input) && s.budget > 0; at++ {
			c := s.best.Input[at]
			if c == 'a' || !(c >= 'b' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80) {
				continue
			}
			progress = with(append(append(slices.Clone(s.best.Input[:at]), 'a'), s.best.Input[at+1:]...)) || progress
		}
	}
	return progress
}

// treePass shrinks a JSON input as a value: it drops members and
// elements, puts a node's child in its place, and empties strings.
func (s *shrinker) treePass() bool {
	v, err := jsonmap.Parse(s.best.Input)
	if err != nil {
		return false
	}
	progress := false
	for _, cand := range shrinkValue(v) {
		if s.budget <= 0 {
			break
		}
		c := s.best
		c.Input = cand.AppendCompact(nil)
		if s.try(c) {
			progress = true
			return s.treePass() || progress
		}
	}
	return progress
}

// shrinkValue lists the values one step smaller than v, biggest cut first.
func shrinkValue(v jsonmap.Value) []jsonmap.Value {
	var out []jsonmap.Value
	switch v.Kind {
	case jsonmap.Array:
		for i := range v.Elems {
			out = append(out, jsonmap.Value{Kind: jsonmap.Array, Elems: slices.Delete(slices.Clone(v.Elems), i, i+1)})
		}
		for i, e := range v.Elems {
			for _, smaller := range shrinkValue(e) {
				elems := slices.Clone(v.Elems)
				elems[i] = smaller
				out = append(out, jsonmap.Value{Kind: jsonmap.Array, Elems: elems})
			}
		}
	case jsonmap.Object:
		for i := range v.Members {
			out = append(out, jsonmap.Value{Kind: jsonmap.Object, Members: slices.Delete(slices.Clone(v.Members), i, i+1)})
		}
		for i, m := range v.Members {
			for _, smaller := range shrinkValue(m.Value) {
				members := slices.Clone(v.Members)
				members[i].Value = smaller
				out = append(out, jsonmap.Value{Kind: jsonmap.Object, Members: members})
			}
		}
	case jsonmap.String:
		if v.Text != "" {
			out = append(out, jsonmap.Value{Kind: jsonmap.String})
			if r := []rune(v.Text); len(r) > 1 {
				out = append(out, jsonmap.Value{Kind: jsonmap.String, Text: string(r[:len(r)/2])},
					jsonmap.Value{Kind: jsonmap.String, Text: string(r[len(r)/2:])})
			}
		}
	case jsonmap.Number:
		if v.Text != "0" {
			out = append(out, jsonmap.Value{Kind: jsonmap.Number, Text: "0"})
		}
	}
	return out
}
