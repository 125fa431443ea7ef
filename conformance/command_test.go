package conformance

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
	"github.com/gcxwire/gcx/spec"
	wireview "github.com/gcxwire/gcx/wire"
)

// fakeEnv selects, in a child process of this test binary, one of the
// command-line implementations of fakeProgram.
const fakeEnv = "GCX_CONFORMANCE_FAKE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		if tag, ok := strings.CutPrefix(mode, "codec "); ok {
			os.Exit(codecProgram(tag, os.Args[1:]))
		}
		os.Exit(fakeProgram(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeProgram speaks the protocol of the gcx command with the reference
// implementation, keeping it ("honest") or breaking it in the way mode
// names. Started with --persistent alone, it speaks the persistent mode,
// but in the modes that stand for a program without it.
func fakeProgram(mode string, args []string) int {
	if len(args) == 1 && args[0] == persistent.Flag && !strings.HasPrefix(mode, "per-case") {
		switch mode {
		case "sleep", "child-holds-stdout", "flood-stdout", "flood-stderr":
		default:
			return fakePersistent(mode)
		}
	}
	in, _ := io.ReadAll(os.Stdin)
	return fakeRun(strings.TrimPrefix(mode, "per-case "), args, in, os.Stdout, os.Stderr)
}

// fakePersistent answers requests of the persistent mode with fakeRun
// until stdin ends. The modes "persistent-crash", "persistent-hang" and
// "persistent-garbage" exit, hang or write a line that is no response
// on an input that holds "val-2" (the payload of val-2-unknown-escape-q
// holds \q): the runner must blame that run alone.
func fakePersistent(mode string) int {
	err := persistent.Serve(os.Stdin, os.Stdout, func(args []string, stdin []byte, stdout, stderr io.Writer) int {
		if bytes.Contains(stdin, []byte(`x\qy`)) {
			switch mode {
			case "persistent-crash":
				os.Exit(5)
			case "persistent-hang":
				time.Sleep(time.Hour)
			case "persistent-garbage":
				fmt.Println("not a response")
			}
		}
		return fakeRun(mode, args, stdin, stdout, stderr)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 4
	}
	return 0
}

// fakeRun is one run of fakeProgram, on its arguments and stdin.
func fakeRun(mode string, args []string, in []byte, stdout, stderr io.Writer) int {
	switch mode {
	case "sleep":
		time.Sleep(8 * time.Second)
		return 0
	case "child-holds-stdout":
		// Like a shell wrapper: a child shares stdout and outlives the
		// timeout.
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fakeEnv+"=sleep")
		child.Stdout = os.Stdout
		if child.Start() == nil {
			time.Sleep(8 * time.Second)
		}
		return 0
	case "flood-stdout":
		chunk := bytes.Repeat([]byte("y\n"), 1<<19)
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 0
			}
		}
	case "flood-stderr":
		os.Stderr.Write(bytes.Repeat([]byte("e"), 8<<20))
		return 1
	}
	ref := Reference()
	if len(args) == 0 {
		return 2
	}
	op, args := args[0], args[1:]
	if Op(op).Binding() && len(args) == 0 {
		return fakeBinding(mode, op, in, stdout, stderr)
	}
	fl := flag.NewFlagSet("fake", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	wire := fl.Bool("wire", false, "")
	tool := fl.String("tool", "result", "")
	encMode := fl.String("mode", "auto", "")
	limits := Limits{}
	if mode != "no-limit-flags" {
		for name := range limitNames {
			fl.Func(name, "", func(s string) (err error) {
				limits[name], err = strconv.Atoi(s)
				return err
			})
		}
	}
	if err := fl.Parse(args); err != nil || fl.NArg() > 0 {
		return 2
	}
	if len(limits) == 0 {
		limits = nil
	}
	var out []byte
	var err error
	switch {
	case mode == "decoder-only" && (op != "decode" || !*wire):
		return 2
	case mode == "no-json-limit-flags" && limits != nil && !*wire:
		return 2 // the JSON mapping without its limits
	case op == "decode" && *wire:
		if mode == "always-empty-view" {
			fmt.Fprintln(stdout, `{"sections":[]}`)
			return 0
		}
		var p *spec.Payload
		if p, err = ref.Decode(in, limits); err == nil {
			if mode == "drop-hash-rows" {
				for i := range p.Sections {
					p.Sections[i].Rows = slices.DeleteFunc(p.Sections[i].Rows, func(r []string) bool { return strings.HasPrefix(r[0], "#") })
				}
			}
			out = wireview.Marshal(p)
		}
	case op == "encode" && *wire:
		out, err = ref.Encode(in)
	case op == "encode":
		if out, err = ref.EncodeJSON(in, *tool, *encMode, limits); err == nil && !strings.HasPrefix(string(out), "GCX") {
			out = append(out, '\n')
		}
	case op == "decode":
		if out, err = ref.DecodeJSON(in, limits); err == nil {
			out = append(out, '\n')
		}
	default:
		return 2
	}
	if err == nil {
		stdout.Write(out)
		return 0
	}
	msg := err.Error()
	switch mode {
	case "bare-errors":
		msg = "bad input"
	case "no-rule-ids":
		msg = regexp.MustCompile(` \[[A-Z]+-[0-9]+\]`).ReplaceAllString(msg, "")
	case "no-class":
		var e *spec.Error
		if errors.As(err, &e) {
			msg = fmt.Sprintf("line %d, column %d: %s [%s]", e.Line, e.Column, e.Msg, e.Rule)
		}
	case "stdout-on-error":
		fmt.Fprintln(stdout, `{"sections":[]}`)
	}
	fmt.Fprintln(stderr, msg)
	if errors.Is(err, spec.ErrUnsupportedVersion) {
		return 3
	}
	return 1
}

// The command adapter catches a program that breaks the protocol: wrong
// views, no rule IDs, data on stdout with an error. It skips, rather than
// fails, the vectors of an op the program does not offer — found by
// exit status 2 on a trivial input — and fails exit status 2 anywhere
// else.
func TestCommandProtocol(t *testing.T) {
	vs := loadVectors(t)
	sample := regexp.MustCompile(`/(row-4-guard-hash|val-2-unknown-escape-q|ver-2-gcx2|lim-3-field-limit|row-4-encoder-guards-hash)$`)
	opt := Options{Match: sample.MatchString}
	cases := []struct {
		mode             string
		core, diagnostic Counts
		failDetail       string
	}{
		{"honest", Counts{Passed: 5, Failed: 0, Skipped: 0}, Counts{Passed: 5, Failed: 0, Skipped: 0}, ""},
		{"always-empty-view", Counts{Passed: 1, Failed: 4, Skipped: 0}, Counts{Passed: 1, Failed: 4, Skipped: 0}, ""},
		{"no-rule-ids", Counts{Passed: 5, Failed: 0, Skipped: 0}, Counts{Passed: 2, Failed: 3, Skipped: 0}, "does not name rule"},
		// The limit error passes: its own text, "more than the limit of 2
		// fields", names its class.
		{"no-class", Counts{Passed: 4, Failed: 1, Skipped: 0}, Counts{Passed: 4, Failed: 1, Skipped: 0}, "does not name the error class"},
		{"bare-errors", Counts{Passed: 2, Failed: 3, Skipped: 0}, Counts{Passed: 2, Failed: 3, Skipped: 0}, "does not"},
		{"stdout-on-error", Counts{Passed: 2, Failed: 3, Skipped: 0}, Counts{Passed: 2, Failed: 3, Skipped: 0}, "stdout"},
		{"no-limit-flags", Counts{Passed: 4, Failed: 0, Skipped: 1}, Counts{Passed: 4, Failed: 0, Skipped: 1}, ""},
		// row-4-guard-hash is canonical: its view is never encoded back,
		// so it is skipped like the encode vector, not passed.
		{"decoder-only", Counts{Passed: 3, Failed: 0, Skipped: 2}, Counts{Passed: 3, Failed: 0, Skipped: 2}, ""},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			r := Check(vs, Command(time.Minute, os.Args[0]), opt)
			if r.Core != c.core || r.Diagnostic != c.diagnostic {
				var b strings.Builder
				r.WriteSummary(&b, true)
				t.Fatalf("core %s, diagnostic %s; want %s, %s\n%s", r.Core, r.Diagnostic, c.core, c.diagnostic, b.String())
			}
			for _, res := range r.Failures() {
				if !strings.Contains(res.Detail, c.failDetail) {
					t.Errorf("%s: detail %q lacks %q", res.Vector.Name(), res.Detail, c.failDetail)
				}
			}
		})
	}
}

