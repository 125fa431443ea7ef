//go:build linux

package npm_test

// These tests take gcx the way a user without Go gets it: the release
// command builds this machine's binary and packs the npm packages, the
// launcher @gcxwire/gcx and this platform's package, and npm installs
// both from those tarballs into an empty folder, offline and with an empty
// cache, so that nothing can come from the registry. Then the installed
// launcher is held to the binary (arguments, streams, exit status,
// signals), and every host configuration docs/mcp.md documents is started
// exactly as written and driven by the official TypeScript SDK's stock
// client (gcxmcp/proxy/testdata/node/session.mjs).
//
// They need Node.js, npm and `npm ci --prefix gcxmcp/proxy/testdata/node`,
// and take about a minute, so they run when GCX_NPM_E2E=1 (.ci/run sets it
// where npm is present).

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// version is the version the packages under test are released as.
const version = "v0.0.0-e2e"

// nodeDir holds the pinned MCP software: the TypeScript SDK whose client
// session.mjs drives, and the reference servers.
var nodeDir, _ = filepath.Abs("../gcxmcp/proxy/testdata/node")

// installed is the result of the one installation all tests share.
type installed struct {
	app      string   // the folder the packages were installed into
	bin      string   // its node_modules/.bin/gcx: the launcher
	binary   string   // the release's binary for this machine
	env      []string // the environment of everything run in app
	tarballs []string // the release's tarballs of the launcher and platform package
	// globalBin is where npm install -g of the tarballs put the gcx
	// command, and globalEnv env with it first on the PATH: a user's
	// machine after the install the quick start documents.
	globalBin string
	globalEnv []string
	tempDir   string
}

var (
	setupOnce sync.Once
	setup     *installed
	setupErr  error
	skipWhy   string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if setup != nil {
		os.RemoveAll(setup.tempDir)
	}
	os.Exit(code)
}

// install returns the shared installation, making it on first use, or
// skips the test where the tools it needs are absent.
func install(t *testing.T) *installed {
	t.Helper()
	setupOnce.Do(func() { setup, skipWhy, setupErr = makeInstall() })
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return setup
}

func makeInstall() (*installed, string, error) {
	if os.Getenv("GCX_NPM_E2E") != "1" {
		return nil, "the npm end-to-end tests run with GCX_NPM_E2E=1 (about a minute; .ci/run sets it where npm is present)", nil
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, tool + " is not on PATH: the npm end-to-end tests need Node.js and npm", nil
		}
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		return nil, "gcxmcp/proxy/testdata/node/node_modules is absent: run `npm ci --prefix gcxmcp/proxy/testdata/node --no-audit --no-fund` (.ci/run does)", nil
	}
	if _, err := os.Stat("/proc/self/task"); err != nil {
		return nil, "the npm end-to-end tests follow processes through /proc, which this system lacks", nil
	}
	tmp, err := os.MkdirTemp("", "gcx-npm-e2e")
	if err != nil {
		return nil, "", err
	}
	in := &installed{tempDir: tmp, app: filepath.Join(tmp, "app")}
	run := func(dir string, env []string, name string, args ...string) error {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return nil
	}
	// The release command, for this machine's target only.
	dist := filepath.Join(tmp, "dist")
	host := runtime.GOOS + "/" + runtime.GOARCH
	if err := run("..", os.Environ(), "go", "run", "./tools/release", "-out", dist, "-targets", host, version); err != nil {
		return in, "", err
	}
	in.binary = filepath.Join(dist, "gcx-"+version+"-"+runtime.GOOS+"-"+runtime.GOARCH)
	// npm with an empty cache of its own and --offline: a package that is
	// not in the tarballs cannot be had.
	cache := filepath.Join(tmp, "npm-cache")
	in.env = append(os.Environ(), "npm_config_cache="+cache, "npm_config_offline=true",
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false")
	// The tarballs the release packed, which SHA256SUMS lists: what users
	// download and install. npm pack of the same folders must take the
	// same files, so that the release's packing is npm's.
	platformDir := "gcx-" + nodeName(runtime.GOOS) + "-" + nodeName(runtime.GOARCH)
	tarballs, err := filepath.Glob(filepath.Join(dist, "*.tgz"))
	if err != nil || len(tarballs) != 2 {
		return in, "", fmt.Errorf("the release packed %v, want two tarballs", tarballs)
	}
	for _, dir := range []string{"gcx", platformDir} {
		if err := samePackFiles(tmp, in.env, filepath.Join(dist, "npm", dir), tarballs); err != nil {
			return in, "", err
		}
	}
	in.tarballs = tarballs
	if err := os.MkdirAll(in.app, 0o755); err != nil {
		return in, "", err
	}
	if err := os.WriteFile(filepath.Join(in.app, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		return in, "", err
	}
	if err := run(in.app, in.env, "npm", append([]string{"install"}, tarballs...)...); err != nil {
		return in, "", err
	}
	// And globally, as the quick start says, into a prefix of the test's
	// own.
	prefix := filepath.Join(tmp, "global")
	if err := run(tmp, in.env, "npm", append([]string{"install", "-g", "--prefix", prefix}, tarballs...)...); err != nil {
		return in, "", err
	}
	in.globalBin = filepath.Join(prefix, "bin")
	in.globalEnv = slices.Clone(in.env)
	for i, kv := range in.globalEnv {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			in.globalEnv[i] = "PATH=" + in.globalBin + string(os.PathListSeparator) + path
		}
	}
	in.bin = filepath.Join(in.app, "node_modules", ".bin", "gcx")
	// The servers of the documented configurations, `npx -y
	// @modelcontextprotocol/server-memory` and server-everything, come from
	// the pinned copy, linked in as npm would have installed them: they
	// are not under test, and the registry is out of reach.
	for _, pkg := range []struct{ name, bin, main string }{
		{"server-memory", "mcp-server-memory", "dist/index.js"},
		{"server-everything", "mcp-server-everything", "dist/index.js"},
	} {
		src := filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", pkg.name)
		dst := filepath.Join(in.app, "node_modules", "@modelcontextprotocol", pkg.name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return in, "", err
		}
		if err := os.Symlink(src, dst); err != nil {
			return in, "", err
		}
		if err := os.Symlink(filepath.Join("..", "@modelcontextprotocol", pkg.name, pkg.main), filepath.Join(in.app, "node_modules", ".bin", pkg.bin)); err != nil {
			return in, "", err
		}
	}
	return in, "", nil
}

