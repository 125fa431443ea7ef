package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/codec/internal/tablegen"
	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
	"github.com/gcxwire/gcx/tokens/tokenstest"
)

// The laws every registered codec keeps. Each TestProperty... runs one
// subtest per codec of the registry, named by its tag, so registering a
// codec is all it takes to be checked; TestPropertiesCatchFlawedCodecs
// shows that a codec breaking a law fails the property that states it.
//
// The counts are per codec. With GCX1 alone a default run draws 17,000
// values; each draft adds as many (a Limited one 2,000 more).

// Checks per codec for each property.
const (
	identityChecks    = 10000
	canonicalChecks   = 2000
	tagChecks         = 2000
	autoChecks        = 1000
	fallbackChecks    = 1000
	negotiationChecks = 1000
	limitsChecks      = 2000
	ideaChecks        = 10000 // the rarest idea of draft.1, key, changes about 1 payload in 400
	markChecks        = 2000
)

// forEachCodec runs prop as a subtest for every registered codec.
func forEachCodec(t *testing.T, prop func(t *testing.T, c codec.Codec)) {
	for _, c := range codec.All() {
		t.Run(c.Tag(), func(t *testing.T) { prop(t, c) })
	}
}

// tools mixes undeclared names, declared tools and the section names of
// layouts, as the mapping's own properties do.
var tools = rapid.OneOf(
	rapid.SampledFrom([]string{"t", "result", "x.y", "search_symbols", "get_callers", "get_callers.nodes",
		"get_callers.edges", "graph_stats", "find_cycles", "get_symbol_source", "analyze", "find_usages"}),
	gen.Name(),
)

// drawValue draws a tool and a value for c: a third of them any JSON
// value (jsongen), a third a table made for what c's ideas need
// (tablegen, with c's Needs), so that every property reaches the ideas of
// every codec, and a third made of what c itself writes (tablegen's
// OwnOutput: its marks, cells, tags, escapes and headers, whole and in
// fragments), so that a codec that takes a text for its own syntax meets
// the texts most likely to fool it without naming them.
func drawValue(t *rapid.T, c codec.Codec) (string, jsonmap.Value) {
	switch rapid.IntRange(0, 2).Draw(t, "kind of value") {
	case 1:
		x := tablegen.Value(tablegen.NeedsOf(c)).Draw(t, "table")
		return x.Tool, x.Value
	case 2:
		x := tablegen.OwnOutput(c).Draw(t, "look-alike of the codec's output")
		return x.Tool, x.Value
	}
	return tools.Draw(t, "tool"), jsongen.Value().Draw(t, "value")
}

// encode draws a tool and a value and returns them with c's payload.
func encode(t *rapid.T, c codec.Codec) (string, jsonmap.Value, []byte) {
	tool, v := drawValue(t, c)
	payload, err := c.Encode(tool, v)
	if err != nil {
		t.Fatalf("Encode(%s, %s): %v", tool, v.AppendCompact(nil), err)
	}
	return tool, v, payload
}

// sameValue fails t unless got is v [MAP-2].
func sameValue(t *rapid.T, what string, v, got jsonmap.Value, payload []byte) {
	if !jsonmap.Equal(v, got) {
		t.Fatalf("%s differs from the value (-want +got):\n%s\npayload %q", what,
			cmp.Diff(string(v.AppendCompact(nil)), string(got.AppendCompact(nil))), payload)
	}
}

// unsupported fails t unless err is the unsupported-version error naming
// tag at line 1, column 1 [VER-2].
func unsupported(t *rapid.T, err error, tag string, payload []byte) {
	var e *spec.Error
	if !errors.As(err, &e) || !errors.Is(err, spec.ErrUnsupportedVersion) || e.Tag != tag || e.Line != 1 || e.Column != 1 {
		t.Fatalf("a payload tagged %s: want unsupported-version naming %s at 1:1, got %v\npayload %q", tag, tag, err, payload)
	}
}

