package tokens_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// The counts below were taken from the published cl100k_base and o200k_base
// tables; a wrong table or a network fallback would change them.
func TestCountKnownStrings(t *testing.T) {
	cases := []struct {
		enc, text string
		want      int
	}{
		{tokens.CL100K, "", 0},
		{tokens.CL100K, "hello world", 2},
		{tokens.CL100K, "\t", 1},
		{tokens.CL100K, "\n", 1},
		{tokens.O200K, "hello world", 2},
		{tokens.CL100K, "<|endoftext|>", 7},
	}
	for _, c := range cases {
		got, err := tokens.Count(c.enc, c.text)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("Count(%s, %q) = %d, want %d", c.enc, c.text, got, c.want)
		}
	}
}

func TestUnknownEncoding(t *testing.T) {
	if _, err := tokens.Count("no_such_base", "x"); err == nil {
		t.Fatal("Count with an unknown encoding succeeded")
	}
}

// TestMustGet: the embedded encodings load without an error to handle, as
// the same encoding Get returns; an unknown name panics.
func TestMustGet(t *testing.T) {
	for _, name := range []string{tokens.CL100K, tokens.O200K} {
		want, err := tokens.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := tokens.MustGet(name); got != want {
			t.Errorf("MustGet(%s) = %p, Get gives %p", name, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustGet of an unknown name did not panic")
		}
	}()
	tokens.MustGet("no_such_base")
}

// TestPieceRules: one case per alternative of the two pre-tokenizer
// expressions and per choice their backtracking makes, against the oracle.
func TestPieceRules(t *testing.T) {
	for _, text := range pieceRuleTexts {
		checkAgainstOracle(t, text)
		checkLowerBound(t, text)
	}
}

// pieceRuleTexts has a case for each alternative of the two pre-tokenizer
// expressions and for each choice their backtracking makes.
var pieceRuleTexts = []string{
	"it's", "IT'S", "we'RE", "they'Ve", "I'm", "you'LL", "he'd", "'s", "'sup", "''s", "'x", "'", "'re'", "'l", "'ll",
	"don't'll", "McDonald's", "O'Brien", "rock'n'roll",
	"hello", " hello", "\thello", ".hello", "\u00a0hello", "\u3000hello", "\rhello", "\nhello", "1hello",
	"HTTPServer", "iPhone", "HELLO world", "HELLOworld", "HelloWorld", "ABCd", "ǅemal", "ǅ", "ʰʰʰ", "ʰA", "Aʰ", "Aʰb",
	"日本語", "Ａｂｃ", "e\u0301", "\u0301", "\u0301\u0301a", ".\u0301", "..\u0301", "A\u0301B", "a\u0301'S",
	"1", "12", "123", "1234", "1234567", "٣٤٥٦", "²³", "Ⅻ", "１２３４", "x1y22z333",
	"  hello", "   ", "a   ", "a   b", "a \t b", "\n", "\n\n", "\r\n", " \n ", "\n  x", "\t\n\tx", " \r\n\r\n  y",
	"\u2028", "a\u2028b", "\u0085x", "\v\fx", "\u00a0\u00a0x", "\u3000\u3000", "x\u200bx", "\ufeff",
	"...", " ...", "...hello", "!?\n\n", "a/b//c\n", " //x", "{\"a\":1}", "[1,2]", "a=b,c\\d", "\\t\\n\\\\",
	"😀", "👍🏽", "👨‍👩‍👧", "🇺🇸", "❤️", "1️⃣", " 😀x",
	"\xff", "a\xffb", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "x\x00y",
	"<|endoftext|>", "<|fim_prefix|>",
}

// TestContractionLettersAreASCII: the pre-tokenizer compares only ASCII
// letters with the contractions' (?i) letters, which is right only if no
// other rune lowers to one of them, as the expression engine lowers.
func TestContractionLettersAreASCII(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= utf8.MaxRune; r++ {
		if l := toLower(r); l < utf8.RuneSelf && strings.ContainsRune("'strvemld", l) {
			t.Errorf("%U lowers to %q", r, l)
		}
	}
}

// textPart draws one part of a test string from the kinds the pre-tokenizer
// treats differently.
func textPart() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom(fragments),
		rapid.SampledFrom(fragments),
		runOf("letters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüßøЖжΩωاب日本字ǅʰー", 300),
		runOf("lower", "etaoinshrdlu", 300),
		runOf("digits", "0123456789٣٤²Ⅻ１", 40),
		runOf("spaces", " \t\n\r\v\f\u0085\u00a0\u1680\u2000\u2007\u200a\u2028\u2029\u202f\u205f\u3000", 40),
		runOf("blanks", " ", 80),
		runOf("punctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~«»¿¡…—–·•§", 30),
		runOf("separators", "\t\n =,\\{}[]:\"", 20),
		runOf("marks", "\u0300\u0301\u0308\u0327\u094d\u093f\u064e\u20dd\ufe0f\u200d", 6),
		rapid.Map(rapid.Rune(), func(r rune) string { return string(r) }),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 1, 6), func(b []byte) string { return string(b) }),
		rapid.Custom(func(t *rapid.T) string {
			s := rapid.SampledFrom(fragments).Draw(t, "repeated")
			return strings.Repeat(s, rapid.IntRange(2, 60).Draw(t, "times"))
		}),
	)
}

