package conformance

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A duty is a sentence of chapters 1 to 15 of docs/wire-format.md that
// obliges an implementation: one with MUST or must, or one saying what is
// refused, rejected, reported or an error. Informative sections and
// rationale are left out. rule is the rule whose paragraph holds it.
type duty struct {
	rule, text string
}

// dutyWords marks a sentence as a duty.
var dutyWords = regexp.MustCompile(`\bMUST\b|\bmust\b|\brefuse[sd]?\b|\breject(s|ed)?\b|\breports?\b|\bis an error\b|\bare errors?\b`)

// specDuties returns the duties of chapters 1 to 15, in order.
func specDuties(t *testing.T) []duty {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	body, _, ok := strings.Cut(string(doc), "\n## Appendix A")
	if !ok {
		t.Fatal("docs/wire-format.md has no Appendix A to end chapter 15")
	}
	definition := regexp.MustCompile(`^\*\*\[([A-Z]+-[0-9]+)\]\*\*`)
	var (
		duties      []duty
		rule        string
		para        []string
		informative bool
		started     bool
	)
	flush := func() {
		text := strings.Join(para, " ")
		para = para[:0]
		if rule == "" || informative || text == "" || strings.HasPrefix(text, "*Rationale") || strings.HasPrefix(text, "*Why") {
			return
		}
		for _, s := range sentences(text) {
			if dutyWords.MatchString(withoutCode(s)) {
				duties = append(duties, duty{rule, s})
			}
		}
	}
	for _, line := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			flush()
			if strings.HasPrefix(line, "## 1.") {
				started = true
			}
			informative = strings.Contains(line, "(informative)")
			rule = ""
			continue
		case !started:
			continue
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "|"), strings.HasPrefix(line, "```"):
			flush()
			continue
		}
		if m := definition.FindStringSubmatch(line); m != nil {
			flush()
			rule = m[1]
		}
		para = append(para, strings.TrimSpace(line))
	}
	flush()
	return duties
}

// sentences splits a paragraph at a full stop followed by a space and a
// capital letter, a bracket or a mark, outside code spans.
func sentences(text string) []string {
	var out []string
	code := false
	start := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '`':
			code = !code
		case !code && c == '.' && i+2 < len(text) && text[i+1] == ' ' &&
			(text[i+2] >= 'A' && text[i+2] <= 'Z' || strings.IndexByte("*([`", text[i+2]) >= 0):
			out = append(out, strings.TrimSpace(text[start:i+1]))
			start = i + 2
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// withoutCode is s without its code spans, whose words are data.
func withoutCode(s string) string { return codeSpan.ReplaceAllString(s, "``") }

// dutyCheck is one line of testdata/duties.txt: a rule, a part of the text
// of one of its duties, and what checks it.
type dutyCheck struct {
	line    int
	rule    string
	part    string
	vectors []string
	tests   []string
}

func readDutyChecks(t *testing.T) []dutyCheck {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "duties.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var checks []dutyCheck
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, " | ")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
			t.Fatalf("duties.txt:%d: want RULE | PART OF THE DUTY | CHECKS, got %q", n, text)
		}
		c := dutyCheck{line: n, rule: parts[0], part: parts[1]}
		for _, f := range strings.Fields(parts[2]) {
			if name, ok := strings.CutPrefix(f, "test:"); ok {
				c.tests = append(c.tests, name)
			} else {
				c.vectors = append(c.vectors, f)
			}
		}
		if len(c.vectors)+len(c.tests) == 0 {
			t.Errorf("duties.txt:%d: %s %q names no check", n, c.rule, c.part)
		}
		checks = append(checks, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return checks
}

// goTests returns the names of the Test functions of the repository.
func goTests(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]*)\(t \*testing\.T\)`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range decl.FindAllSubmatch(b, -1) {
				names[string(m[1])] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// Every duty of the specification has a check (issue 37: "every duty in
// the spec has a check"): each sentence of chapters 1 to 15 that says what
// an implementation MUST do, refuses or reports is matched by a line of
// testdata/duties.txt naming vectors that cite its rule, or, for a duty no
// vector can reach (an intermediary's connections, a command's streams),
// the Go tests that check it. A duty added to the text without a check
// fails here, and so does a line whose duty the text no longer holds.
func TestEveryDutyHasACheck(t *testing.T) {
	byID := map[string]*Vector{}
	vectors := allVectors(t)
	for i := range vectors {
		byID[vectors[i].ID] = &vectors[i]
	}
	tests := goTests(t)
	duties := specDuties(t)
	checks := readDutyChecks(t)
	used := make([]bool, len(checks))
	for _, d := range duties {
		found := false
		for i, c := range checks {
			if c.rule == d.rule && strings.Contains(d.text, c.part) {
				found, used[i] = true, true
			}
		}
		if !found {
			t.Errorf("%s: a duty with no check in testdata/duties.txt: %q", d.rule, d.text)
		}
	}
	for i, c := range checks {
		where := fmt.Sprintf("duties.txt:%d: %s %q", c.line, c.rule, c.part)
		if !used[i] {
			t.Errorf("%s: no duty of %s holds this text", where, c.rule)
		}
		for _, id := range c.vectors {
			v, ok := byID[id]
			if !ok {
				t.Errorf("%s: no vector %s", where, id)
				continue
			}
			if !slices.Contains(v.Rules, c.rule) {
				t.Errorf("%s: vector %s does not cite %s", where, id, c.rule)
			}
		}
		for _, name := range c.tests {
			if !tests[name] {
				t.Errorf("%s: no test %s", where, name)
			}
		}
	}
	t.Logf("%d duties, %d lines of checks", len(duties), len(checks))
}
