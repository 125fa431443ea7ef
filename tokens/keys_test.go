package tokens_test

import (
	"bytes"
	"encoding/base64"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// The rank table finds a byte sequence by a key packed from its bytes and
// its length, which must tell apart sequences that differ in one bit. The
// likeliest to be confused differ in the top bit of their last byte: a
// token ending in an ASCII letter, and the same bytes ending in the lead
// byte of a two-byte character, which BPE looks up while it merges a text
// that continues with that character. Counting such texts must agree with
// tiktoken-go for every such token of both tables.
func TestPackedKeysTellNeighboursApart(t *testing.T) {
	for _, name := range encodingNames {
		table, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		enc := encoding(t, name)
		checked := 0
		for _, line := range bytes.Split(table, []byte("\n")) {
			b64, _, _ := bytes.Cut(line, []byte(" "))
			token, err := base64.StdEncoding.DecodeString(string(b64))
			if err != nil || len(token) < 5 || len(token) > 8 {
				continue
			}
			last := token[len(token)-1]
			if last < 0x42 || last > 0x5f || !utf8.Valid(token) {
				continue
			}
			// The same bytes with the last one's top bit set: a lead byte of
			// C2 to DF, completed by a continuation byte.
			text := string(token[:len(token)-1]) + string([]byte{last | 0x80, 0x80})
			if got, want := enc.Count(text), oracleCount(t, name, text); got != want {
				t.Fatalf("%s: Count(%q) = %d, tiktoken-go counts %d (a neighbour of the token %q)", name, text, got, want, token)
			}
			checked++
		}
		if checked < 100 {
			t.Fatalf("%s: only %d tokens checked", name, checked)
		}
		t.Logf("%s: %d neighbours of tokens counted as tiktoken-go counts them", name, checked)
	}
}
