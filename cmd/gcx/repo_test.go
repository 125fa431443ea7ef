package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/bench/scorecard"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/internal/deep"
)

// repoRoot is the repository root as seen from this package's directory,
// where go test runs.
var repoRoot = filepath.Join("..", "..")

// readRepoFile reads a file relative to the repository root, two levels up
// from this package.
func readRepoFile(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	return string(b), err
}

// readmePayload is docs/example.gcx, the payload README.md opens with and
// its wire commands read: what `gcx encode --mode gcx --tool
// search_symbols` writes for two hits, so that every command accepts it.
const readmePayload = "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=2\n" +
	"internal/mcp/server.go::NewServer\tfunction\tNewServer\tinternal/mcp/server.go\t62\tfunc NewServer(cfg Config, logger *slog.Logger) (*Server, error)\n" +
	"internal/mcp/server.go::Server.Start\tmethod\tStart\tinternal/mcp/server.go\t118\tfunc (s *Server) Start(ctx context.Context) error\n"

// The wire view round-trips the README example byte for byte [WIRE-1]
// [CAN-1].
func TestWireRoundTripReadmeExample(t *testing.T) {
	code, view, stderr := gcx(t, readmePayload, "decode", "--wire")
	if code != exitOK {
		t.Fatalf("decode --wire: exit %d, stderr %q", code, stderr)
	}
	want := `{"sections":[{"tool":"search_symbols","fields":["id","kind","name","path","line","sig"],` +
		`"meta":[["rows","2"]],"rows":[["internal/mcp/server.go::NewServer","function","NewServer","internal/mcp/server.go","62","func NewServer(cfg Config, logger *slog.Logger) (*Server, error)"],` +
		`["internal/mcp/server.go::Server.Start","method","Start","internal/mcp/server.go","118","func (s *Server) Start(ctx context.Context) error"]]}]}` + "\n"
	if view != want {
		t.Fatalf("decode --wire:\n got %s\nwant %s", view, want)
	}
	code, back, stderr := gcx(t, view, "encode", "--wire")
	if code != exitOK || back != readmePayload {
		t.Fatalf("encode --wire: exit %d, stderr %q, got %q", code, stderr, back)
	}
}

// README.md opens with docs/example.gcx, and it is a payload of the frozen
// search_symbols layout: check, decode and encode all take it [LAY-5].
func TestReadmeShowsExample(t *testing.T) {
	readme, err := readRepoFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := readRepoFile(filepath.Join("docs", "example.gcx"))
	if err != nil {
		t.Fatal(err)
	}
	if example != readmePayload {
		t.Errorf("docs/example.gcx is not the README example:\n%s", example)
	}
	blocks := fencedBlocks(readme)
	if len(blocks) == 0 || blocks[0].text != example {
		t.Errorf("README.md does not open with docs/example.gcx as its first code block")
	}
	code, value, stderr := gcx(t, example, "decode")
	if code != exitOK {
		t.Fatalf("gcx decode of the README example: exit %d: %s", code, stderr)
	}
	code, again, stderr := gcx(t, value, "encode", "--mode", "gcx", "--tool", "search_symbols")
	if code != exitOK || again != example {
		t.Errorf("gcx encode of the decoded example: exit %d, stderr %q, got\n%s", code, stderr, again)
	}
}

// A fencedBlock is one ``` block of a Markdown file.
type fencedBlock struct {
	line int    // of the opening fence, 1-based
	lang string // the info string after the opening fence, such as "go"
	text string // the lines between the fences, each ending with LF
}

// fencedBlocks returns the ``` blocks of a Markdown file, those indented
// in a list item included, their lines without the fence's indentation.
func fencedBlocks(markdown string) []fencedBlock {
	var blocks []fencedBlock
	var cur *fencedBlock
	indent := ""
	for i, line := range strings.SplitAfter(markdown, "\n") {
		fence, lineIndent := isFence(line)
		switch {
		case cur == nil && fence:
			indent = lineIndent
			cur = &fencedBlock{line: i + 1, lang: strings.TrimSpace(strings.TrimLeft(line, " ")[3:])}
		case cur != nil && fence:
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += strings.TrimPrefix(line, indent)
		}
	}
	return blocks
}

// isFence reports whether line opens or closes a ``` block, and returns
// its indentation: up to three spaces, or a list item's more.
func isFence(line string) (bool, string) {
	rest := strings.TrimLeft(line, " ")
	return strings.HasPrefix(rest, "```"), line[:len(line)-len(rest)]
}

