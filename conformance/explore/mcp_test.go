package explore_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/explore"
	"github.com/gcxwire/gcx/jsonmap"
)

// bindingRules are the rules of chapter 15 a vector can test (PRX-6 to
// PRX-9 are testable neither way, docs/coverage.md).
var bindingRules = []string{"MCP-1", "MCP-2", "MCP-3", "MCP-4", "MCP-5", "MCP-6", "MCP-7", "MCP-8", "MCP-9", "MCP-10",
	"MCP-11", "MCP-12", "PRX-1", "PRX-2", "PRX-3", "PRX-4", "PRX-5"}

// The mcp generators alone reach every testable rule of chapter 15 in a
// few hundred cases of all three ops, on which the reference agrees with
// itself; the cases of each op cite rules of that op only.
func TestMCPCasesReachEveryBindingRule(t *testing.T) {
	var cov explore.Coverage
	byOp := map[conformance.Op]map[string]bool{}
	rep, err := explore.Run(conformance.Streaming(), explore.Options{Seed: 1, Cases: 400, Categories: []string{conformance.CategoryMCP},
		Observe: func(i int, generator string, v *conformance.Vector, res conformance.Result) {
			cov.Observe(i, generator, v, res)
			if byOp[v.Op] == nil {
				byOp[v.Op] = map[string]bool{}
			}
			for _, r := range v.Rules {
				byOp[v.Op][r] = true
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.First(); f != nil {
		t.Fatalf("the reference disagrees with itself on case %d: %s\n%s", f.Index, f.Vector().Input, f.Result.Detail)
	}
	for _, op := range []conformance.Op{conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy} {
		if rep.ByOp[op] < 50 {
			t.Errorf("%d cases of %s among %d: %v", rep.ByOp[op], op, rep.Cases, rep.ByOp)
		}
	}
	if missing := cov.Unreached(bindingRules); len(missing) > 0 {
		t.Errorf("rules reached by no case: %v (reached: %v)", missing, cov.Reached())
	}
	for r := range byOp[conformance.OpMCPClient] {
		if !slices.Contains([]string{"MCP-1", "MCP-3", "MCP-7", "MCP-8", "MCP-9"}, r) {
			t.Errorf("a client's case cites %s", r)
		}
	}
	for r := range byOp[conformance.OpMCPServer] {
		if strings.HasPrefix(r, "PRX-") || r == "MCP-8" || r == "MCP-9" {
			t.Errorf("a server's case cites %s", r)
		}
	}
}

// toolInAutoMode reads a server's or an intermediary's input as the
// runner does: the tool's own mode, else the settings', else auto.
func toolInAutoMode(input []byte) bool {
	var in struct {
		Settings struct {
			Mode  string                           `json:"mode"`
			Tools map[string]struct{ Mode string } `json:"tools"`
		} `json:"settings"`
		Request struct{ Name string } `json:"request"`
	}
	if json.Unmarshal(input, &in) != nil {
		return false
	}
	mode := in.Settings.Tools[in.Request.Name].Mode
	if mode == "" {
		mode = in.Settings.Mode
	}
	return mode == "" || mode == "auto"
}

// A program without a tokenizer declines auto mode alone, for a server
// and for an intermediary: explore probes it, says so, and draws no case
// in auto mode for them, so that none is skipped.
func TestMCPAutoModeDeclinedAlone(t *testing.T) {
	impl := conformance.Streaming()
	run := impl.MCP
	impl.MCP = func(op conformance.Op, input []byte) ([]byte, error) {
		if (op == conformance.OpMCPServer || op == conformance.OpMCPProxy) && toolInAutoMode(input) {
			return nil, fmt.Errorf("%w: no tokenizer", conformance.ErrSkip)
		}
		return run(op, input)
	}
	auto := 0
	rep, err := explore.Run(impl, explore.Options{Seed: 2, Cases: 300, Categories: []string{conformance.CategoryMCP},
		Observe: func(_ int, _ string, v *conformance.Vector, _ conformance.Result) {
			if v.Op != conformance.OpMCPClient && toolInAutoMode(v.Input) {
				auto++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []conformance.Op{conformance.OpMCPServer, conformance.OpMCPProxy}; !slices.Equal(rep.DeclinedAuto, want) || len(rep.Declined) > 0 {
		t.Errorf("declined %v, in auto mode %v; want auto mode of %v alone", rep.Declined, rep.DeclinedAuto, want)
	}
	if auto > 0 || rep.Agreed != rep.Cases || rep.ByOp[conformance.OpMCPServer] == 0 || rep.ByOp[conformance.OpMCPProxy] == 0 {
		t.Errorf("%d cases in auto mode; %d of %d agreed, skips %v, by op %v", auto, rep.Agreed, rep.Cases, rep.Skipped, rep.ByOp)
	}
}

// plantedMCP are bugs of the binding planted by misreading the input, as
// an implementation that makes the mistake reads it: each changes what
// the program decides on some inputs.
var plantedMCP = []struct {
	name string
	op   conformance.Op
	// misread changes the input in place as the buggy program sees it.
	misread func(in *jsonmap.Value)
}{
	{"a mixed accept list read as its strings [MCP-11]", conformance.OpMCPServer, func(in *jsonmap.Value) {
		edit(in, func(accept *jsonmap.Value) {
			if accept.Kind == jsonmap.Array {
				accept.Elems = slices.DeleteFunc(slices.Clone(accept.Elems), func(e jsonmap.Value) bool { return e.Kind != jsonmap.String })
			}
		}, "request", "_meta", "io.github.gcxwire/accept")
	}},
	{"a clientCapabilities key in _meta read before 2026-07-28 [MCP-10]", conformance.OpMCPServer, func(in *jsonmap.Value) {
		request, _ := in.Lookup("request")
		meta, _ := request.Lookup("_meta")
		_, caps := meta.Lookup("io.modelcontextprotocol/clientCapabilities")
		_, given := in.Lookup("capabilities")
		if p, _ := in.Lookup("protocol"); caps && !given && p.Text < "2026-07-28" {
			setMember(in, "protocol", jsonmap.Value{Kind: jsonmap.String, Text: "2026-07-28"})
		}
	}},
	{"a host's extension without accept taken for silence [PRX-2]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		edit(in, func(ext *jsonmap.Value) {
			if accept, ok := ext.Lookup("accept"); !ok || accept.Kind != jsonmap.Array {
				*ext = jsonmap.Value{Kind: jsonmap.Null}
			}
		}, "capabilities", "extensions", "io.github.gcxwire/gcx")
	}},
	{"the upstream's offer ignored [PRX-3]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		in.Members = slices.DeleteFunc(slices.Clone(in.Members), func(m jsonmap.Member) bool { return m.Key == "upstream" })
	}},
	{"a tool the user exempted still written [PRX-1]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		edit(in, func(tools *jsonmap.Value) {
			for i := range tools.Members {
				edit(&tools.Members[i].Value, func(o *jsonmap.Value) {
					o.Members = slices.DeleteFunc(slices.Clone(o.Members), func(m jsonmap.Member) bool { return m.Key == "mode" })
				})
			}
		}, "settings", "tools")
	}},
	{"a host that opted out opted in again [PRX-2]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		edit(in, func(meta *jsonmap.Value) {
			meta.Members = slices.DeleteFunc(slices.Clone(meta.Members), func(m jsonmap.Member) bool {
				return m.Key == "io.github.gcxwire/accept" && m.Value.Kind == jsonmap.Array && len(m.Value.Elems) == 0
			})
		}, "request", "_meta")
	}},
	{"a result the upstream answered answered again [PRX-3]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		edit(in, func(meta *jsonmap.Value) {
			meta.Members = slices.DeleteFunc(slices.Clone(meta.Members), func(m jsonmap.Member) bool { return m.Key == "io.github.gcxwire/format" })
		}, "result", "_meta")
	}},
	{"the request's other _meta keys dropped when asking the upstream [PRX-3]", conformance.OpMCPProxy, func(in *jsonmap.Value) {
		edit(in, func(meta *jsonmap.Value) {
			meta.Members = slices.DeleteFunc(slices.Clone(meta.Members), func(m jsonmap.Member) bool { return !strings.HasPrefix(m.Key, "io.github.gcxwire/") })
		}, "request", "_meta")
	}},
	{"a call repeated whatever the annotations say [MCP-9]", conformance.OpMCPClient, func(in *jsonmap.Value) {
		setMember(in, "annotations", jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "readOnlyHint", Value: jsonmap.Value{Kind: jsonmap.True}}}})
	}},
}