// Limits are probed apart for each op that takes them: a program that
// offers the JSON mapping and the wire view's limits, but exits 2 on limit
// flags given to the mapping, has its JSON vectors under limits skipped,
// each naming the op it declined, and every other vector run.
func TestCommandProbesJSONLimitsApart(t *testing.T) {
	vs := loadVectors(t)
	sample := regexp.MustCompile(`/(lim-3-field-limit|map-8-empty-array|lim-3-json-decode-rows-limit-exceeded|lim-1-json-decode-fields-limit-met|lim-4-json-encode-rows-limit-exceeded|lim-4-json-encode-line-limit-met)$`)
	opt := Options{Match: sample.MatchString}
	for _, c := range []struct {
		mode            string
		passed, skipped int
	}{{"honest", 6, 0}, {"no-json-limit-flags", 2, 4}} {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			r := Check(vs, Command(time.Minute, os.Args[0]), opt)
			var b strings.Builder
			r.WriteSummary(&b, true)
			if want := (Counts{Passed: c.passed, Skipped: c.skipped}); r.Diagnostic != want {
				t.Fatalf("%s, want %s\n%s", r.Diagnostic, want, b.String())
			}
			for _, res := range r.Results {
				if res.Diagnostic != Skip {
					continue
				}
				want := "json-decode not run (exits 2 on the limit flags of decode)"
				if res.Vector.Op == OpJSONEncode {
					want = "json-encode not run (exits 2 on the limit flags of encode --mode gcx)"
				}
				if res.Vector.Limits == nil || !strings.HasPrefix(res.Detail, want) {
					t.Errorf("%s: skipped (%s), want only a vector under limits, skipped as %q", res.Vector.Name(), res.Detail, want)
				}
			}
		})
	}
}

