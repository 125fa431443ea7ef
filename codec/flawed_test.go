package codec_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/codec/codectest"
)

// flawsEnv, set in the environment of this test binary, registers the
// drafts of flawedDrafts before the tests run.
const flawsEnv = "GCX_CODEC_FLAWED_DRAFTS"

// flawedDrafts are registered only in a run that TestPropertiesCatchFlawedCodecs
// starts. Each is the template with one flaw, and fails exactly the
// properties listed; the template itself fails none, nor does the
// scorecard's draft of two harmless ideas.
var flawedDrafts = []struct {
	codec codec.Codec
	fails []string
}{
	{codec.NewTemplate("GCX2-draft.90"), nil},
	{codectest.Lossy("GCX2-draft.91"), []string{"Identity", "Canonical", "Auto", "Negotiation"}},
	{codectest.Unstable("GCX2-draft.92"), []string{"Canonical"}},
	{codectest.Gullible("GCX2-draft.93"), []string{"Tag"}},
	{codectest.Impostor("GCX2-draft.94"), []string{"Tag", "Fallback", "Negotiation"}},
	{codec.NewTemplate("GCX2-beta.1"), []string{"Negotiation"}},
	{codectest.Commented("GCX2-draft.95", false), nil},
	{codectest.Careless("GCX2-draft.96"), []string{"Limits"}},
}

func init() {
	if os.Getenv(flawsEnv) != "" {
		for _, d := range flawedDrafts {
			codec.Register(d.codec)
		}
	}
}

// properties are the laws of property_test.go, by the name after
// TestProperty.
var properties = []string{"Identity", "Canonical", "Tag", "Auto", "Fallback", "Negotiation", "Limits"}

// Registering a codec is all it takes for the properties to cover it: run
// with the flawed drafts registered, the unchanged TestProperty functions
// fail each flaw's properties and no others, and pass the template.
func TestPropertiesCatchFlawedCodecs(t *testing.T) {
	if os.Getenv(flawsEnv) != "" {
		t.Skip("this is the run with the flawed drafts registered")
	}
	if testing.Short() {
		t.Skip("runs the properties once more in a child process")
	}
	var names []string
	for _, d := range flawedDrafts {
		names = append(names, regexp.QuoteMeta(d.codec.Tag()))
	}
	run := "^TestProperty(" + strings.Join(properties, "|") + ")$/^(" + strings.Join(names, "|") + ")$"
	cmd := exec.Command(os.Args[0], "-test.run", run, "-test.v", "-test.count=1")
	// The verdicts need no more than the default counts, whatever
	// RAPID_CHECKS asks of this run.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "RAPID_CHECKS=") })
	cmd.Env = append(env, flawsEnv+"=1")
	out, _ := cmd.CombinedOutput() // it fails by design; the verdicts say how
	verdict := regexp.MustCompile(`(?m)^\s*--- (PASS|FAIL|SKIP): TestProperty(\w+)/(\S+) `)
	got := map[string][]string{}
	seen := 0
	for _, m := range verdict.FindAllStringSubmatch(string(out), -1) {
		seen++
		if m[1] == "FAIL" {
			got[m[3]] = append(got[m[3]], m[2])
		}
	}
	if want := len(flawedDrafts) * len(properties); seen != want {
		t.Fatalf("the run gave %d verdicts, want %d (one per property and draft); its output:\n%s", seen, want, out)
	}
	for _, d := range flawedDrafts {
		fails := got[d.codec.Tag()]
		slices.SortFunc(fails, func(a, b string) int { return slices.Index(properties, a) - slices.Index(properties, b) })
		if diff := cmp.Diff(d.fails, fails); diff != "" {
			t.Errorf("%s: failing properties (-want +got):\n%s", d.codec.Tag(), diff)
		}
	}
	if t.Failed() {
		t.Logf("the run's output:\n%s", out)
	}
}