// nodeName is Node's name for a Go GOOS or GOARCH.
func nodeName(goName string) string {
	switch goName {
	case "windows":
		return "win32"
	case "amd64":
		return "x64"
	}
	return goName
}

// The installed platform package holds the release's binary, byte for
// byte, executable, and the launcher finds it: gcx --version names the
// release and the specification revision.
func TestInstalledFromTarballs(t *testing.T) {
	in := install(t)
	want, err := os.ReadFile(in.binary)
	if err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join(in.app, "node_modules", "@gcxwire", "gcx-"+nodeName(runtime.GOOS)+"-"+nodeName(runtime.GOARCH), "bin", "gcx")
	got, err := os.ReadFile(installed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the release's binary", installed)
	}
	if info, err := os.Stat(installed); err != nil || info.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s is not executable (%v)", installed, err)
	}
	// Both packages carry the module's licence, as installed.
	license, err := os.ReadFile("../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"gcx", "gcx-" + nodeName(runtime.GOOS) + "-" + nodeName(runtime.GOARCH)} {
		if got, err := os.ReadFile(filepath.Join(in.app, "node_modules", "@gcxwire", pkg, "LICENSE")); err != nil || !bytes.Equal(got, license) {
			t.Errorf("the installed @gcxwire/%s has no LICENSE, or another (%v)", pkg, err)
		}
	}
	out, err := exec.Command(in.bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "gcx "+version+", GCX1 specification revision ") {
		t.Errorf("gcx --version through the launcher: %q", out)
	}
}

// The quick start's install, npm install -g of the two tarballs, gives a
// gcx command.
func TestGlobalInstall(t *testing.T) {
	in := install(t)
	out, err := exec.Command(filepath.Join(in.globalBin, "gcx"), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "gcx "+version+", ") {
		t.Errorf("gcx --version after npm install -g: %q", out)
	}
}

// outcome is what a process left its caller.
type outcome struct {
	Exit           int    // exit status, or -1 when a signal ended it
	Signal         string // the signal that ended it
	Stdout, Stderr string
}

func outcomeOf(state *os.ProcessState, stdout, stderr *bytes.Buffer) outcome {
	o := outcome{Exit: state.ExitCode(), Stdout: stdout.String(), Stderr: stderr.String()}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		o.Signal = ws.Signal().String()
	}
	return o
}

// The launcher passes arguments, standard input and output and the exit
// status through: each command gives the same through it as from the
// binary itself, failures included.
func TestLauncherPassesThrough(t *testing.T) {
	in := install(t)
	example, err := os.ReadFile("../docs/example.gcx")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		exit  int
	}{
		{"version", []string{"--version"}, "", 0},
		{"decode", []string{"decode"}, string(example), 0},
		{"decode wire", []string{"decode", "--wire"}, string(example), 0},
		{"invalid input", []string{"check"}, "GCX1 tool=t fields=a rows=2\nx\n", 1},
		{"usage", []string{"no-such-command"}, "", 2},
		{"unsupported version", []string{"decode"}, "GCX9 tool=t fields=a rows=0\n", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(path string) outcome {
				cmd := exec.Command(path, c.args...)
				cmd.Stdin = strings.NewReader(c.stdin)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				if err != nil && !errors.As(err, new(*exec.ExitError)) {
					t.Fatal(err)
				}
				return outcomeOf(cmd.ProcessState, &stdout, &stderr)
			}
			direct, launched := run(in.binary), run(in.bin)
			if direct.Exit != c.exit {
				t.Fatalf("gcx %v exits %d, the case expects %d:\n%s", c.args, direct.Exit, c.exit, direct.Stderr)
			}
			if !reflect.DeepEqual(direct, launched) {
				t.Errorf("gcx %v:\ndirectly:      %+v\nthrough npm:   %+v", c.args, direct, launched)
			}
		})
	}
}

