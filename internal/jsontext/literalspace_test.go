package jsontext

import (
	"fmt"
	"testing"
)

// TestLiteralSpaces: a literal reader passes the spaces and the escapes
// \n, \t and \r between the text's tokens (literalSpaces), counting lines
// and columns as a string reader counts them in the decoded text, stops
// at the literal's closing quote (LiteralEnd), and refuses a raw control,
// any other escape and a backslash that ends the input where a token is
// due.
func TestLiteralSpaces(t *testing.T) {
	for _, c := range []struct {
		lit, tokens string
		end         int
	}{
		{`{\n  \"a\": [\n\t1\r\n  ]\n}"tail`, `'{' 0:1:1; a member name 5:2:3; '[' 12:2:10; a number 17:3:3; ']' 24:4:3; '}' 27:5:1; EOF`, 28},
		{`[ \n\n   \"x\" ,\n 2 ]  \n"`, `'[' 0:1:1; a string 9:3:4; a number 19:4:2; ']' 21:4:4; EOF`, 26},
		{`[1,	2]"`, `'[' 0:1:1; a number 1:1:2; json: line 1, column 4: expected a JSON value, found '\t'`, -1},
		{`[1,\u00202]"`, `'[' 0:1:1; a number 1:1:2; json: line 1, column 4: expected a JSON value, found '\\'`, -1},
		{`[1, \`, `'[' 0:1:1; a number 1:1:2; json: line 1, column 5: expected a JSON value, found '\\'`, -1},
		{`[1 "`, `'[' 0:1:1; a number 1:1:2; json: line 1, column 4: expected ',' or ']' in an array, found end of input`, -1},
		{`  \"s\"  "`, `a string 2:1:3; EOF`, 9},
		{`{\"a\" : \"b\"}\t"`, `'{' 0:1:1; a member name 1:1:2; a string 9:1:10; '}' 14:1:15; EOF`, 17},
		{`[1,\/2]"`, `'[' 0:1:1; a number 1:1:2; json: line 1, column 4: expected a JSON value, found '\\'`, -1},
	} {
		r := NewLiteralReader(c.lit)
		var got string
		for {
			tok, err := r.NextToken()
			if err != nil {
				got += fmt.Sprintf("%v", err)
				break
			}
			got += fmt.Sprintf("%v %d:%d:%d; ", tok.Kind, tok.Pos.Offset, tok.Pos.Line, tok.Pos.Column)
		}
		if got != c.tokens || r.LiteralEnd() != c.end {
			t.Errorf("%#q: %s, end %d; want %s, end %d", c.lit, got, r.LiteralEnd(), c.tokens, c.end)
		}
	}
}
