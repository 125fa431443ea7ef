package conformance

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// specRules returns the rule IDs defined in docs/wire-format.md, where a
// definition reads **[HDR-3]**.
func specRules(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*\*\[([A-Z]+-[0-9]+)\]\*\*`).FindAllSubmatch(doc, -1) {
		rules[string(m[1])] = true
	}
	if len(rules) == 0 {
		t.Fatal("docs/wire-format.md defines no rule IDs")
	}
	return rules
}

// coreChapters are the rule prefixes of chapters 2 to 13, the chapters the
// vectors must cover.
var coreChapters = []string{"ENC", "LINE", "PAY", "VER", "HDR", "META", "ROW", "VAL", "CMT", "CAN", "ERR", "LIM", "WIRE"}

func inCoreChapter(rule string) bool {
	for _, p := range coreChapters {
		if strings.HasPrefix(rule, p+"-") {
			return true
		}
	}
	return false
}

// Every vector is named after a rule that exists, and expects a rule that
// exists.
func TestVectorRulesExistInSpec(t *testing.T) {
	rules := specRules(t)
	for _, v := range loadVectors(t) {
		named := v.RuleOfName()
		if named == "" {
			t.Errorf("%s: name does not begin with a rule ID such as row-4-", v.Name)
		} else if !rules[named] {
			t.Errorf("%s: named after %s, which docs/wire-format.md does not define", v.Name, named)
		}
		if v.Want != nil && !rules[v.Want.Rule] {
			t.Errorf("%s: expects rule %s, which docs/wire-format.md does not define", v.Name, v.Want.Rule)
		}
	}
}

// Every rule of chapters 2 to 13 has a vector named after it or expecting
// it; the rules of the other chapters that have none are listed.
func TestSpecRulesHaveVectors(t *testing.T) {
	covered := map[string][]string{}
	for _, v := range loadVectors(t) {
		covered[v.RuleOfName()] = append(covered[v.RuleOfName()], v.Name)
		if v.Want != nil && v.Want.Rule != v.RuleOfName() {
			covered[v.Want.Rule] = append(covered[v.Want.Rule], v.Name)
		}
	}
	var missing, elsewhere []string
	for rule := range specRules(t) {
		if len(covered[rule]) > 0 {
			continue
		}
		if inCoreChapter(rule) {
			missing = append(missing, rule)
		} else {
			elsewhere = append(elsewhere, rule)
		}
	}
	sort.Strings(missing)
	sort.Strings(elsewhere)
	t.Logf("%d rules defined, %d with a vector", len(specRules(t)), len(specRules(t))-len(missing)-len(elsewhere))
	if len(elsewhere) > 0 {
		t.Logf("rules outside chapters 2-13 without a vector: %s", strings.Join(elsewhere, " "))
	}
	if len(missing) > 0 {
		t.Errorf("rules of chapters 2-13 without a vector: %s", strings.Join(missing, " "))
	}
}

// The vector files are what the README says: no two vectors of a kind share
// an input, a valid view reads back as a wire view, names are lower-case
// rule-prefixed words, and the vectors
// without limits stay within what every conforming decoder accepts
// [LIM-2], so the same error comes under the minimum limits.
func TestVectorFilesWellFormed(t *testing.T) {
	minimum := spec.Limits{MaxLineBytes: spec.MinLineBytes, MaxFields: spec.MinFields,
		MaxSections: spec.MinSections, MaxRows: spec.MinRows}
	seen := map[string]string{} // kind and input -> vector name
	for _, v := range loadVectors(t) {
		input := v.Kind.Dir() + "\x00" + string(v.Payload)
		if v.Kind == InvalidEncoder {
			input = v.Kind.Dir() + "\x00" + string(v.Wire)
		}
		if other, dup := seen[input]; dup {
			t.Errorf("%s repeats the input of %s", v.Name, other)
		}
		seen[input] = v.Name
		if !namePattern.MatchString(v.Base()) {
			t.Errorf("%s: name is not lower-case words joined by '-'", v.Name)
		}
		if v.Kind == Valid {
			if _, err := spec.UnmarshalWire(v.Wire); err != nil {
				t.Errorf("%s: view: %v", v.Name, err)
			}
		}
		if v.Limits != nil || v.Kind == InvalidEncoder {
			continue
		}
		_, err := reference.DecodeLimits(v.Payload, minimum)
		switch {
		case v.Kind == Valid && err != nil:
			t.Errorf("%s: needs more than the minimum limits [LIM-2]: %v", v.Name, err)
		case v.Kind == Invalid && errors.Is(err, spec.ErrLimit):
			t.Errorf("%s: meets a minimum limit before its own error [LIM-2]: %v", v.Name, err)
		}
	}
}

// Bytes that other checkouts could mangle reached this one intact: the
// vectors that hold them still hold them.
func TestVectorBytesSurvived(t *testing.T) {
	vs := map[string]*Vector{}
	all := loadVectors(t)
	for i := range all {
		vs[all[i].Name] = &all[i]
	}
	for name, want := range map[string]string{
		"invalid/enc-3-crlf-line-ending":    "x\r\n",
		"valid/enc-4-nul-and-controls":      "\x00\t\x01\x7f\n",
		"invalid/enc-1-overlong-slash":      "\xc0\xaf\n",
		"invalid/enc-2-bom-at-start":        "\ufeffGCX1",
		"valid/row-3-trailing-empty-values": "a\t\t\n\t\t\n",
	} {
		v := vs[name]
		if v == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		if !bytes.Contains(v.Payload, []byte(want)) {
			t.Errorf("%s: payload %q lost %q", name, v.Payload, want)
		}
	}
}

// For decoders each rule belongs to one error class, so a command that
// names the rule and exits with the right status has named the class; the
// README's account of how the runner checks commands relies on it.
func TestRuleDeterminesClass(t *testing.T) {
	classOf := map[string]string{}
	seenIn := map[string]string{}
	for _, v := range loadVectors(t) {
		if v.Kind != Invalid {
			continue
		}
		if c, ok := classOf[v.Want.Rule]; ok && c != v.Want.Class {
			t.Errorf("rule %s is %s in %s but %s in %s", v.Want.Rule, c, seenIn[v.Want.Rule], v.Want.Class, v.Name)
		}
		classOf[v.Want.Rule], seenIn[v.Want.Rule] = v.Want.Class, v.Name
	}
}

// hand-checked.txt lists only vectors that exist, so the README's claim
// about them stays true.
func TestHandCheckedListNamesVectors(t *testing.T) {
	names := map[string]bool{}
	for _, v := range loadVectors(t) {
		names[v.Name] = true
	}
	f, err := Embedded().Open("hand-checked.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		if !names[line] {
			t.Errorf("hand-checked.txt names %q, which is no vector", line)
		}
	}
	if n == 0 {
		t.Error("hand-checked.txt lists no vector")
	}
}

// The README maps every entry of Appendix C (E-1 to E-21) and every case
// of the published decoder to vectors that exist.
func TestReadmeMapsErrataToVectors(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, v := range loadVectors(t) {
		names[v.Name] = true
	}
	row := regexp.MustCompile("(?m)^\\| (E-[0-9]+|published: [^|]+) \\|(.*)\\|\\s*$")
	vectorRef := regexp.MustCompile("`((?:valid|invalid|invalid-encoder)/[a-z0-9-]+)`")
	mapped := map[string]bool{}
	published := 0
	for _, m := range row.FindAllSubmatch(readme, -1) {
		entry := string(m[1])
		refs := vectorRef.FindAllSubmatch(m[2], -1)
		if len(refs) == 0 {
			t.Errorf("README: %s names no vector", entry)
		}
		for _, r := range refs {
			if !names[string(r[1])] {
				t.Errorf("README: %s names %s, which is no vector", entry, r[1])
			}
		}
		if strings.HasPrefix(entry, "published") {
			published++
		}
		mapped[entry] = true
	}
	for i := 1; i <= 21; i++ {
		if e := "E-" + strconv.Itoa(i); !mapped[e] {
			t.Errorf("README does not map %s of Appendix C to vectors", e)
		}
	}
	if published < 10 {
		t.Errorf("README maps %d cases of the published decoder, want all 10 with a GCX1 payload", published)
	}
}

// Load refuses what would silently drop a vector.
func TestLoadRefusesBrokenDirectories(t *testing.T) {
	base := func() fstest.MapFS {
		return fstest.MapFS{
			"valid/hdr-1-x.gcx":                  {Data: []byte("GCX1 tool=t fields=a\n")},
			"valid/hdr-1-x.json":                 {Data: []byte(`{"sections":[{"tool":"t","fields":["a"]}]}`)},
			"invalid/val-2-x.gcx":                {Data: []byte("GCX1 tool=t fields=a\n\\q\n")},
			"invalid/val-2-x.error.json":         {Data: []byte(`{"class":"syntax","rule":"VAL-2","line":2,"column":2}`)},
			"invalid-encoder/hdr-3-x.json":       {Data: []byte(`{"sections":[{"tool":"a b","fields":["a"]}]}`)},
			"invalid-encoder/hdr-3-x.error.json": {Data: []byte(`{"class":"model","rule":"HDR-3"}`)},
		}
	}
	if vs, err := Load(base()); err != nil || len(vs) != 3 {
		t.Fatalf("Load(good) = %d vectors, %v", len(vs), err)
	}
	cases := []struct {
		name   string
		change func(fstest.MapFS)
		want   string
	}{
		{"view without payload", func(m fstest.MapFS) { delete(m, "valid/hdr-1-x.gcx") }, "belongs to no vector"},
		{"payload without view", func(m fstest.MapFS) { delete(m, "valid/hdr-1-x.json") }, "missing hdr-1-x.json"},
		{"payload without error", func(m fstest.MapFS) { delete(m, "invalid/val-2-x.error.json") }, "missing val-2-x.error.json"},
		{"misspelt extension", func(m fstest.MapFS) { m["invalid/val-2-y.err.json"] = &fstest.MapFile{} }, "belongs to no vector"},
		{"unknown key", func(m fstest.MapFS) {
			m["invalid/val-2-x.error.json"] = &fstest.MapFile{Data: []byte(`{"class":"syntax","rule":"VAL-2","line":2,"column":2,"col":2}`)}
		}, "unknown field"},
		{"bad class", func(m fstest.MapFS) {
			m["invalid/val-2-x.error.json"] = &fstest.MapFile{Data: []byte(`{"class":"lexical","rule":"VAL-2","line":2,"column":2}`)}
		}, "not a decoder error class"},
		{"no position", func(m fstest.MapFS) {
			m["invalid/val-2-x.error.json"] = &fstest.MapFile{Data: []byte(`{"class":"syntax","rule":"VAL-2"}`)}
		}, "position"},
		{"tag without unsupported-version", func(m fstest.MapFS) {
			m["invalid/val-2-x.error.json"] = &fstest.MapFile{Data: []byte(`{"class":"syntax","rule":"VAL-2","line":2,"column":2,"tag":"GCX2"}`)}
		}, "tag"},
		{"encoder class", func(m fstest.MapFS) {
			m["invalid-encoder/hdr-3-x.error.json"] = &fstest.MapFile{Data: []byte(`{"class":"syntax","rule":"HDR-3"}`)}
		}, "model"},
		{"unknown limit", func(m fstest.MapFS) {
			m["invalid/val-2-x.limits.json"] = &fstest.MapFile{Data: []byte(`{"max-depth":2}`)}
		}, "unknown limit"},
		{"limits for an encoder", func(m fstest.MapFS) {
			m["invalid-encoder/hdr-3-x.limits.json"] = &fstest.MapFile{Data: []byte(`{"max-fields":2}`)}
		}, "no limits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := base()
			c.change(m)
			_, err := Load(m)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Load = %v, want an error mentioning %q", err, c.want)
			}
		})
	}
}
