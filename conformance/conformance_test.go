package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// loadVectors returns the committed vectors, read once per test binary.
func loadVectors(t testing.TB) []Vector {
	t.Helper()
	vs, err := Vectors()
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// loadBindingVectors returns the committed vectors of the MCP binding.
func loadBindingVectors(t testing.TB) []Vector {
	t.Helper()
	vs, err := BindingVectors()
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// allVectors returns every committed vector of GCX1: the format's and
// the binding's.
func allVectors(t testing.TB) []Vector {
	t.Helper()
	return slices.Concat(loadVectors(t), loadBindingVectors(t))
}

// requireAllPass fails unless every vector passed at the diagnostic level,
// none skipped.
func requireAllPass(t *testing.T, r *Report) {
	t.Helper()
	if n := r.Counts(Diagnostic); n.Failed > 0 || n.Skipped > 0 || n.Passed == 0 {
		var b strings.Builder
		r.WriteSummary(&b, false)
		t.Fatalf("%s:\n%s", n, b.String())
	}
}

// failedSet runs impl and returns the names of the failed vectors, checking
// that each failure says why.
func failedSet(t *testing.T, impl Implementation) []string {
	t.Helper()
	r := Check(loadVectors(t), impl, Options{})
	var names []string
	for _, res := range r.Failures() {
		names = append(names, res.Vector.Name())
		if res.Detail == "" {
			t.Errorf("%s failed without saying why", res.Vector.Name())
		}
	}
	return names
}

// predicted returns the names of the vectors pred selects.
func predicted(t *testing.T, pred func(v *Vector) bool) []string {
	var names []string
	vs := loadVectors(t)
	for i := range vs {
		if pred(&vs[i]) {
			names = append(names, vs[i].Name())
		}
	}
	return names
}

// requireSameSet fails unless the runner failed exactly the vectors that
// should catch the bug, and at least min of them.
func requireSameSet(t *testing.T, failed, want []string, min int) {
	t.Helper()
	if len(want) < min {
		t.Fatalf("only %d vectors can catch this bug, want at least %d: %v", len(want), min, want)
	}
	for _, name := range want {
		if !slices.Contains(failed, name) {
			t.Errorf("%s passed, but should catch the bug", name)
		}
	}
	for _, name := range failed {
		if !slices.Contains(want, name) {
			t.Errorf("%s failed, but has nothing the bug touches", name)
		}
	}
	t.Logf("%d vectors fail, exactly those predicted", len(failed))
}

func firstValueBegins(p *spec.Payload, prefix string) bool {
	for _, s := range p.Sections {
		for _, row := range s.Rows {
			if strings.HasPrefix(row[0], prefix) {
				return true
			}
		}
	}
	return false
}

// A decoder that drops the rows whose first value begins with "#" — the
// published decoder's reading of a guarded row as a comment — fails exactly
// the vectors whose decoded view holds such a row [ROW-4] (E-4).
func TestRunnerCatchesDecoderDroppingHashRows(t *testing.T) {
	broken := Implementation{Decode: func(payload []byte, limits Limits) (*spec.Payload, error) {
		p, err := Reference().Decode(payload, limits)
		if err != nil {
			return nil, err
		}
		for i := range p.Sections {
			s := &p.Sections[i]
			s.Rows = slices.DeleteFunc(s.Rows, func(row []string) bool { return strings.HasPrefix(row[0], "#") })
		}
		return p, nil
	}}
	want := predicted(t, func(v *Vector) bool {
		return v.Op == OpDecode && v.Accepts() && firstValueBegins(v.Expected.Payload(), "#")
	})
	requireSameSet(t, failedSet(t, broken), want, 3)
}

// An encoder that writes no guard before a first value beginning with "#"
// or "GCX" fails exactly the vectors whose canonical bytes hold a guard:
// the canonical decode vectors, whose views it re-encodes, and the encode
// vectors [ROW-4] [CAN-2].
func TestRunnerCatchesEncoderWithoutGuard(t *testing.T) {
	unguard := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte("\n\\#"), []byte("\n#"))
		return bytes.ReplaceAll(b, []byte("\n\\GCX"), []byte("\nGCX"))
	}
	broken := Implementation{Encode: func(view []byte) ([]byte, error) {
		b, err := Reference().Encode(view)
		return unguard(b), err
	}}
	want := predicted(t, func(v *Vector) bool {
		switch {
		case v.Op == OpDecode && v.IsCanonical():
			return !bytes.Equal(unguard(v.Input), v.Input)
		case v.Op == OpEncode && v.Accepts():
			return !bytes.Equal(unguard(v.Expected.Output), v.Expected.Output)
		}
		return false
	})
	requireSameSet(t, failedSet(t, broken), want, 3)
}

