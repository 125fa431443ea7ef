package main

import (
	"github.com/gcxwire/gcx/codec"

	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/spec"
)

// Each subcommand's help lists its own flags and an example, whether asked
// as "gcx help CMD" (on stdout) or "gcx CMD -h" (on stderr, as flag does).
func TestSubcommandHelp(t *testing.T) {
	want := map[string][]string{
		"encode":      {"-tool", "-mode", "-tag", "-stats", "-require-layout", "-wire", "example:", "gcx encode "},
		"decode":      {"-wire", "-accept", "-max-line-bytes", "-max-fields", "-max-sections", "-max-rows", "example:", "gcx decode "},
		"check":       {"-max-line-bytes", "-max-fields", "-max-sections", "-max-rows", "example:", "gcx check "},
		"bench":       {"-cases", "-out", "-check"},
		"conformance": {"-run", "-category", "-vectors", "-tag"},
		"proxy":       {"-mode", "-exempt", "-layout", "-max-message-bytes", "-stats", "example:", "gcx proxy ", "mcpServers", "exit status"},
		"stats":       {"-svg", "example:", "gcx stats ", "exit status", "never in the file"},
		"explore":     {"-seed", "-cases", "-time", "-category", "-out", "-shrink", "-tag", "example:", "gcx explore "},
	}
	for _, c := range commands {
		code, stdout, stderr := gcx(t, "", "help", c.name)
		if code != exitOK || stderr != "" {
			t.Errorf("gcx help %s: exit %d, stderr %q", c.name, code, stderr)
		}
		for _, s := range want[c.name] {
			if !strings.Contains(stdout, s) {
				t.Errorf("gcx help %s lacks %q:\n%s", c.name, s, stdout)
			}
		}
		if strings.Contains(stdout, "Usage of") {
			t.Errorf("gcx help %s is flag's bare default:\n%s", c.name, stdout)
		}
		code, _, dashH := gcx(t, "", c.name, "-h")
		if code != exitOK || dashH != stdout {
			t.Errorf("gcx %s -h (exit %d) differs from gcx help %s:\n%s\n---\n%s", c.name, code, c.name, dashH, stdout)
		}
	}
	if code, _, stderr := gcx(t, "", "help", "frobnicate"); code != exitUsage || !strings.Contains(stderr, "frobnicate") {
		t.Errorf("help for an unknown command: exit %d, %q", code, stderr)
	}
}

// gcx --version names the spec revision it implements.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version", "-version"} {
		code, stdout, _ := gcx(t, "", arg)
		if code != exitOK || !strings.HasPrefix(stdout, "gcx ") || !strings.Contains(stdout, "revision "+spec.Revision) {
			t.Errorf("gcx %s: exit %d, %q", arg, code, stdout)
		}
	}
}

// A limit is a count: a negative one, or one that is not a number, is a
// usage error, never quietly taken [LIM-1].
func TestLimitFlagsRefuseNonsense(t *testing.T) {
	for _, v := range []string{"-1", "x", "1.5", "1e3", ""} {
		for _, args := range [][]string{{"check"}, {"decode", "--wire"}} {
			code, _, stderr := gcx(t, readmePayload, append(args, "--max-rows="+v)...)
			if code != exitUsage {
				t.Errorf("gcx %v --max-rows=%q: exit %d, stderr %q", args, v, code, stderr)
			}
		}
	}
	if code, _, stderr := gcx(t, readmePayload, "check", "--max-rows", "0"); code != exitOK {
		t.Errorf("--max-rows 0 (no limit): exit %d, %s", code, stderr)
	}
}

// A person who runs gcx with nothing piped in is told that it is waiting
// for input on the terminal.
func TestTerminalInputHint(t *testing.T) {
	master, slave, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(gcxBinary(t), "check")
	cmd.Stdin = slave
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	// End the input as a person would: Ctrl-D on an empty line.
	time.Sleep(200 * time.Millisecond)
	master.Write([]byte{4})
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("gcx check did not end after Ctrl-D")
	}
	if !strings.Contains(stderr.String(), "reading the input from the terminal") || !strings.Contains(stderr.String(), "Ctrl-D") {
		t.Errorf("stderr %q gives no hint", stderr.String())
	}
	// Input from a pipe or file gets no hint.
	if _, _, stderr := gcx(t, readmePayload, "check"); strings.Contains(stderr, "terminal") {
		t.Errorf("hint without a terminal: %q", stderr)
	}
}

// The help of help is the global help, which says what help does.
func TestHelpHelp(t *testing.T) {
	_, global, _ := gcx(t, "", "help")
	code, stdout, stderr := gcx(t, "", "help", "help")
	if code != exitOK || stderr != "" || stdout != global || !strings.Contains(stdout, "help [CMD]") {
		t.Errorf("gcx help help: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

// Counts in messages agree with their nouns: "1 section", "2 rows".
func TestMessagePlurals(t *testing.T) {
	cases := []struct {
		args       []string
		stdin      string
		in, notIn  string // a substring of stdout+stderr, and one it must lack
		wantStatus int
	}{
		{[]string{"check"}, "GCX1 tool=t fields=a rows=1\nx\n", "valid GCX1: 1 section, 1 row\n", "", exitOK},
		{[]string{"check"}, "GCX1 tool=t fields=a rows=0\nGCX1 tool=u fields=a rows=0\n", "valid GCX1: 2 sections, 0 rows\n", "", exitOK},
		{[]string{"encode", "--stats"}, "7", "compact JSON 1 token ", "1 tokens", exitOK},
		{[]string{"conformance", "--run", "^decode/.*/hdr-1-minimal$"}, "", ": 1 vector of GCX1", "1 vectors", exitOK},
		{[]string{"decode"}, "GCX1 tool=t fields=a,b json=value rows=1\nx\ty\n", "declares 2 fields", "", exitInvalid},
		{[]string{"decode"}, "GCX1 tool=t fields=a json=value rows=2\nx\ny\n", "has 2 rows", "", exitInvalid},
		{[]string{"decode"}, "GCX1 tool=t fields=a,b json=row rows=1\n@\t1\n", "the payload ends after 1 section [MAP-11]", "", exitInvalid},
	}
	for _, c := range cases {
		code, stdout, stderr := gcx(t, c.stdin, c.args...)
		all := stdout + stderr
		if code != c.wantStatus || !strings.Contains(all, c.in) || c.notIn != "" && strings.Contains(all, c.notIn) {
			t.Errorf("gcx %s: exit %d, want %d with %q and without %q:\n%s", strings.Join(c.args, " "), code, c.wantStatus, c.in, c.notIn, all)
		}
	}
}

// A filter that selects no vector says so, and fails.
func TestConformanceNoMatch(t *testing.T) {
	code, _, stderr := gcx(t, "", "conformance", "--run", "nomatch")
	if code != exitInvalid || !strings.Contains(stderr, "no vector of GCX1 matches the filters") || strings.Contains(stderr, "passed") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// An unsupported version is reported on one line, which names the tag and
// says to re-issue the call without the GCX format [WIRE-3] [VER-5].
func TestUnsupportedVersionOneLine(t *testing.T) {
	for _, args := range [][]string{{"decode"}, {"check"}, {"decode", "--wire"}, {"decode", "--accept", codec.Draft1Tag}} {
		code, stdout, stderr := gcx(t, "GCX3 tool=t fields=a rows=0\n", args...)
		if code != exitUnsupported || stdout != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "version tag GCX3 is not ") || !strings.Contains(stderr, "re-issue the call without the GCX format") {
			t.Errorf("gcx %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}