// A signal sent to the launcher reaches gcx, and the caller sees what it
// would have seen signalling gcx itself: gcx decode dies of the signal and
// so does the launcher; gcx proxy stops its server and exits. In each case
// nothing is left running that holds the caller's output open.
func TestLauncherSignals(t *testing.T) {
	in := install(t)
	// Under nohup this process would hand SIGHUP on ignored, and gcx keeps
	// an ignored signal ignored: caught here instead, a signal is reset to
	// its default in the processes this test starts.
	caught := make(chan os.Signal, 1)
	t.Cleanup(func() { signal.Stop(caught) })
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM} {
		if signal.Ignored(sig) {
			signal.Notify(caught, sig)
		}
	}
	for _, c := range []struct {
		args []string
		sig  syscall.Signal
		// generations below gcx that must be running before the signal
		// is sent: none for gcx decode, the server for gcx proxy.
		depth int
	}{
		{[]string{"decode"}, syscall.SIGTERM, 0},
		{[]string{"decode"}, syscall.SIGINT, 0},
		{[]string{"decode"}, syscall.SIGHUP, 0},
		{[]string{"proxy", "--", "sleep", "60"}, syscall.SIGTERM, 1},
		{[]string{"proxy", "--", "sleep", "60"}, syscall.SIGINT, 1},
	} {
		t.Run(fmt.Sprintf("%s %v", c.args[0], c.sig), func(t *testing.T) {
			run := func(path string, depth int) outcome {
				cmd := exec.Command(path, c.args...)
				stdin, err := cmd.StdinPipe() // held open: gcx waits for input
				if err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				// A process left behind keeps the pipes open: Wait gives
				// up on them after WaitDelay and says so.
				cmd.WaitDelay = 10 * time.Second
				// A group of its own, to end all of it if the signal does not.
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				waitForDescendant(t, cmd.Process.Pid, depth)
				if err := cmd.Process.Signal(c.sig); err != nil {
					t.Fatal(err)
				}
				timeout := time.AfterFunc(20*time.Second, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
				err = cmd.Wait()
				if !timeout.Stop() {
					t.Fatalf("%s %v did not end within 20s of %v", path, c.args, c.sig)
				}
				if errors.Is(err, exec.ErrWaitDelay) {
					t.Fatalf("%s %v: a process outlived the signal and held the output open", path, c.args)
				}
				return outcomeOf(cmd.ProcessState, &stdout, &stderr)
			}
			direct := run(in.binary, c.depth)
			launched := run(in.bin, c.depth+1) // below the launcher
			if !reflect.DeepEqual(direct, launched) {
				t.Errorf("after %v:\ndirectly:     %+v\nthrough npm:  %+v", c.sig, direct, launched)
			}
		})
	}
}

