package explore

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// TestLanesShareCases checks that a run over every category gives each op
// of the MCP binding the share of a category of the format in the new
// cases it draws: case i is of lane i mod 8, one case in three of a lane is
// drawn new, and the lanes of the binding are one op each. (The other
// cases mutate committed vectors of every lane in turn,
// TestSweepGivesEveryVectorItsShare.)
func TestLanesShareCases(t *testing.T) {
	lanes := lanesOf(conformance.Categories, nil)
	if len(lanes) != len(conformance.Categories)-1+len(mcpLanes) {
		t.Fatalf("lanes %v: want one per category of the format and one per op of the binding", lanes)
	}
	ref := GCX1()
	byOp := map[conformance.Op]int{}
	const n = 480
	for i := range n {
		if _, mutated := sweepSlot(i / len(lanes)); mutated {
			continue
		}
		c, _, err := Generate(7, i, conformance.Categories, ref)
		if err != nil {
			t.Fatal(err)
		}
		byOp[c.Op]++
		if l := lanes[i%len(lanes)]; l.op != "" && c.Op != l.op {
			t.Errorf("case %d is of lane %v but has op %s", i, l, c.Op)
		}
	}
	for _, op := range []conformance.Op{conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy} {
		if want := n / len(lanes) / 3; byOp[op] != want {
			t.Errorf("%s: %d of %d new cases, want %d (a lane's share): %v", op, byOp[op], n/3, want, byOp)
		}
	}
	// declined ops give their share to the others
	declined := map[conformance.Op]bool{conformance.OpMCPProxy: true}
	if got := lanesOf(conformance.Categories, declined); len(got) != len(lanes)-1 {
		t.Errorf("with mcp-proxy declined: lanes %v", got)
	}
}

// TestSweepGivesEveryVectorItsShare checks that the mutated cases of a
// run sweep every committed vector of its lanes, whatever the lane: the
// first len(sweep) of them take each vector once, as committed (the seed
// corpus's pass), and the mutations start after.
func TestSweepGivesEveryVectorItsShare(t *testing.T) {
	ref := GCX1()
	lanes := lanesOf(conformance.Categories, nil)
	sweep := sweepOf(ref.Tag, lanes, nil)
	if len(sweep) < 1000 {
		t.Fatalf("the sweep holds %d vectors", len(sweep))
	}
	byCategory := map[string]int{}
	committed := map[string]bool{}
	for _, v := range sweep {
		byCategory[v.Category]++
		committed[caseKey(Case{Op: v.Op, Input: v.Input, Tool: v.Tool, Mode: v.Mode, Limits: v.Limits})] = true
	}
	got := map[string]int{}
	for m := range len(sweep) {
		// mutated case m is mutated case slot of lane j: case k of it
		slot, j := m/len(lanes), m%len(lanes)
		k := slot/2*3 + slot%2
		if got, ok := sweepSlot(k); !ok || got != slot {
			t.Fatalf("case %d of a lane: slot %d, %v; want %d", k, got, ok, slot)
		}
		i := k*len(lanes) + j
		g := &gen{r: rand.New(rand.NewPCG(4, uint64(i))), tag: ref.Tag}
		c, category, mutated := g.laneCase(lanes[i%len(lanes)], lanes, ref, 4, i, 0, nil)
		if !mutated {
			t.Fatalf("case %d: not a mutated vector", i)
		}
		got[category]++
		if !committed[caseKey(c)] {
			t.Errorf("case %d of the first sweep (op %s, tool %q) is not a committed vector as committed", i, c.Op, c.Tool)
		}
	}
	for c, n := range byCategory {
		if got[c] != n {
			t.Errorf("category %s: %d mutated cases in one sweep, want one for each of its %d vectors", c, got[c], n)
		}
	}
}

// TestMutationsReachAlternatives draws mutations of committed vectors and
// checks that they reach what the vectors hold at one spelling only: each
// line terminator, a name in other case, a limit just at and just past
// what the input needs, isError false, multi-byte text before a position,
// an input across a block edge. Each must be judged by the reference.
func TestMutationsReachAlternatives(t *testing.T) {
	ref := GCX1()
	seen := map[string]int{}
	judged, drawn := 0, 0
	for _, l := range lanesOf(conformance.Categories, nil) {
		for i := range 400 {
			g := &gen{r: rand.New(rand.NewPCG(11, uint64(i))), tag: ref.Tag}
			sweep := sweepOf(ref.Tag, []lane{l}, nil)
			// past the first pass, which takes the vectors as committed
			c, _, ok := g.mutateCase(sweep, ref, 11, len(sweep)+i, 0)
			if !ok {
				t.Fatalf("lane %v: no committed vector to mutate", l)
			}
			drawn++
			f, err := ref.Expect(c)
			if err != nil {
				continue
			}
			judged++
			v := &f.Vectors[0]
			in := c.Input
			if c.Op.Binding() {
				if bytes.Contains(in, []byte(`"isError":false`)) {
					seen["isError false"]++
				}
				// JSON strings spell terminators as escapes
				if bytes.Contains(in, []byte(`\r\n`)) {
					seen["binding CRLF"]++
				}
				continue
			}
			switch {
			case bytes.Contains(in, []byte("\r\n")):
				seen["CRLF"]++
			case bytes.Contains(in, []byte("\r")):
				seen["bare CR"]++
			}
			if len(c.Limits) > 0 && v.Expected.Error != nil && v.Expected.Error.Class == "limit" {
				seen["limit refused"]++
			}
			if len(in) > 4096 && len(in) <= 4098 || len(in) > 65536 && len(in) <= 65538 {
				seen["block edge"]++
			}
			if v.Expected.Error != nil && v.Expected.Error.Line > 0 && strings.ContainsAny(string(in), "é日😀") {
				seen["position after multi-byte text"]++
			}
			if strings.Contains(string(in), "Tool=") || strings.Contains(string(in), "FIELDS=") || strings.Contains(string(in), "GCx1") || strings.Contains(string(in), "gcx1") {
				seen["key or tag in other case"]++
			}
		}
	}
	if judged < drawn/2 {
		t.Errorf("the reference judged %d of %d mutations: the mutations mostly break the input's shape", judged, drawn)
	}
	for _, want := range []string{"isError false", "binding CRLF", "CRLF", "bare CR", "limit refused", "block edge",
		"position after multi-byte text", "key or tag in other case"} {
		if seen[want] == 0 {
			t.Errorf("no mutation reached %q (%d judged of %d): %v", want, judged, drawn, seen)
		}
	}
}

