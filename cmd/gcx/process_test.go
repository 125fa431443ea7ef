package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// These tests run the gcx binary as a separate process: what they check —
// exit statuses on a full disk or a closed pipe, peak memory — belongs to a
// process.

var big = flag.Bool("gcx.big", false, "also stream 1 GiB through gcx check and gcx decode --wire")

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// gcxBinary builds the command once per test run.
func gcxBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gcx-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "gcx")
		out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// invocations are one of each kind of command, with an input it succeeds
// on, for the tests that break their output.
var invocations = []struct {
	args  []string
	stdin string
}{
	{[]string{"check"}, readmePayload},
	{[]string{"decode", "--wire"}, readmePayload},
	{[]string{"decode"}, "GCX1 tool=t fields=a rows=1\nx\n"},
	{[]string{"encode", "--wire"}, `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]]}]}`},
	{[]string{"encode", "--mode", "gcx"}, `[{"a":1},{"a":2}]`},
	{[]string{"encode"}, `[{"a":1},{"a":2}]`},
	{[]string{"encode", "--stats"}, `{"a":1}`},
	{[]string{"help"}, ""},
	{[]string{"help", "encode"}, ""},
	{[]string{"--version"}, ""},
	{[]string{"conformance", "--run", "decode/values/"}, ""},
}

// A result that cannot be written is never reported as done: the command
// exits 4 and says it could not write stdout [WIRE-5].
func TestFullDiskIsAnError(t *testing.T) {
	bin := gcxBinary(t)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	for _, c := range invocations {
		cmd := exec.Command(bin, c.args...)
		cmd.Stdin = strings.NewReader(c.stdin)
		cmd.Stdout = full
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if code := exitCode(err); code != exitIO || !strings.Contains(stderr.String(), "writing stdout") {
			t.Errorf("gcx %s > /dev/full: exit %d, stderr %q; want exit %d naming stdout", strings.Join(c.args, " "), code, stderr.String(), exitIO)
		}
	}
}

// A closed pipe is reported the same way, not left to a silent signal
// [WIRE-5].
func TestClosedPipeIsAnError(t *testing.T) {
	bin := gcxBinary(t)
	for _, c := range invocations {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		cmd := exec.Command(bin, c.args...)
		cmd.Stdin = strings.NewReader(c.stdin)
		cmd.Stdout = w
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err = cmd.Run()
		w.Close()
		if code := exitCode(err); code != exitIO || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("gcx %s | (closed): exit %d, stderr %q; want exit %d naming the broken pipe", strings.Join(c.args, " "), code, stderr.String(), exitIO)
		}
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if e, ok := err.(*exec.ExitError); ok {
		return e.ExitCode()
	}
	return -1
}