// leadingTag returns the well-formed tag a payload begins with, or "".
func leadingTag(payload []byte) string {
	tag, kind, _ := spec.ReadTag(payload)
	if kind == spec.TagGCX1 || kind == spec.TagOther {
		return tag
	}
	return ""
}

// TestPropertyIdentity: every JSON value comes back from the codec's
// payload as the same value, under every kind of tool name [MAP-4].
func TestPropertyIdentity(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		gen.Check(t, checks(identityChecks), func(t *rapid.T) {
			_, v, payload := encode(t, c)
			back, err := c.Decode(payload)
			if err != nil {
				t.Fatalf("Decode(%q): %v", payload, err)
			}
			sameValue(t, "Decode(Encode(v))", v, back, payload)
		})
	})
}

// TestPropertyCanonical: encoding the value a payload decodes to gives
// the payload back byte for byte, so a payload has one spelling [CAN-1].
func TestPropertyCanonical(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		gen.Check(t, checks(canonicalChecks), func(t *rapid.T) {
			tool, _, payload := encode(t, c)
			back, err := c.Decode(payload)
			if err != nil {
				t.Fatalf("Decode(%q): %v", payload, err)
			}
			again, err := c.Encode(tool, back)
			if err != nil {
				t.Fatalf("re-encoding the decoded value of %q: %v", payload, err)
			}
			if !bytes.Equal(again, payload) {
				t.Fatalf("re-encoding gives other bytes (-first +again):\n%s", cmp.Diff(string(payload), string(again)))
			}
		})
	})
}

// otherTags are tags a codec must refuse whatever it is: GCX1's
// neighbours, reserved and future tags.
var otherTags = []string{"GCX1", "GCX2", "GCX3", "GCX10", "GCX12", "GCX1-stream", "GCX1.1", "GCXa",
	"GCX2-draft.1", "GCX2-draft.2", "GCX2-draft.10", "GCX3-draft.1", "GCX_", "GCX-"}

// tagBytes draws a well-formed tag [VER-1].
var tagBytes = rapid.StringMatching(`GCX[A-Za-z0-9._-]{1,12}`)

// TestPropertyTag: a codec's payloads begin with its own tag, and it is
// never mistaken for another version: it refuses every other registered
// codec's payloads, and its own payload under any other tag, with the
// unsupported-version error naming that tag [VER-2].
func TestPropertyTag(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		others := slices.Concat(otherTags, tags())
		gen.Check(t, checks(tagChecks), func(t *rapid.T) {
			tool, v, payload := encode(t, c)
			if got := leadingTag(payload); got != c.Tag() {
				t.Fatalf("the payload begins with the tag %q, not %s: %q", got, c.Tag(), payload)
			}
			other := rapid.OneOf(rapid.SampledFrom(others), tagBytes).Filter(func(s string) bool { return s != c.Tag() }).Draw(t, "other tag")
			retagged := slices.Concat([]byte(other), payload[len(c.Tag()):])
			_, err := c.Decode(retagged)
			unsupported(t, err, other, retagged)
			for _, d := range codec.All() {
				if d.Tag() == c.Tag() {
					continue
				}
				theirs, err := d.Encode(tool, v)
				if err != nil || leadingTag(theirs) != d.Tag() {
					continue // d's own subtests report it
				}
				_, err = c.Decode(theirs)
				unsupported(t, err, d.Tag(), theirs)
			}
		})
	})
}

// tags returns the registered tags.
func tags() []string {
	var out []string
	for _, c := range codec.All() {
		out = append(out, c.Tag())
	}
	return out
}