// withoutFences drops the fenced blocks, leaving the prose.
func withoutFences(markdown string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(markdown, "\n") {
		if fence, _ := isFence(line); fence {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// deepTestCommand is the test command with the long proofs, which may
// take longer than go test's default ten minutes per package.
const deepTestCommand = deep.Env + "=1 go test -timeout 60m ./..."

var inlineCommand = regexp.MustCompile("`((?:[A-Z_]+=\\S+ )*go (?:run|test) [^`]*)`")

// readmeRunner runs the commands README.md, the docs it sends users to
// and CONTRIBUTING.md show, as written, from the repository root.
type readmeRunner struct {
	t    *testing.T
	gcx  string // a gcx binary built from this package
	ran  map[string]bool
	file string // the document whose blocks run
}

// userDocs are the documents whose code blocks TestReadmeCommandsWork
// runs: the README and the pages it sends each kind of user to for the
// commands and the configurations.
var userDocs = []string{"README.md", "docs/usage.md", "docs/mcp.md"}

// Every command README.md and userDocs show works as written: the shell
// sessions give the output shown, the command lines exit 0, `go test`
// commands (there and in CONTRIBUTING.md) are valid for every package they
// reach, and the main job reproduces the committed scorecard. A command
// this test does not know fails it, so a new example comes with its check.
func TestReadmeCommandsWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gcx and runs the documented commands")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the README's commands are POSIX shell")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	r := &readmeRunner{t: t, ran: map[string]bool{}, gcx: gcxBinary(t)}

	// The commands must leave nothing behind in the repository root.
	before := rootEntries(t)
	defer func() {
		for _, name := range rootEntries(t) {
			if !slices.Contains(before, name) {
				t.Errorf("a README command left %s in the repository root", name)
			}
		}
	}()
	for _, r.file = range userDocs {
		r.runBlocks()
	}
	for _, name := range []string{"README.md", "CONTRIBUTING.md"} {
		text, err := readRepoFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range inlineCommand.FindAllStringSubmatch(withoutFences(text), -1) {
			r.command(name, 0, m[1], "")
		}
	}
	for _, want := range []string{"RAPID_CHECKS=100000 go test -count=1 -run Property ./...", scorecard.ReproduceCommand, "go test ./...", deepTestCommand} {
		if !r.ran[want] {
			t.Errorf("README.md and CONTRIBUTING.md no longer show %q; keep the documented command and this test in step", want)
		}
	}
}

// runBlocks runs the code blocks of r.file.
func (r *readmeRunner) runBlocks() {
	doc, err := readRepoFile(r.file)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, b := range fencedBlocks(doc) {
		switch {
		case markedHostConfig(doc, b):
			r.npmHostConfig(b)
		case marked(doc, b, terminalCheckMarker):
			r.terminalCheck(b)
		case marked(doc, b, terminalAnswerMarker):
			// The answer the terminal check shows: npm/npm_test.go
			// compares it with the one gcx gives (GCX_NPM_E2E=1).
		case strings.HasPrefix(b.text, "GCX1 "):
			r.payload(b)
		case strings.HasPrefix(b.text, "$ "):
			r.session(b)
		case b.lang == "go":
			r.goCode(b)
		case b.lang == "json":
			r.hostConfig(b)
		default:
			for _, line := range strings.Split(strings.TrimSuffix(b.text, "\n"), "\n") {
				command, comment, _ := strings.Cut(line, " #")
				if command = strings.TrimSpace(command); command != "" {
					r.command(r.file, b.line, command, comment)
				}
			}
		}
	}
}

// payload checks a GCX1 payload block: valid, and accepted by the JSON
// mapping.
func (r *readmeRunner) payload(b fencedBlock) {
	for _, args := range [][]string{{"check"}, {"decode"}} {
		if code, _, stderr := gcx(r.t, b.text, args...); code != exitOK {
			r.t.Errorf("%s:%d: gcx %s of the payload: exit %d: %s", r.file, b.line, args[0], code, stderr)
		}
	}
}

// goExamples are the compiled examples README.md's Go blocks are copied
// from: a Go block must be, line for line, a run of one of them.
var goExamples = []string{"gcxmcp/example_test.go"}

// goCode checks that a Go block is code that compiles: the lines of one of
// goExamples, which go vet and go test build.
func (r *readmeRunner) goCode(b fencedBlock) {
	want := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for _, name := range goExamples {
		src, err := readRepoFile(name)
		if err != nil {
			r.t.Fatal(err)
		}
		lines := strings.Split(src, "\n")
		for i := range lines {
			if i+len(want) > len(lines) {
				break
			}
			match := true
			for j, w := range want {
				if strings.TrimSpace(lines[i+j]) != strings.TrimSpace(w) {
					match = false
					break
				}
			}
			if match {
				return
			}
		}
	}
	r.t.Errorf("%s:%d: the Go block is not copied from a compiled example (%s): keep them the same", r.file, b.line, strings.Join(goExamples, ", "))
}

// hostConfig checks a JSON block, a host's mcpServers configuration: it
// is JSON, and every server it starts with gcx runs a gcx command with
// flags that command takes and the server's own command after "--".
func (r *readmeRunner) hostConfig(b fencedBlock) {
	var config struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(b.text), &config); err != nil || len(config.MCPServers) == 0 {
		r.t.Errorf("%s:%d: a JSON block that is no mcpServers configuration (%v)", r.file, b.line, err)
		return
	}
	for name, server := range config.MCPServers {
		if server.Command != "gcx" {
			continue
		}
		r.proxyArgs(b.line, name, server.Args)
	}
}

