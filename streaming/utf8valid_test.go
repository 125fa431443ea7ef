package streaming

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

// utf8Validators are the validators a test holds against utf8.Valid: the
// one the package uses, and each path it may take on some machine.
var utf8Validators = []struct {
	name  string
	valid func([]byte) bool
}{
	{"validUTF8", validUTF8},
	{"portable", validUTF8Portable},
	{"vector", validUTF8Vector},
}

// fataler is what checkUTF8 needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkUTF8 fails t if a validator's answer on b differs from utf8.Valid's.
func checkUTF8(t fataler, b []byte) {
	t.Helper()
	want := utf8.Valid(b)
	for _, v := range utf8Validators {
		if v.name == "vector" && !haveUTF8Vector {
			continue
		}
		if got := v.valid(b); got != want {
			t.Fatalf("%s(%q) = %v, utf8.Valid says %v", v.name, b, got, want)
		}
	}
}

// utf8Cases are short byte sequences on either side of every rule of
// UTF-8, each with whether it is valid on its own.
var utf8Cases = []struct {
	name  string
	seq   string
	valid bool
}{
	// The edges of each length.
	{"U+0080", "\xc2\x80", true},
	{"U+07FF", "\xdf\xbf", true},
	{"U+0800", "\xe0\xa0\x80", true},
	{"U+D7FF", "\xed\x9f\xbf", true},
	{"U+E000", "\xee\x80\x80", true},
	{"U+FFFF", "\xef\xbf\xbf", true},
	{"U+10000", "\xf0\x90\x80\x80", true},
	{"U+FFFFF", "\xf3\xbf\xbf\xbf", true},
	// The lowest continuation after each lead with no narrower range:
	// E1..EC and EE..EF lead two, F1..F3 lead three.
	{"U+1000", "\xe1\x80\x80", true},
	{"U+40000", "\xf1\x80\x80\x80", true},
	{"U+100000", "\xf4\x80\x80\x80", true},
	{"U+10FFFF", "\xf4\x8f\xbf\xbf", true},
	{"euro", "€", true},
	{"emoji", "🙂", true},

	// Overlong forms.
	{"overlong 2: C0 80", "\xc0\x80", false},
	{"overlong 2: C1 BF", "\xc1\xbf", false},
	{"overlong 3: E0 80 80", "\xe0\x80\x80", false},
	{"overlong 3: E0 9F BF", "\xe0\x9f\xbf", false},
	{"overlong 4: F0 80 80 80", "\xf0\x80\x80\x80", false},
	{"overlong 4: F0 8F BF BF", "\xf0\x8f\xbf\xbf", false},

	// Surrogate halves.
	{"surrogate U+D800", "\xed\xa0\x80", false},
	{"surrogate U+DBFF", "\xed\xaf\xbf", false},
	{"surrogate U+DC00", "\xed\xb0\x80", false},
	{"surrogate U+DFFF", "\xed\xbf\xbf", false},
	{"surrogate pair as CESU-8", "\xed\xa0\xbd\xed\xb8\x82", false},

	// Above U+10FFFF.
	{"U+110000", "\xf4\x90\x80\x80", false},
	{"U+13FFFF", "\xf4\xbf\xbf\xbf", false},
	{"F5 lead", "\xf5\x80\x80\x80", false},
	{"F7 lead", "\xf7\xbf\xbf\xbf", false},
	{"F8 lead, five bytes", "\xf8\x88\x80\x80\x80", false},
	{"FC lead, six bytes", "\xfc\x84\x80\x80\x80\x80", false},
	{"FE", "\xfe", false},
	{"FF", "\xff", false},
	{"F5 alone", "\xf5", false},

	// Continuation bytes without a lead, or too many of them.
	{"lone 80", "\x80", false},
	{"lone BF", "\xbf", false},
	{"two continuations", "\x80\x80", false},
	{"extra after two-byte", "\xc2\x80\x80", false},
	{"extra after three-byte", "\xe2\x82\xac\x80", false},
	{"extra after four-byte", "\xf0\x9f\x99\x82\x80", false},

	// Sequences cut short, then ASCII (the filler follows each case).
	{"C2 then ASCII", "\xc2A", false},
	{"E2 then ASCII", "\xe2A", false},
	{"E2 82 then ASCII", "\xe2\x82A", false},
	{"F0 then ASCII", "\xf0A", false},
	{"F0 9F then ASCII", "\xf0\x9fA", false},
	{"F0 9F 99 then ASCII", "\xf0\x9f\x99A", false},
	// ... then another lead.
	{"C2 then C2 80", "\xc2\xc2\x80", false},
	{"E2 82 then E2 82 AC", "\xe2\x82\xe2\x82\xac", false},
	{"F0 9F 99 then F0 9F 99 82", "\xf0\x9f\x99\xf0\x9f\x99\x82", false},
	// ... or by the end of the input (when nothing follows the case).
	{"C2 at end", "\xc2", false},
	{"E2 82 at end", "\xe2\x82", false},
	{"F0 9F 99 at end", "\xf0\x9f\x99", false},
	{"F4 8F at end", "\xf4\x8f", false},
	{"C0 at end", "\xc0", false},
}

