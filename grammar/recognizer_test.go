package grammar_test

import (
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/grammar"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
)

func loadRecognizer(t testing.TB) *grammar.Recognizer {
	t.Helper()
	r, err := grammar.LoadRecognizer()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkViable checks what the viable prefix promises on any input: a
// sentence is viable to its end; the viable prefix of b is its own viable
// prefix; and the byte after it does not extend it. This is what makes it
// the offset of a syntax error [ERR-2].
func checkViable(r *grammar.Recognizer, b []byte) (string, bool) {
	ok, viable := r.Recognize(b)
	if viable < 0 || viable > len(b) {
		return "viable prefix out of range", false
	}
	if ok && viable != len(b) {
		return "accepted, but the viable prefix is shorter than the input", false
	}
	if _, v := r.Recognize(b[:viable]); v != viable {
		return "the viable prefix is not viable on its own", false
	}
	if viable < len(b) {
		if _, v := r.Recognize(b[:viable+1]); v != viable {
			return "one more byte extends the viable prefix", false
		}
	}
	return "", true
}

// TestPropertyViablePrefix checks the viable prefix on encoded payloads,
// whose every prefix is viable [LINE-1], and on mutations of them.
func TestPropertyViablePrefix(t *testing.T) {
	r := loadRecognizer(t)
	gen.Check(t, 1000, func(t *rapid.T) {
		b, err := reference.Encode(gen.Payload().Draw(t, "payload"))
		if err != nil {
			t.Fatalf("gen.Payload drew a model with no spelling: %v", err)
		}
		if ok, viable := r.Recognize(b); !ok || viable != len(b) {
			t.Fatalf("Recognize(encoded payload) = %v, %d; want true, %d", ok, viable, len(b))
		}
		// Cut between characters: half a character is not UTF-8 [ENC-1].
		cut := rapid.IntRange(0, len(b)).Draw(t, "cut")
		for cut < len(b) && !utf8.RuneStart(b[cut]) {
			cut--
		}
		if _, viable := r.Recognize(b[:cut]); viable != cut {
			t.Fatalf("prefix of %d bytes of a sentence has a viable prefix of %d", cut, viable)
		}
		m := gen.Mutate(t, b)
		if msg, ok := checkViable(r, m); !ok {
			t.Fatalf("%s: %s", msg, gen.Describe(m))
		}
	})
}

// FuzzRecognize checks that the recognizer never fails on any input and
// that its viable prefix keeps its promises.
func FuzzRecognize(f *testing.F) {
	r := loadRecognizer(f)
	f.Add([]byte("GCX1 tool=t fields=a,b rows=1\nx\ty\n"))
	f.Add([]byte("GCX1 tool=t fields=a\n\\#x\n\\GCX1\n#c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if msg, ok := checkViable(r, b); !ok {
			t.Fatalf("%s: %q", msg, b)
		}
	})
}

// benchPayload is a typical search result: one section, twenty rows.
func benchPayload(b *testing.B) []byte {
	p := []byte("GCX1 tool=search_symbols fields=id,kind,name,file,line rows=20 total=62\n")
	for i := 0; i < 20; i++ {
		p = append(p, "sym42\tfunction\tfunc(a int, b string) error\tinternal/mcp/server.go\t120\n"...)
	}
	return p
}

func BenchmarkRecognize(b *testing.B) {
	r := loadRecognizer(b)
	p := benchPayload(b)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := r.Recognize(p); !ok {
			b.Fatal("benchmark payload rejected")
		}
	}
}

func BenchmarkLoadRecognizer(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		loadRecognizer(b)
	}
}