// TestPropertyAuto: auto mode never costs more cl100k_base tokens than
// compact JSON, and a client that reads the codec gets the value back
// from whichever it wrote [AUTO-1] [AUTO-2] [AUTO-3].
func TestPropertyAuto(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		gen.Check(t, checks(autoChecks), func(t *rapid.T) {
			_, v, payload := encode(t, c)
			choice, err := auto.ChoosePayload(payload, v)
			if err != nil {
				t.Fatal(err)
			}
			out := choice.Output
			// Counted by tiktoken-go, not by the counter auto mode uses.
			n, err1 := tokenstest.Count(tokens.CL100K, string(out))
			json, err2 := tokenstest.Count(tokens.CL100K, string(v.AppendCompact(nil)))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if n > json {
				t.Fatalf("auto mode wrote %d tokens, compact JSON costs %d: %q", n, json, out)
			}
			var back jsonmap.Value
			if bytes.HasPrefix(out, []byte(spec.TagPrefix)) {
				back, err = c.Decode(out)
			} else {
				back, err = jsonmap.Parse(out)
			}
			if err != nil {
				t.Fatalf("reading auto mode's %s result %q: %v", choice.Format, out, err)
			}
			sameValue(t, "auto mode's result, read back", v, back, out)
		})
	})
}

// TestPropertyFallback: GCX1's decoder — what `gcx decode` and every GCX1
// client run — refuses a draft's payload as unsupported-version naming the
// draft's tag, the cue to ask for JSON instead [VER-2] [VER-5].
func TestPropertyFallback(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		if c.Tag() == spec.Version {
			t.Skip("GCX1 is what the fallback reads")
		}
		gen.Check(t, checks(fallbackChecks), func(t *rapid.T) {
			_, _, payload := encode(t, c)
			_, _, err := jsonmap.DecodeResponse(payload)
			unsupported(t, err, c.Tag(), payload)
		})
	})
}

// TestPropertyNegotiation: a client that reads the tags C and a server
// that offers the tags S, newest first, agree on the newest tag of C ∩ S,
// or on JSON when there is none [MCP-4]. A registered codec's tag has a
// place in the order of versions, and what the server then writes carries
// the agreed tag and reads back [MCP-8].
func TestPropertyNegotiation(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		if !codec.Ranked(c.Tag()) {
			t.Fatalf("%s has no place in the order of versions (GCX<major> or GCX<major>-draft.<n>), so no client and server can agree that it is the newest", c.Tag())
		}
		pool := codec.NewestFirst(slices.Concat(otherTags, tags())) // no tag twice
		gen.Check(t, checks(negotiationChecks), func(t *rapid.T) {
			subset := func(label string) []string {
				s := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID).Draw(t, label)
				if rapid.Bool().Draw(t, label+" has "+c.Tag()) {
					s = append(s, c.Tag())
				}
				return rapid.Permutation(s).Draw(t, label+" order")
			}
			accept, offer := subset("accept"), subset("offer")
			got := codec.Negotiate(accept, codec.NewestFirst(offer))
			want := ""
			for _, tag := range offer {
				if slices.Contains(accept, tag) && (want == "" || codec.Compare(tag, want) > 0) {
					want = tag
				}
			}
			if got != want {
				t.Fatalf("Negotiate(%v, NewestFirst(%v)) = %q, want the newest shared tag %q", accept, offer, got, want)
			}
			if again := codec.Negotiate(rapid.Permutation(accept).Draw(t, "accept again"), codec.NewestFirst(offer)); again != got {
				t.Fatalf("the client's order changed the outcome: %q, then %q", got, again)
			}
			if got != c.Tag() {
				return
			}
			_, v, payload := encode(t, c)
			if tag := leadingTag(payload); tag != got {
				t.Fatalf("agreed on %s, but the payload carries %q [MCP-8]: %q", got, tag, payload)
			}
			back, err := c.Decode(payload)
			if err != nil {
				t.Fatalf("Decode(%q): %v", payload, err)
			}
			sameValue(t, "the negotiated payload, read back", v, back, payload)
		})
	})
}

// limitsDrawn draws limits of the size of the values jsongen draws, so
// that a good share of them are passed; a zero field is no limit.
var limitsDrawn = rapid.Custom(func(t *rapid.T) spec.Limits {
	bound := func(label string, most int) int {
		return rapid.OneOf(rapid.Just(0), rapid.IntRange(1, most)).Draw(t, label)
	}
	return spec.Limits{
		MaxLineBytes: bound("max line bytes", 160),
		MaxFields:    bound("max fields", 8),
		MaxSections:  bound("max sections", 4),
		MaxRows:      bound("max rows", 6),
	}
})

