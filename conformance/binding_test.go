package conformance

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/jsonmap"
)

// Every built-in implementation passes every vector of the binding at the
// diagnostic level, none skipped: gcx checks the binding with its own
// code, package gcxmcp/binding, which package gcxmcp runs over the MCP SDK
// (whose own test holds it to the same vectors).
func TestBuiltInPassesEveryBindingVector(t *testing.T) {
	for _, impl := range BuiltIn() {
		t.Run(impl.Name, func(t *testing.T) {
			r := Check(loadBindingVectors(t), impl, Options{})
			requireAllPass(t, r)
			if r.Diagnostic.Passed < 50 {
				t.Errorf("%s: the binding has fewer vectors than it had in gcxmcp", r.Diagnostic)
			}
		})
	}
}

func TestBindingOps(t *testing.T) {
	if !slices.Equal(opsOf[CategoryMCP], []Op{OpMCPServer, OpMCPClient, OpMCPProxy}) || !OpMCPServer.Binding() || !OpMCPClient.Binding() || !OpMCPProxy.Binding() || OpDecode.Binding() {
		t.Errorf("the ops of category mcp: %v", opsOf[CategoryMCP])
	}
}

// rewriteJSON decodes a JSON object, keeping the spelling of numbers,
// lets edit change it, and encodes it again.
func rewriteJSON(t *testing.T, b []byte, edit func(map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Implementations of the binding broken in the ways chapter 15 guards
// against fail exactly the vectors that show it, and a client that names
// no rule fails only at the diagnostic level [ERR-6].
func TestRunnerCatchesBrokenBindings(t *testing.T) {
	vs := loadBindingVectors(t)
	honest := runBinding
	outcomeHas := func(v *Vector, path ...string) bool {
		x := v.Expected.outcome
		for _, key := range path {
			var ok bool
			if x, ok = x.Lookup(key); !ok {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		name      string
		broken    func(t *testing.T, op Op, input []byte) ([]byte, error)
		predicted func(v *Vector) bool
		level     Level  // the lowest level that fails
		detail    string // what the failures say; "" for a difference of outcomes
	}{
		{
			"a server that sends every result as the tool returned it [MCP-6]",
			func(t *testing.T, op Op, input []byte) ([]byte, error) {
				if op != OpMCPServer {
					return honest(op, input)
				}
				var in struct{ Result json.RawMessage }
				if err := json.Unmarshal(input, &in); err != nil {
					t.Fatal(err)
				}
				return json.Marshal(map[string]any{"result": in.Result})
			},
			func(v *Vector) bool {
				if v.Op != OpMCPServer {
					return false
				}
				in, _ := jsonmap.Parse(v.Input)
				result, _ := in.Lookup("result")
				sent, _ := v.Expected.outcome.Lookup("result")
				var diffs differences
				diffJSON(sent, result, nil, &diffs)
				return diffs.count() > 0
			},
			Core,
			"",
		},
		{
			"a client that ignores the tool's annotations, so never asks again for JSON [MCP-9]",
			func(t *testing.T, op Op, input []byte) ([]byte, error) {
				if op == OpMCPClient {
					input = rewriteJSON(t, input, func(m map[string]any) { delete(m, "annotations") })
				}
				return honest(op, input)
			},
			func(v *Vector) bool {
				// It asked again when it made two calls, whatever the
				// second answer was.
				requests, _ := v.Expected.outcome.Lookup("requests")
				return len(requests.Elems) == 2
			},
			Core,
			"",
		},
		{
			"a client whose errors name no rule",
			func(t *testing.T, op Op, input []byte) ([]byte, error) {
				out, err := honest(op, input)
				if err != nil || op != OpMCPClient {
					return out, err
				}
				return rewriteJSON(t, out, func(m map[string]any) {
					if e, ok := m["error"].(map[string]any); ok {
						delete(e, "rule")
					}
				}), nil
			},
			func(v *Vector) bool { return outcomeHas(v, "error", "rule") },
			Diagnostic,
			"",
		},
		{
			"a server that answers error results too [MCP-5]",
			func(t *testing.T, op Op, input []byte) ([]byte, error) {
				if op != OpMCPServer {
					return honest(op, input)
				}
				if !isErrorResult(input) {
					return honest(op, input)
				}
				// Only an error result is rewritten: the rewrite sorts
				// members, which changes what layout a value fits.
				out, err := honest(op, rewriteJSON(t, input, func(m map[string]any) {
					delete(m["result"].(map[string]any), "isError")
				}))
				if err != nil {
					return out, err
				}
				return rewriteJSON(t, out, func(m map[string]any) { m["result"].(map[string]any)["isError"] = true }), nil
			},
			func(v *Vector) bool { return v.Op == OpMCPServer && isErrorResult(v.Input) },
			Core,
			"",
		},
		{
			"a client that repeats every call, as if every tool were idempotent [MCP-9]",
			func(t *testing.T, op Op, input []byte) ([]byte, error) {
				if op == OpMCPClient {
					input = rewriteJSON(t, input, func(m map[string]any) { m["annotations"] = map[string]any{"idempotentHint": true} })
				}
				return honest(op, input)
			},
			func(v *Vector) bool {
				// It ended in the version error after one call: the
				// tool is not to be called twice.
				requests, _ := v.Expected.outcome.Lookup("requests")
				class, _ := v.Expected.outcome.Lookup("error")
				class, _ = class.Lookup("class")
				return len(requests.Elems) == 1 && class.Text == "unsupported-version"
			},
			Core,
			"has no answer in the vector",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			impl := Implementation{MCP: func(op Op, input []byte) ([]byte, error) { return c.broken(t, op, input) }}
			r := Check(vs, impl, Options{})
			var failed []string
			for _, res := range r.Failures() {
				failed = append(failed, res.Vector.Name())
				if (res.Core == Fail) != (c.level == Core) || !strings.Contains(res.Detail, cmp.Or(c.detail, "outcome differs at ")) {
					t.Errorf("%s: core %v, diagnostic %v, want the first failure at %v:\n%s", res.Vector.Name(), res.Core, res.Diagnostic, c.level, res.Detail)
				}
			}
			var want []string
			for i := range vs {
				if c.predicted(&vs[i]) {
					want = append(want, vs[i].Name())
				}
			}
			requireSameSet(t, failed, want, 2)
		})
	}
}

// isErrorResult reports whether a server vector's input holds a result
// with isError true.
func isErrorResult(input []byte) bool {
	in, _ := jsonmap.Parse(input)
	result, _ := in.Lookup("result")
	isError, _ := result.Lookup("isError")
	return isError.Kind == jsonmap.True
}

// Outcomes are compared as JSON values: member order, whitespace and the
// spelling of numbers and escapes do not matter; strings, and so payloads,
// are compared character for character, and every member counts.
func TestOutcomesComparedAsJSONValues(t *testing.T) {
	want := `{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":12,"ok":true}}}`
	v := &Vector{Op: OpMCPServer}
	var err error
	if v.Expected.outcome, err = jsonmap.Parse([]byte(want)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got, differs string // differs: "" when the outcome is the same value
	}{
		{want, ""},
		{`{ "result" : {"_meta":{"ok":true,"total":1.2e1},"content":[{"text":"GCX1 tool=t fields=a\u000a","type":"text"}]} }`, ""},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a"}],"_meta":{"total":12,"ok":true}}}`, ".result.content[0].text"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":12,"ok":false}}}`, ".result._meta.ok"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":13,"ok":true}}}`, ".result._meta.total"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":"12","ok":true}}}`, ".result._meta.total"},
		{`{"result":{"content":[],"_meta":{"total":12,"ok":true}}}`, ".result.content: want 1 element, got 0"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":12}}}`, ".result._meta.ok: want true, got no such member"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":12,"ok":true,"x":null}}}`, ".result._meta.x: want no such member"},
		{`{"result":{"content":[{"type":"text","text":"GCX1 tool=t fields=a\n"}],"_meta":{"total":12,"ok":true}}} x`, "not a JSON text"},
		{`{"result":{},"result":{}}`, "not a JSON text"},
	} {
		problems := checkOutcome(v, []byte(c.got), nil)
		var text []string
		for _, p := range problems {
			text = append(text, p.text)
		}
		joined := strings.Join(text, "\n")
		switch {
		case c.differs == "" && len(problems) > 0:
			t.Errorf("%s: %s", c.got, joined)
		case c.differs != "" && !strings.Contains(joined, c.differs):
			t.Errorf("%s: %q, want a difference at %s", c.got, joined, c.differs)
		}
	}
}

func TestNumberKey(t *testing.T) {
	same := [][]string{
		{"1", "1.0", "10e-1", "0.1E1", "1e0", "1E+0", "100e-2"},
		{"0", "-0", "0.000", "0e5", "-0.0E-3"},
		{"-12.5", "-125e-1", "-0.125e2"},
		{"1e400", "10e399", "0.1e401"},
		{"12345678901234567890123", "1.2345678901234567890123e22"},
	}
	for i, group := range same {
		for _, lit := range group {
			if numberKey(lit) != numberKey(group[0]) {
				t.Errorf("%s is %s, %s is %s", lit, numberKey(lit), group[0], numberKey(group[0]))
			}
		}
		for _, other := range same[i+1:] {
			if numberKey(other[0]) == numberKey(group[0]) {
				t.Errorf("%s and %s are the same number: %s", other[0], group[0], numberKey(group[0]))
			}
		}
	}
	if numberKey("1") == numberKey("-1") || numberKey("1") == numberKey("10") || numberKey("12") == numberKey("1.2") {
		t.Error("different numbers, one key")
	}
}

// The command adapter runs a binding op as PROGRAM mcp-server (or
// mcp-client) with the input on stdin; a program that exits 2 there does
// not offer the op, and one that exits otherwise or writes what is not
// JSON fails.
//
// A server or intermediary without a tokenizer declines auto mode by
// exiting 2 on its op in auto mode: its vectors of that op in auto mode are
// skipped, the others run — the proxy's alone, too. A program that exits 2
// on everything but the probe of the op therefore declines auto mode too,
// and fails every other vector.
func TestCommandBinding(t *testing.T) {
	vs := loadBindingVectors(t)
	auto, proxyAuto := 0, 0
	for _, v := range vs {
		if (v.Op == OpMCPServer || v.Op == OpMCPProxy) && usesAuto(v.Input) {
			auto++
			if v.Op == OpMCPProxy {
				proxyAuto++
			}
		}
	}
	if auto == 0 || auto == len(vs) || proxyAuto == 0 || proxyAuto == auto {
		t.Fatalf("%d of %d vectors put a server or intermediary in auto mode, %d of them an intermediary", auto, len(vs), proxyAuto)
	}
	for _, c := range []struct {
		mode                  string
		passed, failed, skips int
		detail                string
	}{
		{"honest", len(vs), 0, 0, ""},
		{"decoder-only", 0, 0, len(vs), ""},
		{"binding-no-auto", len(vs) - auto, 0, auto, ""},
		{"binding-no-proxy-auto", len(vs) - proxyAuto, 0, proxyAuto, ""},
		{"binding-not-json", 0, len(vs), 0, "not a JSON text"},
		{"binding-exit-1", 0, len(vs), 0, "exit status 1"},
		{"binding-exit-2", 0, len(vs) - auto, auto, "exit status 2"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			r := Check(vs, Command(time.Minute, os.Args[0]), Options{})
			if n := r.Counts(Core); n != (Counts{Passed: c.passed, Failed: c.failed, Skipped: c.skips}) {
				var b strings.Builder
				r.WriteSummary(&b, false)
				t.Fatalf("%s, want %d passed, %d failed, %d skipped:\n%s", n, c.passed, c.failed, c.skips, b.String())
			}
			for _, res := range r.Failures() {
				if !strings.Contains(res.Detail, c.detail) {
					t.Errorf("%s: %q lacks %q", res.Vector.Name(), res.Detail, c.detail)
				}
			}
		})
	}
}

// fakeBinding is the fake program's binding: gcxmcp's, or broken as mode
// says; the modes that know nothing of the binding do not offer it.
func fakeBinding(mode, op string, in []byte, stdout, stderr io.Writer) int {
	switch mode {
	case "honest", "binding-not-json", "binding-exit-1", "binding-exit-2":
	case "binding-no-auto":
		if (Op(op) == OpMCPServer || Op(op) == OpMCPProxy) && usesAuto(in) {
			return 2
		}
	case "binding-no-proxy-auto":
		if Op(op) == OpMCPProxy && usesAuto(in) {
			return 2
		}
	default:
		return 2
	}
	if bytes.Contains(in, []byte(`"settings":{"mode":"off"},"request":{"name":"t"}`)) || bytes.Equal(in, []byte(`{"answers":[{"content":[]}]}`)) {
		mode = "honest" // the probe: every mode offers the op
	}
	out, err := runBinding(Op(op), in)
	switch {
	case err != nil:
		io.WriteString(stderr, err.Error()+"\n")
		return 1
	case mode == "binding-exit-1":
		return 1
	case mode == "binding-exit-2":
		return 2
	case mode == "binding-not-json":
		out = append([]byte("outcome: "), out...)
	}
	stdout.Write(append(out, '\n'))
	return 0
}

// The probes of the binding's ops are inputs the binding runs: an
// implementation that offers the op does not fail on them.
func TestBindingProbesRun(t *testing.T) {
	for op, input := range probeBinding {
		out, err := runBinding(op, []byte(input))
		if err != nil || !json.Valid(out) {
			t.Errorf("%s %s: %s, %v", op, input, out, err)
		}
	}
	if strings.Count(probeBinding[OpMCPServer], `"settings":{"mode":"off"},"request":{"name":"t"}`) != 1 ||
		probeBinding[OpMCPClient] != `{"answers":[{"content":[]}]}` {
		t.Error("fakeBinding no longer knows the probes")
	}
}

// nested returns n arrays, each the only element of the one around it,
// around leaf: the deepest value a vector's outcome can hold is
// jsonmap.MaxDepth of them.
func nested(n int, leaf string) jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.String, Text: leaf}
	for range n {
		v = jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{v}}
	}
	return v
}

// Comparing outcomes costs memory linear in their nesting: a path is
// spelled only for a difference shown, not built at every level, which
// made two equal values MaxDepth deep cost 150 MB. Bytes allocated are
// counted, not time taken, so the check does not depend on the machine's
// load; the difference at the bottom is still found and placed.
func TestDiffJSONLinearInNesting(t *testing.T) {
	const depth = jsonmap.MaxDepth
	want, got := nested(depth, "a"), nested(depth, "b")
	var diffs differences
	allocated := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			diffs = differences{}
			diffJSON(want, got, nil, &diffs)
		}
	}).AllocedBytesPerOp()
	if allocated > 256*depth {
		t.Errorf("comparing values %d deep allocated %d bytes, %d a level", depth, allocated, allocated/depth)
	}
	if diffs.count() != 1 || diffs.shown[0].path != strings.Repeat("[0]", depth) || diffs.shown[0].text != `want "a", got "b"` {
		t.Errorf("found %+v", diffs)
	}
}

// BenchmarkDiffJSONNesting compares two equal values n and 8n deep: the
// time per op should grow about 8 times, not 64.
func BenchmarkDiffJSONNesting(b *testing.B) {
	for _, depth := range []int{1000, 8000} {
		want, got := nested(depth, "a"), nested(depth, "a")
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var diffs differences
				diffJSON(want, got, nil, &diffs)
			}
		})
	}
}