// One run of a program under test is bounded in time and memory: a child
// that keeps stdout open does not outlast the timeout (tried twice, the
// second time with twice as long, and reported as timed out, not failed),
// a flood on stdout fails the vector, and stderr is kept only up to a
// prefix.
func TestCommandRunIsBounded(t *testing.T) {
	opt := Options{Match: regexp.MustCompile(`/ver-2-gcx2$`).MatchString}
	vs := loadVectors(t)
	cases := []struct {
		mode, detail string
		timeout      time.Duration
		status       Status
	}{
		{"child-holds-stdout", "timed out after 400ms, and after 200ms the first time", 200 * time.Millisecond, Timeout},
		{"flood-stdout", "more than", time.Minute, Fail},
		{"flood-stderr", "more bytes not kept", time.Minute, Fail},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			start := time.Now()
			r := Check(vs, Command(c.timeout, os.Args[0]), opt)
			// the probes of the persistent mode and of the op, and the
			// vector's run: each ends within its limits and the wait delay
			// (a flood ends when the runner stops reading, which takes as
			// long as copying 64 MiB three times on a loaded machine)
			if elapsed := time.Since(start); c.status == Timeout && elapsed > 12*time.Second {
				t.Errorf("took %v; a run should end within its timeout and the wait delay", elapsed)
			}
			if r.Core.Passed != 0 {
				t.Errorf("core %s; want nothing passed", r.Core)
			}
			if len(r.Results) == 0 {
				t.Fatal("no vector ran")
			}
			for _, res := range r.Results {
				if res.Core != c.status {
					t.Errorf("%s: %s, want %s", res.Vector.Name(), res.Core, c.status)
				}
				if !strings.Contains(res.Detail, c.detail) {
					t.Errorf("%s: detail lacks %q: %.300s", res.Vector.Name(), c.detail, res.Detail)
				}
				if len(res.Detail) > 2*maxStderrBytes {
					t.Errorf("%s: detail of %d bytes; stderr should be cut to %d", res.Vector.Name(), len(res.Detail), maxStderrBytes)
				}
			}
		})
	}
}

