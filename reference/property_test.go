package reference

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/spec"
)

// propertyCases is the least number of cases each property runs by default.
const propertyCases = 1000

// TestPropertyDecodeEncode checks decode(encode(p)) == p for valid models
// [CAN-1].
//
// The comparison is exact, with no option equating nil and empty slices:
// gen.Payload leaves absent meta, rows and comments nil, which is also what
// the decoder returns (TestDecodeModelConventions), so an exact diff also
// catches a decoder that starts returning empty slices.
func TestPropertyDecodeEncode(t *testing.T) {
	gen.Check(t, propertyCases, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		b, err := Encode(p)
		if err != nil {
			t.Fatalf("Encode of a generated model: %v", err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("Decode(Encode(p)): %v\npayload: %s", err, gen.Describe(b))
		}
		if diff := cmp.Diff(p, got); diff != "" {
			t.Fatalf("Decode(Encode(p)) mismatch (-want +got):\n%s\npayload: %s", diff, gen.Describe(b))
		}
	})
}

// TestPropertyEncodeDecode checks encode(decode(b)) == b, byte for byte, for
// every valid b [CAN-1]: encodings of generated models, and mutations of
// them that still decode.
func TestPropertyEncodeDecode(t *testing.T) {
	var mutants, validMutants int
	gen.Check(t, propertyCases, func(t *rapid.T) {
		b, err := Encode(gen.Payload().Draw(t, "payload"))
		if err != nil {
			t.Fatalf("Encode of a generated model: %v", err)
		}
		mutated := rapid.Bool().Draw(t, "mutate")
		if mutated {
			b = gen.Mutate(t, b)
			mutants++
		}
		p, err := Decode(b)
		if err != nil {
			if !mutated {
				t.Fatalf("Decode of an encoding: %v\npayload: %s", err, gen.Describe(b))
			}
			return
		}
		if mutated {
			validMutants++
		}
		out, err := Encode(p)
		if err != nil {
			t.Fatalf("Encode(Decode(b)): %v\npayload: %s", err, gen.Describe(b))
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("Encode(Decode(b)) differs:\n got %s\nwant %s", gen.Describe(out), gen.Describe(b))
		}
	})
	t.Logf("%d mutants, %d of them valid", mutants, validMutants)
	if validMutants == 0 {
		t.Error("no mutant decoded; the property only saw unmutated encodings")
	}
}

// tagChars are the bytes a version tag may hold after "GCX" [VER-1].
var tagChars = []rune("ABCXYZabcsxyz0123456789._-")

// otherTag draws a well-formed version tag other than GCX1 [VER-1] [VER-2]:
// the near misses of GCX1, and "GCX" followed by 1 to 29 random tag bytes.
func otherTag() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"GCX10", "GCX12", "GCX1-stream", "GCX1.1", "GCX2", "GCX0", "GCX01",
			"GCX1_", "GCX1a", "GCX11", "GCXa", "GCX" + strings.Repeat("9", 29)}),
		rapid.Map(rapid.StringOfN(rapid.SampledFrom(tagChars), 1, spec.MaxTagBytes-len(spec.TagPrefix), -1),
			func(s string) string { return spec.TagPrefix + s }),
		rapid.Map(rapid.StringOfN(rapid.SampledFrom(tagChars), 0, spec.MaxTagBytes-len(spec.Version), -1),
			func(s string) string { return spec.Version + s }),
	).Filter(func(tag string) bool { return tag != spec.Version })
}

