package jsontext

import (
	"errors"
	"strings"
	"testing"
)

// literalTokens reads lit with a literal reader and the decoded literal
// with a string reader, both checking names and compact form, and fails
// t when the literal reader reads a text the other does not read alike:
// other tokens, texts, Compact, or an end where the other refuses.
func literalTokens(t *testing.T, lit string) (read bool) {
	t.Helper()
	r := NewLiteralReader(lit)
	r.RejectDuplicateNames, r.CheckCompact = true, true
	got, err := tokens(r)
	end := r.LiteralEnd()
	if err != nil || end < 0 {
		return false
	}
	text, ok := Unquote(`"` + lit[:end+1])
	if !ok {
		t.Fatalf("read %q, which is no literal's content", lit)
	}
	s := NewStringReader(text)
	s.RejectDuplicateNames, s.CheckCompact = true, true
	want, err := tokens(s)
	if err != nil {
		t.Fatalf("read %q, whose text %q is refused: %v", lit, text, err)
	}
	if len(got) != len(want) || r.Compact() != s.Compact() {
		t.Fatalf("%q: %d tokens (compact %v), the text's %d (compact %v)", lit, len(got), r.Compact(), len(want), s.Compact())
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].Text != want[i].Text {
			t.Fatalf("%q: token %d is %v %q, the text's %v %q", lit, i, got[i].Kind, got[i].Text, want[i].Kind, want[i].Text)
		}
	}
	return true
}

// A literal reader reads the forms encoders write, with the reader's own
// rules, and leaves every other form to decoding.
func TestLiteralReader(t *testing.T) {
	for _, c := range []struct {
		lit  string
		read bool
	}{
		{`{\"a\":[1,true,null,\"x\"]}`, true},
		{`{\n  \"a\": [\n\t1\r\n  ]\n}`, true},
		{`[\"\\n\\t\\\"\\\\\\/\\u00e9\\ud83d\\ude00\"]`, true},
		{`[\"é😀\"]`, true},
		{`\"\"`, true},
		{`-1.5e+3`, true},
		{`{\"a\":1,\"a\":2}`, false},           // a repeated name
		{`[\"\\ud800\"]`, false},               // an unpaired surrogate
		{`[\"\\x\"]`, false},                   // an unknown escape
		{`[\"a\nb\"]`, false},                  // a raw line feed in the text's string
		{"[\\\"a\xffb\\\"]", false},            // invalid UTF-8 in the text's string
		{"[\\\"\xc3\\\"]", false},              // a character cut short by the string's end
		{`\u005b1]`, false},                    // a \u outside the text's strings: decode
		{`[1,\/]`, false},                      // \/ outside them
		{`[\"\/\u003c\ud83d\ude00\"]`, true},   // \/ and \u inside them
		{`[\"\u0020\"]`, true},                 // a space as \u: the lowest character taken as itself
		{`[\"\u0022\"]`, false},                // a quote as \u: decode
		{`[\"\u005c\\n\"]`, false},             // a backslash as \u: decode
		{`[\"\u000a\"]`, false},                // a control: decode, and refuse
		{`[1]\f`, false},                       // \f is no whitespace
		{"[1,\t2]", false},                     // a raw tab is no literal's
		{"[\\\"a\tb\\\"]", false},              // nor in a string of the text
		{`"1"`, false},                         // a text that ends where it begins
		{`[1,\"a\"]"]`, true},                  // what follows the closing quote is no part
		{`[\"a"\"]`, false},                    // a string the literal's end cuts
		{`[1`, false},                          // cut short
		{strings.Repeat("[", 3) + "]]", false}, // unclosed
	} {
		if got := literalTokens(t, c.lit+`"`); got != c.read {
			t.Errorf("%q: read %v", c.lit, got)
		}
	}
	// Nesting, numbers and names keep the reader's bounds and rules.
	unclosed := NewLiteralReader(`[1]`)
	if _, err := tokens(unclosed); err != nil || unclosed.LiteralEnd() != -1 {
		t.Errorf("a literal without its closing quote: %v, LiteralEnd %d", err, unclosed.LiteralEnd())
	}
	deep := NewLiteralReader(strings.Repeat("[", 3) + strings.Repeat("]", 3) + `"`)
	deep.MaxDepth = 2
	if _, err := tokens(deep); err == nil {
		t.Error("nested beyond MaxDepth, read")
	}
	var e *Error
	if _, err := tokens(NewLiteralReader(`[01]"`)); !errors.As(err, &e) {
		t.Errorf("a leading zero: %v", err)
	}
	bounded := NewLiteralReader(`[\"x\"]"`)
	bounded.MaxTokenBytes = 100
	if _, err := tokens(bounded); err == nil {
		t.Error("a string read under MaxTokenBytes")
	}
}

