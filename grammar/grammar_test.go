package grammar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/exp/ebnf"
)

func TestLoadVerifies(t *testing.T) {
	g, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if g[Start] == nil {
		t.Fatalf("grammar has no start production %q", Start)
	}
	if _, err := NewRecognizer(g, Start); err != nil {
		t.Fatalf("NewRecognizer: %v", err)
	}
}

// TestVerifyCatchesBrokenGrammar feeds load modified copies of gcx1.ebnf, so
// that Load's verification is known to reject what it should.
func TestVerifyCatchesBrokenGrammar(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // the edit to gcx1.ebnf
		wantErr  string
	}{
		{"undefined production", `lf           = "\n" .` + "\n", "", "missing production lf"},
		{"unreachable production", "lf           = \"\\n\" .\n", "lf           = \"\\n\" .\norphan = \"x\" .\n", "orphan is unreachable"},
		{"renamed start", "payload      =", "document     =", "no start production payload"},
		{"decreasing range", `"A" … "Z"`, `"Z" … "A"`, "decreasing character range"},
		{"range of strings", `"!" … "+"`, `"!" … "++"`, "single char expected"},
		{"declared twice", "sp           = \" \" .\n", "sp           = \" \" .\nsp = \"\\t\" .\n", "sp declared already"},
		{"syntax", "payload      = section { section } .", "payload      = section { section .", `"}"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(Source(), tt.old, tt.new, 1)
			if src == Source() {
				t.Fatalf("the edit %q → %q does not apply to gcx1.ebnf", tt.old, tt.new)
			}
			_, err := load("broken.ebnf", src, Start)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("load = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestNewRecognizerRejects covers what NewRecognizer checks beyond Verify:
// every production must derive some string, so that a viable prefix really
// continues to a sentence, and every token must be characters.
func TestNewRecognizerRejects(t *testing.T) {
	tests := []struct {
		name, src, wantErr string
	}{
		{"no sentence", `s = "x" s .`, "production s derives no string"},
		{"no sentence below", `s = "x" | "y" t . t = "(" t ")" .`, "production t derives no string"},
		{"undefined", `s = "x" t .`, "grammar has no production t"},
		{"invalid UTF-8 token", `s = "\xff" .`, "not valid UTF-8"},
		{"unverified range", `s = "b" … "a" .`, "not two characters in increasing order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ebnf.Parse(tt.name, strings.NewReader(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewRecognizer(g, "s")
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("NewRecognizer = %v, want an error containing %q", err, tt.wantErr)
			}
		})
	}
	if _, err := NewRecognizer(ebnf.Grammar{}, "s"); err == nil {
		t.Error("NewRecognizer accepted a grammar without its start production")
	}
}

// TestRecognizerIsContextFree runs small grammars whose sentences a parsing
// expression grammar (ordered choice, greedy repetition) or a recursive
// descent parser would get wrong.
func TestRecognizerIsContextFree(t *testing.T) {
	tests := []struct {
		name    string
		grammar string
		in      string
		ok      bool
		viable  int
	}{
		// Ordered choice would commit to "x" and then fail on "y".
		{"later alternative", `s = ( "x" | "x" "y" ) "z" .`, "xyz", true, 3},
		// A greedy repetition would eat the last "a" the sequence needs.
		{"repetition gives back", `s = { "a" } "a" "b" .`, "aaab", true, 4},
		{"option gives back", `s = [ "a" ] "a" .`, "a", true, 1},
		{"left recursion", `s = s "+" t | t . t = "x" .`, "x+x+x", true, 5},
		{"left recursion, cut", `s = s "+" t | t . t = "x" .`, "x+x+", false, 4},
		{"right recursion", `s = "(" [ s ] ")" .`, "((()))", true, 6},
		{"nested repetition", `s = { "(" s ")" } .`, "(()())()", true, 8},
		{"unbalanced", `s = { "(" s ")" } .`, "(()", false, 3},
		{"extra close", `s = { "(" s ")" } .`, "())(", false, 2},
		{"ambiguous", `s = { a } . a = "x" | "x" "x" .`, "xxxxx", true, 5},
		{"nullable calls", `s = a a "x" . a = [ "y" ] .`, "yx", true, 2},
		{"nullable calls, too many", `s = a a "x" . a = [ "y" ] .`, "yyyx", false, 2},
		{"nullable repetition body", `s = { [ "a" ] } "b" .`, "aab", true, 3},
		{"empty production", `s = e "x" e . e = .`, "x", true, 1},
		{"empty input", `s = [ "x" ] .`, "", true, 0},
		{"empty input rejected", `s = "x" .`, "", false, 0},
		{"token, first differing byte", `s = "tool=" .`, "too!", false, 3},
		{"token, cut", `s = "tool=" .`, "tool", false, 4},
		{"trailing input", `s = "ab" .`, "abc", false, 2},
		{"multi-byte range", `s = { "é" … "ê" } .`, "éêé", true, 6},
		{"invalid UTF-8", `s = { "\x00" … "\U0010FFFF" } .`, "ab\xffc", false, 2},
		{"cut UTF-8", `s = { "\x00" … "\U0010FFFF" } .`, "ab\xc3", false, 2},
		{"encoded surrogate", `s = { "\x00" … "\U0010FFFF" } .`, "a\xed\xa0\x80", false, 1},
		// U+FFFD itself is a character like any other.
		{"replacement character", `s = "\uFFFD" .`, "\uFFFD", true, 3},
		{"upper-case names are lexical too", `S = "a" T . T = "b" .`, "ab", true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ebnf.Parse(tt.name, strings.NewReader(tt.grammar))
			if err != nil {
				t.Fatal(err)
			}
			start := "s"
			if g[start] == nil {
				start = "S"
			}
			if err := ebnf.Verify(g, start); err != nil {
				t.Fatal(err)
			}
			r, err := NewRecognizer(g, start)
			if err != nil {
				t.Fatal(err)
			}
			ok, viable := r.Recognize([]byte(tt.in))
			if ok != tt.ok || viable != tt.viable {
				t.Errorf("Recognize(%q) = %v, %d; want %v, %d", tt.in, ok, viable, tt.ok, tt.viable)
			}
		})
	}
}

// TestRecognizerDeepNesting shows the recognizer does not recurse with its
// input: a deeply nested sentence costs memory for the items, not stack.
func TestRecognizerDeepNesting(t *testing.T) {
	g, err := ebnf.Parse("nest", strings.NewReader(`s = "(" [ s ] ")" .`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecognizer(g, "s")
	if err != nil {
		t.Fatal(err)
	}
	const depth = 100000
	in := strings.Repeat("(", depth) + strings.Repeat(")", depth)
	if ok, viable := r.Recognize([]byte(in)); !ok || viable != len(in) {
		t.Errorf("Recognize(%d nested pairs) = %v, %d; want true, %d", depth, ok, viable, len(in))
	}
	if ok, viable := r.Recognize([]byte(in[:len(in)-1] + "(")); ok || viable != len(in)-1 {
		t.Errorf("Recognize(last pair broken) = %v, %d; want false, %d", ok, viable, len(in)-1)
	}
}

// TestAppendixAMatchesFile checks that the grammar printed in Appendix A of
// docs/wire-format.md is gcx1.ebnf, byte for byte. The lines are split by
// hand, not with bufio.Scanner, which would drop a CR before an LF.
func TestAppendixAMatchesFile(t *testing.T) {
	const doc = "docs/wire-format.md"
	text, err := os.ReadFile(filepath.Join("..", doc))
	if err != nil {
		t.Fatalf("%s must print gcx1.ebnf in Appendix A: %v", doc, err)
	}
	const fence = "```"
	lines := strings.SplitAfter(string(text), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "## Appendix A") {
		i++
	}
	if i == len(lines) {
		t.Fatalf(`%s has no heading line beginning "## Appendix A"`, doc)
	}
	for i++; i < len(lines) && lines[i] != fence+"ebnf\n"; i++ {
		if strings.HasPrefix(lines[i], "## ") {
			t.Fatalf("%s: Appendix A ends at %q before a line %q opens its grammar", doc, lines[i], fence+"ebnf")
		}
	}
	if i == len(lines) {
		t.Fatalf("%s: Appendix A has no code block opened by a line %q", doc, fence+"ebnf")
	}
	var block strings.Builder
	for i++; i < len(lines) && strings.TrimSuffix(lines[i], "\n") != fence; i++ {
		block.WriteString(lines[i])
	}
	if i == len(lines) {
		t.Fatalf("%s: the ebnf block of Appendix A is never closed", doc)
	}
	if diff := cmp.Diff(Source(), block.String()); diff != "" {
		t.Errorf("Appendix A of %s differs from grammar/gcx1.ebnf (-file +doc):\n%s", doc, diff)
	}
}
