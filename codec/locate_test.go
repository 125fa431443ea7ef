package codec_test

import (
	"errors"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// RemapError carries a mapping error from the GCX1 spelling of a draft's
// expanded model to the draft's own payload: a cell's column after cells
// that changed length, a header pair's column under a longer tag; what it
// cannot carry it puts at column 1, without a panic.
func TestRemapError(t *testing.T) {
	const tag = "GCX2-draft.9"
	section := func(meta []spec.Meta, rows ...[]string) *spec.Payload {
		return &spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"}, Meta: meta, Rows: rows}}}
	}
	rowForm := []spec.Meta{{Key: jsonmap.KeyJSON, Value: "row"}, {Key: "rows", Value: "1"}}
	cases := []struct {
		name         string
		plain, draft *spec.Payload
		payload      string
		line, column int
		rule         string
	}{
		{"a cell after a shorter one", section(rowForm, []string{"abcdef", "@"}), section(rowForm, []string{"^", "@"}),
			tag + " tool=t fields=a,b json=row rows=1\n^\t@\n", 2, 3, "MAP-11"},
		{"a header pair under a longer tag", section([]spec.Meta{{Key: jsonmap.KeyJSON, Value: "zzz"}}), section([]spec.Meta{{Key: jsonmap.KeyJSON, Value: "zzz"}}),
			tag + " tool=t fields=a,b json=zzz\n", 1, 37, "MAP-7"},
		{"a row the draft lacks", section(rowForm, []string{"abcdef", "@"}), section(rowForm),
			tag + " tool=t fields=a,b json=row rows=1\n", 2, 1, "MAP-11"},
		{"a pair the draft lacks", section([]spec.Meta{{Key: jsonmap.KeyJSON, Value: "zzz"}}), section(nil),
			tag + " tool=t fields=a,b\n", 1, 1, "MAP-7"},
	}
	for _, c := range cases {
		_, err := jsonmap.DecodePayload(c.plain)
		if err == nil {
			t.Fatalf("%s: the plain model decodes", c.name)
		}
		err = codec.RemapError(err, []byte(c.payload), tag, c.draft, c.plain)
		var e *spec.Error
		if !errors.As(err, &e) || e.Rule != c.rule || e.Line != c.line || e.Column != c.column {
			t.Errorf("%s: %v; want [%s] at %d:%d", c.name, err, c.rule, c.line, c.column)
		}
	}
	// A section the draft lacks: the error's line is the header of
	// plain's second section, which the draft's one section does not
	// reach.
	two := section(nil)
	two.Sections = append(two.Sections, spec.Section{Tool: "t.x", Fields: []string{"c"}})
	lacking := &spec.Error{Line: 2, Column: 9, Rule: "MAP-11"}
	var e *spec.Error
	if err := codec.RemapError(lacking, []byte(tag+" tool=t fields=a,b\n"), tag, section(nil), two); !errors.As(err, &e) || e.Line != 2 || e.Column != 1 {
		t.Errorf("a section the draft lacks: %v; want [MAP-11] at 2:1", err)
	}
	plain := errors.New("no position")
	if err := codec.RemapError(plain, nil, tag, section(nil), section(nil)); err != plain {
		t.Errorf("an error without a position came back as %v", err)
	}
}
