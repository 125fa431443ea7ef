// Package scorecard measures what GCX1 costs against JSON and TOON on a
// corpus of MCP tool responses, and writes the result as a Markdown
// scorecard, a JSON record, an SVG chart and the README's headline block.
//
// The corpus is a directory of fixtures, one JSON file per case:
//
//	{
//	  "tool": "search_symbols",
//	  "description": "one line saying which tool this is and what shape it returns",
//	  "response": <the tool's JSON response, any JSON value>
//	}
//
// The case's name is the file name without ".json"; cases are measured in
// name order. Everything else about a case is measured, never declared: its
// shape, its row count, every size.
package scorecard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// A Case is one fixture of the corpus.
type Case struct {
	Name        string // file name without ".json"
	Tool        string // the tool name the response is encoded under
	Description string // one line: the tool and the shape of its response
	Response    []byte // the response in canonical compact JSON
	Pretty      []byte // the response as JSON.stringify(v, null, 2) writes it
}

// LoadCases reads every *.json fixture in dir, in name order.
func LoadCases(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("scorecard: no *.json fixtures in %s", dir)
	}
	sort.Strings(paths)
	cases := make([]Case, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		c, err := ParseCase(strings.TrimSuffix(filepath.Base(p), ".json"), b)
		if err != nil {
			return nil, fmt.Errorf("scorecard: %s: %w", p, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// ParseCase reads one fixture file's contents.
func ParseCase(name string, file []byte) (Case, error) {
	var f struct {
		Tool        *string         `json:"tool"`
		Description *string         `json:"description"`
		Response    json.RawMessage `json:"response"`
	}
	if _, err := jsonTokens(file); err != nil {
		return Case{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(file))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Case{}, fmt.Errorf("fixture wrapper: %v", err)
	}
	switch {
	case f.Tool == nil || f.Description == nil || f.Response == nil:
		return Case{}, fmt.Errorf(`a fixture needs "tool", "description" and "response"`)
	case !spec.IsName(*f.Tool):
		return Case{}, fmt.Errorf("tool %q is not a GCX1 tool name (1+ of A-Z a-z 0-9 _ - .)", *f.Tool)
	case strings.TrimSpace(*f.Description) == "" || strings.ContainsAny(*f.Description, "\r\n"):
		return Case{}, fmt.Errorf("description must be one non-empty line")
	}
	compact, pretty, err := Canonical(f.Response)
	if err != nil {
		return Case{}, fmt.Errorf("response: %w", err)
	}
	return Case{Name: name, Tool: *f.Tool, Description: *f.Description, Response: compact, Pretty: pretty}, nil
}

// Shape names what kind of JSON value a response is. Tabular shapes are the
// ones a row format is for; the headline medians are over them.
type Shape string

const (
	ShapeEmpty       Shape = "empty"        // [] or {}
	ShapeTable       Shape = "table"        // array of objects, every member a scalar
	ShapeNestedTable Shape = "table+nested" // array of objects, some member an array or object
	ShapeTables      Shape = "tables"       // object of arrays of objects (and scalars), e.g. nodes + edges
	ShapeObject      Shape = "object"       // one object of scalars
	ShapeNested      Shape = "nested"       // anything else: nested objects, arrays of arrays, scalars
)

// Tabular reports whether the shape is a table or a set of tables.
func (s Shape) Tabular() bool {
	return s == ShapeTable || s == ShapeNestedTable || s == ShapeTables
}

// ShapeOf classifies a JSON value.
func ShapeOf(value []byte) (Shape, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	switch v := v.(type) {
	case []any:
		if len(v) == 0 {
			return ShapeEmpty, nil
		}
		if flat, ok := objectArray(v); ok {
			if flat {
				return ShapeTable, nil
			}
			return ShapeNestedTable, nil
		}
	case map[string]any:
		if len(v) == 0 {
			return ShapeEmpty, nil
		}
		scalars, tables, empty := 0, 0, 0
		for _, m := range v {
			if arr, ok := m.([]any); ok {
				if _, isTable := objectArray(arr); isTable {
					if len(arr) > 0 {
						tables++
					} else {
						empty++
					}
					continue
				}
			}
			if isScalar(m) {
				scalars++
			}
		}
		switch {
		case scalars == len(v):
			return ShapeObject, nil
		case tables > 0 && scalars+tables+empty == len(v):
			return ShapeTables, nil
		}
	}
	return ShapeNested, nil
}

// objectArray reports whether every element of a is an object, and whether
// every member of those objects is a scalar.
func objectArray(a []any) (flat, ok bool) {
	flat = true
	for _, e := range a {
		obj, isObj := e.(map[string]any)
		if !isObj {
			return false, false
		}
		for _, m := range obj {
			if !isScalar(m) {
				flat = false
			}
		}
	}
	return flat, true
}

func isScalar(v any) bool {
	switch v.(type) {
	case []any, map[string]any:
		return false
	}
	return true
}