// fragments are words, contractions, scripts, emoji and escapes that
// exercise one rule each.
var fragments = []string{
	"'s", "'S", "'t", "'T", "'re", "'RE", "'Re", "'ve", "'VE", "'m", "'M", "'ll", "'LL", "'d", "'D", "'", "''", "'x", "'r", "'l",
	"hello", "Hello", "HELLO", "HTTPServer", "iPhone", "camelCase", "snake_case", "kebab-case", "ǅemal", "ʰ",
	"Привет", "мир", "مرحبا", "بالعالم", "नमस्ते", "हिन्दी", "日本語", "中文字", "한국어", "ไทย", "Ελληνικά", "עברית",
	"😀", "👍🏽", "👨‍👩‍👧", "🇺🇸", "❤️", "1️⃣", "e\u0301", "\u0301", "a\u0308\u0301",
	`\u12`, `\x`, `\\`, `\"`, `\n`, `\t`, `\uD800`, `\u0000`, "%zz", "&#x;", `\,`, `\=`, `\s`,
	"\t", "\n", " ", "=", ",", "\\", "\r\n", "\r", "\u00a0", "\u3000", "\u2028", "\ufeff", "\u200b",
	"{", "}", "[", "]", ":", "\"", `{"`, `":"`, `","`, `"}`, `"},{"`, `":[`, `null`, `true`, `1.5e-7`, `-0`,
	"GCX1 tool=search_symbols fields=id,kind,name rows=3\n", "internal/mcp/server.go", "func(a int, b string) error",
	"2026-10-29T09:15:00Z", "<|endoftext|>", "1234567", "  ", "\n\n", "\t\t",
}

// runOf draws a run of up to max runes from alphabet.
func runOf(name, alphabet string, max int) *rapid.Generator[string] {
	runes := []rune(alphabet)
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(1, max).Draw(t, name+"Length")
		if rapid.Bool().Draw(t, name+"Single") {
			return strings.Repeat(string(rapid.SampledFrom(runes).Draw(t, name)), n)
		}
		// Draw a seed, not every rune: long runs stay cheap to generate
		// and to shrink.
		r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, name+"Seed"), 1))
		var b strings.Builder
		for range n {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		return b.String()
	})
}

// testText draws a string of a few parts.
func testText() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(textPart(), 0, 10).Draw(t, "parts")
		return strings.Join(parts, "")
	})
}

// TestPropertyCountEqualsOracle: on generated text, both encodings count
// exactly what tiktoken-go counts, and the lower bound CountUpTo starts
// with never passes tiktoken-go's cl100k_base count.
func TestPropertyCountEqualsOracle(t *testing.T) {
	gen.Check(t, 10000, func(t *rapid.T) {
		text := testText().Draw(t, "text")
		checkAgainstOracle(t, text)
		checkLowerBound(t, text)
	})
}

// checkLowerBound checks the cl100k_base lower bound on text against
// tiktoken-go's count.
func checkLowerBound(t fataler, text string) {
	t.Helper()
	bound, want := tokens.CL100KLowerBound([]byte(text), math.MaxInt), oracleCount(t, tokens.CL100K, text)
	if bound > want {
		t.Fatalf("the lower bound of %s is %d, tiktoken-go counts %d", quote(text), bound, want)
	}
}

// TestPropertyCountUpTo: CountUpTo is exact up to its limit and says when
// the text costs more, in each encoding: cl100k_base's, which takes a
// lower bound first, and o200k_base's, which has none and counts.
func TestPropertyCountUpTo(t *testing.T) {
	for _, name := range []string{tokens.CL100K, tokens.O200K} {
		e := encoding(t, name)
		t.Run(name, func(t *testing.T) {
			gen.Check(t, 1000, func(t *rapid.T) {
				text := []byte(testText().Draw(t, "text"))
				full := e.CountBytes(text)
				limit := rapid.IntRange(-1, full+2).Draw(t, "limit")
				n, exact := e.CountUpTo(text, limit)
				switch {
				case full <= limit && (n != full || !exact):
					t.Fatalf("CountUpTo(limit %d) = %d, %v; the count is %d", limit, n, exact, full)
				case full > limit && (n <= limit || n > full || exact):
					t.Fatalf("CountUpTo(limit %d) = %d, %v; the count is %d", limit, n, exact, full)
				}
			})
		})
	}
}