// In persistent mode a run that ends the process, hangs it or breaks the
// framing fails (or times out) alone: the process is started again and
// every other vector passes. Without the mode, and with it turned off,
// the same vectors pass one process per run. The vector of a million rows
// (a 2 MB payload and its views, framed in base64) runs in the honest
// persistent mode only: in the others it took most of this package's
// time and showed nothing the small vectors do not.
func TestCommandPersistentMode(t *testing.T) {
	vs := loadVectors(t)
	small := `row-4-guard-hash|val-2-unknown-escape-q|ver-2-gcx2|lim-3-field-limit|row-4-encoder-guards-hash|hdr-1-minimal`
	for _, c := range []struct {
		mode, detail string
		perCase, big bool
		want         Counts
		wantMode     string
	}{
		{"honest", "", false, true, Counts{Passed: 7}, "persistent mode: "},
		{"honest", "", true, false, Counts{Passed: 6}, "one process per run"},
		{"per-case honest", "", false, false, Counts{Passed: 6}, "one process per run"},
		{"persistent-crash", "exited with status 5 while answering", false, false, Counts{Passed: 5, Failed: 1}, "persistent mode: "},
		{"persistent-garbage", "not a JSON line of the persistent mode", false, false, Counts{Passed: 5, Failed: 1}, "persistent mode: "},
		{"persistent-hang", "timed out after 2s, and after 1s the first time", false, false, Counts{Passed: 5, TimedOut: 1}, "persistent mode: "},
	} {
		t.Run(fmt.Sprint(c.mode, " per-case=", c.perCase), func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode)
			timeout := time.Minute
			if c.mode == "persistent-hang" {
				timeout = time.Second
			}
			sample := small
			if c.big {
				sample += "|lim-2-1048576-rows"
			}
			opt := Options{Match: regexp.MustCompile(`/(` + sample + `)$`).MatchString, Parallel: 2}
			impl := NewCommand(CommandConfig{Timeout: timeout, PerCase: c.perCase}, os.Args[0])
			r := Check(vs, impl, opt)
			impl.Close()
			if r.Diagnostic != c.want {
				var b strings.Builder
				r.WriteSummary(&b, true)
				t.Fatalf("%s, want %s\n%s", r.Diagnostic, c.want, b.String())
			}
			for _, res := range r.Results {
				if res.Diagnostic != Pass && (!strings.HasSuffix(res.Vector.Name(), "/val-2-unknown-escape-q") || !strings.Contains(res.Detail, c.detail)) {
					t.Errorf("%s: %s: %.400s", res.Vector.Name(), res.Diagnostic, res.Detail)
				}
			}
			if m := impl.Mode(); !strings.HasPrefix(m, c.wantMode) {
				t.Errorf("mode %q, want %q", m, c.wantMode)
			}
			t.Log(impl.Mode())
		})
	}
}

