package jsontext

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestKindIsValue: the kinds that begin or are a value, and the others.
func TestKindIsValue(t *testing.T) {
	values := map[Kind]bool{ObjectStart: true, ArrayStart: true, String: true, Number: true, True: true, False: true, Null: true}
	for k := Kind(0); k <= Null; k++ {
		if got := k.IsValue(); got != values[k] {
			t.Errorf("%v.IsValue() = %t, want %t", k, got, values[k])
		}
	}
}

// PassString, like PassValue, needs a text held whole: a streamed reader,
// a peeked token or an earlier error make it refuse with ErrCannotPass.
func TestPassStringRefuses(t *testing.T) {
	streamed := NewReader(strings.NewReader(`["x"]`))
	streamed.NextToken()
	peeked := NewStringReader(`["x"]`)
	peeked.NextToken()
	peeked.Peek()
	failed := NewStringReader(`[x]`)
	failed.NextToken()
	failed.NextToken()
	for name, r := range map[string]*Reader{"streamed": streamed, "peeked": peeked, "failed": failed} {
		if lit, err := r.PassString(); !errors.Is(err, ErrCannotPass) {
			t.Errorf("%s: PassString = %q, %v; want ErrCannotPass", name, lit, err)
		}
	}
}

// InternNames keeps at most maxInterned names, and a reader without it
// keeps none: the table is bounded whatever the text.
func TestInternedNamesBounded(t *testing.T) {
	var text strings.Builder
	text.WriteByte('[')
	for i := range maxInterned + 50 {
		if i > 0 {
			text.WriteByte(',')
		}
		text.WriteString(`{"n` + strconv.Itoa(i) + `":1}`)
	}
	text.WriteByte(']')
	for _, intern := range []bool{true, false} {
		r := NewStringReader(text.String())
		r.InternNames = intern
		if err := r.SkipValue(); err != nil {
			t.Fatal(err)
		}
		want := 0
		if intern {
			want = maxInterned
		}
		if len(r.interned) != want {
			t.Errorf("InternNames %t: %d names kept, want %d", intern, len(r.interned), want)
		}
	}
}