// TestPropertyVersionFallback replaces the tag of one header of a valid
// payload with another well-formed tag. The whole payload must then be
// unsupported-version, naming that tag, with no data [VER-2] [VER-4] [ERR-4];
// GCX10, GCX12 and other tags that begin with GCX1 are never read as GCX1.
func TestPropertyVersionFallback(t *testing.T) {
	gen.Check(t, propertyCases, func(t *rapid.T) {
		b, err := Encode(gen.Payload().Draw(t, "payload"))
		if err != nil {
			t.Fatalf("Encode of a generated model: %v", err)
		}
		headers := headerOffsets(b)
		k := rapid.IntRange(0, len(headers)-1).Draw(t, "header")
		tag := otherTag().Draw(t, "tag")
		off := headers[k]
		in := append(append(append([]byte(nil), b[:off]...), tag...), b[off+len(spec.Version):]...)

		got, err := Decode(in)
		if got != nil {
			t.Fatalf("returned a payload for tag %s [ERR-4]", tag)
		}
		if !errors.Is(err, spec.ErrUnsupportedVersion) {
			t.Fatalf("tag %s in header %d: got %v, want unsupported-version\npayload: %s", tag, k+1, err, gen.Describe(in))
		}
		var e *spec.Error
		if !errors.As(err, &e) {
			t.Fatalf("%T is not a *spec.Error", err)
		}
		rule := "VER-2"
		if k > 0 {
			rule = "VER-4"
		}
		want := at{line: bytes.Count(in[:off], []byte("\n")) + 1, column: 1, offset: int64(off)}
		if e.Tag != tag || e.Rule != rule || e.Line != want.line || e.Column != 1 || e.Offset != want.offset {
			t.Fatalf("got tag %q rule %s at %d:%d @%d; want tag %q rule %s at %d:1 @%d",
				e.Tag, e.Rule, e.Line, e.Column, e.Offset, tag, rule, want.line, want.offset)
		}
	})
}

// headerOffsets returns the offsets of the lines of b that begin with "GCX":
// in a valid payload, its headers [LINE-2].
func headerOffsets(b []byte) []int {
	var offs []int
	for off := 0; off < len(b); {
		if bytes.HasPrefix(b[off:], []byte(spec.TagPrefix)) {
			offs = append(offs, off)
		}
		n := bytes.IndexByte(b[off:], '\n')
		if n < 0 {
			break
		}
		off += n + 1
	}
	return offs
}

