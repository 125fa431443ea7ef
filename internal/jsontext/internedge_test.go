package jsontext

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestInternedNamesPastTheBound: once InternNames holds maxInterned
// names, a name interned before is still that one string, wherever it
// comes back; a name met only past the bound is a string of its own at
// each occurrence, equal to its text once the reader has read on, even
// when it shares keepName's slot with an interned name of the same
// length and first and last bytes that comes between its occurrences.
// ResetString drops what was interned: the names of the next text are
// new strings.
func TestInternedNamesPastTheBound(t *testing.T) {
	var text strings.Builder
	text.WriteByte('[')
	for i := range maxInterned {
		text.WriteString(`{"n` + strconv.Itoa(i) + `a":1},`)
	}
	// n1a is interned and nXa, met only past the bound, is not: they share a
	// slot, and alternate.
	late := []string{"n1a", "nXa", "n1a", "nXa", "nXa", "n1a", ""}
	for _, n := range late {
		text.WriteString(`{"` + n + `":1},`)
	}
	text.WriteString(`"` + strings.Repeat("z", 9000) + `"]`)
	if nameSlot("n1a") != nameSlot("nXa") {
		t.Fatal("the two names no longer share a slot; pick others")
	}
	var arena []byte
	r := NewReader(&chunker{s: text.String(), n: 7})
	r.InternNames, r.Arena = true, &arena
	var first unsafe.Pointer
	var got []string
	for i := 0; ; {
		k, s, err := r.NextText()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if k != Name {
			continue
		}
		if i == 1 {
			first = unsafe.Pointer(unsafe.StringData(s))
		}
		if i >= maxInterned {
			got = append(got, s)
		}
		i++
	}
	if len(r.interned) != maxInterned {
		t.Fatalf("%d names kept, want %d", len(r.interned), maxInterned)
	}
	seen := map[unsafe.Pointer]string{}
	for i, s := range got {
		if s != late[i] {
			t.Fatalf("late name %d: %q, want %q", i, s, late[i])
		}
		p := unsafe.Pointer(unsafe.StringData(s))
		switch {
		case s == "":
		case s == "n1a" && p != first:
			t.Errorf("late name %d: %q is not the string interned first", i, s)
		case s != "n1a" && seen[p] != "":
			t.Errorf("late name %d: %q shares a string with an earlier %q, past the bound", i, s, seen[p])
		}
		seen[p] = s
	}

	r.ResetString(`{"n1a":1}`)
	r.InternNames = true
	if _, err := r.NextToken(); err != nil {
		t.Fatal(err)
	}
	tok, err := r.NextToken()
	if err != nil || tok.Text != "n1a" {
		t.Fatalf("after ResetString: %v, %v", tok, err)
	}
	if unsafe.Pointer(unsafe.StringData(tok.Text)) == first || len(r.interned) != 1 {
		t.Errorf("after ResetString, %q is the string interned before it, or the names before are kept (%d)", tok.Text, len(r.interned))
	}
}