// waitForDescendant waits until pid has a descendant depth generations
// down, then a little longer, so that every process on the way has set up
// its signal handling.
func waitForDescendant(t *testing.T, pid, depth int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		p := pid
		for d := 0; d < depth && p != 0; d++ {
			p = firstChild(p)
		}
		if p != 0 {
			time.Sleep(300 * time.Millisecond)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d has no descendant %d generations down after 20s", pid, depth)
}

// firstChild returns a child of pid, or 0. Each thread lists the children
// it started, and a Go program starts them from any of its threads.
func firstChild(pid int) int {
	lists, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, list := range lists {
		b, err := os.ReadFile(list)
		if err != nil {
			continue
		}
		if fields := strings.Fields(string(b)); len(fields) > 0 {
			child, _ := strconv.Atoi(fields[0])
			return child
		}
	}
	return 0
}

// hostConfig is one host configuration docs/mcp.md documents.
type hostConfig struct {
	host, transport string
	command         []string // stdio: the command the host starts
	url             string   // http: where the host connects
}

var (
	configMarker = regexp.MustCompile("(?m)^ *<!-- host-config: ([a-z-]+) (stdio|http) -->\n *```(json|shell)\n((?s:.*?))\n *```\n")
	loopbackURL  = regexp.MustCompile(`^http://127\.0\.0\.1:([0-9]+)/mcp$`)
)

// readmeConfigs returns docs/mcp.md's host configurations: each fenced
// block after a <!-- host-config: HOST TRANSPORT --> line, read as that
// host reads it.
func readmeConfigs(t *testing.T) []hostConfig {
	t.Helper()
	readme, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	var configs []hostConfig
	for _, m := range configMarker.FindAllSubmatch(readme, -1) {
		host, transport, body := string(m[1]), string(m[2]), m[4]
		c := hostConfig{host: host, transport: transport}
		switch host {
		case "proxy-http":
			// The command a user runs for a server on Streamable HTTP.
			c.command = shellWords(t, string(body))
		case "claude-desktop", "cursor", "quickstart", "quickstart-exempt":
			var file struct {
				MCPServers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
					URL     string   `json:"url"`
				} `json:"mcpServers"`
			}
			decodeStrict(t, host, body, &file)
			if len(file.MCPServers) != 1 {
				t.Fatalf("%s: %d servers in mcpServers, want one", host, len(file.MCPServers))
			}
			for _, s := range file.MCPServers {
				c.command, c.url = append([]string{s.Command}, s.Args...), s.URL
			}
		case "vscode":
			var file struct {
				Servers map[string]struct {
					Type    string   `json:"type"`
					Command string   `json:"command"`
					Args    []string `json:"args"`
					URL     string   `json:"url"`
				} `json:"servers"`
			}
			decodeStrict(t, host, body, &file)
			if len(file.Servers) != 1 {
				t.Fatalf("%s: %d servers, want one", host, len(file.Servers))
			}
			for _, s := range file.Servers {
				if s.Type != transport {
					t.Errorf("vscode %s: type %q", transport, s.Type)
				}
				c.command, c.url = append([]string{s.Command}, s.Args...), s.URL
			}
		case "claude-code", "quickstart-claude-code":
			// claude mcp add [--transport http] NAME -- COMMAND ARGS... | URL
			words := shellWords(t, string(body))
			if len(words) < 4 || !slices.Equal(words[:3], []string{"claude", "mcp", "add"}) {
				t.Fatalf("%s: %q is not claude mcp add", host, body)
			}
			rest := words[3:]
			if transport == "http" {
				if len(rest) != 4 || rest[0] != "--transport" || rest[1] != "http" {
					t.Fatalf("claude-code http: %q, want claude mcp add --transport http NAME URL", body)
				}
				c.url = rest[3]
			} else {
				if len(rest) < 3 || rest[1] != "--" {
					t.Fatalf("claude-code stdio: %q, want claude mcp add NAME -- COMMAND ARGS...", body)
				}
				c.command = rest[2:]
			}
		default:
			t.Fatalf("docs/mcp.md: unknown host %q in a host-config marker", host)
		}
		if transport == "stdio" && (len(c.command) == 0 || c.command[0] == "" || c.url != "") {
			t.Errorf("%s stdio: command %q, url %q", host, c.command, c.url)
		}
		if transport == "http" && host != "proxy-http" && !loopbackURL.MatchString(c.url) {
			t.Errorf("%s http: url %q, want http://127.0.0.1:PORT/mcp", host, c.url)
		}
		configs = append(configs, c)
	}
	return configs
}

func decodeStrict(t *testing.T, host string, body []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("docs/mcp.md %s: %v\n%s", host, err, body)
	}
}

// shellWords splits a one-line shell command with no quoting, which is
// all docs/mcp.md's commands need; anything else is refused rather than
// split differently from a shell.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	line = strings.TrimSpace(line)
	if strings.ContainsAny(line, "'\"\\$`\n;&|<>*?") {
		t.Fatalf("docs/mcp.md: %q needs a shell to read; keep documented commands to plain words", line)
	}
	return strings.Fields(line)
}

// docs/mcp.md documents the configurations of four hosts, for a server on
// stdio and, except where the host cannot reach a local URL, on
// Streamable HTTP; the quick start's configurations are among them.
func TestReadmeHasEveryHostConfig(t *testing.T) {
	var have []string
	for _, c := range readmeConfigs(t) {
		have = append(have, c.host+" "+c.transport)
	}
	slices.Sort(have)
	want := []string{
		"claude-code http", "claude-code stdio", "claude-desktop stdio", "cursor http", "cursor stdio",
		"proxy-http http", "quickstart stdio", "quickstart-claude-code stdio", "quickstart-exempt stdio", "vscode http", "vscode stdio",
	}
	if !slices.Equal(have, want) {
		t.Errorf("docs/mcp.md host configurations:\n%q\nwant\n%q", have, want)
	}
	// The quick start's run the installed gcx: npx -y @gcxwire/gcx asks
	// the registry, which has no package before the first publish.
	for _, c := range readmeConfigs(t) {
		if strings.HasPrefix(c.host, "quickstart") && (len(c.command) < 2 || c.command[0] != "gcx") {
			t.Errorf("%s: %q, want gcx proxy ...", c.host, c.command)
		}
	}
}