// Compact is the decoded text's: whitespace, and escapes of its strings
// AppendString does not write, make it false.
func TestLiteralReaderCompact(t *testing.T) {
	for lit, compact := range map[string]bool{
		`{\"a\":[\"\\n\\\"\\u001f\"]}`: true,
		`{\"a\": 1}`:                   false,
		`[1]\n`:                        false,
		`[\"\\/\"]`:                    false,
		`[\"\\u00e9\"]`:                false,
		`[\"\\u001F\"]`:                false,
		`[\"\\u000a\"]`:                false,
	} {
		r := NewLiteralReader(lit + `"`)
		r.CheckCompact = true
		if _, err := tokens(r); err != nil {
			t.Fatalf("%q: %v", lit, err)
		}
		if r.Compact() != compact {
			t.Errorf("%q: Compact %v", lit, r.Compact())
		}
	}
}

// PassString gives a string value's literal as it stands and leaves the
// reader after it; it passes nothing but a string, and a literal that
// does not close is an error.
func TestPassString(t *testing.T) {
	r := NewStringReader(`{"a":"x\"\\","b":[1]}`)
	r.NextToken()
	r.NextToken()
	if lit, err := r.PassString(); err != nil || lit != `"x\"\\"` {
		t.Fatalf("PassString = %q, %v", lit, err)
	}
	if tok, err := r.NextToken(); err != nil || tok.Kind != Name || tok.Text != "b" {
		t.Fatalf("then %v %q, %v", tok.Kind, tok.Text, err)
	}
	if _, err := r.PassString(); err == nil {
		t.Fatal("PassString passed an array")
	}
	if _, err := NewStringReader(`["x"]`).PassString(); err == nil {
		t.Fatal("PassString before the array's '['")
	}
	open := NewStringReader(`["x\"]`)
	open.NextToken()
	if _, err := open.PassString(); err == nil {
		t.Fatal("PassString passed a literal that does not close")
	}
	if _, err := open.NextToken(); err == nil {
		t.Fatal("the error of PassString was not sticky")
	}
}

// Whatever the bytes, what a literal reader reads is what a string reader
// reads in the decoded literal.
func FuzzLiteralReader(f *testing.F) {
	for _, s := range []string{`{\"a\":[1,2,{\"b\":null}]}`, `[\"\\ud83d\\ude00\"]`, `{\n\t\"a\": \"\\\"\"\r\n}`, `[\"\\u00E9\/\"]`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		literalTokens(t, lit)
	})
}

// The strings with escapes a literal reader decodes in place stay as they
// were read while it reads on: many short ones filling buffer after
// buffer, and long ones that outgrow the room left in one.
func TestLiteralReaderKeepsDecoded(t *testing.T) {
	var lit strings.Builder
	lit.WriteString(`[`)
	for i := range 120 {
		if i > 0 {
			lit.WriteString(`,`)
		}
		n := i % 7 * 3
		if i%25 == 24 {
			n = 40 * i
		}
		lit.WriteString(`\"` + strings.Repeat(`a\\n`, n) + `b\\t` + strings.Repeat(string(rune('c'+i%20)), i%9) + `\"`)
	}
	lit.WriteString(`]"`) // the literal's closing quote
	if !literalTokens(t, lit.String()) {
		t.Fatal("not read")
	}
}
