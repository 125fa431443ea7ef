package explore

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/conformance"
)

// Coverage counts, rule by rule, the cases of a run whose vectors cite
// the rule, and which generators drew them. Its Observe is an
// Options.Observe: a case reaches a rule when its vector's Rules name it,
// as a committed vector exercises the rules its rules field names.
type Coverage struct {
	Cases  int                       // cases observed
	ByRule map[string]int            // cases citing each rule
	By     map[string]map[string]int // rule → generator category → cases
}

// Observe counts one case; Run calls it one case at a time.
func (c *Coverage) Observe(_ int, generator string, v *conformance.Vector, _ conformance.Result) {
	if c.ByRule == nil {
		c.ByRule, c.By = map[string]int{}, map[string]map[string]int{}
	}
	c.Cases++
	for _, r := range v.Rules {
		c.ByRule[r]++
		if c.By[r] == nil {
			c.By[r] = map[string]int{}
		}
		c.By[r][generator]++
	}
}

// Generators returns the categories of the generators that reached rule,
// in the order of conformance.Categories.
func (c *Coverage) Generators(rule string) []string {
	var out []string
	for _, g := range conformance.Categories {
		if c.By[rule][g] > 0 {
			out = append(out, g)
		}
	}
	return out
}

// Reached returns the rules the run reached, in CompareRules order.
func (c *Coverage) Reached() []string {
	out := make([]string, 0, len(c.ByRule))
	for r := range c.ByRule {
		out = append(out, r)
	}
	slices.SortFunc(out, CompareRules)
	return out
}

// Unreached returns the rules of rules that no case reached, in
// CompareRules order.
func (c *Coverage) Unreached(rules []string) []string {
	var out []string
	for _, r := range rules {
		if c.ByRule[r] == 0 && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, CompareRules)
	return out
}

// CompareRules orders rule IDs by prefix, then by number: MAP-2 before
// MAP-10.
func CompareRules(a, b string) int {
	pa, na, _ := strings.Cut(a, "-")
	pb, nb, _ := strings.Cut(b, "-")
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	ia, errA := strconv.Atoi(na)
	ib, errB := strconv.Atoi(nb)
	if errA != nil || errB != nil {
		return strings.Compare(na, nb)
	}
	return cmp.Compare(ia, ib)
}