// RunLimit grows with the input: a megabyte has five times the limit of
// a line.
func TestRunLimit(t *testing.T) {
	for _, c := range []struct {
		n    int
		want time.Duration
	}{{0, 10 * time.Second}, {1000, 10 * time.Second}, {256<<10 - 1, 10 * time.Second}, {256 << 10, 20 * time.Second}, {1 << 20, 50 * time.Second}} {
		if got := RunLimit(10*time.Second, c.n).Round(time.Second); got != c.want {
			t.Errorf("RunLimit(10s, %d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// Driven as an external program, a decoder that drops the rows whose first
// value begins with "#" fails exactly the vectors whose view holds one —
// the same set as in-process [ROW-4].
func TestCommandCatchesDroppedHashRows(t *testing.T) {
	t.Setenv(fakeEnv, "drop-hash-rows")
	want := predicted(t, func(v *Vector) bool {
		return v.Op == OpDecode && v.Accepts() && firstValueBegins(v.Expected.Payload(), "#")
	})
	r := Check(loadVectors(t), Command(time.Minute, os.Args[0]), Options{Categories: []string{CategoryDecode}})
	var failed []string
	for _, res := range r.Failures() {
		failed = append(failed, res.Vector.Name())
	}
	requireSameSet(t, failed, want, 3)
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

// runGCX runs the gcx binary and returns its exit status and output.
func runGCX(t *testing.T, gcx string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(gcx, args...)
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("gcx: %v", err)
	}
	return 0, string(out)
}

var lastLine = regexp.MustCompile(`(?m)^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped\n\z`)

// gcx conformance passes the built-in implementations, and the gcx binary
// itself passes as an external program, every op of the format and
// position included [WIRE-3] [ERR-2], and skips the MCP binding's vectors,
// whose ops it does not offer; usage errors, filters, a failing program and a program
// or vectors directory that is not there are reported as documented.
func TestGCXConformanceCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process per vector")
	}
	gcx := buildCommand(t, t.TempDir(), "./cmd/gcx")
	format, binding := len(loadVectors(t)), len(loadBindingVectors(t))
	total := format + binding

	t.Run("built-in", func(t *testing.T) {
		code, out := runGCX(t, gcx, "conformance")
		m := lastLine.FindStringSubmatch(out)
		want := fmt.Sprintf("== all: %d vectors of GCX1 × %d implementations\n", total, len(BuiltIn()))
		if code != 0 || m == nil || m[1] != fmt.Sprint(total*len(BuiltIn())) || m[2] != "0" || m[3] != "0" || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want %q and no failure:\n%s", code, want, out)
		}
		t.Log(m[0])
	})
	t.Run("external", func(t *testing.T) {
		code, out := runGCX(t, gcx, "conformance", "--", gcx)
		m := lastLine.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] != fmt.Sprint(format) || m[2] != "0" || m[3] != fmt.Sprint(binding) ||
			!strings.Contains(out, "mcp-server not run (exits 2 on mcp-server)") {
			t.Fatalf("exit %d, want %d passed and %d skipped:\n%s", code, format, binding, out)
		}
		t.Log(strings.TrimSpace(m[0]))
	})
	t.Run("filters", func(t *testing.T) {
		code, out := runGCX(t, gcx, "conformance", "--category", "version", "--run", "gcx2", "-v", "--", gcx)
		if code != 0 || !strings.Contains(out, "PASS version/tags/ver-2-gcx2\n") || strings.Contains(out, "PASS reject/") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("usage", func(t *testing.T) {
		for _, args := range [][]string{
			{"conformance", "--run", "("},
			{"conformance", "--category", "nope"},
			{"conformance", "--level", "strict"},
			{"conformance", "--"},
			{"conformance", "stray"},
			{"conformance", "--tag", "GCX9"},
			{"conformance", "--tag", "GCX 1"},
		} {
			if code, out := runGCX(t, gcx, args...); code != 2 {
				t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
			}
		}
		if code, out := runGCX(t, gcx, "conformance", "--run", "no-such-vector"); code != 1 {
			t.Errorf("no vector selected: exit %d, want 1\n%s", code, out)
		}
	})
	t.Run("help", func(t *testing.T) {
		code, out := runGCX(t, gcx, "conformance", "-h")
		for _, want := range []string{"-level level", "-run regexp", "-category list", "-vectors directory", "-timeout", "example:\n  gcx conformance "} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("exit %d; help lacks %q:\n%s", code, want, out)
			}
		}
	})
	t.Run("nothing there", func(t *testing.T) {
		// One plain error, not a failure per vector, and no report.
		empty := t.TempDir()
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"conformance", "--", "/nonexistent/gcx"}, "gcx conformance: cannot run /nonexistent/gcx: there is no such file\n"},
			{[]string{"conformance", "--", "no-such-program-gcx"}, "gcx conformance: cannot run no-such-program-gcx: no such program on the PATH\n"},
			{[]string{"conformance", "--vectors", "/nonexistent"}, "gcx conformance: --vectors /nonexistent: there is no such directory\n"},
			{[]string{"conformance", "--vectors", empty}, "gcx conformance: --vectors " + empty + ": no vectors: "},
		} {
			code, out := runGCX(t, gcx, c.args...)
			if code == 0 || !strings.HasPrefix(out, c.want) || strings.Count(out, "\n") != 1 {
				t.Errorf("%q: exit %d, want one line %q:\n%s", c.args, code, c.want, out)
			}
		}
	})
	t.Run("failing program", func(t *testing.T) {
		// cat echoes its input: every decode and json vector fails, and the
		// runner says so in its exit status, its report and its last line.
		cat, err := exec.LookPath("cat")
		if err != nil {
			t.Skip("no cat")
		}
		code, out := runGCX(t, gcx, "conformance", "--run", "hdr-1-minimal$|val-2-unknown-escape-q$", "--", cat)
		if code != 1 || !strings.Contains(out, "FAIL decode/headers/hdr-1-minimal\n") ||
			!regexp.MustCompile(`(?m)^0 passed, 2 failed, 0 skipped\n\z`).MatchString(out) {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}

// pythonExample returns the command that runs the Python example adapter,
// or skips the test when there is no Python 3. It resolves the interpreter
// once, so a version-manager shim does not cost a process per vector.
func pythonExample(t *testing.T) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skipf("python3 does not run: %v", err)
	}
	return []string{strings.TrimSpace(string(out)), filepath.Join("examples", "python", "adapter.py")}
}

