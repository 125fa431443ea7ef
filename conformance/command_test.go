package conformance

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// fakeEnv selects, in a child process of this test binary, one of the
// deliberately wrong command-line decoders below.
const fakeEnv = "GCX_CONFORMANCE_FAKE_DECODER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeDecoder(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeDecoder is a command-line decoder that breaks the protocol [WIRE-3]
// in the way mode names; "honest" keeps it.
func fakeDecoder(mode string, args []string) int {
	in, _ := io.ReadAll(os.Stdin)
	if mode == "always-empty-view" {
		fmt.Println(`{"sections":[]}`)
		return 0
	}
	limits := spec.DefaultLimits
	fl := flag.NewFlagSet("fake", flag.ContinueOnError)
	if mode != "no-limit-flags" {
		fl.IntVar(&limits.MaxLineBytes, "max-line-bytes", limits.MaxLineBytes, "")
		fl.IntVar(&limits.MaxFields, "max-fields", limits.MaxFields, "")
		fl.IntVar(&limits.MaxSections, "max-sections", limits.MaxSections, "")
		fl.IntVar(&limits.MaxRows, "max-rows", limits.MaxRows, "")
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	p, err := reference.DecodeLimits(in, limits)
	switch {
	case err == nil:
		out, _ := spec.MarshalWire(p)
		os.Stdout.Write(out)
		return 0
	case mode == "no-rule-ids":
		fmt.Fprintln(os.Stderr, "bad input")
		return 1
	case mode == "stdout-on-error":
		fmt.Println(`{"sections":[]}`)
	}
	fmt.Fprintln(os.Stderr, err)
	if errors.Is(err, spec.ErrUnsupportedVersion) {
		return 3
	}
	return 1
}

// The command adapter catches a command-line decoder that breaks the
// protocol: wrong views, no rule IDs, data on stdout with an error; and it
// skips, rather than fails, limit vectors for a decoder without limit flags.
func TestCommandDecoderProtocol(t *testing.T) {
	vs := loadVectors(t)
	sample := regexp.MustCompile(`^(valid/row-4-guard-hash|invalid/val-2-unknown-escape-q|invalid/ver-2-gcx2|invalid/lim-3-field-limit)$`)
	opt := Options{Match: sample.MatchString, Positions: true}
	cases := []struct {
		mode                    string
		passed, failed, skipped int
		failDetail              string
	}{
		{"honest", 4, 0, 0, ""},
		{"always-empty-view", 0, 4, 0, ""},
		{"no-rule-ids", 1, 3, 0, "does not name rule"},
		{"stdout-on-error", 1, 3, 0, "stdout"},
		{"no-limit-flags", 3, 0, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			r := Run(vs, Implementation{Decode: DecoderCommand(time.Minute, os.Args[0])}, opt)
			if r.Passed != c.passed || r.Failed != c.failed || r.Skipped != c.skipped {
				var b strings.Builder
				r.WriteSummary(&b, true)
				t.Fatalf("%d passed, %d failed, %d skipped; want %d, %d, %d\n%s",
					r.Passed, r.Failed, r.Skipped, c.passed, c.failed, c.skipped, b.String())
			}
			for _, res := range r.Failures() {
				if !strings.Contains(res.Detail, c.failDetail) {
					t.Errorf("%s: detail %q lacks %q", res.Name(), res.Detail, c.failDetail)
				}
			}
		})
	}
}

// buildCommand builds a command of this module into dir and returns its
// path.
func buildCommand(t *testing.T, dir, pkg string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command(goTool, "build", "-o", out, pkg)
	cmd.Dir = ".."
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// runRunner runs the gcx-conformance binary and returns its exit status
// and output.
func runRunner(t *testing.T, runner string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(runner, args...)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("gcx-conformance: %v", err)
	}
	return 0, string(out)
}

var summaryLine = regexp.MustCompile(`(?m)^([0-9]+) passed, ([0-9]+) failed`)

// The gcx command passes the suite end to end through gcx-conformance: as a
// decoder with positions [WIRE-3] [ERR-2], and as an encoder [CAN-1]
// [CAN-3] [WIRE-2].
func TestGCXCommandEndToEnd(t *testing.T) {
	dir := t.TempDir()
	gcx := buildCommand(t, dir, "./cmd/gcx")
	runner := buildCommand(t, dir, "./conformance/cmd/gcx-conformance")

	t.Run("decoder", func(t *testing.T) {
		code, out := runRunner(t, runner, "-positions", "--", gcx, "decode", "--wire")
		if code != 0 || !summaryLine.MatchString(out) || !strings.Contains(out, " 0 failed") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		t.Log(summaryLine.FindString(out))
	})
	t.Run("encoder", func(t *testing.T) {
		code, out := runRunner(t, runner, "-encoder", "--", gcx, "encode", "--wire")
		if code != 0 || !strings.Contains(out, " 0 failed") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		t.Log(summaryLine.FindString(out))
	})
	t.Run("usage", func(t *testing.T) {
		if code, out := runRunner(t, runner); code != 2 {
			t.Errorf("no command: exit %d, want 2\n%s", code, out)
		}
		if code, out := runRunner(t, runner, "-run", "(", "--", gcx); code != 2 {
			t.Errorf("bad -run: exit %d, want 2\n%s", code, out)
		}
		if code, out := runRunner(t, runner, "-run", "no-such-vector", "--", gcx, "decode", "--wire"); code != 1 {
			t.Errorf("no vector selected: exit %d, want 1\n%s", code, out)
		}
	})
	t.Run("broken decoder fails", func(t *testing.T) {
		// gcx encode is no decoder: every vector must fail and the runner
		// must say so in its exit status and summary.
		code, out := runRunner(t, runner, "-run", "^valid/hdr-1|^invalid/val-2-unknown", "--", gcx, "encode", "--wire")
		if code != 1 || !regexp.MustCompile(`(?m)^0 passed, [1-9][0-9]* failed`).MatchString(out) {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}
