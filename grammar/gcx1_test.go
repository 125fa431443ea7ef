package grammar

import (
	"strings"
	"sync"
	"testing"
)

var (
	gcx1Once sync.Once
	gcx1     *Recognizer
	gcx1Err  error
)

// gcx1Recognizer returns the recognizer of gcx1.ebnf, built once.
func gcx1Recognizer(t testing.TB) *Recognizer {
	t.Helper()
	gcx1Once.Do(func() { gcx1, gcx1Err = LoadRecognizer() })
	if gcx1Err != nil {
		t.Fatal(gcx1Err)
	}
	return gcx1
}

// head is a header with one field, a, without its LF; hdr is the whole
// header line, 21 bytes long.
const (
	head = "GCX1 tool=t fields=a"
	hdr  = head + "\n"
)

// TestRecognizeGCX1 runs the GCX1 grammar on named payloads. A rejected
// payload's viable prefix is where the reference parser reports a syntax
// error [ERR-2]; for not-gcx and unsupported-version payloads, which the
// parser classifies before the grammar, it is where the grammar gives up.
func TestRecognizeGCX1(t *testing.T) {
	tests := []struct {
		rule   string
		name   string
		in     string
		ok     bool
		viable int // for accepted payloads, their length
	}{
		// Accepted.
		{"HDR-1", "minimal", hdr + "x\n", true, 0},
		{"HDR-1", "header only", hdr, true, 0},
		{"ROW-1", "two values", "GCX1 tool=t fields=a,b\nx\ty\n", true, 0},
		{"ROW-1", "empty line is one empty value", hdr + "\n", true, 0},
		{"ROW-3", "trailing empty values", "GCX1 tool=t fields=a,b,c\nx\t\t\n", true, 0},
		{"LINE-2", "empty rows and comments", hdr + "\n#\n\n", true, 0},
		{"ROW-4", "guarded #", hdr + "\\#x\n", true, 0},
		{"ROW-4", "guarded GCX", hdr + "\\GCX1 hi\n", true, 0},
		{"ROW-4", "G, GC and GCx start rows", hdr + "G\nGC\nGCx\nGx\nGC\\n\nG\\t\n", true, 0},
		{"ROW-4", "an unguarded # makes a comment, not a row", hdr + "#x\ty\n", true, 0},
		{"ROW-4", "# and GCX after the first value", "GCX1 tool=t fields=a,b\nx\t#GCX1\n", true, 0},
		{"VAL-1", "value escapes", hdr + "\\\\\\t\\n\\r\n", true, 0},
		{"ENC-4", "controls, NUL, U+2028 and U+FEFF are data", hdr + "\x00\x01\x1f\x7f\u2028\uFEFF\U0010FFFF\n", true, 0},
		{"ENC-4", "U+FFFD is data", hdr + "\uFFFD\n", true, 0},
		{"HDR-4", "one empty field name", "GCX1 tool=t fields=\n\n", true, 0},
		{"HDR-4", "empty field names", "GCX1 tool=t fields=,,\n\t\t\n", true, 0},
		{"HDR-5", "field name escapes", "GCX1 tool=t fields=\\\\\\t\\n\\r\\s\\,\n", true, 0},
		{"HDR-3", "tool name characters", "GCX1 tool=A-z_0.9 fields=a\n", true, 0},
		{"HDR-7", "meta values with raw , and = and escapes", head + " k=a,b=c\\s\\\\ e= .x=é\n", true, 0},
		{"META-5", "reserved keys in any position", head + " truncated=false rows=0 total=0\n", true, 0},
		{"CMT-1", "comment with TAB, backslash and no escapes", hdr + "#a\tb\\x\\\n", true, 0},
		{"CMT-2", "comment straight after the header", hdr + "#c\nx\n", true, 0},
		{"PAY-3", "sections with the same tool", hdr + "x\n" + hdr + "#c\n", true, 0},
		// Appendix B: the grammar accepts what only these rules reject.
		{"HDR-6", "repeated field name", "GCX1 tool=t fields=a,a\nx\ty\n", true, 0},
		{"HDR-8", "meta key tool", head + " tool=u\n", true, 0},
		{"HDR-8", "repeated meta key", head + " k=1 k=2\n", true, 0},
		{"META-1", "rows= not a count", head + " rows=01\n", true, 0},
		{"META-3", "truncated= neither true nor false", head + " truncated=yes\n", true, 0},
		{"META-4", "rows= disagrees", head + " rows=5\nx\n", true, 0},
		{"ROW-2", "too many values", hdr + "x\ty\n", true, 0},
		{"ROW-2", "too few values", "GCX1 tool=t fields=a,b\nx\n", true, 0},

		// Rejected.
		{"PAY-1", "empty input", "", false, 0},
		{"PAY-1", "JSON", `{"sections":[]}`, false, 0},
		{"ENC-2", "byte-order mark", "\uFEFF" + hdr, false, 0},
		{"CMT-2", "comment before the first header", "#c\n" + hdr, false, 0},
		{"LINE-1", "missing final LF", hdr + "x", false, 22},
		{"LINE-1", "header without LF", head, false, 20},
		{"ENC-3", "CR in a value", hdr + "x\r\n", false, 22},
		{"ENC-3", "CR in a comment", hdr + "#x\ry\n", false, 23},
		{"ENC-3", "CRLF header", head + "\r\n", false, 20},
		{"ENC-1", "invalid byte", hdr + "a\xffb\n", false, 22},
		{"ENC-1", "encoded surrogate", hdr + "a\xed\xa0\x80\n", false, 22},
		{"ENC-1", "cut sequence", hdr + "a\xc3", false, 22},
		{"VAL-2", "unknown escape", hdr + "x\\x\n", false, 23},
		{"VAL-2", "header escape in a value", hdr + "x\\s\n", false, 23},
		{"VAL-2", "lone trailing backslash", hdr + "x\\\n", false, 23},
		{"VAL-2", "guard after the first value", "GCX1 tool=t fields=a,b\nx\t\\#y\n", false, 26},
		{"ROW-4", "GCX row without guard", hdr + "GCXfoo\n", false, 24},
		{"ROW-4", "guard of G alone", hdr + "\\Gx\n", false, 23},
		{"HDR-2", "fields last", "GCX1 tool=t rows=0 fields=a\n", false, 12},
		{"HDR-2", "fields first", "GCX1 fields=a tool=t\n", false, 5},
		{"HDR-1", "two spaces", "GCX1  tool=t fields=a\n", false, 5},
		{"HDR-1", "no fields", "GCX1 tool=t\n", false, 11},
		{"HDR-1", "TAB in the header", head + "\tb\n", false, 20},
		{"HDR-1", "meta without =", head + " k\n", false, 22},
		{"HDR-3", "empty tool name", "GCX1 tool= fields=a\n", false, 10},
		{"HDR-3", "space after the fields", head + " \n", false, 21},
		{"HDR-5", "unknown field name escape", head + "\\x\n", false, 21},
		{"HDR-7", "comma escape in a meta value", head + " k=\\,\n", false, 24},
		{"VER-2", "other version", "GCX2" + hdr[4:], false, 3},
		{"VER-6", "reserved streaming tag", "GCX1-stream" + hdr[4:], false, 4},
		{"VER-4", "later section of another version", hdr + "GCX2" + hdr[4:], false, 24},
		{"VER-3", "malformed tag", "GCX\t1" + hdr[4:], false, 3},
	}
	r := gcx1Recognizer(t)
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.name, func(t *testing.T) {
			want := tt.viable
			if tt.ok {
				want = len(tt.in)
			}
			ok, viable := r.Recognize([]byte(tt.in))
			if ok != tt.ok || viable != want {
				t.Errorf("Recognize(%q) = %v, %d; want %v, %d", tt.in, ok, viable, tt.ok, want)
			}
		})
	}
}

// TestRecognizeLongValue keeps the recognizer linear on one long value, the
// case a memoising recognizer with a set of end positions per value would
// make quadratic.
func TestRecognizeLongValue(t *testing.T) {
	r := gcx1Recognizer(t)
	in := hdr + strings.Repeat("a\\tb ", 200000) + "\n"
	if ok, viable := r.Recognize([]byte(in)); !ok || viable != len(in) {
		t.Errorf("Recognize(1 MB value) = %v, %d; want true, %d", ok, viable, len(in))
	}
}