// A JSON decoder that loses the spelling of numbers, as float64 readers do,
// fails exactly the vectors whose value holds a number it respells [MAP-2].
func TestRunnerCatchesJSONDecoderRespellingNumbers(t *testing.T) {
	respell := func(b []byte) []byte {
		// 1.0 reads as 1, 1e400 as +Inf: a float64 reader writes neither back.
		b = bytes.ReplaceAll(b, []byte("1.0"), []byte("1"))
		return bytes.ReplaceAll(b, []byte("1e400"), []byte("null"))
	}
	broken := Implementation{DecodeJSON: func(result []byte, limits Limits) ([]byte, error) {
		b, err := Reference().DecodeJSON(result, limits)
		return respell(b), err
	}}
	want := predicted(t, func(v *Vector) bool {
		switch {
		case v.Op == OpJSONDecode && v.Accepts(), v.Op == OpJSONEncode && v.Accepts():
			return !bytes.Equal(respell([]byte(*v.Expected.Value)), []byte(*v.Expected.Value))
		}
		return false
	})
	requireSameSet(t, failedSet(t, broken), want, 1)
}

// A JSON mapping that takes the limit flags but ignores them fails
// exactly the vectors in which a limit refuses: a decoder the json-decode
// ones [LIM-3], an encoder the json-encode ones [LIM-4]. A vector under
// limits refused for another rule, which no limit decides, passes.
func TestRunnerCatchesJSONMappingIgnoringLimits(t *testing.T) {
	ref := Reference()
	refusedUnderLimits := func(op Op) func(v *Vector) bool {
		return func(v *Vector) bool {
			return v.Op == op && v.Limits != nil && !v.Accepts() && v.Expected.Error != nil && v.Expected.Error.Class == "limit"
		}
	}
	decoder := Implementation{DecodeJSON: func(result []byte, _ Limits) ([]byte, error) {
		return ref.DecodeJSON(result, nil)
	}}
	requireSameSet(t, failedSet(t, decoder), predicted(t, refusedUnderLimits(OpJSONDecode)), 4)
	encoder := Implementation{
		EncodeJSON: func(text []byte, tool, mode string, _ Limits) ([]byte, error) {
			return ref.EncodeJSON(text, tool, mode, nil)
		},
		DecodeJSON: ref.DecodeJSON,
	}
	requireSameSet(t, failedSet(t, encoder), predicted(t, refusedUnderLimits(OpJSONEncode)), 4)
}