// rowsPayload writes a payload of n one-byte rows, "x\n" each, as the
// 40 MB / 20-million-row payload of the issue that asked for streaming.
func rowsPayload(w io.Writer, n int) error {
	if _, err := io.WriteString(w, "GCX1 tool=t fields=a\n"); err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte("x\n"), 64<<10)
	for n > 0 {
		k := min(n, len(chunk)/2)
		if _, err := w.Write(chunk[:2*k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// Peak RSS is read from the child's rusage, but on Linux a child started
// from this test process begins with this process's own high-water mark,
// which is large after the tests that build big inputs. So the child is
// started by a spawner: this test binary again, small, which starts gcx,
// waits and writes gcx's peak to a file.
const spawnEnv = "GCX_TEST_SPAWN_RUSAGE"

func TestMain(m *testing.M) {
	if out := os.Getenv(spawnEnv); out != "" {
		os.Exit(spawn(out, os.Args[1:]))
	}
	// gcx proxy, run in this process by the tests, starts its own
	// executable as its server's watchdog: this one is the test binary.
	if len(os.Args) == 4 && os.Args[1] == "proxy" && os.Args[2] == watchGroupArg {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// spawn runs args with this process's stdio and writes its peak RSS in
// bytes to the file out.
func spawn(out string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	peak := peakRSS(cmd.ProcessState)
	if err := os.WriteFile(out, []byte(fmt.Sprint(peak)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	return cmd.ProcessState.ExitCode()
}

// rowsView writes the wire view of rowsPayload(n).
func rowsView(w io.Writer, n int) error {
	if _, err := io.WriteString(w, `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]`); err != nil {
		return err
	}
	chunk := bytes.Repeat([]byte(`,["x"]`), 16<<10)
	for n--; n > 0; {
		k := min(n, len(chunk)/6)
		if _, err := w.Write(chunk[:6*k]); err != nil {
			return err
		}
		n -= k
	}
	_, err := io.WriteString(w, "]}]}\n")
	return err
}

// runFed runs gcx with stdin fed by feed and stdout counted and dropped,
// and returns the exit status, stderr, the bytes written and the peak RSS
// in bytes.
func runFed(t *testing.T, feed func(io.Writer) error, args ...string) (code int, stderr string, written int64, peak int64) {
	t.Helper()
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], append([]string{gcxBinary(t)}, args...)...)
	cmd.Env = append(os.Environ(), spawnEnv+"="+peakFile)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var counter countWriter
	var errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &counter, &errBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		feed(stdin) // a refusal stops gcx reading: the feeder's error is expected then
		stdin.Close()
	}()
	err = cmd.Wait()
	b, readErr := os.ReadFile(peakFile)
	if readErr != nil {
		t.Fatalf("the spawner left no peak: %v; stderr %s", readErr, errBuf.String())
	}
	fmt.Sscan(string(b), &peak)
	return exitCode(err), errBuf.String(), counter.n, peak
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

const rssBound = 64 << 20

// check and decode --wire hold a line at a time, whatever the size of the
// payload [WIRE-4]: 20 million rows (40 MB) by default, 1 GiB with
// -gcx.big.
func TestMemoryBoundedByALine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	rows := 20_000_000
	if testing.Short() {
		rows = 2_000_000
	}
	sizes := []int{rows}
	if *big {
		sizes = append(sizes, (1<<30)/2)
	}
	for _, n := range sizes {
		for _, args := range [][]string{{"check"}, {"decode", "--wire"}, {"decode"}, {"encode", "--wire"}} {
			feed := func(w io.Writer) error { return rowsPayload(w, n) }
			if args[0] == "encode" {
				feed = func(w io.Writer) error { return rowsView(w, n) }
			}
			code, stderr, written, peak := runFed(t, feed, args...)
			if code != exitOK {
				t.Fatalf("gcx %v on %d rows: exit %d, %s", args, n, code, stderr)
			}
			t.Logf("gcx %v, %d rows (%d MB out): peak RSS %.1f MiB", args, n, written>>20, float64(peak)/(1<<20))
			if peak > rssBound {
				t.Errorf("gcx %v on %d rows: peak RSS %d MiB, over %d MiB", args, n, peak>>20, rssBound>>20)
			}
		}
	}
}

// A line over the limit is refused without holding more than the limit
// [LIM-3]: a 200 MB line against the default 16 MiB.
func TestLongLineRefusedEarly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	feed := func(w io.Writer) error {
		if _, err := io.WriteString(w, "GCX1 tool=t fields=a\n"); err != nil {
			return err
		}
		chunk := bytes.Repeat([]byte("y"), 1<<20)
		for range 200 {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		return nil
	}
	for _, args := range [][]string{{"check"}, {"decode", "--wire"}} {
		code, stderr, written, peak := runFed(t, feed, args...)
		t.Logf("gcx %v, a 200 MB line: peak RSS %.1f MiB", args, float64(peak)/(1<<20))
		if code != exitInvalid || !strings.Contains(stderr, "[LIM-3]") || written != 0 {
			t.Errorf("gcx %v: exit %d, %d bytes out, stderr %q", args, code, written, stderr)
		}
		if peak > rssBound {
			t.Errorf("gcx %v: peak RSS %d MiB, over %d MiB", args, peak>>20, rssBound>>20)
		}
	}
}

// encode --wire refuses a string that cannot fit the line limit as soon as
// it has read past the limit, without holding it, at the string's place in
// the view [LIM-4] [WIRE-3]: one value of 200 MB against the default 16 MiB.
func TestLongStringRefusedEarly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage")
	}
	feed := func(w io.Writer) error {
		if _, err := io.WriteString(w, `{"sections":[{"tool":"t","fields":["a"],"rows":[["`); err != nil {
			return err
		}
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 200 {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `"]]}]}`)
		return err
	}
	code, stderr, written, peak := runFed(t, feed, "encode", "--wire")
	t.Logf("gcx encode --wire, a 200 MB string: peak RSS %.1f MiB", float64(peak)/(1<<20))
	if code != exitInvalid || !strings.Contains(stderr, "line 1, column 50:") || !strings.Contains(stderr, "[LIM-4]") || written != 0 {
		t.Errorf("exit %d, %d bytes out, stderr %q", code, written, stderr)
	}
	if peak > rssBound {
		t.Errorf("peak RSS %d MiB, over %d MiB", peak>>20, rssBound>>20)
	}
}

// A failure leaves stdout empty while the result is small, and past the
// hold limit marks what went out so it cannot pass for a result [WIRE-4].
func TestNoResultOnError(t *testing.T) {
	small := "GCX1 tool=t fields=a rows=3\nx\ny\n"
	if code, out, _ := gcx(t, small, "decode", "--wire"); code != exitInvalid || out != "" {
		t.Errorf("small: exit %d, stdout %q", code, out)
	}
	// Past the hold limit: a view of about 8 MB, then rows= fails at the end.
	var in bytes.Buffer
	n := 2 * holdLimit / len(`["xxx"],`)
	fmt.Fprintf(&in, "GCX1 tool=t fields=a rows=%d\n", n+1)
	in.WriteString(strings.Repeat("xxx\n", n))
	code, out, stderr := gcx(t, in.String(), "decode", "--wire")
	if code != exitInvalid || !strings.Contains(stderr, "[META-4]") {
		t.Fatalf("large: exit %d, stderr %q", code, stderr)
	}
	if len(out) <= holdLimit || json.Valid([]byte(out)) {
		t.Errorf("large: %d bytes out, valid JSON %v; want a prefix past the hold limit that is not JSON", len(out), json.Valid([]byte(out)))
	}
	// A GCX1 result past the hold limit ends with the marker line, which
	// no decoder accepts.
	var view bytes.Buffer
	view.WriteString(`{"sections":[{"tool":"t","fields":["a"],"rows":[`)
	for i := range n {
		if i > 0 {
			view.WriteByte(',')
		}
		view.WriteString(`["xxxxxxx"]`)
	}
	view.WriteString(`,["a","b"]]}]}`) // a row too wide, at the very end [ROW-2]
	code, out, stderr = gcx(t, view.String(), "encode", "--wire")
	if code != exitInvalid || !strings.HasSuffix(out, "\n"+abandonedGCX) {
		t.Fatalf("encode --wire: exit %d, %d bytes out ending %q, stderr %q", code, len(out), out[max(0, len(out)-20):], stderr)
	}
	if code, _, stderr := gcx(t, out, "check"); code != exitInvalid || !strings.Contains(stderr, "[VER-3]") {
		t.Errorf("the abandoned output checks: exit %d, %s", code, stderr)
	}
}
