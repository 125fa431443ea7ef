package gcxmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/spec"
)

// The binding's vectors, gcxmcp/testdata/vectors/*.json, run against this
// package through its exported middlewares, as another language's SDK
// wrapper would run them against its own. The file format is
// testdata/vectors.schema.json and section 15.8 of docs/wire-format.md.

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

type serverInput struct {
	Settings struct {
		Mode  gcxmcp.Mode `json:"mode"`
		Offer []string    `json:"offer"`
		Tools map[string]struct {
			Mode gcxmcp.Mode `json:"mode"`
			Name string      `json:"name"`
		} `json:"tools"`
	} `json:"settings"`
	Capabilities json.RawMessage `json:"capabilities"`
	Request      struct {
		Name string         `json:"name"`
		Meta map[string]any `json:"_meta"`
	} `json:"request"`
	Result json.RawMessage `json:"result"`
}

type clientInput struct {
	Annotations *mcp.ToolAnnotations `json:"annotations"`
	Answers     []json.RawMessage    `json:"answers"`
}

type clientExpected struct {
	Requests  []map[string]any `json:"requests"`
	Format    *string          `json:"format"`
	Value     *json.RawMessage `json:"value"`
	Total     *int64           `json:"total"`
	Truncated *bool            `json:"truncated"`
	Reissued  bool             `json:"reissued"`
	Error     *struct {
		Class string `json:"class"`
		Rule  string `json:"rule"`
		Tag   string `json:"tag"`
	} `json:"error"`
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
				switch v.Op {
				case "mcp-server":
					runServerVector(t, v)
				case "mcp-client":
					runClientVector(t, v)
				default:
					t.Fatalf("unknown op %q", v.Op)
				}
			})
		}
	}
}

// decodeResult reads a vector's result as the SDK reads one off the wire.
func decodeResult(t *testing.T, raw json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("result: %v", err)
	}
	return &r
}

func runServerVector(t *testing.T, v vector) {
	var in serverInput
	strict(t, v.Input, &in)
	var expected struct {
		Result json.RawMessage `json:"result"`
	}
	strict(t, v.Expected, &expected)

	opts := gcxmcp.ServerOptions{Mode: in.Settings.Mode, Offer: in.Settings.Offer}
	if len(in.Settings.Tools) > 0 {
		opts.Tools = map[string]gcxmcp.ToolOptions{}
		for name, tool := range in.Settings.Tools {
			opts.Tools[name] = gcxmcp.ToolOptions{Mode: tool.Mode, Name: tool.Name}
		}
	}
	mw, err := gcxmcp.ServerMiddleware(opts)
	if err != nil {
		t.Fatal(err)
	}

	// The tool's result as a handler returns it: structuredContent with its
	// own bytes, as the SDK's typed handlers keep them.
	result := decodeResult(t, in.Result)
	var sc struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(in.Result, &sc); err != nil {
		t.Fatal(err)
	}
	if sc.StructuredContent != nil {
		result.StructuredContent = sc.StructuredContent
	}
	before, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}

	// The client's capabilities travel in the request's _meta, as from
	// protocol 2026-07-28 on; the SDK reads them there first.
	meta := in.Request.Meta
	if in.Capabilities != nil {
		if meta == nil {
			meta = map[string]any{}
		}
		var caps any
		if err := json.Unmarshal(in.Capabilities, &caps); err != nil {
			t.Fatal(err)
		}
		meta["io.modelcontextprotocol/clientCapabilities"] = caps
	}
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: in.Request.Name, Meta: meta}}
	handler := mw(func(ctx context.Context, method string, _ mcp.Request) (mcp.Result, error) {
		return result, nil
	})
	got, err := handler(context.Background(), "tools/call", req)
	if err != nil {
		t.Fatal(err)
	}
	gotJSON, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(generic(t, expected.Result), generic(t, gotJSON)); diff != "" {
		t.Errorf("%s\nresult differs (-want +got):\n%s", v.Description, diff)
	}
	if after, _ := json.Marshal(result); !bytes.Equal(before, after) {
		t.Errorf("the middleware changed the handler's result in place:\n%s\n%s", before, after)
	}
}