// TestPropertyLimits: under any limits L, what a Limited codec writes
// under L it reads back under L, byte for byte what it writes without
// limits; and what it refuses to write under L it refuses with a limit
// error [LIM-4], because its decoder under L refuses the payload it writes
// without limits [LIM-3]. A codec that is not Limited takes no limits, and
// the command refuses limit flags for it.
func TestPropertyLimits(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		lc, ok := c.(codec.Limited)
		if !ok {
			t.Skip("not codec.Limited: it takes no limits")
		}
		gen.Check(t, checks(limitsChecks), func(t *rapid.T) {
			tool, v := drawValue(t, c)
			free, err := lc.EncodeLimits(tool, v, spec.Unlimited)
			if err != nil {
				t.Fatalf("EncodeLimits(%s, %s) without limits: %v", tool, v.AppendCompact(nil), err)
			}
			l := limitsDrawn.Draw(t, "limits")
			payload, err := lc.EncodeLimits(tool, v, l)
			_, readErr := lc.DecodeLimits(free, l)
			if err != nil {
				var e *spec.Error
				if !errors.As(err, &e) || !errors.Is(err, spec.ErrLimit) || e.Rule != "LIM-4" {
					t.Fatalf("refused under %+v with %v, not a limit error [LIM-4]", l, err)
				}
				if !errors.Is(readErr, spec.ErrLimit) {
					t.Fatalf("refused to write under %+v (%v), but its decoder under them reads the payload (error %v): %q", l, err, readErr, free)
				}
				return
			}
			if !bytes.Equal(payload, free) {
				t.Fatalf("limits changed what is written (-without +under %+v):\n%s", l, cmp.Diff(string(free), string(payload)))
			}
			back, err := lc.DecodeLimits(payload, l)
			if err != nil {
				t.Fatalf("wrote under %+v what its decoder under them refuses: %v\npayload %q", l, err, payload)
			}
			sameValue(t, "DecodeLimits(EncodeLimits(v, L), L)", v, back, payload)
		})
	})
}

// TestPropertyIdeasFire: every idea of an Ablatable codec changes the
// payload of some value drawn for the codec's Needs — the payload written
// without it differs — and the payload without it still reads back. It
// logs how often each idea fired and fails when one never did: a property
// that never sees an idea cannot find a bug in it.
func TestPropertyIdeasFire(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		ac, ok := c.(codec.Ablatable)
		if !ok || len(ac.Ideas()) == 0 {
			t.Skip("not codec.Ablatable: no ideas to reach")
		}
		ideas := ac.Ideas()
		fired := make([]int, len(ideas))
		drawn := 0
		gen.Check(t, checks(ideaChecks), func(t *rapid.T) {
			x := tablegen.Value(tablegen.NeedsOf(c)).Draw(t, "value")
			payload, err := c.Encode(x.Tool, x.Value)
			if err != nil {
				t.Fatalf("Encode(%s, %s): %v", x.Tool, x.Value.AppendCompact(nil), err)
			}
			drawn++
			for i, idea := range ideas {
				without, err := ac.EncodeWithout(x.Tool, x.Value, []string{idea.Name})
				if err != nil {
					t.Fatalf("EncodeWithout(%s, %s, %s): %v", x.Tool, x.Value.AppendCompact(nil), idea.Name, err)
				}
				if bytes.Equal(without, payload) {
					continue
				}
				fired[i]++
				back, err := c.Decode(without)
				if err != nil {
					t.Fatalf("the payload without %s does not decode: %v\npayload %q", idea.Name, err, without)
				}
				sameValue(t, "the payload without "+idea.Name+", read back", x.Value, back, without)
			}
		})
		var report []string
		for i, idea := range ideas {
			report = append(report, fmt.Sprintf("%s %d", idea.Name, fired[i]))
		}
		t.Logf("%s: of %d values drawn, each idea changed the payload of: %s", c.Tag(), drawn, strings.Join(report, ", "))
		for i, idea := range ideas {
			if fired[i] == 0 {
				t.Errorf("%s: idea %s never changed a payload in %d values: declare what it needs (codec.Needs) so the properties reach it", c.Tag(), idea.Name, drawn)
			}
		}
	})
}

