package jsontext

import (
	"errors"
	"slices"
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

// A bound string of short escapes (a backslash escaped too: words of
// backslashes only, each pair one byte) whose raw bytes run past the
// bound: stringOver counts each escape as the one byte it decodes to, a
// run of them word by word, and the string fits exactly when it decodes
// to no more than the bound. Its closing quote may fall in a word read
// with the bound not yet reached, and the string ends there, whatever
// follows it. The text is streamed (the bound's reading ahead applies to
// a stream only), with padding to place the escapes and the quote at
// every offset in a word.
func TestLimitStringCountsEscapes(t *testing.T) {
	for _, esc := range []struct{ raw, decoded string }{{`\n`, "\n"}, {`\\`, `\`}, {`x\\`, `x\`}} {
		for pad := range 8 {
			for m := 16; m <= 40; m++ {
				for _, n := range []int{m - 1, m, m + 8, 2*m - 1} {
					want := strings.Repeat("x", pad) + strings.Repeat(esc.decoded, m)
					text := `["` + strings.Repeat("x", pad) + strings.Repeat(esc.raw, m) + `", "abcdefgh\t\t\t\t", "ijklmnop"]`
					r := NewReader(strings.NewReader(text))
					if _, err := r.NextToken(); err != nil {
						t.Fatal(err)
					}
					r.LimitString(n)
					tok, err := r.NextToken()
					var e *Error
					switch {
					case len(want) > n:
						if !errors.As(err, &e) || !e.LongString {
							t.Errorf("%s pad %d, %d escapes, bound %d: %q, %v; want a long string error", esc.raw, pad, m, n, tok.Text, err)
						}
					case err != nil || tok.Text != want:
						t.Errorf("%s pad %d, %d escapes, bound %d: %q, %v; want %q", esc.raw, pad, m, n, tok.Text, err, want)
					default:
						if next, err := r.NextToken(); err != nil || next.Text != "abcdefgh\t\t\t\t" {
							t.Errorf("%s pad %d, %d escapes, bound %d: then %q, %v", esc.raw, pad, m, n, next.Text, err)
						}
					}
				}
			}
		}
	}
}

// dataThenError returns all its text in one Read, with an error that is
// not io.EOF, as io.Reader allows.
type dataThenError struct {
	text string
	err  error
}

func (d *dataThenError) Read(p []byte) (int, error) {
	n := copy(p, d.text)
	d.text = d.text[n:]
	return n, d.err
}

// A read that returns bytes and an error at once: the reader reads the
// bytes first, and the error comes when it needs more, as io.Reader's
// contract asks of callers.
func TestReadBytesBeforeError(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(&dataThenError{text: `["a",1,true]`, err: boom})
	var kinds []Kind
	for {
		tok, err := r.NextToken()
		if err != nil {
			if !errors.Is(err, boom) {
				t.Errorf("error %v, want boom", err)
			}
			break
		}
		kinds = append(kinds, tok.Kind)
	}
	if want := []Kind{ArrayStart, String, Number, True, ArrayEnd}; !slices.Equal(kinds, want) {
		t.Errorf("tokens %v before the error, want %v", kinds, want)
	}
}

// A read error met while a bound string is counted comes after what the
// bytes already read decide, as it does unbound: here the string's
// closing quote stands within a \u escape cut by the read (a fault, not
// a string that may go on), and the bound and unbound readers of the
// same stream report the same fault. Where the bytes read do not close
// the string, both report the read error.
func TestLimitStringReadErrorAfterFault(t *testing.T) {
	boom := errors.New("boom")
	for _, tail := range []string{`\u"]`, `\u1"]`, `\u12"`, `\u`, `\u12`, `ab`} {
		for m := 8; m <= 24; m++ {
			text := `["` + strings.Repeat(`\n`, m) + tail
			read := func(bound bool) error {
				r := NewReader(&dataThenError{text: text, err: boom})
				if _, err := r.NextToken(); err != nil {
					t.Fatal(err)
				}
				if bound {
					r.LimitString(m + 4)
				}
				_, err := r.NextToken()
				return err
			}
			bounded, unbounded := read(true), read(false)
			if bounded == nil || unbounded == nil || bounded.Error() != unbounded.Error() {
				t.Errorf("%d escapes then %s: bound %v, unbound %v", m, tail, bounded, unbounded)
			}
		}
	}
}

// TestCompactStaysLooseAfterACompactEscape: once a text has shown a form
// AppendString does not write, a later string whose escapes are all
// compact does not make it compact again (reader.go, strEnd reads a
// literal again only while the text is still compact).
func TestCompactStaysLooseAfterACompactEscape(t *testing.T) {
	for _, text := range []string{`["\u0041","\n"]`, `{"a":"\/","b":"\t\""}`} {
		r := NewStringReader(text)
		r.CheckCompact = true
		if _, err := tokens(r); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if r.Compact() {
			t.Errorf("%s read as compact", text)
		}
	}
}

// A bound string whose word, read at the bound's count, ends in an
// escaped backslash across its last two bytes (`abcdef\\`): the escape
// is one byte, the string closes right after it, and it fits a bound of
// its decoded length. Short escapes before it place that word at every
// offset; the string's raw bytes pass the bound, so it is counted.
func TestLimitStringEscapeAtWordEnd(t *testing.T) {
	for pad := range 8 {
		for m := 8; m <= 24; m++ {
			want := strings.Repeat("x", pad) + strings.Repeat("\n", m) + `abcdef\`
			text := `["` + strings.Repeat("x", pad) + strings.Repeat(`\n`, m) + `abcdef\\", "ghijklmnopqrstuvwxyz"]`
			for _, n := range []int{len(want) - 1, len(want), len(want) + 1, len(want) + 8} {
				r := NewReader(strings.NewReader(text))
				if _, err := r.NextToken(); err != nil {
					t.Fatal(err)
				}
				r.LimitString(n)
				tok, err := r.NextToken()
				var e *Error
				switch {
				case len(want) > n:
					if !errors.As(err, &e) || !e.LongString {
						t.Errorf("pad %d, %d escapes, bound %d: %q, %v; want a long string error", pad, m, n, tok.Text, err)
					}
				case err != nil || tok.Text != want:
					t.Errorf("pad %d, %d escapes, bound %d: %q, %v; want %q", pad, m, n, tok.Text, err, want)
				}
			}
		}
	}
}

// A number cut by the end of a full buffer (the first read fills it) is
// read whole, as the text held whole reads it, wherever the cut falls in
// it, and at its very end.
func TestNumberAtFullBufferEnd(t *testing.T) {
	const number = "-12345.678e+9"
	for cut := 1; cut <= len(number); cut++ {
		text := `[` + strings.Repeat(" ", initialBuffer-1-cut) + number + `,1]`
		want, err := tokens(NewStringReader(text))
		if err != nil {
			t.Fatal(err)
		}
		got, err := tokens(NewReader(strings.NewReader(text)))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("cut %d bytes in: %v, %v; want %v", cut, got, err, want)
		}
	}
}