// Decoders that get GCX1 wrong in the other ways the published decoder did
// fail at least the vectors written for them.
func TestRunnerCatchesPublishedDecoderBugs(t *testing.T) {
	cases := []struct {
		name string
		// prepare rewrites the input before the reference decodes it, so the
		// decoder behaves as if it had the bug.
		prepare  func([]byte) []byte
		mustFail []string
	}{
		{
			"drops CR [ENC-3] (E-8)",
			func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r"), nil) },
			[]string{"enc-3-crlf-line-ending", "enc-3-raw-cr-in-value"},
		},
		{
			`accepts unknown escapes as the letter [VAL-2] (E-6)`,
			func(b []byte) []byte {
				var out []byte
				for i := 0; i < len(b); i++ {
					if b[i] == '\\' && i+1 < len(b) && strings.IndexByte(`\tnr#Gs,`, b[i+1]) < 0 && b[i+1] != '\n' {
						continue // drop the backslash: "\q" reads as "q"
					}
					out = append(out, b[i])
				}
				return out
			},
			[]string{"val-2-unknown-escape-q", "val-2-escape-x"},
		},
		{
			"skips empty rows [ROW-1] (E-3)",
			func(b []byte) []byte {
				for bytes.Contains(b, []byte("\n\n")) {
					b = bytes.ReplaceAll(b, []byte("\n\n"), []byte("\n"))
				}
				return b
			},
			[]string{"row-1-empty-line-is-one-empty-value", "lim-2-1048576-rows"},
		},
		{
			"adds a missing final LF [LINE-1] (E-12)",
			func(b []byte) []byte {
				if len(b) > 0 && b[len(b)-1] != '\n' {
					return append(b, '\n')
				}
				return b
			},
			[]string{"line-1-missing-final-lf"},
		},
		{
			"skips a byte-order mark [ENC-2] (E-11)",
			func(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\uFEFF")) },
			[]string{"enc-2-bom-at-start"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			broken := Implementation{Decode: func(payload []byte, limits Limits) (*spec.Payload, error) {
				return reference.DecodeLimits(c.prepare(bytes.Clone(payload)), limits.Apply(spec.DefaultLimits))
			}}
			r := Check(loadVectors(t), broken, Options{})
			failed := map[string]string{} // id -> name
			for _, res := range r.Failures() {
				failed[res.Vector.ID] = res.Vector.Name()
			}
			for _, id := range c.mustFail {
				if failed[id] == "" {
					t.Errorf("%s passed against the broken decoder", id)
				}
			}
			var summary strings.Builder
			r.WriteSummary(&summary, false)
			last := fmt.Sprintf("\n%d passed, %d failed, %d skipped\n", r.Diagnostic.Passed, r.Diagnostic.Failed, r.Diagnostic.Skipped)
			if !strings.Contains(summary.String(), "FAIL "+failed[c.mustFail[0]]+"\n") || !strings.HasSuffix(summary.String(), last) {
				t.Errorf("summary does not report the %d failures:\n%s", r.Diagnostic.Failed, summary.String())
			}
		})
	}
}

// Encoders that write what they should refuse, or name the wrong rule,
// fail the vectors that catch them.
func TestRunnerCatchesBrokenEncoders(t *testing.T) {
	cases := []struct {
		name     string
		encode   func([]byte) ([]byte, error)
		mustFail []string
	}{
		{
			"writes models it should refuse [CAN-3]",
			func(view []byte) ([]byte, error) {
				p, err := wire.Unmarshal(view)
				if err != nil {
					return nil, err
				}
				var b bytes.Buffer
				for _, s := range p.Sections {
					b.WriteString("GCX1 tool=" + s.Tool + " fields=" + strings.Join(s.Fields, ",") + "\n")
				}
				return b.Bytes(), nil
			},
			[]string{"hdr-3-tool-with-space", "hdr-6-duplicate-fields"},
		},
		{
			"names the wrong rule",
			func(view []byte) ([]byte, error) {
				b, err := Reference().Encode(view)
				var e *spec.Error
				if errors.As(err, &e) {
					e.Rule = "CAN-3"
				}
				return b, err
			},
			[]string{"meta-4-rows-disagrees"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(loadVectors(t), Implementation{Encode: c.encode}, Options{})
			failed := map[string]bool{}
			for _, res := range r.Failures() {
				failed[res.Vector.ID] = true
			}
			for _, id := range c.mustFail {
				if !failed[id] {
					t.Errorf("%s passed against the broken encoder", id)
				}
			}
		})
	}
}

// The two levels [ERR-6]: a decoder that reports the right class on the
// right line but at another column and with no rule passes at the core
// level and fails at the diagnostic level; one that reports another line,
// another class or no tag fails at both.
func TestRunnerLevels(t *testing.T) {
	vs := loadVectors(t)
	mutate := func(change func(e *spec.Error)) Implementation {
		return Implementation{Decode: func(payload []byte, limits Limits) (*spec.Payload, error) {
			p, err := Reference().Decode(payload, limits)
			var e *spec.Error
			if errors.As(err, &e) {
				change(e)
			}
			return p, err
		}}
	}
	both := func(name string) bool {
		return name == "reject/values/val-2-unknown-escape-q" || name == "version/tags/ver-2-gcx2"
	}
	gcx2 := func(name string) bool { return name == "version/tags/ver-2-gcx2" }
	for _, c := range []struct {
		name             string
		impl             Implementation
		match            func(string) bool
		core, diagnostic Status
	}{
		{"exact", Reference(), both, Pass, Pass},
		{"another column", mutate(func(e *spec.Error) { e.Column++; e.Offset++ }), both, Pass, Fail},
		{"another offset", mutate(func(e *spec.Error) { e.Offset++ }), both, Pass, Fail},
		{"no rule", mutate(func(e *spec.Error) { e.Rule = "" }), both, Pass, Fail},
		{"another line", mutate(func(e *spec.Error) { e.Line++ }), both, Fail, Fail},
		{"another class", mutate(func(e *spec.Error) { e.Class = spec.ErrConstraint }), both, Fail, Fail},
		{"no tag", mutate(func(e *spec.Error) { e.Tag = "" }), gcx2, Fail, Fail},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, level := range Levels {
				r := Check(vs, c.impl, Options{Match: c.match, Level: level})
				if len(r.Results) == 0 || r.Level != level {
					t.Fatalf("%d results at level %v", len(r.Results), r.Level)
				}
				for _, res := range r.Results {
					if res.Core != c.core || res.Diagnostic != c.diagnostic {
						t.Errorf("%s: core %v, diagnostic %v; want %v, %v\n%s", res.Vector.ID, res.Core, res.Diagnostic, c.core, c.diagnostic, res.Detail)
					}
				}
				var b strings.Builder
				r.WriteSummary(&b, false)
				if n := r.Counts(0); !strings.HasSuffix(b.String(), "\n"+n.String()+"\n") ||
					!strings.Contains(b.String(), "core level: "+r.Core.String()+"\n") ||
					!strings.Contains(b.String(), "diagnostic level: "+r.Diagnostic.String()+"\n") {
					t.Errorf("summary does not end with both levels and the counts of level %v:\n%s", level, b.String())
				}
			}
		})
	}
}

