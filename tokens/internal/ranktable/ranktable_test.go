package ranktable

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// sampleTokens returns every single byte and tokens of 2 to 40 bytes, in
// every table, with distinct ranks; and byte sequences that are not
// tokens, some of them a token with one bit changed.
func sampleTokens() (tokens []Token, others [][]byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	add := func(b []byte) {
		if !seen[string(b)] {
			seen[string(b)] = true
			tokens = append(tokens, Token{Bytes: b, Rank: uint32(len(tokens))})
		}
	}
	for c := range 256 {
		add([]byte{byte(c)})
	}
	for range 5000 {
		b := make([]byte, 2+rng.IntN(39))
		for i := range b {
			b[i] = byte('a' + rng.IntN(4))
		}
		add(b)
	}
	for _, tok := range tokens[256:] {
		b := append([]byte(nil), tok.Bytes...)
		b[rng.IntN(len(b))] ^= 1 << rng.IntN(8)
		if !seen[string(b)] {
			others = append(others, b)
		}
	}
	others = append(others, []byte(strings.Repeat("a", 41)), []byte{})
	return tokens, others
}

// TestBuildOpen: every token of a table Build wrote has its rank, read in
// place and copied out, and nothing else has one.
func TestBuildOpen(t *testing.T) {
	tokens, others := sampleTokens()
	data, err := Build(tokens)
	if err != nil {
		t.Fatal(err)
	}
	file := string(data)
	for _, copySlots := range []bool{false, true} {
		if !copySlots && !inPlace(file) {
			t.Log("this machine reads the table copied out only")
			continue
		}
		tab, err := open(file, copySlots)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Tokens != len(tokens) || tab.Longest != 40 {
			t.Errorf("copy=%v: Tokens %d, Longest %d; want %d, 40", copySlots, tab.Tokens, tab.Longest, len(tokens))
		}
		pairs := 0
		for _, tok := range tokens {
			if got := tab.Rank(tok.Bytes); got != tok.Rank {
				t.Fatalf("copy=%v: Rank(%q) = %d, want %d", copySlots, tok.Bytes, got, tok.Rank)
			}
			if len(tok.Bytes) == 2 {
				pairs++
				if got := tab.Pair[int(tok.Bytes[0])<<8|int(tok.Bytes[1])]; got != tok.Rank {
					t.Fatalf("copy=%v: Pair[%q] = %d, want %d", copySlots, tok.Bytes, got, tok.Rank)
				}
			}
		}
		for _, b := range others {
			if got := tab.Rank(b); got != NoRank {
				t.Fatalf("copy=%v: Rank(%q) = %d for a sequence that is not a token", copySlots, b, got)
			}
		}
		noPair := 0
		for _, r := range tab.Pair {
			if r == NoRank {
				noPair++
			}
		}
		if noPair != len(tab.Pair)-pairs {
			t.Errorf("copy=%v: %d two-byte sequences without rank, want %d", copySlots, noPair, len(tab.Pair)-pairs)
		}
	}
}

// TestBuildIsDeterministic: go generate writes the same bytes every time,
// which the test that holds the embedded tables to their source relies on.
func TestBuildIsDeterministic(t *testing.T) {
	tokens, _ := sampleTokens()
	a, errA := Build(tokens)
	b, errB := Build(tokens)
	if errA != nil || errB != nil || string(a) != string(b) {
		t.Fatalf("two builds differ (errors %v, %v)", errA, errB)
	}
}

func TestBuildRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tokens []Token
		want   string
	}{
		{"empty token", []Token{{Bytes: nil, Rank: 0}}, "an empty token"},
		{"short twice", []Token{{[]byte("ab"), 0}, {[]byte("ab"), 1}}, "listed twice"},
		{"mid twice", []Token{{[]byte("abcdefghij"), 0}, {[]byte("abcdefghij"), 1}}, "listed twice"},
		{"long twice", []Token{{[]byte(strings.Repeat("x", 20)), 0}, {[]byte(strings.Repeat("x", 20)), 1}}, "listed twice"},
		{"no rank", []Token{{[]byte("a"), NoRank}}, "mark of no rank"},
	} {
		if _, err := Build(tc.tokens); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Build error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestOpenRefusesDamage: Open takes only what Build wrote, whole, so no
// lookup runs off a table.
func TestOpenRefusesDamage(t *testing.T) {
	tokens, _ := sampleTokens()
	data, err := Build(tokens)
	if err != nil {
		t.Fatal(err)
	}
	damaged := map[string]string{
		"truncated":       string(data[:len(data)-8]),
		"longer":          string(data) + "\x00\x00\x00\x00\x00\x00\x00\x00",
		"bad magic":       "X" + string(data[1:]),
		"header only":     string(data[:headerSize]),
		"last short full": string(withLastShortFull(data)),
	}
	for name, file := range damaged {
		for _, copySlots := range []bool{false, true} {
			if !copySlots && !inPlace(file) {
				continue
			}
			if _, err := open(file, copySlots); !errors.Is(err, ErrFormat) {
				t.Errorf("%s, copy=%v: Open error %v, want ErrFormat", name, copySlots, err)
			}
		}
	}
}

// withLastShortFull returns data with the last slot of the short table
// marked full.
func withLastShortFull(data []byte) []byte {
	out := append([]byte(nil), data...)
	shortLen := int(u32(string(data), len(magic)+4*3))
	at := headerSize + 4*pairs + shortSize*(shortLen-1) + 12
	out[at] = 1
	return out
}

func TestParse(t *testing.T) {
	tokens, err := Parse("t", []byte("YQ== 0\nYWI= 1\nYWJj 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens) != 3 || string(tokens[2].Bytes) != "abc" || tokens[2].Rank != 2 || string(tokens[0].Bytes) != "a" {
		t.Fatalf("Parse = %v", tokens)
	}
	for _, bad := range []string{"YQ==\n", "YQ== x\n", "!!!! 1\n", "YQ== 1234567890\n", "YQ== \n"} {
		if _, err := Parse("t", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "t:1: ") {
			t.Errorf("Parse(%q) error %v, want one at t:1", bad, err)
		}
	}
}
