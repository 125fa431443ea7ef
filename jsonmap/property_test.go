package jsonmap_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// tools mixes undeclared names, declared tools and the section names of
// layouts, which a generic payload must not claim [LAY-4].
var tools = rapid.OneOf(
	rapid.SampledFrom([]string{"t", "result", "x.y", "search_symbols", "get_callers", "get_callers.nodes",
		"get_callers.edges", "graph_stats", "find_cycles", "get_symbol_source", "analyze", "find_usages"}),
	gen.Name(),
)

// roundTrip checks [MAP-4] for one JSON text: Encode then Decode gives the
// compact form of v, and the payload is canonical GCX1 [CAN-1].
func roundTrip(t *rapid.T, tool string, v jsonmap.Value, text []byte) []byte {
	payload, err := jsonmap.Encode(tool, text)
	if err != nil {
		t.Fatalf("Encode(%s, %q): %v", tool, text, err)
	}
	back, err := jsonmap.Decode(payload)
	if err != nil {
		t.Fatalf("Decode(%q): %v\n(from %q)", payload, err, text)
	}
	want := v.AppendCompact(nil)
	if diff := cmp.Diff(string(want), string(back)); diff != "" {
		t.Fatalf("decode(encode(v)) differs from v (-want +got):\n%s\npayload %q\ntext %q", diff, payload, text)
	}
	p, err := reference.Decode(payload)
	if err != nil {
		t.Fatalf("Encode wrote an invalid payload %q: %v", payload, err)
	}
	if again, _ := reference.Encode(p); !bytes.Equal(again, payload) {
		t.Fatalf("Encode wrote a payload that is not canonical: %q", payload)
	}
	return payload
}

// TestPropertyRoundTrip: decode(encode(v)) is v for every JSON value in
// every spelling, under every kind of tool name [MAP-4] [MAP-2].
func TestPropertyRoundTrip(t *testing.T) {
	gen.Check(t, 10000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		text := jsongen.Text(t, v)
		parsed, err := jsonmap.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if !jsonmap.Equal(parsed, v) {
			t.Fatalf("Parse(%q) = %s, want %s", text, parsed.AppendCompact(nil), v.AppendCompact(nil))
		}
		roundTrip(t, tools.Draw(t, "tool"), v, text)
	})
}

// TestPropertyRoundTripLayouts: values shaped for a declared tool, some
// fitting its layout and some not, round-trip; those that fit use the
// frozen sections and those that do not carry json= [LAY-2] [LAY-7].
func TestPropertyRoundTripLayouts(t *testing.T) {
	layouts := jsonmap.Layouts()
	gen.Check(t, 3000, func(t *rapid.T) {
		l := rapid.SampledFrom(layouts).Draw(t, "layout")
		v := jsongen.Fitting(l).Draw(t, "value")
		payload := roundTrip(t, l.Tool, v, jsongen.Text(t, v))
		p, err := reference.Decode(payload)
		if err != nil {
			t.Fatal(err)
		}
		_, generic := p.Sections[0].Lookup(jsonmap.KeyJSON)
		if fits := l.Fit(v) == nil; fits == generic {
			t.Fatalf("Fit(v) = %v but the payload's json= presence is %v:\n%s", l.Fit(v), generic, payload)
		}
		if !generic && p.Sections[0].Tool != l.Parts[0].Tool {
			t.Fatalf("layout payload begins with tool=%s, want %s", p.Sections[0].Tool, l.Parts[0].Tool)
		}
	})
}

// TestPropertyCompactIsAFixedPoint: the compact form is a JSON text whose
// compact form is itself, and it holds the same value [MAP-3].
func TestPropertyCompactIsAFixedPoint(t *testing.T) {
	gen.Check(t, 2000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		c, err := jsonmap.Compact(jsongen.Text(t, v))
		if err != nil {
			t.Fatal(err)
		}
		cc, err := jsonmap.Compact(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c, cc) {
			t.Fatalf("Compact is not idempotent: %q then %q", c, cc)
		}
		if back, err := jsonmap.Parse(c); err != nil || !jsonmap.Equal(back, v) {
			t.Fatalf("compact form %q holds %s (error %v), want %s", c, back.AppendCompact(nil), err, v.AppendCompact(nil))
		}
	})
}

// sameFromString fails t unless DecodeString of payload, read in place,
// gives exactly what Decode gives: the same JSON text, or the same error.
func sameFromString(t interface{ Fatalf(string, ...any) }, payload []byte) {
	want, wantErr := jsonmap.Decode(payload)
	got, err := jsonmap.DecodeString(string(payload))
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) || spec.ClassName(err) != spec.ClassName(wantErr) {
		t.Fatalf("payload %q: DecodeString gives %q, %v; Decode gives %q, %v", payload, got, err, want, wantErr)
	}
}

// TestPropertyDecodeMutated: a damaged payload either fails with a
// classified error or decodes to a value that itself round-trips; the
// decoder never panics [MAP-7] [ERR-1].
func TestPropertyDecodeMutated(t *testing.T) {
	gen.Check(t, 3000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		tool := tools.Draw(t, "tool")
		payload, err := jsonmap.Encode(tool, v.AppendCompact(nil))
		if err != nil {
			t.Fatal(err)
		}
		mutated := gen.Mutate(t, payload)
		sameFromString(t, payload)
		sameFromString(t, mutated)
		got, err := jsonmap.DecodeValue(mutated)
		if err != nil {
			var e *spec.Error
			if !errors.As(err, &e) || spec.ClassName(err) == "io" {
				t.Fatalf("Decode(%q) returned an unclassified error %v", mutated, err)
			}
			return
		}
		roundTrip(t, tool, got, got.AppendCompact(nil))
	})
}