// TestValidUTF8Cases puts each case at every offset 0..47, so that it
// starts, ends and straddles every place of a 16- and a 32-byte step, with
// ASCII or multi-byte text before and after, in slices of every length up to
// 64 (cutting the case short where the slice ends inside it). Bytes that
// would complete a cut sequence follow each slice in the same array, so a
// validator that read past the slice's end would answer wrongly [VAL-3].
func TestValidUTF8Cases(t *testing.T) {
	fillers := []string{strings.Repeat("a", 64), strings.Repeat("é", 32), strings.Repeat("日本", 11)}
	for _, c := range utf8Cases {
		if utf8.ValidString(c.seq) != c.valid {
			t.Fatalf("%s: the table says valid=%v, utf8.Valid disagrees", c.name, c.valid)
		}
		for _, fill := range fillers {
			for off := range 48 {
				// Cut the filler at a character boundary at or after off.
				pre := fill[:off]
				for !utf8.ValidString(pre) {
					pre = fill[:len(pre)+1]
				}
				whole := pre + c.seq + fill
				for n := 0; n <= 64 && n <= len(whole); n++ {
					buf := []byte(whole[:n] + "\x80\x80\x80\xbf")
					b := buf[: n : n+4]
					checkUTF8(t, b)
					if fill[0] == 'a' && len(pre) == off && n >= off+len(c.seq) && validUTF8(b) != c.valid {
						t.Fatalf("%s at %d, %d bytes: validUTF8 = %v", c.name, off, n, !c.valid)
					}
				}
			}
		}
	}
}

// TestValidUTF8AllPairs checks every two bytes at every place of a block,
// and every three bytes across a block boundary, between ASCII and between
// valid multi-byte text.
func TestValidUTF8AllPairs(t *testing.T) {
	for _, fill := range []string{strings.Repeat("a", 40), strings.Repeat("é", 20)} {
		for off := 0; off < 34; off += 2 {
			b := []byte(fill[:off] + "xx" + fill)
			for x := range 1 << 16 {
				b[off], b[off+1] = byte(x>>8), byte(x)
				checkUTF8(t, b)
				checkUTF8(t, b[:off+2])
			}
		}
	}
	if testing.Short() {
		return
	}
	b := []byte(strings.Repeat("a", 14) + "xyz" + strings.Repeat("a", 15))
	for x := range 1 << 24 {
		b[14], b[15], b[16] = byte(x>>16), byte(x>>8), byte(x)
		if validUTF8(b) != utf8.Valid(b) {
			t.Fatalf("validUTF8(%q) = %v", b, !utf8.Valid(b))
		}
	}
}

// scripts are the alphabets valid text is drawn from: ASCII, Latin with
// accents, Cyrillic, Greek, CJK, emoji, and the edges of each length.
var scripts = [][]rune{
	[]rune("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789\t.,;:-_/\\()[]{}\x00\x7f"),
	[]rune("éèêëàâäçïîôöùûüÿñßøåæœÉÀÇ€£©®°±µ¶·×÷"),
	[]rune("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОП"),
	[]rune("αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜ"),
	[]rune("東京都渋谷区日本語のテキスト中文字符한국어ひらがなカタカナ"),
	[]rune("🙂😀🎉🚀👍🏽🧪🦀🐹"),
	{0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x10ffff},
}

