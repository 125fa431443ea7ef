package codec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// Retag rewrites the tag of header lines only: not a guarded row, not a
// longer tag, not a malformed one [VER-1] [ROW-4].
func TestRetag(t *testing.T) {
	in := "GCX1 tool=t fields=a\n\\GCX1 x\n#GCX1\nGCX1\nGCX10 y\nGCX1\r\nGCX1"
	want := "GCX2-draft.1 tool=t fields=a\n\\GCX1 x\n#GCX1\nGCX2-draft.1\nGCX10 y\nGCX1\r\nGCX2-draft.1"
	out, lines := codec.Retag([]byte(in), "GCX1", "GCX2-draft.1")
	if string(out) != want || !cmp.Equal(lines, []int{1, 4, 7}) {
		t.Errorf("Retag = %q, %v; want %q, [1 4 7]", out, lines, want)
	}
	if out, lines := codec.Retag([]byte("x\n"), "GCX1", "GCX2"); string(out) != "x\n" || lines != nil {
		t.Errorf("nothing to rewrite: %q, %v", out, lines)
	}
}

// ReadWire under a draft's tag gives every input the outcome GCX1's
// decoder gives its GCX1 spelling: the same sections, or the same error at
// the same place in the draft's bytes; GCX1 itself is another version
// there [VER-2] [VER-4].
func TestReadWire(t *testing.T) {
	const tag = "GCX2-draft.1" // 8 bytes longer than GCX1
	cases := []struct {
		in           string
		class        error
		rule, errTag string
		line, col    int
	}{
		{in: "GCX2-draft.1 tool=t fields=a\nx\nGCX2-draft.1 tool=u fields=b\n#c\ny\n"},
		{in: "GCX1 tool=t fields=a\nx\n", class: spec.ErrUnsupportedVersion, rule: "VER-2", errTag: "GCX1", line: 1, col: 1},
		{in: "GCX2-draft.1 tool=t fields=a\nx\nGCX1 tool=u fields=b\n", class: spec.ErrUnsupportedVersion, rule: "VER-4", errTag: "GCX1", line: 3, col: 1},
		{in: "GCX2-draft.1 tool=t fields=a\nGCX2 tool=u fields=b\n", class: spec.ErrUnsupportedVersion, rule: "VER-4", errTag: "GCX2", line: 2, col: 1},
		{in: "GCX_ tool=t fields=a\n", class: spec.ErrUnsupportedVersion, rule: "VER-2", errTag: "GCX_", line: 1, col: 1},
		{in: "GCX2-draft.1 tool=t  fields=a\n", class: spec.ErrSyntax, rule: "HDR-1", line: 1, col: 21},
		{in: "GCX2-draft.1 tool=t fields=a\n\\q\n", class: spec.ErrSyntax, rule: "VAL-2", line: 2, col: 2},
		{in: "GCX2-draft.1 tool=t fields=a\nx\nGCX2-draft.1 tool=t fields=a,a\n", class: spec.ErrConstraint, rule: "HDR-6", line: 3, col: 30},
		{in: "GCX2-draft.1\ttool=t\n", class: spec.ErrSyntax, rule: "VER-3", line: 1, col: 13},
	}
	for _, c := range cases {
		p, err := codec.ReadWire(tag, []byte(c.in), spec.DefaultLimits)
		if c.class == nil {
			gcx1, _ := codec.Retag([]byte(c.in), tag, spec.Version)
			want, werr := streaming.Decode(strings.NewReader(string(gcx1)), spec.DefaultLimits)
			if err != nil || werr != nil || !cmp.Equal(p, want) {
				t.Errorf("ReadWire(%q) = %v, %v; want %v", c.in, p, err, want)
			}
			continue
		}
		var e *spec.Error
		if !errors.As(err, &e) || !errors.Is(err, c.class) || e.Rule != c.rule || e.Tag != c.errTag || e.Line != c.line || e.Column != c.col || p != nil {
			t.Errorf("ReadWire(%q): %#v, want %v [%s] tag %q at %d:%d", c.in, err, c.class, c.rule, c.errTag, c.line, c.col)
			continue
		}
		if want := offset(c.in, c.line, c.col); e.Offset != want {
			t.Errorf("ReadWire(%q): offset %d, want %d", c.in, e.Offset, want)
		}
		if c.errTag != "" && !strings.Contains(e.Error(), c.errTag+" is not "+tag) {
			t.Errorf("ReadWire(%q): message %q does not compare the tags", c.in, e.Error())
		}
	}
}

func offset(s string, line, col int) int64 {
	off := 0
	for range line - 1 {
		off += strings.IndexByte(s[off:], '\n') + 1
	}
	return int64(off + col - 1)
}

// WriteWire writes GCX1's canonical bytes under the tag, and ReadWire
// reads them back.
func TestWriteWire(t *testing.T) {
	v, err := jsonmap.Parse([]byte(`{"a":[{"x":"GCX1 y"}],"b":"hello world"}`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := jsonmap.Model("t", v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := codec.WriteWire("GCX2-draft.1", p)
	want := "GCX2-draft.1 tool=t fields=a,b json=row rows=1\n@\thello world\nGCX2-draft.1 tool=t.a fields=x rows=1\n\\GCX1 y\n"
	if err != nil || string(out) != want {
		t.Fatalf("WriteWire = %q, %v; want %q", out, err, want)
	}
	back, err := codec.ReadWire("GCX2-draft.1", out, spec.DefaultLimits)
	if err != nil || !cmp.Equal(back, p) {
		t.Errorf("ReadWire(WriteWire(p)) = %v, %v; want %v", back, err, p)
	}
}
