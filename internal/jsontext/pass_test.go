package jsontext

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// PassValue moves past a member's value or an element the caller vouches
// for, and the reader goes on reading and checking what follows; where no
// value is due, or the text is streamed, it refuses.
func TestPassValue(t *testing.T) {
	text := `{"a":{"b":[1,2]},"c":[true,"x"]}`
	r := NewStringReader(text)
	r.CheckCompact = true
	r.RejectDuplicateNames = true
	var kinds []Kind
	for {
		tok, err := r.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, tok.Kind)
		switch {
		case tok.Kind == Name && tok.Text == "a":
			if err := r.PassValue(len(`{"b":[1,2]}`)); err != nil {
				t.Fatal(err)
			}
			if got := r.InputOffset(); got != int64(strings.Index(text, `,"c"`)) {
				t.Fatalf("after the value, offset %d", got)
			}
		case tok.Kind == ArrayStart:
			if err := r.PassValue(len(`true`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []Kind{ObjectStart, Name, Name, ArrayStart, String, ArrayEnd, ObjectEnd}
	if len(kinds) != len(want) {
		t.Fatalf("tokens %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("tokens %v, want %v", kinds, want)
		}
	}
	if !r.Compact() {
		t.Fatal("a compact text read with a value passed over is not compact")
	}

	// Where no value is due, or past the text's end.
	r = NewStringReader(`{"a":1}`)
	if err := r.PassValue(1); !errors.Is(err, ErrCannotPass) {
		t.Fatalf("before the text: %v", err)
	}
	r.NextToken()
	if err := r.PassValue(1); !errors.Is(err, ErrCannotPass) {
		t.Fatalf("where a name is due: %v", err)
	}
	r.NextToken()
	if err := r.PassValue(10); !errors.Is(err, ErrCannotPass) {
		t.Fatalf("past the end: %v", err)
	}
	// A streamed text.
	r = NewReader(strings.NewReader(`[1]`))
	r.NextToken()
	if err := r.PassValue(1); !errors.Is(err, ErrCannotPass) {
		t.Fatalf("streamed: %v", err)
	}
	// What follows a passed value is checked: a value may not follow it.
	r = NewStringReader(`[1 2]`)
	r.NextToken()
	if err := r.PassValue(1); err != nil {
		t.Fatal(err)
	}
	if _, err := r.NextToken(); err == nil {
		t.Fatal("a second value after the passed one was read")
	}
	// Lines in a passed value count for the positions of later errors.
	r = NewStringReader("[[\n1\n],x]")
	r.NextToken()
	if err := r.PassValue(len("[\n1\n]")); err != nil {
		t.Fatal(err)
	}
	_, err := r.NextToken()
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Column != 3 {
		t.Fatalf("error %v, want line 3, column 3", err)
	}
	if r.Compact() {
		t.Fatal("a passed value with line feeds counts as compact")
	}
}

// SetCompact sets what Compact reports so far; DecodeEscape decodes one
// escape, a surrogate pair whole, and refuses a lone surrogate.
func TestSetCompactAndDecodeEscape(t *testing.T) {
	r := NewStringReader(`["\u0041",1]`)
	r.CheckCompact = true
	r.NextToken()
	r.NextToken()
	if r.Compact() {
		t.Fatal(`"\u0041" read as compact`)
	}
	r.SetCompact(true)
	r.NextToken()
	if !r.Compact() {
		t.Fatal("SetCompact(true) did not hold")
	}
	r.SetCompact(false)
	if r.Compact() {
		t.Fatal("SetCompact(false) did not hold")
	}
	for _, c := range []struct {
		src  string
		r    rune
		next int
		ok   bool
	}{
		{`\n`, '\n', 2, true},
		{`\/`, '/', 2, true},
		{`\u00E9`, 'é', 6, true},
		{`\ud83d\ude00`, '😀', 12, true},
		{`\ud83d`, 0, 0, false},
		{`\x`, 0, 0, false},
	} {
		r, next, ok := DecodeEscape([]byte(c.src), 0)
		if ok != c.ok || ok && (r != c.r || next != c.next) {
			t.Errorf("DecodeEscape(%s) = %q, %d, %t", c.src, r, next, ok)
		}
	}
}