// proxyArgs checks the arguments of gcx in a host's configuration: gcx
// proxy with flags it takes, and a server's command after "--" or its URL
// in --upstream.
func (r *readmeRunner) proxyArgs(line int, name string, args []string) {
	if len(args) == 0 || args[0] != "proxy" {
		r.t.Errorf("%s:%d: server %q runs gcx %v, not gcx proxy", r.file, line, name, args)
		return
	}
	fs := flag.NewFlagSet("gcx proxy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := proxyFlags(fs)
	if err := fs.Parse(args[1:]); err != nil {
		r.t.Errorf("%s:%d: server %q: gcx %v: %v", r.file, line, name, args, err)
		return
	}
	if cfg.upstream != "" {
		if fs.NArg() > 0 {
			r.t.Errorf("%s:%d: server %q: gcx %v has both --upstream and a command", r.file, line, name, args)
		}
		return
	}
	opts, err := cfg.options()
	if err == nil {
		_, err = proxy.New(opts)
	}
	if err != nil || fs.NArg() == 0 {
		r.t.Errorf("%s:%d: server %q: gcx %v starts no server (%v)", r.file, line, name, args, err)
	}
}

// hostConfigMarker is the comment before each of the README's host
// configurations; npm/npm_test.go finds them by it and starts each as
// written with gcx installed from its npm packages (GCX_NPM_E2E=1).
var hostConfigMarker = regexp.MustCompile(`^ *<!-- host-config: [a-z-]+ (stdio|http) -->$`)

// markedHostConfig reports whether block b of readme follows a
// host-config comment.
func markedHostConfig(readme string, b fencedBlock) bool {
	return marked(readme, b, hostConfigMarker)
}

// The comments before docs/mcp.md's terminal check, a command line and
// the line to paste into it, and before the answer it shows;
// npm/npm_test.go runs the check with gcx installed from its npm packages
// (GCX_NPM_E2E=1).
var (
	terminalCheckMarker  = regexp.MustCompile(`^ *<!-- terminal-check -->$`)
	terminalAnswerMarker = regexp.MustCompile(`^ *<!-- terminal-check-answer -->$`)
)

// marked reports whether block b of doc follows a line marker matches.
func marked(doc string, b fencedBlock, marker *regexp.Regexp) bool {
	lines := strings.Split(doc, "\n")
	return b.line >= 2 && marker.MatchString(lines[b.line-2])
}

// terminalCheck checks the terminal check's block: gcx proxy with flags
// it takes and a server's command, then an initialize request.
func (r *readmeRunner) terminalCheck(b fencedBlock) {
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	if len(lines) != 2 {
		r.t.Errorf("%s:%d: a terminal check is a command line and a line to paste, not %d lines", r.file, b.line, len(lines))
		return
	}
	words := strings.Fields(lines[0])
	if len(words) == 0 || words[0] != "gcx" {
		r.t.Errorf("%s:%d: the terminal check runs %q, not gcx", r.file, b.line, lines[0])
		return
	}
	r.proxyArgs(b.line, "the terminal check", words[1:])
	var request struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  struct {
			ProtocolVersion string          `json:"protocolVersion"`
			ClientInfo      json.RawMessage `json:"clientInfo"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &request); err != nil || request.JSONRPC != "2.0" || request.ID == nil ||
		request.Method != "initialize" || request.Params.ProtocolVersion == "" || request.Params.ClientInfo == nil {
		r.t.Errorf("%s:%d: the line to paste is no initialize request (%v): %s", r.file, b.line, err, lines[1])
	}
}

// npmHostConfig checks a marked host configuration, a JSON file or a
// command line, where it runs gcx as npx -y @gcxwire/gcx or as the
// installed gcx: the arguments after the package name or gcx are gcx
// proxy's, as proxyArgs checks them.
func (r *readmeRunner) npmHostConfig(b fencedBlock) {
	var commands [][]string
	if b.lang == "json" {
		var config map[string]map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		if err := json.Unmarshal([]byte(b.text), &config); err != nil {
			r.t.Errorf("%s:%d: a host configuration that is not JSON: %v", r.file, b.line, err)
			return
		}
		for _, servers := range config { // mcpServers, or VS Code's servers
			for _, s := range servers {
				commands = append(commands, append([]string{s.Command}, s.Args...))
			}
		}
	} else {
		commands = append(commands, strings.Fields(b.text))
	}
	for _, words := range commands {
		for i := range words {
			if i >= 2 && words[i] == "@gcxwire/gcx" && words[i-2] == "npx" && words[i-1] == "-y" {
				r.proxyArgs(b.line, "npx -y @gcxwire/gcx", words[i+1:])
			}
			// The installed command: first, or first after claude mcp
			// add's "--".
			if words[i] == "gcx" && (i == 0 || words[i-1] == "--" && !slices.Contains(words[:i-1], "--")) {
				r.proxyArgs(b.line, "gcx", words[i+1:])
			}
		}
	}
}

// session runs a block of "$ command" lines, each followed by its output; an
// output line ending in "..." stands for any line it begins.
func (r *readmeRunner) session(b fencedBlock) {
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i := 0; i < len(lines); {
		command := strings.TrimPrefix(lines[i], "$ ")
		i++
		var want []string
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			want = append(want, lines[i])
		}
		stdout, ok := r.shell(b.line, command)
		if !ok {
			continue
		}
		var got []string
		if stdout != "" {
			got = strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		}
		if len(got) != len(want) {
			r.t.Errorf("%s:%d: %s\nprints %d lines, the document shows %d:\n%s", r.file, b.line, command, len(got), len(want), stdout)
			continue
		}
		for j := range want {
			prefix, cut := strings.CutSuffix(want[j], "...")
			if got[j] != want[j] && !(cut && strings.HasPrefix(got[j], prefix)) {
				r.t.Errorf("%s:%d: %s\nline %d is\n%s\nthe document shows\n%s", r.file, b.line, command, j+1, got[j], want[j])
			}
		}
	}
}

// shell runs a command line with sh from the repository root, gcx built
// from this package standing in for `go run ./cmd/gcx`.
func (r *readmeRunner) shell(line int, command string) (stdout string, ok bool) {
	r.ran[command] = true
	cmd := exec.Command("sh", "-c", strings.ReplaceAll(command, "go run ./cmd/gcx", r.gcx))
	cmd.Dir = repoRoot
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		r.t.Errorf("%s:%d: %s: %v\n%s", r.file, line, command, err, errOut.String())
		return "", false
	}
	return out.String(), true
}

// command checks one command line shown in file (at line, 0 when inline).
func (r *readmeRunner) command(file string, line int, command, comment string) {
	if r.ran[command] {
		return
	}
	where := file
	if line > 0 {
		where += ":" + strconv.Itoa(line)
	}
	switch words := strings.Fields(command); {
	case strings.HasPrefix(command, "go run ./cmd/gcx"):
		stdout, ok := r.shell(line, command)
		// "byte for byte": the pipeline gives back the file it reads.
		if _, input, redirect := strings.Cut(command, "< "); ok && redirect && strings.Contains(comment, "byte for byte") {
			want, err := readRepoFile(strings.Fields(input)[0])
			if err != nil {
				r.t.Error(err)
			} else if stdout != want {
				r.t.Errorf("%s: %s\ndoes not give back %s byte for byte:\n%s", where, command, strings.Fields(input)[0], stdout)
			}
		}
	case command == deepTestCommand:
		// The test command with the long proofs: .ci/run must run them.
		r.ran[command] = true
		r.ciRunsDeepProofs(where)
	case command == "go test ./...":
		// The test command is what runs this test: it works if this runs.
		r.ran[command] = true
	case command == scorecard.ReproduceCommand:
		r.ran[command] = true
		r.mainJob(where)
	case slices.Contains(words, "go") && slices.Contains(words, "test"):
		if line == 0 && !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "./") }) {
			return // prose naming a flag, such as `go test -fuzz` targets
		}
		r.ran[command] = true
		r.goTestIsValid(where, words)
	case strings.HasPrefix(command, "go run ./bench/wire-format -codec-program "):
		// A template with TAG and PROGRAM to fill in: the flag must exist
		// (TestExploreDraftProgram runs it on the example draft).
		r.ran[command] = true
		var help bytes.Buffer
		scorecard.Command([]string{"-h"}, scorecard.DefaultCodec(), &help, &help)
		if !strings.Contains(help.String(), "-codec-program") {
			r.t.Errorf("%s: %s: the scorecard has no -codec-program flag:\n%s", where, command, help.String())
		}
	case command == "go run ./conformance/cmd/gcx-vectors -fmt":
		// Run on a copy of the vectors: it must succeed and, the committed
		// files being formatted, change nothing.
		r.ran[command] = true
		r.vectorFormatter(where)
	case command == "go run ./tools/release VERSION":
		// A template with VERSION to fill in; tools/release's tests run
		// the release, and .ci/run runs it for every target.
		r.ran[command] = true
		if _, err := readRepoFile(filepath.Join("tools", "release", "main.go")); err != nil {
			r.t.Errorf("%s: %s: %v", where, command, err)
		}
	case command == "npm ci --prefix bench/toon":
		// It downloads, so it is not run here; it needs the lockfile.
		r.ran[command] = true
		if _, err := readRepoFile(filepath.Join("bench", "toon", "package-lock.json")); err != nil {
			r.t.Errorf("%s: %s: %v", where, command, err)
		}
	default:
		r.t.Errorf("%s: no check for the command %q: teach TestReadmeCommandsWork how to run it", where, command)
	}
}

// deepProof is a test that skips, within its first lines, unless
// GCX_DEEP=1.
var deepProof = regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\) \{\n(?:[\t ].*\n|\n){0,8}?\tdeep\.Skip\(`)

// ciRunsDeepProofs checks that .ci/run runs every long proof: each test
// of the module that starts with deep.Skip is named in a GCX_DEEP=1 line.
func (r *readmeRunner) ciRunsDeepProofs(where string) {
	ci, err := readRepoFile(filepath.Join(".ci", "run"))
	if err != nil {
		r.t.Fatal(err)
	}
	var deepLines strings.Builder
	for _, line := range strings.Split(ci, "\n") {
		if strings.Contains(line, deep.Env+"=1 go test ") {
			deepLines.WriteString(line + "\n")
		}
	}
	found := 0
	err = filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != repoRoot {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range deepProof.FindAllStringSubmatch(string(src), -1) {
			found++
			if !strings.Contains(deepLines.String(), m[1]) {
				r.t.Errorf("%s: %s (%s) is a long proof that no %s=1 line of .ci/run runs", where, m[1], path, deep.Env)
			}
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if found == 0 {
		r.t.Errorf("%s: no test starts with deep.Skip: %s=1 would run nothing more", where, deep.Env)
	}
}

// vectorFormatter runs the vector formatter on a copy of
// conformance/vectors and checks that it leaves every file as committed.
func (r *readmeRunner) vectorFormatter(where string) {
	src := filepath.Join(repoRoot, "conformance", "vectors")
	dir := filepath.Join(r.t.TempDir(), "vectors")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./conformance/cmd/gcx-vectors", "-fmt", "-dir", dir)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Errorf("%s: go run ./conformance/cmd/gcx-vectors -fmt: %v\n%s", where, err, out)
		return
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		formatted, _ := os.ReadFile(path)
		committed, _ := os.ReadFile(filepath.Join(src, rel))
		if !bytes.Equal(formatted, committed) {
			r.t.Errorf("%s: the formatter changes conformance/vectors/%s, which is committed unformatted", where, rel)
		}
		return nil
	})
}

// mainJob runs the main job as `-check`: it writes nothing and fails when
// the committed scorecard is not what the job writes (with or without
// node: see TestMainJobWithoutTOONKeepsTheScorecard).
func (r *readmeRunner) mainJob(where string) {
	var stdout, stderr bytes.Buffer
	bench := filepath.Join(repoRoot, "bench")
	args := []string{"-check",
		"-cases", filepath.Join(bench, "wire-format", "cases"), "-out", filepath.Join(bench, "wire-format"),
		"-toon", filepath.Join(bench, "toon"), "-explanations", filepath.Join(bench, "wire-format", "explanations.json")}
	if code := scorecard.Command(args, scorecard.DefaultCodec(), &stdout, &stderr); code != 0 {
		r.t.Errorf("%s: %s would change the committed scorecard (exit %d):\n%s", where, scorecard.ReproduceCommand, code, stderr.String())
	}
}

// goTestIsValid checks a documented `go test` command: every package it
// reaches must accept its flags, and its test pattern (-run or -fuzz) must
// name at least one test. It reads this from go list and the test files
// rather than building every package's tests to run them with -list,
// which made this the slowest test of the module: go test's own flags
// are taken everywhere, rapid's (-rapid.checks=N) wherever the test
// binary links rapid, and any other flag is refused until this test
// learns it. A pattern is matched as go test matches it, against the
// names of the top-level Test, Fuzz, Example and Benchmark functions.
func (r *readmeRunner) goTestIsValid(where string, words []string) {
	for len(words) > 0 && strings.Contains(words[0], "=") {
		words = words[1:] // the environment: it changes no flag or test name
	}
	if len(words) < 2 || words[0] != "go" || words[1] != "test" {
		r.t.Errorf("%s: %q is not a go test command this test can read", where, strings.Join(words, " "))
		return
	}
	pattern, rapidFlag := "", false
	var pkgs []string
	for i := 2; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			pkgs = append(pkgs, w)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
		switch {
		case name == "run" || name == "fuzz":
			if !hasValue && i+1 < len(words) {
				i++
				value = words[i]
			}
			pattern = value
		case strings.HasPrefix(name, "rapid."):
			rapidFlag = true
		case slices.Contains([]string{"count", "v", "short", "timeout", "bench", "benchmem", "benchtime", "fuzztime", "cpu", "tags", "race", "update"}, name):
			if name == "update" && !slices.Equal(pkgs, []string{"./codec"}) {
				r.t.Errorf("%s: -update is a flag of ./codec's tests alone", where)
			}
			if !hasValue && slices.Contains([]string{"timeout", "benchtime", "fuzztime", "cpu", "tags", "bench"}, name) {
				i++
			}
		default:
			r.t.Errorf("%s: %s: no check for the flag %s: teach goTestIsValid whether every package takes it", where, strings.Join(words, " "), w)
			return
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	// go list -test lists each package, its test binary P.test (with
	// what it links) and the test variants of P (ForTest set), which add
	// nothing here.
	args := append([]string{"list", "-test", "-f",
		"{{.ImportPath}}\t{{.ForTest}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}\t{{join .Deps \" \"}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		r.t.Errorf("%s: %s: go list: %v", where, strings.Join(words, " "), err)
		return
	}
	list, _, _ := strings.Cut(strings.Trim(pattern, `'"`), "/")
	match, err := regexp.Compile(list)
	if err != nil {
		r.t.Errorf("%s: %s: the pattern %q is no regular expression: %v", where, strings.Join(words, " "), list, err)
		return
	}
	testFunc := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Example|Benchmark)\w*)\(`)
	named := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			r.t.Fatalf("go list printed %q", line)
		}
		path, forTest, dir, files, deps := f[0], f[1], f[2], strings.Fields(f[3]), strings.Fields(f[4])
		switch {
		case forTest != "":
		case strings.HasSuffix(path, ".test"):
			if rapidFlag && !slices.Contains(deps, "pgregory.net/rapid") {
				r.t.Errorf("%s: %s: %s does not link rapid, so it refuses the flag (add a rapidflags_test.go)", where, strings.Join(words, " "), path)
			}
		case pattern != "":
			for _, name := range files {
				src, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					r.t.Fatal(err)
				}
				for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
					named = named || match.MatchString(m[1])
				}
			}
		}
	}
	if pattern != "" && !named {
		r.t.Errorf("%s: %s matches no test", where, strings.Join(words, " "))
	}
}

func rootEntries(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}