func runClientVector(t *testing.T, v vector) {
	var in clientInput
	strict(t, v.Input, &in)
	var want clientExpected
	strict(t, v.Expected, &want)

	var requests []map[string]any
	next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p := req.GetParams().(*mcp.CallToolParams)
		requests = append(requests, map[string]any{gcxmcp.MetaAccept: p.Meta[gcxmcp.MetaAccept]})
		if len(requests) > len(in.Answers) {
			return nil, fmt.Errorf("call %d: the vector has no answer for it", len(requests))
		}
		return decodeResult(t, in.Answers[len(requests)-1]), nil
	}
	mw := gcxmcp.ClientMiddleware(gcxmcp.ClientOptions{
		Annotations: func(context.Context, *mcp.ClientSession, string) (*mcp.ToolAnnotations, error) {
			return in.Annotations, nil
		},
	})
	params := &mcp.CallToolParams{Name: "tool", Arguments: map[string]any{}}
	res, err := mw(next)(context.Background(), "tools/call", &mcp.ClientRequest[*mcp.CallToolParams]{Params: params})
	var r *gcxmcp.Result
	if err == nil {
		r, err = gcxmcp.ReadResult(res.(*mcp.CallToolResult))
	}

	wantRequests, _ := json.Marshal(want.Requests)
	gotRequests, _ := json.Marshal(requests)
	if diff := cmp.Diff(generic(t, wantRequests), generic(t, gotRequests)); diff != "" {
		t.Errorf("%s\nrequests differ (-want +got):\n%s", v.Description, diff)
	}
	if want.Error != nil {
		if err == nil {
			t.Fatalf("%s\nno error; want %+v", v.Description, *want.Error)
		}
		class, rule, tag := classify(err)
		if class != want.Error.Class || want.Error.Rule != "" && rule != want.Error.Rule || tag != want.Error.Tag {
			t.Errorf("%s\nerror %v: class %q rule %q tag %q; want %+v", v.Description, err, class, rule, tag, *want.Error)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s\n%v", v.Description, err)
	}
	if r.Format != *want.Format {
		t.Errorf("format %q, want %q", r.Format, *want.Format)
	}
	var wantValue []byte // "value": null decodes to a nil pointer: no JSON value
	if want.Value != nil {
		var text string
		if err := json.Unmarshal(*want.Value, &text); err != nil {
			t.Fatal(err)
		}
		wantValue = []byte(text)
	}
	if !bytes.Equal(r.Value, wantValue) {
		t.Errorf("value %s\nwant  %s", r.Value, wantValue)
	}
	wantTotal := int64(-1)
	if want.Total != nil {
		wantTotal = *want.Total
	}
	if r.Total != wantTotal || want.Truncated != nil && r.Truncated != *want.Truncated || want.Truncated == nil && r.Truncated {
		t.Errorf("total %d truncated %t; want %v %v", r.Total, r.Truncated, want.Total, want.Truncated)
	}
	if reissued := len(requests) == 2; reissued != want.Reissued {
		t.Errorf("re-issued %t, want %t", reissued, want.Reissued)
	}
}

// classify names an error as the vectors do.
func classify(err error) (class, rule, tag string) {
	switch {
	case errors.Is(err, gcxmcp.ErrMismatch):
		return "mismatch", "", ""
	case errors.Is(err, gcxmcp.ErrInvalidResult):
		return "invalid-result", "", ""
	}
	var e *spec.Error
	if errors.As(err, &e) {
		return spec.ClassName(err), e.Rule, e.Tag
	}
	return spec.ClassName(err), "", ""
}

func strict(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", raw, err)
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
