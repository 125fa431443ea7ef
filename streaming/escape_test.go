package streaming

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
)

// TestValueLetterIsSpec: the encoder's flat table is spec.ValueEscapes,
// and every byte with a letter is one the scanners stop at.
func TestValueLetterIsSpec(t *testing.T) {
	for c := range 256 {
		if got, want := valueLetter[c], spec.ValueEscapes.Letter(byte(c)); got != want {
			t.Fatalf("valueLetter[%#x] = %q, spec says %q", c, got, want)
		}
		if valueLetter[c] != 0 && notPlain(uint64(c)) == 0 {
			t.Fatalf("byte %#x has a letter but notPlain passes it", c)
		}
	}
}

// wantValue is appendValue's answer the slow way: spec's Append after
// utf8.ValidString.
func wantValue(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	return string(spec.ValueEscapes.Append(nil, s)), true
}

// checkValue runs appendValue on s behind a prefix of every length up to
// 16, so the value starts at every offset of a vector in the buffer too,
// and with the buffer's slack tight, so escapes must grow it.
func checkValue(t interface{ Fatalf(string, ...any) }, s string) {
	want, valid := wantValue(s)
	for pre := range 17 {
		prefix := strings.Repeat("p", pre)
		b := make([]byte, pre, pre+len(s)+valueSlack)
		copy(b, prefix)
		got, ok := appendValue(b, s)
		if ok != valid {
			t.Fatalf("appendValue(%q) valid = %v, want %v", s, ok, valid)
		}
		if ok && string(got) != prefix+want {
			t.Fatalf("appendValue(%q) = %q, want %q", s, got[pre:], want)
		}
		if ok && !bytes.Equal(got[:pre], []byte(prefix)) {
			t.Fatalf("appendValue(%q) changed what was in the buffer", s)
		}
	}
}

// TestPropertyAppendValue: appendValue writes what spec's Append writes and
// refuses what utf8.ValidString refuses, for strings of the bytes the
// scanners must tell apart at every position relative to 8- and 16-byte
// steps, broken sequences at the ends included.
func TestPropertyAppendValue(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		plain := rapid.IntRange(0, 40).Draw(t, "plain")
		tail := rapid.SliceOfN(rapid.SampledFrom(scanBytes), 0, 24).Draw(t, "tail")
		s := strings.Repeat("x", plain) + string(tail)
		if rapid.Bool().Draw(t, "longer") {
			s += strings.Repeat("y", rapid.IntRange(0, 20).Draw(t, "more"))
		}
		checkValue(t, s)
	})
}

// TestAppendValueEveryPosition puts each special byte, and each broken or
// whole UTF-8 sequence, at every position of values up to 40 bytes long.
func TestAppendValueEveryPosition(t *testing.T) {
	specials := []string{"\t", "\n", "\r", `\`, "\x00", "\x0b", "\x0e", "\x7f", "é", "€", "🙂",
		"\xc3", "\xe2\x82", "\xf0\x9f\x99", "\xff", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"}
	for n := range 41 {
		for _, sp := range specials {
			for at := 0; at <= n; at++ {
				checkValue(t, strings.Repeat("a", at)+sp+strings.Repeat("b", n-at))
			}
		}
	}
}

// TestAppendValueSecondBytes: for every lead byte and every second byte,
// followed by none to two continuation bytes (so that the sequences of
// two, three and four bytes each end whole) and a TAB, so that appendValue
// checks the sequence itself rather than hand the rest to validUTF8,
// appendValue accepts exactly what utf8.ValidString accepts: the bounds
// each lead puts on its second byte (0xA0 after 0xE0, 0x9F after 0xED,
// 0x90 after 0xF0, 0x8F after 0xF4, 0x80..0xBF otherwise) hold to the
// byte [ENC-1].
func TestAppendValueSecondBytes(t *testing.T) {
	for lead := 0x80; lead <= 0xFF; lead++ {
		for second := range 256 {
			for more := range 3 {
				s := []byte{byte(lead), byte(second)}
				s = append(s, bytes.Repeat([]byte{0x80}, more)...)
				checkValue(t, string(append(s, '\t')))
			}
		}
	}
}

// FuzzAppendValue checks appendValue against spec's Append and
// utf8.ValidString on arbitrary strings.
func FuzzAppendValue(f *testing.F) {
	f.Add("naïve → résumé\tcol 1\\n")
	f.Add("C:\\src\\x\r\n")
	f.Add("\xed\xa0\x80 broken")
	f.Fuzz(func(t *testing.T, s string) { checkValue(t, s) })
}

// TestAppendValueNearPageEnd places values so that their last bytes lie in
// the last 16 of a 4 KiB page, where the SSE2 scanner takes the tail a byte
// at a time rather than load past the value.
func TestAppendValueNearPageEnd(t *testing.T) {
	mem := make([]byte, 3<<12)
	base := int(uintptr(unsafe.Pointer(&mem[0])) & 0xfff)
	pageEnd := 2<<12 - base // an index of mem at a page boundary
	for _, v := range []string{"abc", "a\tb\\c", "0123456789abcde", "x\ny", "é\r", "\xc3", "ab\xe2\x82"} {
		for end := pageEnd - 16; end <= pageEnd; end++ {
			copy(mem[end-len(v):], v)
			checkValue(t, unsafe.String(&mem[end-len(v)], len(v)))
		}
	}
}

// TestEscapeASCIIWordsMatchesScanner: the portable word scanner, which only
// builds without the assembly (-tags purego, or off amd64), reads and
// writes what escapeASCII does, so that a default test run on amd64 checks
// it too: plain runs of every length around 8-byte steps, with an escape
// or a non-ASCII byte after them.
func TestEscapeASCIIWordsMatchesScanner(t *testing.T) {
	for n := range 40 {
		for _, end := range []string{"", "\t", "\\", "é", "x"} {
			s := strings.Repeat("abcdefgh", 5)[:n] + end
			src := unsafe.StringData(s)
			want := make([]byte, len(s)*2+valueSlack)
			got := make([]byte, len(s)*2+valueSlack)
			wantRead, wantWritten := escapeASCII(&want[0], len(want), src, len(s))
			read, written := escapeASCIIWords(&got[0], len(got), src, len(s))
			if read != wantRead || written != wantWritten || !bytes.Equal(got[:written], want[:wantWritten]) {
				t.Fatalf("escapeASCIIWords(%q) = %d, %d, %q; escapeASCII: %d, %d, %q",
					s, read, written, got[:written], wantRead, wantWritten, want[:wantWritten])
			}
		}
	}
}
