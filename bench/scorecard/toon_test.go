package scorecard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const toonDir = "../toon"

// TestTOONRunner drives the official encoder on two small values. Where node
// or the pinned package is missing it says so and stops: there is no
// stand-in to test instead.
func TestTOONRunner(t *testing.T) {
	cases := []Case{
		{Name: "table", Response: []byte(`[{"sig":"func(a int, b string) error","n":1},{"sig":"x","n":2}]`)},
		{Name: "scalar", Response: []byte(`"héllo"`)},
	}
	version, out, err := RunTOON(toonDir, cases)
	if IsTOONUnavailable(err) {
		t.Skipf("TOON: not measured here (%v); run `npm ci --prefix bench/toon` to test the runner", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var pin struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := readJSONFile(filepath.Join(toonDir, "package.json"), &pin); err != nil {
		t.Fatal(err)
	}
	if version != pin.Dependencies[TOONPackage] {
		t.Errorf("version %q, pinned %q", version, pin.Dependencies[TOONPackage])
	}
	if len(out) != 2 {
		t.Fatalf("%d outputs, want 2", len(out))
	}
	// With the comma delimiter the signature needs quotes; with the tab it
	// does not, and the rows are tab-separated.
	if !strings.Contains(out[0].Comma, `"func(a int, b string) error",1`) {
		t.Errorf("comma output:\n%s", out[0].Comma)
	}
	if !strings.Contains(out[0].Tab, "func(a int, b string) error\t1") {
		t.Errorf("tab output:\n%s", out[0].Tab)
	}
	if !out[0].RoundTrip || !out[1].RoundTrip {
		t.Errorf("round trips: %v, %v", out[0].RoundTrip, out[1].RoundTrip)
	}
}

func TestTOONUnavailable(t *testing.T) {
	dir := t.TempDir()
	_, _, err := RunTOON(dir, nil)
	if !IsTOONUnavailable(err) || !strings.Contains(err.Error(), "cannot read the pin") {
		t.Errorf("no package.json: %v", err)
	}
	pin := `{"dependencies":{"@toon-format/toon":"1.2.3"}}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pin), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = RunTOON(dir, nil)
	if !IsTOONUnavailable(err) || !strings.Contains(err.Error(), "is not installed") {
		t.Errorf("no node_modules: %v", err)
	}
	pkg := filepath.Join(dir, "node_modules", "@toon-format", "toon")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"version":"1.2.4"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = RunTOON(dir, nil)
	if !IsTOONUnavailable(err) || !strings.Contains(err.Error(), "1.2.4 is installed but 1.2.3 is pinned") {
		t.Errorf("wrong version installed: %v", err)
	}
}

// A codec that refuses everything still gives a scorecard: the JSON and
// TOON figures, and the failures named per case.
func TestMeasureRecordsCodecFailures(t *testing.T) {
	refuse := errors.New("refused")
	codec := Codec{
		Encode: func(string, []byte) ([]byte, error) { return nil, refuse },
		Decode: func([]byte) ([]byte, error) { return nil, refuse },
		Auto:   func(string, []byte) ([]byte, bool, error) { return nil, false, refuse },
	}
	c, err := ParseCase("one", []byte(`{"tool":"t","description":"d","response":[{"a":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	toon := []TOONOutput{{Comma: "[1]{a}:\n  1", Tab: "[1\t]{a}:\n  1", RoundTrip: true}}
	var progress strings.Builder
	sc, err := Measure([]Case{c}, codec, "9.9.9", toon, "", &progress)
	if err != nil {
		t.Fatal(err)
	}
	r := sc.Cases[0]
	if r.GCX != nil || r.GCXError != "refused" || r.Auto != nil || r.AutoError != "refused" {
		t.Errorf("failures not recorded: %+v", r)
	}
	if r.Compact.Bytes != len(`[{"a":1}]`) || r.Compact.CL100K == 0 || r.TOONTab == nil || r.TOONTab.Bytes != len(toon[0].Tab) {
		t.Errorf("sizes: compact %+v, TOON tab %+v", r.Compact, r.TOONTab)
	}
	if progress.String() != "scorecard: [1/1] one\n" {
		t.Errorf("progress = %q", progress.String())
	}
	md := sc.Markdown(nil)
	if !strings.Contains(md, "- **one**: encode: refused; round trip: not run: the value did not encode; auto: refused;") {
		t.Errorf("Markdown does not name the failure:\n%s", md)
	}
}

// CarryTOON keeps earlier TOON figures only when they are exactly what the
// encoder would write again, and then all of them; otherwise it says why and
// leaves the scorecard as measured.
func TestCarryTOON(t *testing.T) {
	withDigests := func(sc *Scorecard) *Scorecard {
		for i := range sc.Cases {
			sc.Cases[i].ResponseSHA256 = "digest-of-" + sc.Cases[i].Name
		}
		return sc
	}
	prev := withDigests(sample(true))
	fresh := func() *Scorecard {
		sc := withDigests(sample(false))
		sc.TOONNote = "node is not on PATH"
		return sc
	}

	sc := fresh()
	if err := CarryTOON(sc, prev, "9.9.9"); err != nil {
		t.Fatalf("unchanged responses, pinned version: %v", err)
	}
	if diff := cmp.Diff(prev, sc); diff != "" {
		t.Errorf("the carried scorecard differs from the one measured with TOON (-measured +carried):\n%s", diff)
	}
	sc.Cases[0].TOONTab.CL100K++
	if prev.Cases[0].TOONTab.CL100K == sc.Cases[0].TOONTab.CL100K {
		t.Error("the carried figures share memory with the earlier scorecard")
	}

	refusals := []struct {
		name   string
		change func(sc, prev *Scorecard)
		pinned string
		want   string
	}{
		{"OtherVersionPinned", func(sc, prev *Scorecard) {}, "9.9.10", "are of @toon-format/toon 9.9.9, and 9.9.10 is pinned"},
		{"ResponseChanged", func(sc, prev *Scorecard) { sc.Cases[1].ResponseSHA256 = "new" }, "9.9.9", "of the 4 responses, 1 changed since it was measured (graph)"},
		{"NewCase", func(sc, prev *Scorecard) {
			sc.Cases = append(sc.Cases, Result{Name: "added", ResponseSHA256: "x"})
		}, "9.9.9", "1 have no TOON figures there tied to their SHA-256 (added)"},
		{"NoTOONEarlier", func(sc, prev *Scorecard) { prev.TOONVersion = "" }, "9.9.9", "it has no TOON figures"},
		{"CaseWithoutFigures", func(sc, prev *Scorecard) { prev.Cases[2].TOONTab = nil }, "9.9.9", "1 have no TOON figures there tied to their SHA-256 (tiny-object)"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			sc, prev := fresh(), withDigests(sample(true))
			c.change(sc, prev)
			before := fresh()
			c.change(before, withDigests(sample(true)))
			err := CarryTOON(sc, prev, c.pinned)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
			if diff := cmp.Diff(before, sc); diff != "" {
				t.Errorf("a refused carry changed the scorecard (-before +after):\n%s", diff)
			}
		})
	}
}
