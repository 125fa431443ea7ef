package explore

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
)

// reaches draws a mutation of input with seeds 0..n-1 and reports the
// wanted outcomes none of the draws reached.
func reaches(t *testing.T, n int, mutate func(g *gen) string, wants map[string]func(string) bool) {
	t.Helper()
	seen := map[string]bool{}
	for i := range n {
		g := &gen{r: rand.New(rand.NewPCG(9, uint64(i))), tag: "GCX1"}
		out := mutate(g)
		for name, ok := range wants {
			if ok(out) {
				seen[name] = true
			}
		}
	}
	for name := range wants {
		if !seen[name] {
			t.Errorf("no draw of %d reached %s", n, name)
		}
	}
}

// TestFieldMutationsReachRelations checks the field-by-field mutations of
// payloads: a column a nested field's prefix names, added with a cell in
// every row [MAP-15]; a column moved with its cells; a later section
// renamed [LAY-4]; an object part left with no row and rows= in step
// [LAY-2]; a row repeated with rows= in step.
func TestFieldMutationsReachRelations(t *testing.T) {
	nested := "GCX1 tool=t fields=p.a nest=p rows=2\n1\n2\n"
	reaches(t, 300, func(g *gen) string { return string(g.columnEdit([]byte(nested))) }, map[string]func(string) bool{
		"a field named as nest= names, its cells added": func(s string) bool {
			return strings.HasPrefix(s, "GCX1 tool=t fields=p,p.a nest=p rows=2\n") && strings.Count(s, "\t") == 2 ||
				strings.HasPrefix(s, "GCX1 tool=t fields=p.a,p nest=p rows=2\n") && strings.Count(s, "\t") == 2
		},
	})
	two := "GCX1 tool=t fields=a,b rows=1\n1\t2\n"
	reaches(t, 300, func(g *gen) string { return string(g.columnEdit([]byte(two))) }, map[string]func(string) bool{
		"a column moved with its cells": func(s string) bool { return s == "GCX1 tool=t fields=b,a rows=1\n2\t1\n" },
		"a column taken away":           func(s string) bool { return s == "GCX1 tool=t fields=b rows=1\n2\n" },
	})
	parts := "GCX1 tool=get_callers.nodes fields=id rows=0\nGCX1 tool=get_callers.edges fields=from rows=0\n"
	reaches(t, 300, func(g *gen) string { return string(g.headerEdit([]byte(parts))) }, map[string]func(string) bool{
		"the later part renamed": func(s string) bool {
			return strings.HasPrefix(s, "GCX1 tool=get_callers.nodes fields=id rows=0\nGCX1 tool=") &&
				!strings.Contains(s, "tool=get_callers.edges ") && strings.HasSuffix(s, " fields=from rows=0\n")
		},
		"nest= added": func(s string) bool { return strings.Contains(s, " nest=") },
	})
	object := "GCX1 tool=graph_stats fields=a,b rows=1\n1\t2\n"
	reaches(t, 300, func(g *gen) string { return string(g.rowEdit([]byte(object))) }, map[string]func(string) bool{
		"no row, rows= in step": func(s string) bool { return s == "GCX1 tool=graph_stats fields=a,b rows=0\n" },
		"a row repeated":        func(s string) bool { return s == "GCX1 tool=graph_stats fields=a,b rows=2\n1\t2\n1\t2\n" },
	})
}

// TestJSONMutationsReachOrderNamesAndNumbers checks the JSON mutations
// the mapping's relations need: two members in the other order [LAY-2], a
// name emptied [MAP-17], a number with an exponent [LAY-3], a declared
// tool's section name as the tool [LAY-4], and a tool's value inside a
// binding's text block changed as a value.
func TestJSONMutationsReachOrderNamesAndNumbers(t *testing.T) {
	member := func(in string) func(g *gen) string {
		return func(g *gen) string {
			v, err := jsonmap.Parse([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			g.mutateMember(&v)
			return string(v.AppendCompact(nil))
		}
	}
	reaches(t, 400, member(`{"edges":[],"nodes":[]}`), map[string]func(string) bool{
		"members in the other order": func(s string) bool { return s == `{"nodes":[],"edges":[]}` },
	})
	reaches(t, 400, member(`[{"p":{"a":1},"q":2}]`), map[string]func(string) bool{
		"a name emptied": func(s string) bool { return strings.Contains(s, `"":`) },
		"a number with exponent": func(s string) bool {
			return strings.Contains(s, "2e") || strings.Contains(s, "2E") || strings.Contains(s, "1e")
		},
	})
	ref := GCX1()
	reaches(t, 600, func(g *gen) string {
		c := Case{Op: conformance.OpJSONEncode, Input: []byte(`[]`), Tool: "t", Mode: "gcx"}
		g.mutateJSONInput(&c, ref, true)
		return c.Tool
	}, map[string]func(string) bool{
		"a layout's section name": func(s string) bool { return s == "get_callers.nodes" },
	})
	server := `{"settings":{"mode":"gcx"},"request":{"name":"t"},"result":{"content":[{"type":"text","text":"{\"edges\":[],\"nodes\":[]}"}]}}`
	reaches(t, 800, func(g *gen) string {
		c := Case{Op: conformance.OpMCPServer, Input: []byte(server)}
		g.mutateBinding(&c)
		return string(c.Input)
	}, map[string]func(string) bool{
		"the block's value changed as a value": func(s string) bool { return strings.Contains(s, `{\"nodes\":[],\"edges\":[]}`) },
	})
}