// utf8Input draws valid text in a mixture of scripts, random bytes, or
// valid text with a few bytes changed, inserted, deleted or cut off.
func utf8Input(t *rapid.T) []byte {
	var b []byte
	switch rapid.IntRange(0, 2).Draw(t, "kind") {
	case 0, 2:
		n := rapid.IntRange(0, 120).Draw(t, "runes")
		for range n {
			script := scripts[rapid.IntRange(0, len(scripts)-1).Draw(t, "script")]
			b = utf8.AppendRune(b, script[rapid.IntRange(0, len(script)-1).Draw(t, "rune")])
		}
	case 1:
		b = rapid.SliceOfN(rapid.Byte(), 0, 200).Draw(t, "bytes")
	}
	for range rapid.IntRange(0, 3).Draw(t, "mutations") {
		if len(b) == 0 {
			break
		}
		at := rapid.IntRange(0, len(b)-1).Draw(t, "at")
		switch rapid.IntRange(0, 3).Draw(t, "mutation") {
		case 0:
			b[at] = rapid.Byte().Draw(t, "byte")
		case 1:
			b = append(b[:at:at], append([]byte{rapid.Byte().Draw(t, "inserted")}, b[at:]...)...)
		case 2:
			b = append(b[:at:at], b[at+1:]...)
		case 3:
			b = b[:at]
		}
	}
	return b
}

// TestPropertyValidUTF8MatchesStdlib: every validator answers as
// utf8.Valid does, on valid text in several scripts, on random bytes and
// on valid text with a few bytes damaged, at every offset from the start
// of an allocation [VAL-3].
func TestPropertyValidUTF8MatchesStdlib(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		b := utf8Input(t)
		skip := rapid.IntRange(0, 31).Draw(t, "skip")
		shifted := append(bytes.Repeat([]byte{'a'}, skip), b...)[skip:]
		checkUTF8(t, shifted)
	})
}

// FuzzValidUTF8 holds every validator to utf8.Valid on arbitrary bytes.
func FuzzValidUTF8(f *testing.F) {
	for _, c := range utf8Cases {
		f.Add([]byte(c.seq))
		f.Add([]byte("0123456789abcd" + c.seq + "ef"))
	}
	for _, s := range scripts {
		f.Add([]byte(string(s)))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkUTF8(t, b)
	})
}

// utf8BenchInputs are texts of 16 bytes, 200 bytes (about a row) and
// 10 KB in each kind of script, cut at a character boundary and made up
// to the size with spaces.
func utf8BenchInputs() []struct {
	name string
	text []byte
} {
	samples := []struct{ name, text string }{
		{"ascii", "func (d *Decoder) readPlainRow() bool { width := len(d.header.Fields) } "},
		{"mostly-ascii", "The café's naïve résumé — filed by José in São Paulo, 2 km from the coast. "},
		{"cyrillic", "Привет мир, это проверка текста на русском языке. "},
		{"cjk", "東京都渋谷区の日本語のテキスト、中文字符。"},
		{"emoji", "🙂😀🎉🚀👍🧪🦀🐹"},
	}
	var inputs []struct {
		name string
		text []byte
	}
	for _, s := range samples {
		for _, size := range []struct {
			name string
			n    int
		}{{"16B", 16}, {"200B", 200}, {"10KB", 10 << 10}} {
			long := strings.Repeat(s.text, size.n/len(s.text)+1)
			cut := size.n
			for !utf8.RuneStart(long[cut]) {
				cut--
			}
			text := []byte(long[:cut] + strings.Repeat(" ", size.n-cut))
			inputs = append(inputs, struct {
				name string
				text []byte
			}{s.name + "/" + size.name, text})
		}
	}
	return inputs
}

