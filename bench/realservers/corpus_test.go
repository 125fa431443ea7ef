package realservers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed corpus is well formed and agrees with its manifest.
func TestCommittedCorpus(t *testing.T) {
	c, err := Load("corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Servers) < 8 {
		t.Errorf("%d servers; the corpus is to hold at least eight", len(c.Servers))
	}
	results, texts := 0, 0
	for _, s := range c.Servers {
		for _, call := range s.Calls {
			if call.Result == nil {
				continue
			}
			results++
			r, err := call.ParseResult()
			if err != nil {
				t.Fatal(err)
			}
			texts += len(r.Texts())
		}
	}
	if results == 0 || texts == 0 {
		t.Errorf("%d results with %d text blocks", results, texts)
	}
}

// The package.json the recorder installs pins every server the manifest
// names, at the version recorded.
func TestManifestMatchesThePins(t *testing.T) {
	c, err := Load("corpus")
	if err != nil {
		t.Fatal(err)
	}
	var pins struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile("package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pins); err != nil {
		t.Fatal(err)
	}
	if got := pins.Dependencies[c.Manifest.Client.Package]; got != c.Manifest.Client.Version {
		t.Errorf("client %s: recorded with %s, package.json pins %q", c.Manifest.Client.Package, c.Manifest.Client.Version, got)
	}
	for _, s := range c.Servers {
		if got := pins.Dependencies[s.Package]; got != s.Version {
			t.Errorf("server %s: recorded with %s %s, package.json pins %q", s.Server, s.Package, s.Version, got)
		}
	}
}

// Load refuses a corpus broken in any of the ways it checks. Each case
// copies the committed corpus and breaks one thing.
func TestLoadRefusesABrokenCorpus(t *testing.T) {
	type edit func(t *testing.T, dir string)
	editJSON := func(file string, change func(v map[string]any)) edit {
		return func(t *testing.T, dir string) {
			path := filepath.Join(dir, file)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			change(v)
			b, err = json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	manifest, err := Load("corpus")
	if err != nil {
		t.Fatal(err)
	}
	first := manifest.Manifest.Servers[0].File
	firstCall := func(v map[string]any) map[string]any { return v["calls"].([]any)[0].(map[string]any) }
	cases := []struct {
		name string
		edit edit
		want string
	}{
		{"not JSON", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, first), []byte(`{"server": `), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "unexpected EOF"},
		{"unknown member", editJSON(first, func(v map[string]any) { v["extra"] = 1 }), "unknown field"},
		{"version differs from the manifest", editJSON(first, func(v map[string]any) { v["version"] = "0.0.1" }), "but the manifest says"},
		{"licence differs from the manifest", editJSON(ManifestFile, func(v map[string]any) {
			v["servers"].([]any)[0].(map[string]any)["license"] = "GPL-3.0"
		}), "but the manifest says"},
		{"a call missing", editJSON(first, func(v map[string]any) { v["calls"] = v["calls"].([]any)[1:] }), "calls, the manifest says"},
		{"total_calls wrong", editJSON(ManifestFile, func(v map[string]any) { v["total_calls"] = 1.0 }), "total_calls"},
		{"tool not in tools/list", editJSON(first, func(v map[string]any) { firstCall(v)["tool"] = "no_such_tool" }), "no such tool"},
		{"both result and error", editJSON(first, func(v map[string]any) {
			firstCall(v)["error"] = map[string]any{"code": -32603, "message": "boom"}
		}), "exactly one of result and error"},
		{"text block without text", editJSON(first, func(v map[string]any) {
			firstCall(v)["result"] = map[string]any{"content": []any{map[string]any{"type": "text"}}}
		}), "without a text string"},
		{"result without content", editJSON(first, func(v map[string]any) {
			firstCall(v)["result"] = map[string]any{"isError": false}
		}), "no content array"},
		{"error count differs", editJSON(ManifestFile, func(v map[string]any) {
			e := v["servers"].([]any)[0].(map[string]any)
			e["errors"] = e["errors"].(float64) + 1
		}), "error results, the manifest says"},
		{"server file missing", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, first)); err != nil {
				t.Fatal(err)
			}
		}, "no such file"},
		{"stray file", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "extra.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "does not list"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyCorpus(t)
			tc.edit(t, dir)
			_, err := Load(dir)
			if err == nil {
				t.Fatal("Load accepted the broken corpus")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func copyCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir("corpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("corpus", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
