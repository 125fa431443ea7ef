package auto_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/jsonmap/jsongen"
	"github.com/gcxwire/gcx/spec"
)

// checkChoosePlan fails unless ChoosePlan over text decides what
// ChooseValueLimits decides with full counts, with the same counts.
func checkChoosePlan(t fataler, tool string, text []byte, limits spec.Limits) {
	t.Helper()
	v, err := jsonmap.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	want, wantErr := auto.ChooseValueLimits(tool, v, limits, true)
	plan, err := jsonmap.PlanFile(tool, bytes.NewReader(text), int64(len(text)))
	if err != nil {
		t.Fatalf("PlanFile(%q): %v", text, err)
	}
	got, err := auto.ChoosePlan(plan, limits)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("text %q: ChoosePlan error %v, ChooseValueLimits %v", text, err, wantErr)
	}
	if got.Format != want.Format || got.GCXTokens != want.GCXTokens || got.JSONTokens != want.JSONTokens ||
		fmt.Sprint(got.Refused) != fmt.Sprint(want.Refused) {
		t.Fatalf("text %q:\nChoosePlan        %s gcx %d json %d refused %v\nChooseValueLimits %s gcx %d json %d refused %v",
			text, got.Format, got.GCXTokens, got.JSONTokens, got.Refused, want.Format, want.GCXTokens, want.JSONTokens, want.Refused)
	}
}

// TestPropertyChoosePlanCountsAsInMemory: the counts ChoosePlan takes as
// the two texts stream by are the counts of the whole texts, and it
// chooses as ChooseValueLimits does [AUTO-1], also when the limits refuse
// the payload [LIM-4].
func TestPropertyChoosePlanCountsAsInMemory(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		v := jsongen.Value().Draw(t, "value")
		limits := spec.DefaultLimits
		if rapid.IntRange(0, 4).Draw(t, "tight limits") == 0 {
			limits.MaxLineBytes = rapid.IntRange(8, 200).Draw(t, "line")
		}
		checkChoosePlan(t, "t", jsongen.Text(t, v), limits)
	})
}

// TestChoosePlanLargeTexts: texts long enough that both counters count
// while the texts are being written, whitespace runs and long words among
// them.
func TestChoosePlanLargeTexts(t *testing.T) {
	var rows []string
	for i := range 20000 {
		rows = append(rows, fmt.Sprintf(`{"id":"pkg/f%d.go::F%d","note":"  it's  %s\n\n  end","n":%d}`, i, i, strings.Repeat(" ", i%90), i))
	}
	text := []byte("[" + strings.Join(rows, ",") + "]")
	checkChoosePlan(t, "t", text, spec.DefaultLimits)
	checkChoosePlan(t, "t", []byte(`{"a":"`+strings.Repeat("word ", 100000)+`"}`), spec.DefaultLimits)
}

// failingReads is a file whose reads fail once failing is set.
type failingReads struct {
	text    *bytes.Reader
	failing bool
}

var errReadFailed = errors.New("read failed")

func (f *failingReads) ReadAt(p []byte, off int64) (int, error) {
	if f.failing {
		return 0, errReadFailed
	}
	return f.text.ReadAt(p, off)
}

// TestChoosePlanErrors: ChoosePlan returns an error of either text it
// counts rather than a choice made on a count cut short: the payload's
// (a tool name the header cannot hold [HDR-3]) and the JSON text's (the
// file unreadable on the second read, where the payload of a scalar is
// written from the first).
func TestChoosePlanErrors(t *testing.T) {
	checkChoosePlan(t, "a b", []byte(`[{"a":1}]`), spec.DefaultLimits)

	text := `"` + strings.Repeat("word ", 1000) + `"`
	file := &failingReads{text: bytes.NewReader([]byte(text))}
	plan, err := jsonmap.PlanFile("t", file, int64(len(text)))
	if err != nil {
		t.Fatalf("PlanFile: %v", err)
	}
	file.failing = true
	if c, err := auto.ChoosePlan(plan, spec.DefaultLimits); !errors.Is(err, errReadFailed) {
		t.Errorf("ChoosePlan of an unreadable file: %v, %+v; want %v", err, c, errReadFailed)
	}
}