var (
	terminalCheckMarker  = regexp.MustCompile("(?m)^ *<!-- terminal-check -->\n *```text\n((?s:.*?))\n *```\n")
	terminalAnswerMarker = regexp.MustCompile("(?m)^ *<!-- terminal-check-answer -->\n *```text\n((?s:.*?))\n *```\n")
)

// terminalCheck returns the quick start's terminal check: the command
// line, the line to paste, and the answer shown, "..." standing for any
// text.
func terminalCheck(t *testing.T) (command, input, answer string) {
	t.Helper()
	doc, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	check, shown := terminalCheckMarker.FindSubmatch(doc), terminalAnswerMarker.FindSubmatch(doc)
	if check == nil || shown == nil {
		t.Fatal("docs/mcp.md has no terminal check with its answer")
	}
	lines := strings.Split(string(check[1]), "\n")
	if len(lines) != 2 || strings.Count(string(shown[1]), "\n") != 0 {
		t.Fatalf("docs/mcp.md: the terminal check is a command and one line to paste, its answer one line:\n%s\n%s", check[1], shown[1])
	}
	return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), strings.TrimSpace(string(shown[1]))
}

// The quick start's terminal check does what docs/mcp.md says: its
// command, started with the globally installed gcx first on the PATH,
// answers the line pasted with the answer shown, on one line, the server's
// own note on stderr, and ends with status 0 when stdin ends.
func TestReadmeTerminalCheck(t *testing.T) {
	in := install(t)
	command, input, answer := terminalCheck(t)
	words := shellWords(t, command)
	if len(proxyPrefix(words)) == 0 || words[0] != "gcx" {
		t.Fatalf("the terminal check runs %q, want gcx proxy ... -- SERVER", command)
	}
	var request struct {
		ID     int    `json:"id"`
		Method string `json:"method"`
	}
	if err := json.Unmarshal([]byte(input), &request); err != nil || request.Method != "initialize" {
		t.Fatalf("the line to paste is no initialize request (%v): %s", err, input)
	}
	// Found as the PATH of the user's shell would find it.
	cmd := exec.Command(filepath.Join(in.globalBin, "gcx"), words[1:]...)
	cmd.Dir, cmd.Env = in.app, append(slices.Clone(in.globalEnv), "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.jsonl"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	lines := make(chan string, 1)
	cmd.Stdout = &lineWriter{buf: &stdout, first: lines}
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if _, err := io.WriteString(stdin, input+"\n"); err != nil {
		t.Fatal(err)
	}
	var got string
	select {
	case got = <-lines:
	case <-time.After(60 * time.Second):
		t.Fatalf("no answer in 60 s; stderr:\n%s", stderr.String())
	}
	if !matchesElided(got, answer) {
		t.Errorf("the answer is\n%s\ndocs/mcp.md shows\n%s", got, answer)
	}
	var response struct {
		ID     int `json:"id"`
		Result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &response); err != nil || response.ID != request.ID || response.Result.ServerInfo.Name == "" {
		t.Errorf("the answer is no initialize result for id %d (%v): %s", request.ID, err, got)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("after stdin ended: %v; stderr:\n%s", err, stderr.String())
	}
	if note := "Knowledge Graph MCP Server running on stdio"; !strings.Contains(stderr.String(), note) {
		t.Errorf("stderr lacks the server's note %q that docs/mcp.md quotes:\n%s", note, stderr.String())
	}
}

// lineWriter hands its first complete line to first.
type lineWriter struct {
	mu    sync.Mutex
	buf   *bytes.Buffer
	first chan string
	sent  bool
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if line, _, ok := strings.Cut(w.buf.String(), "\n"); ok && !w.sent {
		w.sent = true
		w.first <- line
	}
	return len(b), nil
}

// matchesElided reports whether got is shown, each "..." of shown standing
// for any text.
func matchesElided(got, shown string) bool {
	parts := strings.Split(shown, "...")
	if !strings.HasPrefix(got, parts[0]) {
		return false
	}
	got = got[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(got, p)
		if i < 0 {
			return false
		}
		got = got[i+len(p):]
	}
	last := parts[len(parts)-1]
	return len(parts) == 1 && got == "" || len(parts) > 1 && strings.HasSuffix(got, last)
}

// Each stdio configuration of docs/mcp.md, started exactly as written from
// a folder where npx finds the installed packages (and nothing else),
// serves the memory server through gcx proxy: the stock client sees the
// same server and tools as without the proxy, and read_graph and
// search_nodes in GCX1 that decode to the server's values, except a tool
// the configuration exempts, which stays as the server wrote it.
func TestReadmeStdioConfigs(t *testing.T) {
	in := install(t)
	calls := []toolCall{
		{Name: "create_entities", Arguments: map[string]any{"entities": []any{
			map[string]any{"name": "Ada Lovelace", "entityType": "person", "observations": []any{"wrote the first published program"}},
			map[string]any{"name": "Charles Babbage", "entityType": "person", "observations": []any{"designed the Analytical Engine"}},
			map[string]any{"name": "Analytical Engine", "entityType": "machine", "observations": []any{"never finished"}},
		}}},
		{Name: "create_relations", Arguments: map[string]any{"relations": []any{
			map[string]any{"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked with"},
			map[string]any{"from": "Charles Babbage", "to": "Analytical Engine", "relationType": "designed"},
		}}},
		{Name: "read_graph"},
		{Name: "search_nodes", Arguments: map[string]any{"query": "person"}},
	}
	ran := 0
	for _, c := range readmeConfigs(t) {
		if c.transport != "stdio" {
			continue
		}
		ran++
		t.Run(c.host, func(t *testing.T) {
			// The server alone is what the configuration names after gcx
			// proxy's "--".
			sep := slices.Index(c.command, "--")
			if sep < 0 || !slices.Equal(c.command[:sep], proxyPrefix(c.command[:sep])) {
				t.Fatalf("%q does not run gcx proxy or npx -y @gcxwire/gcx proxy, [flags] -- SERVER", c.command)
			}
			server := c.command[sep+1:]
			direct := runSession(t, in, script{Stdio: &stdioServer{Command: server[0], Args: server[1:]}, Calls: calls})
			through := runSession(t, in, script{Stdio: &stdioServer{Command: c.command[0], Args: c.command[1:]}, Calls: calls})
			exempt := flagValue(c.command[:sep], "--exempt")
			form := compare(t, in, direct, through)
			for _, tool := range []string{"read_graph", "search_nodes"} {
				if rewritten, want := form[tool] != "", tool != exempt; rewritten != want {
					t.Errorf("%s: the model read %q (GCX1 or compact JSON: rewritten %v), want rewritten %v (exempt: %q)", tool, form[tool], rewritten, want, exempt)
				}
			}
		})
	}
	if ran == 0 {
		t.Fatal("docs/mcp.md documents no stdio configuration")
	}
}

// proxyPrefix returns words if they are gcx proxy (installed) or npx -y
// @gcxwire/gcx proxy (from npm) and flags, and nil otherwise.
func proxyPrefix(words []string) []string {
	installed := len(words) >= 2 && slices.Equal(words[:2], []string{"gcx", "proxy"})
	fromNPM := len(words) >= 4 && slices.Equal(words[:4], []string{"npx", "-y", "@gcxwire/gcx", "proxy"})
	if !installed && !fromNPM {
		return nil
	}
	return words
}

// flagValue returns the value after flag among words, or "".
func flagValue(words []string, flag string) string {
	if i := slices.Index(words, flag); i >= 0 && i+1 < len(words) {
		return words[i+1]
	}
	return ""
}

// The command of docs/mcp.md for a server on Streamable HTTP, started as
// written (on free ports in place of docs/mcp.md's), in front of the
// reference server-everything, serves each host's HTTP configuration:
// the stock client sees the same server and tools as directly, and
// get-env's JSON in GCX1 that decodes to the server's value.
func TestReadmeHTTPConfigs(t *testing.T) {
	in := install(t)
	configs := readmeConfigs(t)
	i := slices.IndexFunc(configs, func(c hostConfig) bool { return c.host == "proxy-http" })
	if i < 0 {
		t.Fatal("docs/mcp.md documents no gcx proxy --listen command")
	}
	command := slices.Clone(configs[i].command)
	listen, upstream := flagValue(command, "--listen"), flagValue(command, "--upstream")
	listenPort, ok := strings.CutPrefix(listen, "127.0.0.1:")
	m := loopbackURL.FindStringSubmatch(upstream)
	if !ok || m == nil || proxyPrefix(command) == nil {
		t.Fatalf("%q: want npx -y @gcxwire/gcx proxy --listen 127.0.0.1:PORT --upstream http://127.0.0.1:PORT/mcp", command)
	}
	upstreamPort := m[1]
	// Free ports in place of docs/mcp.md's, which another program here
	// may hold; the command is otherwise docs/mcp.md's word for word.
	proxyPort, serverPort := freePort(t), freePort(t)
	for j, w := range command {
		command[j] = strings.Replace(strings.Replace(w, ":"+listenPort, fmt.Sprintf(":%d", proxyPort), 1), ":"+upstreamPort+"/", fmt.Sprintf(":%d/", serverPort), 1)
	}
	server := exec.Command("npx", "-y", "@modelcontextprotocol/server-everything", "streamableHttp")
	server.Dir, server.Env = in.app, append(slices.Clone(in.env), fmt.Sprintf("PORT=%d", serverPort))
	startListening(t, server, serverPort)
	proxy := exec.Command(command[0], command[1:]...)
	proxy.Dir, proxy.Env = in.app, in.env
	startListening(t, proxy, proxyPort)

	calls := []toolCall{
		{Name: "get-env"},
		{Name: "echo", Arguments: map[string]any{"message": "[1,2,3]"}},
		{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}},
	}
	direct := runSession(t, in, script{HTTP: fmt.Sprintf("http://127.0.0.1:%d/mcp", serverPort), Calls: calls})
	ran := 0
	for _, c := range configs {
		if c.transport != "http" || c.host == "proxy-http" {
			continue
		}
		ran++
		t.Run(c.host, func(t *testing.T) {
			port := loopbackURL.FindStringSubmatch(c.url)[1]
			if port != listenPort {
				t.Fatalf("%s connects to %s, the proxy command listens on %s", c.host, c.url, listen)
			}
			url := strings.Replace(c.url, ":"+port+"/", fmt.Sprintf(":%d/", proxyPort), 1)
			through := runSession(t, in, script{HTTP: url, Calls: calls})
			if form := compare(t, in, direct, through); form["get-env"] == "" {
				t.Error("get-env: the model read the server's text as sent through the proxy, neither GCX1 nor compact JSON")
			}
		})
	}
	if ran == 0 {
		t.Fatal("docs/mcp.md documents no host configuration for Streamable HTTP")
	}
}