// edit calls change on the member at path, if the input has it.
func edit(v *jsonmap.Value, change func(*jsonmap.Value), path ...string) {
	if len(path) == 0 {
		change(v)
		return
	}
	if v.Kind != jsonmap.Object {
		return
	}
	v.Members = slices.Clone(v.Members)
	for i := range v.Members {
		if v.Members[i].Key == path[0] {
			edit(&v.Members[i].Value, change, path[1:]...)
		}
	}
}

func setMember(v *jsonmap.Value, key string, value jsonmap.Value) {
	v.Members = slices.DeleteFunc(slices.Clone(v.Members), func(m jsonmap.Member) bool { return m.Key == key })
	v.Members = append(v.Members, jsonmap.Member{Key: key, Value: value})
}

// A run of 3,000 cases (some seconds of the default run, which is bounded
// by time) finds each planted bug of the binding, whether or not
// the committed vectors catch it (logged).
func TestMCPPlantedBugs(t *testing.T) {
	vectors, err := conformance.BindingVectors()
	if err != nil {
		t.Fatal(err)
	}
	for _, bug := range plantedMCP {
		t.Run(bug.name, func(t *testing.T) {
			impl := conformance.Streaming()
			run := impl.MCP
			impl.MCP = func(op conformance.Op, input []byte) ([]byte, error) {
				if op == bug.op {
					if in, err := jsonmap.Parse(input); err == nil {
						bug.misread(&in)
						input = in.AppendCompact(nil)
					}
				}
				return run(op, input)
			}
			r := conformance.Check(vectors, impl, conformance.Options{})
			t.Logf("the vectors: %s", r.Diagnostic)
			rep, err := explore.Run(impl, explore.Options{Seed: 1, Cases: 3000, Shrink: 50, Findings: 1})
			if err != nil {
				t.Fatal(err)
			}
			f := rep.First()
			if f == nil {
				t.Fatalf("not found in %d cases", rep.Cases)
			}
			t.Logf("%d cases disagree, the first at %d (%v), shrunk to %d bytes", f.Cases, f.Index, f.Key, len(f.Vector().Input))
		})
	}
}