// BenchmarkValidUTF8 sets validUTF8 beside utf8.Valid on each input, and
// on the rows of the benchmark set's nonascii shape, one call per row as
// the decoder makes them (ns/row).
func BenchmarkValidUTF8(b *testing.B) {
	rows := nonASCIILines()
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"validUTF8", validUTF8}, {"utf8.Valid", utf8.Valid}} {
		b.Run("nonascii-rows/"+v.name, func(b *testing.B) {
			for b.Loop() {
				for _, row := range rows {
					if !v.valid(row) {
						b.Fatal("invalid")
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
		})
	}
	for _, in := range utf8BenchInputs() {
		if !utf8.Valid(in.text) {
			b.Fatalf("%s: the input is not valid UTF-8", in.name)
		}
		for _, v := range []struct {
			name  string
			valid func([]byte) bool
		}{{"validUTF8", validUTF8}, {"utf8.Valid", utf8.Valid}} {
			b.Run(in.name+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				for b.Loop() {
					if !v.valid(in.text) {
						b.Fatal("invalid")
					}
				}
			})
		}
	}
}

// nonASCIILines are the rows of the benchmark set's nonascii shape, each
// without its LF.
func nonASCIILines() [][]byte {
	lines := bytes.Split(bytes.TrimSuffix(nonASCIIRows().gcx, []byte("\n")), []byte("\n"))
	return lines[1:] // after the header
}

var (
	utf8Rounds = flag.Int("utf8.rounds", 0, "interleaved rounds of TestValidUTF8SideBySide (0: skip it)")
	utf8Time   = flag.Duration("utf8.time", 100*time.Millisecond, "time each validator runs per round")
)

// TestValidUTF8SideBySide times validUTF8, validUTF8Portable and
// utf8.Valid on each benchmark input and on the rows of the benchmark set's
// nonascii shape, in interleaved rounds — each round runs every validator
// once, in turn — and prints per input the median over rounds of the ratio
// of utf8.Valid's time to each one's, taken within a round, so that load
// which comes and goes on a shared machine weighs on both sides alike. It
// runs only when asked: go test -run ValidUTF8SideBySide -utf8.rounds 7.
func TestValidUTF8SideBySide(t *testing.T) {
	if *utf8Rounds <= 0 {
		t.Skip("a measurement, not a test: give -utf8.rounds N to run it")
	}
	type input struct {
		name  string
		texts [][]byte
	}
	var inputs []input
	for _, in := range utf8BenchInputs() {
		inputs = append(inputs, input{in.name, [][]byte{in.text}})
	}
	rows := nonASCIILines()
	inputs = append(inputs, input{fmt.Sprintf("nonascii rows (%d B avg)", len(bytes.Join(rows, nil))/len(rows)), rows})
	validators := []struct {
		name  string
		valid func([]byte) bool
	}{{"utf8.Valid", utf8.Valid}, {"validUTF8", validUTF8}, {"portable", validUTF8Portable}}
	// measure returns the time one validator takes over all of texts.
	measure := func(valid func([]byte) bool, texts [][]byte) float64 {
		n := 0
		start := time.Now()
		for time.Since(start) < *utf8Time {
			for range 64 {
				for _, text := range texts {
					if !valid(text) {
						t.Fatalf("%q: not valid", text)
					}
				}
			}
			n += 64
		}
		return float64(time.Since(start).Nanoseconds()) / float64(n)
	}
	ns := make([][][]float64, len(inputs)) // input, validator, round
	for i := range inputs {
		ns[i] = make([][]float64, len(validators))
	}
	for range *utf8Rounds {
		for i, in := range inputs {
			for k, v := range validators {
				ns[i][k] = append(ns[i][k], measure(v.valid, in.texts))
			}
		}
	}
	median := func(xs []float64) float64 {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		if n := len(xs); n%2 == 1 {
			return xs[n/2]
		}
		return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	// speedup is the median over rounds of utf8.Valid's time over k's.
	speedup := func(i, k int) float64 {
		r := make([]float64, *utf8Rounds)
		for round := range r {
			r[round] = ns[i][0][round] / ns[i][k][round]
		}
		return median(r)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "input\tutf8.Valid ns\tvalidUTF8 ns\tportable ns\tvalidUTF8 vs utf8.Valid\tportable vs utf8.Valid\t\n")
	for i, in := range inputs {
		per := float64(len(in.texts))
		fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%.1f\t%.2f×\t%.2f×\t\n", in.name,
			median(ns[i][0])/per, median(ns[i][1])/per, median(ns[i][2])/per, speedup(i, 1), speedup(i, 2))
	}
	w.Flush()
	fmt.Printf("\n%d interleaved rounds of %v per validator; ns per input (per row for the rows), medians; \"X vs utf8.Valid\" is the median of per-round ratios of utf8.Valid's time to X's; vector path in use: %v; %s %s/%s\n",
		*utf8Rounds, *utf8Time, haveUTF8Vector, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
