package conformance

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// alternative is one line of testdata/alternatives.txt: a rule, one of the
// alternatives it names, and the vectors that exercise it ("!" before the
// id of one that refuses), or why no vector can.
type alternative struct {
	line    int
	rule    string
	name    string
	vectors []string
	why     string
}

func readAlternatives(t *testing.T) []alternative {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "alternatives.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var alts []alternative
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, " | ")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
			t.Fatalf("alternatives.txt:%d: want RULE | ALTERNATIVE | VECTORS, got %q", n, text)
		}
		a := alternative{line: n, rule: parts[0], name: parts[1]}
		if why, ok := strings.CutPrefix(parts[2], "- "); ok {
			a.why = why
		} else {
			a.vectors = strings.Fields(parts[2])
		}
		if len(a.vectors) == 0 && a.why == "" {
			t.Errorf("alternatives.txt:%d: %s %q names no vector and gives no reason", n, a.rule, a.name)
		}
		alts = append(alts, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return alts
}

// Every alternative a rule names — each header member, guard, reserved
// name, escape, side of a bound, form, setting and error class — keeps a
// vector that exercises it, on the side it names (issue 29): a vector
// renamed, dropped or turned from refusing to accepting fails here, and so
// does a rule of the specification the audit does not list.
func TestAlternativesHaveVectors(t *testing.T) {
	byID := map[string]*Vector{}
	vectors := allVectors(t)
	for i := range vectors {
		byID[vectors[i].ID] = &vectors[i]
	}
	rules := specRules(t)
	listed := map[string]bool{}
	seen := map[string]int{}
	for _, a := range readAlternatives(t) {
		where := fmt.Sprintf("alternatives.txt:%d: %s %s", a.line, a.rule, a.name)
		if !rules[a.rule] {
			t.Errorf("%s: docs/wire-format.md defines no %s", where, a.rule)
		}
		listed[a.rule] = true
		if first, ok := seen[a.rule+"|"+a.name]; ok {
			t.Errorf("%s: listed before, on line %d", where, first)
		}
		seen[a.rule+"|"+a.name] = a.line
		for _, id := range a.vectors {
			refuses := strings.HasPrefix(id, "!")
			id = strings.TrimPrefix(id, "!")
			v, ok := byID[id]
			switch {
			case !ok:
				t.Errorf("%s: no vector %s", where, id)
			case !slices.Contains(v.Rules, a.rule):
				t.Errorf("%s: %s does not cite %s", where, v.Name(), a.rule)
			case refuses && v.Accepts():
				t.Errorf("%s: %s accepts, but is listed as refusing", where, v.Name())
			case !refuses && !v.Accepts():
				t.Errorf("%s: %s refuses; mark it !%s", where, v.Name(), id)
			}
		}
	}
	for r := range rules {
		if o, ok := oneSided[r]; ok && !o.accept && !o.reject {
			continue // no vector can exercise it (TestSpecRulesHaveVectors says why)
		}
		if !listed[r] {
			t.Errorf("%s: not in testdata/alternatives.txt; list the alternatives it names and their vectors", r)
		}
	}
}