// TestPropertyMarkChanges: changing one mark of a payload — dropping it or
// putting another of the codec's marks in its place — makes the decoder
// refuse the payload or read another value, never the same one: a mark
// the decoder ignored or misread would go unseen by the round trip. Marks
// are found as Needs declares them: a whole cell, or a prefix with more
// after it.
func TestPropertyMarkChanges(t *testing.T) {
	forEachCodec(t, func(t *testing.T, c codec.Codec) {
		needs := tablegen.NeedsOf(c)
		if len(needs.Marks)+len(needs.MarkPrefixes) == 0 {
			t.Skip("the codec declares no marks (codec.Needs)")
		}
		changed := 0
		gen.Check(t, checks(markChecks), func(t *rapid.T) {
			x := tablegen.Value(needs).Draw(t, "value")
			payload, err := c.Encode(x.Tool, x.Value)
			if err != nil {
				t.Fatalf("Encode(%s, %s): %v", x.Tool, x.Value.AppendCompact(nil), err)
			}
			at := markedCells(payload, needs)
			if len(at) == 0 {
				return
			}
			cell := rapid.SampledFrom(at).Draw(t, "marked cell")
			others := []string{""}
			for _, m := range slices.Concat(needs.Marks, needs.MarkPrefixes) {
				if m != cell.mark {
					others = append(others, m)
				}
			}
			replacement := rapid.SampledFrom(others).Draw(t, "in place of the mark")
			damaged := slices.Concat(payload[:cell.at], []byte(replacement), payload[cell.at+len(cell.mark):])
			changed++
			back, err := c.Decode(damaged)
			if err == nil && jsonmap.Equal(back, x.Value) {
				t.Fatalf("the mark %q at byte %d replaced by %q still reads as the same value %s\npayload %s\nchanged %s",
					cell.mark, cell.at, replacement, x.Value.AppendCompact(nil), quoteLines(payload), quoteLines(damaged))
			}
		})
		t.Logf("%s: %d payloads had a mark changed", c.Tag(), changed)
		if changed == 0 {
			t.Errorf("%s: no payload drawn held a mark", c.Tag())
		}
	})
}

// markedCell is a cell of a payload that begins with mark, at byte offset
// at.
type markedCell struct {
	at   int
	mark string
}

// markedCells finds the cells of a payload's row lines (every line but
// the headers and comments) that are a mark of n, or begin with a mark
// prefix of n followed by something other than a mark: a prefix followed
// by a mark is taken for a text escaped by one more mark in front, which
// without it may rightly read as the same text.
func markedCells(payload []byte, n codec.Needs) []markedCell {
	var out []markedCell
	for start := 0; start < len(payload); {
		end := bytes.IndexByte(payload[start:], '\n')
		if end < 0 {
			end = len(payload)
		} else {
			end += start
		}
		line := payload[start:end]
		if !bytes.HasPrefix(line, []byte(spec.TagPrefix)) && !bytes.HasPrefix(line, []byte("#")) {
			at := start
			for _, cell := range strings.Split(string(line), "\t") {
				if slices.Contains(n.Marks, cell) {
					out = append(out, markedCell{at, cell})
				}
				for _, p := range n.MarkPrefixes {
					rest, ok := strings.CutPrefix(cell, p)
					if ok && rest != "" && !startsWithMark(rest, n) {
						out = append(out, markedCell{at, p})
					}
				}
				at += len(cell) + 1
			}
		}
		start = end + 1
	}
	return out
}

func startsWithMark(s string, n codec.Needs) bool {
	for _, m := range slices.Concat(n.Marks, n.MarkPrefixes) {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// quoteLines shows a payload as text, a line at a time, for a
// counterexample.
func quoteLines(payload []byte) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(payload), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "\n    %q", line)
		}
	}
	return b.String()
}