// A step that does not run is never a pass: a vector with a step the
// implementation does not offer, or declines with ErrSkip, is skipped at
// both levels even when its other step passed, and the summary names it
// and says why. A failing step still fails the vector.
func TestRunnerNeverPassesAnUnrunStep(t *testing.T) {
	vs := loadVectors(t)
	t.Run("decoder without encoder", func(t *testing.T) {
		r := Check(vs, Implementation{Decode: Reference().Decode}, Options{Categories: []string{CategoryDecode, CategoryReject}})
		for _, res := range r.Results {
			want := Pass
			if res.Vector.IsCanonical() {
				want = Skip // the view is never encoded back [CAN-1]
			}
			if res.Core != want || res.Diagnostic != want {
				t.Errorf("%s: %v/%v, want %v", res.Vector.Name(), res.Core, res.Diagnostic, want)
			}
		}
		var b strings.Builder
		r.WriteSummary(&b, false)
		if r.Diagnostic.Skipped == 0 || !strings.Contains(b.String(), "re-encode not run (no encoder)") ||
			!strings.HasSuffix(b.String(), fmt.Sprintf("%d passed, 0 failed, %d skipped\n", r.Diagnostic.Passed, r.Diagnostic.Skipped)) {
			t.Errorf("summary:\n%s", b.String())
		}
	})
	t.Run("auto mode declined", func(t *testing.T) {
		ref := Reference()
		impl := Implementation{
			EncodeJSON: func(text []byte, tool, mode string, limits Limits) ([]byte, error) {
				if mode == "auto" {
					return nil, fmt.Errorf("%w: no tokenizer", ErrSkip)
				}
				return ref.EncodeJSON(text, tool, mode, limits)
			},
			DecodeJSON: ref.DecodeJSON,
		}
		r := Check(vs, impl, Options{Categories: []string{CategoryJSON}})
		auto := 0
		for _, res := range r.Results {
			if res.Vector.Mode != "auto" {
				if res.Diagnostic != Pass {
					t.Errorf("%s: %v\n%s", res.Vector.Name(), res.Diagnostic, res.Detail)
				}
				continue
			}
			auto++
			if res.Core != Skip || res.Diagnostic != Skip || !strings.Contains(res.Detail, "no tokenizer") {
				t.Errorf("%s: %v/%v (%s), want skipped: its decode step ran, its encode step did not", res.Vector.Name(), res.Core, res.Diagnostic, res.Detail)
			}
		}
		if auto < 2 {
			t.Errorf("%d auto-mode vectors", auto)
		}
	})
	t.Run("a failing step fails a vector whose other step was skipped", func(t *testing.T) {
		impl := Implementation{DecodeJSON: func([]byte, Limits) ([]byte, error) { return []byte("null"), nil }}
		r := Check(vs, impl, Options{Match: func(name string) bool { return strings.HasSuffix(name, "/map-8-empty-array") }})
		if len(r.Results) != 1 || r.Results[0].Core != Fail || !strings.Contains(r.Results[0].Detail, "json-encode not run") {
			t.Errorf("%+v", r.Results)
		}
	})
	t.Run("an implementation with no ops skips everything", func(t *testing.T) {
		r := Check(vs, Implementation{}, Options{})
		if n := r.Counts(0); n.Passed != 0 || n.Failed != 0 || n.Skipped != len(vs) {
			t.Errorf("%s, of %d", n, len(vs))
		}
	})
}

