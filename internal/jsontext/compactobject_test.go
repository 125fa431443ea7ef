package jsontext

import "testing"

// IsCompactObject is CompactKind's answer for an object, and in a text it
// accepts CompactEnd finds the end of every value where CompactKind's
// checker does.
func compactObjectAsKind(t *testing.T, s string, depth int) {
	kind, ok, err := CompactKind(s, depth)
	want := err == nil && ok && kind == ObjectStart
	if got := IsCompactObject(s, depth); got != want {
		t.Fatalf("%q (depth %d): IsCompactObject %v, CompactKind %v %v %v", s, depth, got, kind, ok, err)
	}
	if !want {
		return
	}
	if end := CompactEnd(s, 0); end != len(s) {
		t.Fatalf("%q: CompactEnd %d, want %d", s, end, len(s))
	}
	// Each member's name and value, as the checker reads them.
	c := compactChecker{text: s, src: []byte(s), limitAt: -1}
	for i := 1; s[i] != '}'; {
		name, _, _, _ := scanString(c.src, i, true, nil)
		if CompactEnd(s, i) != name {
			t.Fatalf("%q: the name at %d ends at %d, CompactEnd says %d", s, i, name, CompactEnd(s, i))
		}
		end, _, _ := c.value(name + 1)
		if CompactEnd(s, name+1) != end {
			t.Fatalf("%q: the value at %d ends at %d, CompactEnd says %d", s, name+1, end, CompactEnd(s, name+1))
		}
		if i = end; s[i] == ',' {
			i++
		}
	}
}

func TestIsCompactObject(t *testing.T) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"a":"x\"}","b":[1,{"c":"]"}],"d":true,"e":null,"f":-1.5e3}`,
		`{"a":1,"a":2}`, `{"a": 1}`, `[1]`, `"x"`, ``, `{"a":"\u0041"}`, `{"a":{"b":{"c":{}}}}`,
		`{"a":"\\"}`, `{"a":"\\\""}`, `{"a":1}x`, `{"a":1`,
	} {
		compactObjectAsKind(t, s, 0)
		compactObjectAsKind(t, s, 2)
	}
}

func FuzzIsCompactObject(f *testing.F) {
	for _, s := range []string{`{"a":"x\"}","b":[1,{"c":"]"}]}`, `{"a":{"b":{}}}`, `{"a":"\\"}`} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, depth int) {
		compactObjectAsKind(t, s, depth%8)
	})
}
