package jsontext

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// partsReader returns its parts one read each, so that a test decides
// where the reader's buffer ends.
type partsReader struct{ parts []string }

func (p *partsReader) Read(b []byte) (int, error) {
	for len(p.parts) > 0 && p.parts[0] == "" {
		p.parts = p.parts[1:]
	}
	if len(p.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.parts[0])
	p.parts[0] = p.parts[0][n:]
	return n, nil
}

// plainEdgeTail is what follows a run of plain ASCII in a string literal:
// the rest of the literal up to and with its closing quote, and what it
// decodes to, or the fault it holds at offset at from the tail's start.
type plainEdgeTail struct {
	tail, text string
	fault      string
	at         int
	eof        bool // the input ends with the tail
}

var plainEdgeTails = []plainEdgeTail{
	{tail: `"`},
	{tail: "\x7f\"", text: "\x7f"},
	{tail: "é\"", text: "é"},
	{tail: `\n"`, text: "\n"},
	{tail: `\\"`, text: `\`},
	{tail: `\""`, text: `"`},
	{tail: `\u00e9"`, text: "é"},
	{tail: "\x00\"", fault: "control character U+0000 must be escaped in a string"},
	{tail: "\x1f\"", fault: "control character U+001f must be escaped in a string"},
	{tail: "\n\"", fault: "control character U+000a must be escaped in a string"},
	{tail: "\x80\"", fault: "string is not valid UTF-8"},
	{tail: "\xe2\x82\"", fault: "string is not valid UTF-8"},
	{tail: `\q"`, fault: `unknown escape \q in a string`, at: 1},
	{tail: "", fault: "string not closed before the end of input", eof: true},
	{tail: "~", fault: "string not closed before the end of input", at: 1, eof: true},
	{tail: `\`, fault: "string not closed before the end of input", at: 1, eof: true},
}

// plainRunOf is n bytes of printable ASCII that need no escape, space
// and '~' among them.
func plainRunOf(n int) string {
	b := make([]byte, n)
	for i := range b {
		c := byte(' ' + i%95)
		if c == '"' || c == '\\' {
			c = 'x'
		}
		b[i] = c
	}
	return string(b)
}

// TestPlainStringEdges: a string literal that begins with a run of plain
// ASCII reads as its text or fails with its fault, exactly where and as
// the rules say, whatever follows the run, wherever the buffer of a
// stream ends (its closing quote the last byte of a read or of the first
// buffer, or the first of the next), under MaxTokenBytes exactly at its
// length and a byte either side, and under LimitString likewise; and its
// text stays what it was once the reader has read on past it.
func TestPlainStringEdges(t *testing.T) {
	filler := `"` + strings.Repeat("f", 5000) + `"`
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 33, 100, 4089, 4090, 4091, 4092, 4093, 4094, 4095, 4096, 4097, 8200} {
		run := plainRunOf(n)
		for _, tl := range plainEdgeTails {
			lit := `"` + run + tl.tail
			// Pads that put the literal's last byte at 4094, 4095 and
			// 4096, about the end of the first buffer of a stream.
			pads := []int{0, 3}
			for q := 4094; q <= 4096; q++ {
				if p := q - len(lit); p >= 0 {
					pads = append(pads, p)
				}
			}
			for _, pad := range pads {
				in := strings.Repeat(" ", pad) + "[" + lit
				if !tl.eof {
					in += "," + filler + "]"
				}
				start := pad + 1
				for _, maxTok := range []int{0, len(lit) - 1, len(lit), len(lit) + 1} {
					checkPlainEdge(t, in, start, len(lit), run, tl, maxTok, -1)
				}
				if tl.fault == "" {
					d := n + len(tl.text)
					for _, limit := range []int{d - 1, d, d + 1} {
						if limit >= 0 {
							checkPlainEdge(t, in, start, len(lit), run, tl, 0, limit)
						}
					}
				}
			}
		}
	}
}

// checkPlainEdge reads in, whose second token is the literal of litLen
// bytes at start, with every kind of reader, and checks that token.
func checkPlainEdge(t *testing.T, in string, start, litLen int, run string, tl plainEdgeTail, maxTok, limit int) {
	t.Helper()
	// What the rules make of the literal: its text, or an error.
	var want *Error
	switch {
	case tl.fault != "" && maxTok > 0 && 1+len(run)+tl.at >= maxTok,
		tl.fault == "" && maxTok > 0 && litLen > maxTok:
		want = &Error{Offset: int64(start), Msg: "token longer than the limit of " + strconv.Itoa(maxTok) + " bytes", Limit: true}
	case tl.fault != "":
		want = &Error{Offset: int64(start + 1 + len(run) + tl.at), Msg: tl.fault}
	case limit >= 0 && len(run)+len(tl.text) > limit:
		want = &Error{Offset: int64(start), Msg: "string longer than " + strconv.Itoa(limit) + " bytes", Limit: true, LongString: true}
	}
	if want != nil {
		want.Line, want.Column = 1, int(want.Offset)+1
	}
	end := start + litLen // just past the literal's closing quote
	readers := map[string]func() *Reader{
		"whole":  func() *Reader { return NewStringReader(in) },
		"stream": func() *Reader { return NewReader(strings.NewReader(in)) },
		"half":   func() *Reader { return NewReader(iotest.HalfReader(strings.NewReader(in))) },
		"to-quote": func() *Reader {
			return NewReader(&partsReader{parts: []string{in[:min(end, len(in))], in[min(end, len(in)):]}})
		},
		"at-quote": func() *Reader {
			return NewReader(&partsReader{parts: []string{in[:max(end-1, 0)], in[max(end-1, 0):]}})
		},
	}
	if len(in) < 600 {
		readers["one-byte"] = func() *Reader { return NewReader(iotest.OneByteReader(strings.NewReader(in))) }
	}
	shown := QuotePrefix(in) // a long input named by its start and length
	for name, open := range readers {
		for _, arena := range []bool{false, true} {
			r := open()
			r.MaxTokenBytes = maxTok
			var texts []byte
			if arena {
				r.Arena = &texts
			}
			if tok, err := r.NextToken(); err != nil || tok.Kind != ArrayStart {
				t.Fatalf("%s: %s: first token %v, %v", name, shown, tok, err)
			}
			if limit >= 0 {
				r.LimitString(limit)
			}
			tok, err := r.NextToken()
			if want != nil {
				var got *Error
				if !errors.As(err, &got) || *got != *want {
					t.Fatalf("%s, MaxTokenBytes %d, LimitString %d: %s: got %v, %#v; want %#v", name, maxTok, limit, shown, tok, err, want)
				}
				continue
			}
			wantText := run + tl.text
			wantPos := Pos{Offset: int64(start), Line: 1, Column: start + 1}
			if err != nil || tok.Kind != String || tok.Text != wantText || tok.Pos != wantPos || r.Pos() != wantPos || r.InputOffset() != int64(end) {
				t.Fatalf("%s, MaxTokenBytes %d, LimitString %d: %s: got %v, %v, InputOffset %d; want the string at %v to %d",
					name, maxTok, limit, shown, tok, err, r.InputOffset(), wantPos, end)
			}
			if maxTok == 0 {
				// Read on: the buffer the literal was read from is
				// written again, and its text must not change.
				for {
					if _, err := r.NextToken(); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("%s: %s: after the literal: %v", name, shown, err)
					}
				}
				if tok.Text != wantText {
					t.Fatalf("%s, arena %v: %s: the literal's text became %q", name, arena, shown, tok.Text)
				}
			}
		}
	}
}
