package gcxmcp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gcxwire/gcx/gcxmcp/vectors"
)

// The binding's vectors, gcxmcp/testdata/vectors/*.json, run against this
// package by package vectors, as gcxmcp-vectors runs them for a conformance
// runner, and compared with their expected outcome as JSON values. The file
// format is testdata/vectors.schema.json and section 15.8 of
// docs/wire-format.md.

type vectorFile struct {
	Category    string   `json:"category"`
	Group       string   `json:"group"`
	Description string   `json:"description"`
	Vectors     []vector `json:"vectors"`
}

type vector struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Rules       []string        `json:"rules"`
	Op          string          `json:"op"`
	Input       json.RawMessage `json:"input"`
	Expected    json.RawMessage `json:"expected"`
}

func loadVectorFiles(t *testing.T) []vectorFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "vectors", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no vector files: %v", err)
	}
	sort.Strings(paths)
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join("testdata", "vectors.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []vectorFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		var f vectorFile
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if want := strings.TrimSuffix(filepath.Base(p), ".json"); f.Group != want {
			t.Errorf("%s: group %q, want %q", p, f.Group, want)
		}
		files = append(files, f)
	}
	return files
}

func TestVectors(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range loadVectorFiles(t) {
		for _, v := range f.Vectors {
			if seen[v.ID] {
				t.Errorf("%s: id used twice", v.ID)
			}
			seen[v.ID] = true
			if want := strings.ToLower(v.Rules[0]) + "-"; !strings.HasPrefix(v.ID, want) {
				t.Errorf("%s: the id does not begin with its first rule %s", v.ID, v.Rules[0])
			}
			t.Run(f.Group+"/"+v.ID, func(t *testing.T) {
				got, err := vectors.Run(v.Op, v.Input)
				if err != nil {
					t.Fatalf("%s: %v", v.Description, err)
				}
				if diff := cmp.Diff(generic(t, v.Expected), generic(t, got)); diff != "" {
					t.Errorf("%s\noutcome differs (-want +got):\n%s", v.Description, diff)
				}
			})
		}
	}
}

// generic decodes JSON into maps and slices, for comparing as values.
func generic(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// bindingRule matches a definition of a binding rule in the spec.
var bindingRule = regexp.MustCompile(`\*\*\[(MCP-[0-9]+)\]\*\*`)

// oneSidedMCP lists the binding's rules that no vector can show broken, and
// why; every other rule has a vector where the client accepts and one
// where it ends in an error. The lead merges this list into the
// conformance suite's when the vectors become a category there.
var oneSidedMCP = map[string]string{
	"MCP-1": "it names the keys; every vector uses them",
	"MCP-2": "it says how a client opts in; a server refuses nothing",
	"MCP-3": "it says how a call opts in or out; a malformed opt-in is no opt-in",
	"MCP-4": "it says which tag a server writes; no common tag leaves the result alone",
	"MCP-5": "it says what a server leaves alone",
	"MCP-6": "it says what a server writes; it refuses nothing",
}

// Every rule of chapter 15 is cited by a vector, on each side it has, and
// cited rules exist.
func TestBindingRulesHaveVectors(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range bindingRule.FindAllSubmatch(doc, -1) {
		defined[string(m[1])] = true
	}
	if len(defined) == 0 {
		t.Fatal("docs/wire-format.md defines no MCP-n rule")
	}
	allRules := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*\*\[([A-Z]+-[0-9]+)\]\*\*`).FindAllSubmatch(doc, -1) {
		allRules[string(m[1])] = true
	}
	accepting, rejecting := map[string]int{}, map[string]int{}
	for _, f := range loadVectorFiles(t) {
		for _, v := range f.Vectors {
			isError := strings.Contains(string(v.Expected), `"error"`)
			for _, r := range v.Rules {
				if !allRules[r] {
					t.Errorf("%s cites %s, which docs/wire-format.md does not define", v.ID, r)
				}
				if isError {
					rejecting[r]++
				} else {
					accepting[r]++
				}
			}
		}
	}
	for r := range defined {
		if accepting[r] == 0 {
			t.Errorf("%s: no vector where the client accepts cites it", r)
		}
		why, oneSided := oneSidedMCP[r]
		if !oneSided && rejecting[r] == 0 {
			t.Errorf("%s: no vector where the client ends in an error cites it", r)
		}
		if oneSided && rejecting[r] > 0 {
			t.Errorf("%s: listed as one-sided (%s), but a rejecting vector cites it", r, why)
		}
	}
	for r := range oneSidedMCP {
		if !defined[r] {
			t.Errorf("oneSidedMCP names %s, which the chapter does not define", r)
		}
	}
}
