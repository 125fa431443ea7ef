package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// schemaNames returns the member names a schema defines: those of its
// properties, at any depth of inline objects, arrays and maps, but not
// behind a $ref, which is a shape of its own.
func schemaNames(schema any, names map[string]bool) {
	m, ok := schema.(map[string]any)
	if !ok {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			names[name] = true
			schemaNames(sub, names)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		schemaNames(m[key], names)
	}
}

// The guide writes out every op's input and outcome (issue 37): each op
// the schema allows is named in the section that shows them, each shape of
// the binding heads a block there that names every member the schema gives
// it, and every member and error class of the format's vectors is named,
// so an implementer never needs the schema to read a vector. A member added
// to the schema and not to the guide fails here.
func TestGuideShowsEveryShape(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	const title = "### Every op's input and outcome\n"
	_, section, ok := strings.Cut(string(guide), title)
	if !ok {
		t.Fatalf("docs/conformance.md has no section %q", strings.TrimSpace(title))
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	raw, err := os.ReadFile("vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	vector := schema.Defs["vector"].(map[string]any)
	for _, op := range vector["properties"].(map[string]any)["op"].(map[string]any)["enum"].([]any) {
		if !strings.Contains(section, "// "+op.(string)) && !strings.Contains(section, "(op "+op.(string)+")") {
			t.Errorf("the guide's shapes do not show the op %s", op)
		}
	}
	// The format's shapes: every member of a vector, its limits, expected
	// outcome, error and view, and every error class.
	format := map[string]bool{}
	for _, def := range []string{"vector", "expected", "error", "or_error", "view"} {
		schemaNames(schema.Defs[def], format)
	}
	for _, class := range schema.Defs["error"].(map[string]any)["properties"].(map[string]any)["class"].(map[string]any)["enum"].([]any) {
		format[class.(string)] = true
	}
	for _, name := range sortedKeys(format) {
		if !strings.Contains(section, `"`+name+`"`) && !strings.Contains(section, "`"+name+"`") {
			t.Errorf("the guide's shapes do not name %q of the format's vectors", name)
		}
	}
	// The binding's shapes: each under its own heading, with its members.
	for def, shape := range schema.Defs {
		if !strings.HasPrefix(def, "mcp-") {
			continue
		}
		_, block, ok := strings.Cut(section, "// "+def+"\n")
		if !ok {
			_, block, ok = strings.Cut(section, "// "+def+" ")
		}
		if !ok {
			t.Errorf("the guide's shapes have no block headed %s", def)
			continue
		}
		if end := strings.Index(block, "// mcp-"); end >= 0 {
			block = block[:end]
		}
		names := map[string]bool{}
		schemaNames(shape, names)
		for _, name := range sortedKeys(names) {
			if !strings.Contains(block, `"`+name+`"`) {
				t.Errorf("the guide's block %s does not name its member %q", def, name)
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