// ruleIDs returns the rule IDs that docs/wire-format.md defines.
func ruleIDs(t testing.TB) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*\*\[([A-Z]+-[0-9]+)\]\*\*`).FindAllStringSubmatch(string(doc), -1) {
		ids[m[1]] = true
	}
	if len(ids) < 50 {
		t.Fatalf("found only %d rule IDs in docs/wire-format.md", len(ids))
	}
	return ids
}

// decoderClasses are the classes a decoder may report [ERR-1].
var decoderClasses = map[string]bool{"not-gcx": true, "unsupported-version": true, "syntax": true, "constraint": true, "limit": true}

// checkPositioned checks what every decoder result must satisfy: an error is
// a *spec.Error of a decoder class, citing a rule of the specification, at a
// position consistent with its offset, with no payload [ERR-1] [ERR-2]
// [ERR-4]; a success re-encodes to the input [CAN-1]. It returns a
// description of the first failure, or "".
func checkPositioned(b []byte, p *spec.Payload, err error, rules map[string]bool) string {
	if err == nil {
		if p == nil {
			return "nil payload without an error"
		}
		out, encErr := Encode(p)
		if encErr != nil {
			return "accepted, but Encode(Decode(b)) failed: " + encErr.Error()
		}
		if !bytes.Equal(out, b) {
			return "accepted, but Encode(Decode(b)) = " + gen.Describe(out)
		}
		return ""
	}
	if p != nil {
		return "a payload returned with the error " + err.Error()
	}
	e, ok := err.(*spec.Error)
	if !ok {
		return fmt.Sprintf("error of type %T: %v", err, err)
	}
	if !decoderClasses[spec.ClassName(err)] {
		return "error of class " + strconv.Quote(spec.ClassName(err)) + ": " + err.Error()
	}
	if !rules[e.Rule] {
		return "error cites unknown rule " + strconv.Quote(e.Rule) + ": " + err.Error()
	}
	if e.Production == "" {
		return "error names no production: " + err.Error()
	}
	if e.Line < 1 || e.Column < 1 {
		return "error has no position: " + err.Error()
	}
	if msg := positionMismatch(b, e); msg != "" {
		return msg + ": " + err.Error()
	}
	if errors.Is(err, spec.ErrUnsupportedVersion) {
		if e.Tag == "" || !bytes.HasPrefix(b[e.Offset:], []byte(e.Tag)) || e.Column != 1 {
			return "unsupported-version error whose tag " + strconv.Quote(e.Tag) + " does not start its line: " + err.Error()
		}
	} else if e.Tag != "" {
		return "tag set on a " + spec.ClassName(err) + " error"
	}
	if !strings.Contains(e.Error(), "line "+strconv.Itoa(e.Line)+", column "+strconv.Itoa(e.Column)) {
		return "message does not give the position: " + e.Error()
	}
	return ""
}

// checkUnderLimits decodes b under the default limits and under lim and
// checks both answers with checkPositioned. lim may only refuse more, never
// answer otherwise [LIM-1]: a success under it is a success under the
// defaults too, with the same payload (callers pass inputs far below the
// defaults, so lim is the stricter). It returns both errors, for the
// caller's tallies, and a description of the first failure, or "".
func checkUnderLimits(b []byte, lim spec.Limits, rules map[string]bool) (err, errl error, msg string) {
	p, err := Decode(b)
	if msg := checkPositioned(b, p, err, rules); msg != "" {
		return err, nil, msg
	}
	pl, errl := DecodeLimits(b, lim)
	if msg := checkPositioned(b, pl, errl, rules); msg != "" {
		return err, errl, fmt.Sprintf("limits %+v: %s", lim, msg)
	}
	if errl == nil && err != nil {
		return err, errl, fmt.Sprintf("limits %+v accepted what the default limits reject (%v)", lim, err)
	}
	if errl == nil {
		if diff := cmp.Diff(p, pl); diff != "" {
			return err, errl, fmt.Sprintf("limits %+v changed the payload (-default +limited):\n%s", lim, diff)
		}
	}
	return err, errl, ""
}

// anyInput draws bytes a decoder may meet: mutations of valid payloads,
// arbitrary bytes, and arbitrary bytes after a valid header.
func anyInput() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			return rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		case 1:
			return append([]byte(h1), rapid.SliceOf(rapid.Byte()).Draw(t, "tail")...)
		default:
			b, err := Encode(gen.Payload().Draw(t, "payload"))
			if err != nil {
				t.Fatalf("Encode of a generated model: %v", err)
			}
			return gen.Mutate(t, b)
		}
	})
}

// smallLimits draws limits low enough for generated payloads to reach.
func smallLimits() *rapid.Generator[spec.Limits] {
	return rapid.Custom(func(t *rapid.T) spec.Limits {
		return spec.Limits{
			MaxLineBytes: rapid.IntRange(0, 80).Draw(t, "max-line"),
			MaxFields:    rapid.IntRange(0, 6).Draw(t, "max-fields"),
			MaxSections:  rapid.IntRange(0, 4).Draw(t, "max-sections"),
			MaxRows:      rapid.IntRange(0, 8).Draw(t, "max-rows"),
		}
	})
}

// TestPropertyErrorsArePositioned decodes arbitrary bytes under the default
// limits and under small random ones. Decode never panics; each error is a
// *spec.Error of a decoder class citing a rule, whose line and column are
// what its offset means, and whose offset lies in the input or at its end
// [ERR-1] [ERR-2]. Under limits, a success is the same payload as without
// them: limits never truncate [LIM-1].
func TestPropertyErrorsArePositioned(t *testing.T) {
	rules := ruleIDs(t)
	classes := map[string]int{}
	gen.Check(t, propertyCases, func(t *rapid.T) {
		b := anyInput().Draw(t, "input")
		lim := smallLimits().Draw(t, "limits")
		err, errl, msg := checkUnderLimits(b, lim, rules)
		if msg != "" {
			t.Fatalf("%s\ninput: %s", msg, gen.Describe(b))
		}
		classes[spec.ClassName(err)]++
		if errors.Is(errl, spec.ErrLimit) {
			classes["limit"]++
		}
	})
	t.Logf("results by class (\"\" is success; limit counts the small limits): %v", classes)
	for _, c := range []string{"", "not-gcx", "unsupported-version", "syntax", "constraint", "limit"} {
		if classes[c] == 0 {
			t.Errorf("no input gave %q; the generator misses a whole class", c)
		}
	}
}

// text draws strings for arbitrary models: escape-heavy text, any valid
// string, and byte strings that are mostly not UTF-8.
func text() *rapid.Generator[string] {
	return rapid.OneOf(
		gen.Text(),
		gen.Text(),
		rapid.String(),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 4), func(b []byte) string { return string(b) }),
		rapid.SampledFrom([]string{"", "tool", "fields", "rows", "total", "truncated", "a b", "a=b",
			"0", "01", "-1", "99999999999999999999", "true", "True", "x\ny", "x\rz", "\xff", "é"}),
	)
}

// arbitraryModel draws a model that may or may not have a spelling: either
// a valid model with a few random edits, or one built from random parts.
// untouched reports a valid model left without an edit that can break it.
func arbitraryModel(t *rapid.T) (p *spec.Payload, untouched bool) {
	if rapid.IntRange(0, 3).Draw(t, "wild") == 0 {
		return wildModel(t), false
	}
	p = gen.Payload().Draw(t, "payload")
	untouched = true
	for n := rapid.IntRange(0, 3).Draw(t, "edits"); n > 0; n-- {
		s := &p.Sections[rapid.IntRange(0, len(p.Sections)-1).Draw(t, "section")]
		switch rapid.IntRange(0, 10).Draw(t, "edit") {
		case 0:
			s.Tool = text().Draw(t, "tool")
		case 1:
			s.Fields = rapid.SliceOfN(text(), 0, 3).Draw(t, "fields")
		case 2:
			if len(s.Fields) > 0 {
				s.Fields = append(s.Fields, s.Fields[rapid.IntRange(0, len(s.Fields)-1).Draw(t, "dup")])
			}
		case 3:
			s.Meta = append(s.Meta, spec.Meta{Key: text().Draw(t, "key"), Value: text().Draw(t, "value")})
		case 4:
			if len(s.Meta) > 0 {
				s.Meta[rapid.IntRange(0, len(s.Meta)-1).Draw(t, "meta")].Value = text().Draw(t, "value")
			}
		case 5:
			s.Rows = append(s.Rows, rapid.SliceOfN(text(), 0, 4).Draw(t, "row"))
		case 6:
			if len(s.Rows) > 0 {
				r := rapid.IntRange(0, len(s.Rows)-1).Draw(t, "row")
				s.Rows[r] = append(s.Rows[r], text().Draw(t, "value"))
			}
		case 7:
			if len(s.Rows) > 0 && len(s.Fields) > 0 {
				r := rapid.IntRange(0, len(s.Rows)-1).Draw(t, "row")
				if len(s.Rows[r]) > 0 {
					s.Rows[r][rapid.IntRange(0, len(s.Rows[r])-1).Draw(t, "value")] = text().Draw(t, "value")
				}
			}
		case 8:
			s.Comments = append(s.Comments, spec.Comment{Row: rapid.IntRange(-1, len(s.Rows)+1).Draw(t, "comment-row"),
				Text: text().Draw(t, "comment")})
		case 9:
			if rapid.Bool().Draw(t, "nil") {
				return nil, false
			}
			return &spec.Payload{Sections: []spec.Section{}}, false
		case 10:
			// Empty slices instead of nil ones leave the spelling alone.
			if s.Meta == nil {
				s.Meta = []spec.Meta{}
			}
			if s.Rows == nil {
				s.Rows = [][]string{}
			}
			if s.Comments == nil {
				s.Comments = []spec.Comment{}
			}
			continue
		}
		untouched = false
	}
	return p, untouched
}

// wildModel draws a model from random parts, with small numbers of each.
func wildModel(t *rapid.T) *spec.Payload {
	var p spec.Payload
	for i := rapid.IntRange(0, 2).Draw(t, "sections"); i > 0; i-- {
		var s spec.Section
		s.Tool = rapid.OneOf(gen.Name(), text()).Draw(t, "tool")
		s.Fields = rapid.SliceOfN(text(), 0, 3).Draw(t, "fields")
		for j := rapid.IntRange(0, 3).Draw(t, "meta"); j > 0; j-- {
			s.Meta = append(s.Meta, spec.Meta{Key: rapid.OneOf(gen.Name(), text()).Draw(t, "key"), Value: text().Draw(t, "value")})
		}
		for j := rapid.IntRange(0, 3).Draw(t, "rows"); j > 0; j-- {
			s.Rows = append(s.Rows, rapid.SliceOfN(text(), 0, 3).Draw(t, "row"))
		}
		for j := rapid.IntRange(0, 2).Draw(t, "comments"); j > 0; j-- {
			s.Comments = append(s.Comments, spec.Comment{Row: rapid.IntRange(-1, 4).Draw(t, "comment-row"), Text: text().Draw(t, "comment")})
		}
		p.Sections = append(p.Sections, s)
	}
	return &p
}

// hasSpelling decides, independently of spec.Check, whether a model can be
// written as GCX1, following the list of [CAN-3].
func hasSpelling(p *spec.Payload) bool {
	if p == nil || len(p.Sections) == 0 {
		return false
	}
	name := regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
	count := regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	for _, s := range p.Sections {
		if !name.MatchString(s.Tool) || len(s.Fields) == 0 {
			return false
		}
		seen := map[string]bool{}
		for _, f := range s.Fields {
			if seen[f] || !utf8.ValidString(f) {
				return false
			}
			seen[f] = true
		}
		keys := map[string]bool{}
		for _, m := range s.Meta {
			if !name.MatchString(m.Key) || m.Key == "tool" || m.Key == "fields" || keys[m.Key] || !utf8.ValidString(m.Value) {
				return false
			}
			keys[m.Key] = true
			switch m.Key {
			case "rows", "total":
				if _, err := strconv.ParseInt(m.Value, 10, 64); err != nil || !count.MatchString(m.Value) {
					return false
				}
				if m.Key == "rows" && m.Value != strconv.Itoa(len(s.Rows)) {
					return false
				}
			case "truncated":
				if m.Value != "true" && m.Value != "false" {
					return false
				}
			}
		}
		for _, r := range s.Rows {
			if len(r) != len(s.Fields) {
				return false
			}
			for _, v := range r {
				if !utf8.ValidString(v) {
					return false
				}
			}
		}
		last := 0
		for _, c := range s.Comments {
			if c.Row < last || c.Row > len(s.Rows) || strings.ContainsAny(c.Text, "\r\n") || !utf8.ValidString(c.Text) {
				return false
			}
			last = c.Row
		}
	}
	return true
}

// TestPropertyEncoderNeverEmitsRejected gives the encoder arbitrary models.
// It must refuse exactly those without a spelling, with a model error citing
// a rule and no bytes [CAN-3]; whatever it writes, the decoder accepts and
// decodes back to the model [CAN-1].
func TestPropertyEncoderNeverEmitsRejected(t *testing.T) {
	rules := ruleIDs(t)
	var refused, written int
	gen.Check(t, propertyCases, func(t *rapid.T) {
		p, untouched := arbitraryModel(t)
		spelled := hasSpelling(p)
		if untouched && !spelled {
			t.Fatalf("hasSpelling rejects a generated valid model: %+v", p)
		}
		b, err := Encode(p)
		if err != nil {
			refused++
			e, ok := err.(*spec.Error)
			if !ok || !errors.Is(err, spec.ErrModel) || !rules[e.Rule] || e.Line != 0 || b != nil {
				t.Fatalf("Encode failed with %v (%T), bytes %q; want a model error citing a rule", err, err, b)
			}
			if spelled {
				t.Fatalf("Encode refused a model that has a spelling: %v\nmodel: %+v", err, p)
			}
			return
		}
		written++
		if !spelled {
			t.Fatalf("Encode wrote %s for a model without a spelling: %+v", gen.Describe(b), p)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("Decode rejected what Encode wrote: %v\npayload: %s", err, gen.Describe(b))
		}
		if diff := cmp.Diff(p, got, equateEmptyModel); diff != "" {
			t.Fatalf("Decode(Encode(p)) mismatch (-want +got):\n%s", diff)
		}
	})
	t.Logf("%d models refused, %d written", refused, written)
	if refused == 0 || written == 0 {
		t.Error("the generator reached only one side of the property")
	}
}