// script is session.mjs's input, report what it prints.
type script struct {
	Stdio *stdioServer `json:"stdio,omitempty"`
	HTTP  string       `json:"http,omitempty"`
	Calls []toolCall   `json:"calls"`
}

type stdioServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

type report struct {
	Server       json.RawMessage `json:"server"`
	Capabilities json.RawMessage `json:"capabilities"`
	Tools        json.RawMessage `json:"tools"`
	Calls        []struct {
		Name   string          `json:"name"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	} `json:"calls"`
}

// runSession runs session.mjs on s from the installation's folder, where
// the commands of a host configuration are started.
func runSession(t *testing.T, in *installed, s script) *report {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(nodeDir, "session.mjs"), path)
	// The memory server keeps its graph in a file of this test's own.
	cmd.Dir, cmd.Env = in.app, append(in.envFor(s), "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.jsonl"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node session.mjs %s: %v\n%s", b, err, stderr.Bytes())
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("session report: %v\n%s", err, out)
	}
	return &r
}

// envFor is the environment a session of s runs in: with the globally
// installed gcx first on the PATH where s starts gcx itself.
func (in *installed) envFor(s script) []string {
	if s.Stdio != nil && s.Stdio.Command == "gcx" {
		return slices.Clone(in.globalEnv)
	}
	return slices.Clone(in.env)
}

// compare checks a session through the proxy against the same session
// made directly, and returns the form each tool's result came in ("GCX1",
// "compact", or "" for the server's own): the server, its capabilities and
// tools are the same; a result in GCX1 differs in one text block, which the
// installed gcx decodes to the JSON the server wrote there; a compact one
// in one text block, the server's text minified; every other result is
// the server's.
func compare(t *testing.T, in *installed, direct, through *report) map[string]string {
	t.Helper()
	for _, f := range []struct {
		what string
		a, b json.RawMessage
	}{{"server", direct.Server, through.Server}, {"capabilities", direct.Capabilities, through.Capabilities}, {"tools", direct.Tools, through.Tools}} {
		if !sameJSON(f.a, f.b) {
			t.Errorf("%s differs through the proxy:\n%s\n%s", f.what, f.a, f.b)
		}
	}
	if len(direct.Calls) != len(through.Calls) {
		t.Fatalf("%d calls directly, %d through the proxy", len(direct.Calls), len(through.Calls))
	}
	form := map[string]string{}
	for i, d := range direct.Calls {
		p := through.Calls[i]
		if d.Error != nil || p.Error != nil {
			t.Errorf("call %s: error %s directly, %s through the proxy", d.Name, d.Error, p.Error)
			continue
		}
		var dr, pr struct {
			Content []map[string]any `json:"content"`
			Meta    map[string]any   `json:"_meta"`
		}
		mustUnmarshal(t, d.Result, &dr)
		mustUnmarshal(t, p.Result, &pr)
		if pr.Meta[binding.MetaFormat] != "GCX1" {
			if pr.Meta[binding.MetaCompact] == true {
				// Auto mode handed the model the compact JSON, which
				// cost fewer tokens than the text and GCX1: the one
				// block changed is the server's text minified, byte
				// for byte, and nothing else differs [MCP-6].
				form[d.Name] = "compact"
				compared := 0
				for j := range dr.Content {
					if j >= len(pr.Content) || reflect.DeepEqual(dr.Content[j], pr.Content[j]) {
						continue
					}
					compared++
					original, _ := dr.Content[j]["text"].(string)
					want, err := jsonmap.Compact([]byte(original))
					if err != nil {
						t.Fatalf("call %s: the server's text is not JSON: %v", d.Name, err)
					}
					if text, _ := pr.Content[j]["text"].(string); text != string(want) {
						t.Errorf("call %s: the compact block is\n%s\nthe server's text minified is\n%s", d.Name, text, want)
					}
					dr.Content[j]["text"] = string(want)
				}
				if compared != 1 || len(dr.Content) != len(pr.Content) {
					t.Errorf("call %s: %d content blocks changed (%d directly, %d through the proxy), want one", d.Name, compared, len(dr.Content), len(pr.Content))
				}
				continue
			}
			if !sameJSON(d.Result, withoutFormat(t, p.Result)) {
				t.Errorf("call %s: result differs:\n%s\n%s", d.Name, d.Result, p.Result)
			}
			continue
		}
		form[d.Name] = "GCX1"
		if len(dr.Content) != len(pr.Content) {
			t.Fatalf("call %s: %d content blocks directly, %d through the proxy", d.Name, len(dr.Content), len(pr.Content))
		}
		changed := 0
		for j := range dr.Content {
			if reflect.DeepEqual(dr.Content[j], pr.Content[j]) {
				continue
			}
			changed++
			text, _ := pr.Content[j]["text"].(string)
			original, _ := dr.Content[j]["text"].(string)
			want, err := jsonmap.Compact([]byte(original))
			if err != nil {
				t.Fatalf("call %s: the server's text is not JSON: %v", d.Name, err)
			}
			cmd := exec.Command(in.bin, "decode")
			cmd.Stdin = strings.NewReader(text)
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("call %s: gcx decode: %v\n%s", d.Name, err, text)
			}
			if !bytes.Equal(bytes.TrimSpace(got), want) {
				t.Errorf("call %s: gcx decode gives\n%s\nthe server wrote\n%s", d.Name, got, want)
			}
		}
		if changed != 1 {
			t.Errorf("call %s: %d content blocks changed, want one", d.Name, changed)
		}
	}
	return form
}

// withoutFormat drops the _meta format key, which the proxy adds when auto
// mode keeps the JSON, and _meta when that was all it held.
func withoutFormat(t *testing.T, raw json.RawMessage) json.RawMessage {
	var r map[string]any
	mustUnmarshal(t, raw, &r)
	if meta, ok := r["_meta"].(map[string]any); ok {
		delete(meta, binding.MetaFormat)
		if len(meta) == 0 {
			delete(r, "_meta")
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// freePort returns a loopback TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startListening starts cmd and waits until it accepts connections on
// port; the process is stopped when the test ends.
func startListening(t *testing.T, cmd *exec.Cmd, port int) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// Its own process group, so that the stop reaches what npx started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%v does not listen on port %d after 30s:\n%s", cmd.Args, port, stderr.Bytes())
}

// samePackFiles checks that npm pack of dir takes the files, with their
// modes, that the release's tarball of the same package holds, and names
// the tarball as the release did.
func samePackFiles(tmp string, env []string, dir string, tarballs []string) error {
	cmd := exec.Command("npm", "pack", "--dry-run", "--json", dir)
	cmd.Dir, cmd.Env = tmp, env
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("npm pack --dry-run --json %s: %v", dir, err)
	}
	var packs []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
			Mode int64  `json:"mode"`
		} `json:"files"`
	}
	if err := json.Unmarshal(out, &packs); err != nil || len(packs) != 1 {
		return fmt.Errorf("npm pack --dry-run --json %s: %v\n%s", dir, err, out)
	}
	var want []string
	for _, f := range packs[0].Files {
		// npm packs a file's own mode, less group and other write and with
		// the owner's read and write; the release packs 0755 for what is
		// executable and 0644 for the rest, whatever the umask left.
		mode := 0o644
		if f.Mode&0o111 != 0 {
			mode = 0o755
		}
		want = append(want, fmt.Sprintf("%s %o", f.Path, mode))
	}
	i := slices.IndexFunc(tarballs, func(p string) bool { return filepath.Base(p) == packs[0].Filename })
	if i < 0 {
		return fmt.Errorf("npm pack would write %s; the release packed %v", packs[0].Filename, tarballs)
	}
	f, err := os.Open(tarballs[i])
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %v", tarballs[i], err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %v", tarballs[i], err)
		}
		got = append(got, fmt.Sprintf("%s %o", strings.TrimPrefix(hdr.Name, "package/"), hdr.Mode))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return fmt.Errorf("%s holds %v; npm pack of %s takes %v", filepath.Base(tarballs[i]), got, dir, want)
	}
	return nil
}
