package spec_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ruleDefinition matches where docs/wire-format.md defines a rule: **[HDR-3]**.
var ruleDefinition = regexp.MustCompile(`\*\*\[([A-Z]+-[0-9]+)\]\*\*`)

// specRules returns the IDs the specification defines, in order, failing on
// a duplicate definition.
func specRules(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	seen := map[string]bool{}
	for _, m := range ruleDefinition.FindAllStringSubmatch(string(doc), -1) {
		if seen[m[1]] {
			t.Errorf("rule %s is defined twice in docs/wire-format.md", m[1])
		}
		seen[m[1]] = true
		ids = append(ids, m[1])
	}
	if len(ids) < 50 {
		t.Fatalf("found only %d rule definitions; is the **[ID]** convention still used?", len(ids))
	}
	return ids
}

// TestRuleIDsInCodeExist keeps error messages honest: every rule ID the
// non-test Go code mentions is defined by the specification.
func TestRuleIDsInCodeExist(t *testing.T) {
	defined := map[string]bool{}
	prefixes := map[string]bool{} // ENC, HDR, ...: strings like "VIP-2026" in data are not rule IDs
	for _, id := range specRules(t) {
		defined[id] = true
		prefixes[id[:strings.IndexByte(id, '-')]] = true
	}
	cited := regexp.MustCompile(`"([A-Z]{2,5}-[0-9]+)"|\[([A-Z]{2,5}-[0-9]+)\]`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == ".git" || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range cited.FindAllStringSubmatch(string(b), -1) {
			id := m[1] + m[2]
			if prefixes[id[:strings.IndexByte(id, '-')]] && !defined[id] {
				t.Errorf("%s cites %s, which docs/wire-format.md does not define", path, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