// TestBoundLimitsAtAndPast checks that boundLimits sets a limit at the
// input's measure, one below and one above, for every limit: the reference
// refuses below the measure and accepts at it.
func TestBoundLimitsAtAndPast(t *testing.T) {
	ref := GCX1()
	input := []byte("GCX1 tool=t fields=a,b rows=2\nx\ty\nz\tw\nGCX1 tool=u fields=c\nlonger value\n")
	m := measure(input)
	if m != (spec.Limits{MaxLineBytes: 30, MaxFields: 2, MaxSections: 2, MaxRows: 2}) {
		t.Fatalf("measure = %+v", m)
	}
	offsets := map[string]map[int]bool{}
	for i := range 300 {
		g := &gen{r: rand.New(rand.NewPCG(3, uint64(i))), tag: ref.Tag}
		c := Case{Op: conformance.OpDecode, Input: input}
		g.boundLimits(&c, ref)
		for name, n := range c.Limits {
			var need int
			for _, f := range spec.LimitFlags {
				if f.Name == name {
					need = *f.Field(&m)
				}
			}
			if offsets[name] == nil {
				offsets[name] = map[int]bool{}
			}
			offsets[name][n-need] = true
		}
	}
	for _, f := range spec.LimitFlags {
		for _, d := range []int{-1, 0, 1} {
			if !offsets[f.Name][d] {
				t.Errorf("--%s: never drawn at the measure %+d: %v", f.Name, d, offsets[f.Name])
			}
		}
	}
}

// TestMutateMemberRespellsAndFlips checks the JSON mutations: a member's
// name in other case, a boolean to its other value, a member away.
func TestMutateMemberRespellsAndFlips(t *testing.T) {
	seen := map[string]bool{}
	for i := range 200 {
		g := &gen{r: rand.New(rand.NewPCG(5, uint64(i)))}
		v, err := jsonmap.Parse([]byte(`{"isError":true,"name":"t"}`))
		if err != nil {
			t.Fatal(err)
		}
		g.mutateMember(&v)
		out := string(v.AppendCompact(nil))
		switch {
		case strings.Contains(out, `"isError":false`):
			seen["flipped"] = true
		case strings.Contains(strings.ToLower(out), `"iserror"`) && !strings.Contains(out, `"isError"`),
			strings.Contains(strings.ToLower(out), `"name"`) && !strings.Contains(out, `"name"`):
			seen["respelled"] = true
		case !strings.Contains(strings.ToLower(out), "iserror"):
			seen["away"] = true
		}
	}
	for _, want := range []string{"flipped", "respelled", "away"} {
		if !seen[want] {
			t.Errorf("mutateMember never %s a member: %v", want, seen)
		}
	}
}

// caseKey identifies a case by everything mutateCase copies from a vector.
func caseKey(c Case) string {
	limits := make([]string, 0, len(c.Limits))
	for k, n := range c.Limits {
		limits = append(limits, k+"="+strconv.Itoa(n))
	}
	slices.Sort(limits)
	return strings.Join([]string{string(c.Op), c.Tool, c.Mode, strings.Join(limits, ","), string(c.Input)}, "\x00")
}

// TestFirstSweepCasesCoverTheSweep checks the floor a default run keeps
// for its first pass: within firstSweepCases cases every vector of the
// sweep is taken once, and one lane's round of cases fewer leaves some out.
func TestFirstSweepCasesCoverTheSweep(t *testing.T) {
	ref := GCX1()
	for _, declined := range []map[conformance.Op]bool{nil, {conformance.OpMCPProxy: true},
		{conformance.OpMCPServer: true, conformance.OpMCPClient: true, conformance.OpMCPProxy: true}} {
		lanes := lanesOf(conformance.Categories, declined)
		sweep := len(sweepOf(ref.Tag, lanes, declined))
		n := firstSweepCases(sweep, len(lanes))
		covered := func(cases int) int {
			seen := map[int]bool{}
			for i := range cases {
				if slot, ok := sweepSlot(i / len(lanes)); ok {
					if m := slot*len(lanes) + i%len(lanes); m < sweep {
						seen[m] = true
					}
				}
			}
			return len(seen)
		}
		if got := covered(n); got != sweep {
			t.Errorf("declined %v: %d cases take %d of the sweep's %d vectors", declined, n, got, sweep)
		}
		if got := covered(n - len(lanes)); got == sweep {
			t.Errorf("declined %v: %d cases already take all %d; the floor %d is more than needed", declined, n-len(lanes), sweep, n)
		}
	}
}