// The Python example, an implementation written from the spec alone, passes
// the vectors of the wire ops, decode and encode, and of the JSON ops,
// json-encode in mode gcx and json-decode, as an external program, positions
// and rules included, and has auto mode, which it does not offer, skipped
// rather than failed, as are the JSON ops' vectors under limits, whose flags
// it declines. .ci/run runs every vector through gcx conformance; here a
// sample of one in sixteen keeps go test quick.
func TestPythonExample(t *testing.T) {
	argv := pythonExample(t)
	vs := loadVectors(t)
	picked := map[string]bool{}
	for i, v := range vs {
		jsonOp := v.Op == OpJSONDecode || v.Op == OpJSONEncode && v.Mode == "gcx"
		if (v.Op == OpDecode || v.Op == OpEncode || jsonOp && len(v.Limits) == 0) &&
			(i%16 == 0 || strings.HasSuffix(v.Name(), "/map-8-empty-array")) {
			picked[v.Name()] = true
		}
	}
	r := Check(vs, Command(time.Minute, argv...), Options{Match: func(name string) bool { return picked[name] }})
	if n := r.Counts(Diagnostic); n.Failed > 0 || n.Passed != len(picked) {
		var b strings.Builder
		r.WriteSummary(&b, false)
		t.Fatalf("%d vectors picked:\n%s", len(picked), b.String())
	}
	auto := Check(vs, Command(time.Minute, argv...), Options{Categories: []string{CategoryJSON}, Match: func(name string) bool {
		return strings.HasPrefix(name, "json/auto/")
	}})
	if n := auto.Counts(Diagnostic); n.Skipped == 0 || n.Passed+n.Failed > 0 {
		t.Errorf("auto mode: %s; want all skipped", n)
	}
	t.Logf("%d passed of %d picked", r.Diagnostic.Passed, len(picked))
}

// The adapter shown in docs/conformance.md is the adapter's own code.
func TestGuideShowsTheAdapter(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	adapter, err := os.ReadFile(filepath.Join("examples", "python", "adapter.py"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```python\n(.*?)```").FindSubmatch(guide)
	if m == nil {
		t.Fatal("docs/conformance.md shows no Python adapter")
	}
	if !strings.Contains(string(adapter), string(m[1])) {
		t.Error("the adapter in docs/conformance.md is not the code of examples/python/adapter.py")
	}
}