// TestScorecardCorpus: every case of the scorecard corpus, as its compact
// JSON, its pretty JSON and its GCX1 payload, counts as tiktoken-go counts
// it.
func TestScorecardCorpus(t *testing.T) {
	cases, err := scorecard.LoadCases(filepath.Join("..", "bench", "wire-format", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		payload, err := jsonmap.Encode(c.Tool, c.Response)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		t.Run(c.Name, func(t *testing.T) {
			for _, text := range [][]byte{c.Response, c.Pretty, payload} {
				checkAgainstOracle(t, string(text))
				checkLowerBound(t, string(text))
			}
			t.Logf("cl100k_base lower bound / count: JSON %d/%d, GCX1 %d/%d",
				tokens.CL100KLowerBound(c.Response, math.MaxInt), oracleCount(t, tokens.CL100K, string(c.Response)),
				tokens.CL100KLowerBound(payload, math.MaxInt), oracleCount(t, tokens.CL100K, string(payload)))
		})
	}
}

// longInputs are single pieces of n bytes, or runs the pre-tokenizer cuts
// into many pieces, of each kind.
var longInputs = []struct {
	name string
	make func(n int) string
}{
	{"RandomWord", func(n int) string { return randomWord(n, "abcdefghijklmnopqrstuvwxyz") }},
	{"EnglishishWord", func(n int) string { return randomWord(n, "etaoinshrdlucmfwypvbgkqjxz") }},
	{"OneLetter", func(n int) string { return strings.Repeat("a", n) }},
	{"Digits", func(n int) string { return randomWord(n, "0123456789") }},
	{"Spaces", func(n int) string { return strings.Repeat(" ", n) }},
	{"SpacesThenWord", func(n int) string { return strings.Repeat(" ", n-1) + "x" }},
	{"Tabs", func(n int) string { return strings.Repeat("\t", n) }},
	{"Newlines", func(n int) string { return strings.Repeat("\r\n", n/2) }},
	{"Punctuation", func(n int) string { return randomWord(n, "!#$%&*+-./:;<=>?@^_|~") }},
	{"Cyrillic", func(n int) string { return randomWord(n, "абвгдежзиклмнопрстуфхцчшщыэюя") }},
}

func randomWord(n int, alphabet string) string {
	r := rand.New(rand.NewPCG(uint64(n), 2))
	runes := []rune(alphabet)
	var b strings.Builder
	for b.Len() < n {
		b.WriteRune(runes[r.IntN(len(runes))])
	}
	return b.String()
}

// TestLongPieces: single pieces far longer than any token count as
// tiktoken-go counts them, up to 10 KiB, where its quadratic merge still
// takes a fraction of a second; at 1 MiB, where it would take many
// minutes, the count finishes (BenchmarkLongPiece shows the time grows
// linearly).
func TestLongPieces(t *testing.T) {
	sizes := []int{64, 512, 4 << 10, 10 << 10}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, in := range longInputs {
		t.Run(in.name, func(t *testing.T) {
			for _, n := range sizes {
				checkAgainstOracle(t, in.make(n))
			}
			text := in.make(1 << 20)
			for _, name := range encodingNames {
				n := encoding(t, name).Count(text)
				if n < len(text)/128 || n > len(text) {
					t.Errorf("%s: %d bytes count %d tokens", name, len(text), n)
				}
			}
		})
	}
}

// TestConcurrentCounts: counts running at once, more than there are
// caches, each get the oracle's counts.
func TestConcurrentCounts(t *testing.T) {
	texts := []string{"hello world", strings.Repeat("concurrency ", 300), "日本語のテキスト", strings.Repeat("ab", 5000)}
	want := make([]int, len(texts))
	for i, text := range texts {
		want[i] = oracleCount(t, tokens.CL100K, text)
	}
	e := encoding(t, tokens.CL100K)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 32 {
		wg.Go(func() {
			for k := range 50 {
				i := (g + k) % len(texts)
				if got := e.Count(texts[i]); got != want[i] {
					errs <- fmt.Sprintf("goroutine %d: Count(%s) = %d, want %d", g, quote(texts[i]), got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestSmallPieceKeys: pieces of up to eight bytes are cached by the word
// that holds them and their length, so pieces whose words agree once
// masked — a piece and the same bytes with NULs after them, pieces that
// end a text's last eight bytes — must still count apart, each as
// tiktoken-go counts it, however often they repeat.
func TestSmallPieceKeys(t *testing.T) {
	texts := []string{
		"a\x00 a\x00\x00 a a\x00\x00\x00",
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00 \x00 \x00\x00",
		strings.Repeat("ab ab\x00 ab\x00\x00 ", 40) + "ab",
		strings.Repeat("12345678 1234567 123 ", 30) + "1234",
		strings.Repeat("éé ééé\x00 é", 20),
		"tail:abcdefgh",
		"x",
	}
	for _, text := range texts {
		checkAgainstOracle(t, text)
		// And again, now that the caches hold its pieces.
		checkAgainstOracle(t, text)
	}
}

// TestLongPieceCacheCycles: more long pieces than the long cache holds,
// alike but in their middle, counted in cycles so that every way of a set
// is hit, moved and evicted, count as tiktoken-go counts them each time.
func TestLongPieceCacheCycles(t *testing.T) {
	var b strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&b, " DefaultImport%cBatch%cSizeFor%cIndexer", 'A'+rune(i%26), 'a'+rune(i/26%26), 'a'+rune(i/676%26))
	}
	text := b.String()
	for range 3 {
		checkAgainstOracle(t, text)
		checkAgainstOracle(t, text[:len(text)/3])
	}
}