func TestRunnerFilters(t *testing.T) {
	r := Check(loadVectors(t), Reference(), Options{Categories: []string{CategoryVersion}})
	for _, res := range r.Results {
		if res.Vector.Category != CategoryVersion {
			t.Errorf("%s ran under a version-only filter", res.Vector.Name())
		}
	}
	if len(r.Results) == 0 {
		t.Error("the version filter selected nothing")
	}
}

func TestMentionsRule(t *testing.T) {
	for _, c := range []struct {
		text, rule string
		want       bool
	}{
		{"line 2, column 3: unknown escape [VAL-2]", "VAL-2", true},
		{"rule VAL-2: x", "VAL-2", true},
		{"VAL-2", "VAL-2", true},
		{"[VAL-21]", "VAL-2", false},
		{"XVAL-2", "VAL-2", false},
		{"bad input", "VAL-2", false},
	} {
		if got := mentionsRule(c.text, c.rule); got != c.want {
			t.Errorf("mentionsRule(%q, %q) = %v", c.text, c.rule, got)
		}
	}
}

func TestMentionsPosition(t *testing.T) {
	for _, c := range []struct {
		text         string
		line, column int
		want         bool
	}{
		{"line 2, column 3: x", 2, 3, true},
		{"Line=2 col=3", 2, 3, true},
		{"input:2:3: x", 2, 3, true},
		{"line 2, column 31", 2, 3, false},
		{"line 12, column 3", 2, 3, false},
		{"12:3", 2, 3, false},
	} {
		if got := mentionsPosition(c.text, c.line, c.column); got != c.want {
			t.Errorf("mentionsPosition(%q, %d, %d) = %v", c.text, c.line, c.column, got)
		}
	}
}

func TestLimitsFlagsAndApply(t *testing.T) {
	l := Limits{"max-rows": 3, "max-fields": 2}
	if got := strings.Join(l.Flags(), " "); got != "--max-fields 2 --max-rows 3" {
		t.Errorf("Flags() = %q", got)
	}
	got := l.Apply(spec.DefaultLimits)
	if got.MaxFields != 2 || got.MaxRows != 3 || got.MaxLineBytes != spec.DefaultLimits.MaxLineBytes {
		t.Errorf("Apply: %+v", got)
	}
}
