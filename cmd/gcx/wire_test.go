package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// gcx runs the command in-process and returns its exit status and output.
func gcx(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// Comments travel in the wire view as [row, text] pairs [CMT-3] [WIRE-1].
func TestWireComments(t *testing.T) {
	in := "GCX1 tool=t fields=a\n#first\nx\n#last\n"
	code, view, _ := gcx(t, in, "decode", "--wire")
	want := `{"sections":[{"tool":"t","fields":["a"],"meta":[],"rows":[["x"]],"comments":[[0,"first"],[1,"last"]]}]}` + "\n"
	if code != exitOK || view != want {
		t.Fatalf("got exit %d, %s", code, view)
	}
	if code, back, _ := gcx(t, view, "encode", "--wire"); code != exitOK || back != in {
		t.Fatalf("encode --wire: exit %d, %q", code, back)
	}
}

// Exit statuses and streams [WIRE-3].
func TestExitStatus(t *testing.T) {
	cases := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		stderrHas  []string
		stdoutSays string
	}{
		{"valid check", readmePayload, []string{"check"}, exitOK, nil, "valid GCX1: 1 section, 2 rows\n"},
		{"syntax error names line, column and rule [VAL-2]", "GCX1 tool=t fields=a\nx\\q\n", []string{"decode", "--wire"}, exitInvalid,
			[]string{"line 2, column 3", "[VAL-2]"}, ""},
		{"constraint error [ROW-2]", "GCX1 tool=t fields=a,b\nx\n", []string{"check"}, exitInvalid, []string{"line 2, column 2", "[ROW-2]"}, ""},
		{"not GCX [PAY-1]", `{"a":1}`, []string{"check"}, exitInvalid, []string{"[PAY-1]"}, ""},
		{"another version names its tag [VER-2]", "GCX2 tool=t fields=a\n", []string{"decode", "--wire"}, exitUnsupported,
			[]string{"GCX2", "re-issue"}, ""},
		{"GCX10 is not GCX1 [VER-2]", "GCX10 tool=t fields=a\n", []string{"check"}, exitUnsupported, []string{"GCX10"}, ""},
		{"later section of another version [VER-4]", "GCX1 tool=t fields=a\nx\nGCX1-stream tool=t fields=a\n", []string{"check"},
			exitUnsupported, []string{"GCX1-stream", "[VER-4]"}, ""},
		{"limit flag [LIM-3]", "GCX1 tool=t fields=a\n" + strings.Repeat("x", 30) + "\n", []string{"check", "--max-line-bytes", "22"}, exitInvalid,
			[]string{"line 2, column 23", "[LIM-3]"}, ""},
		{"model error on encode [CAN-3]", `{"sections":[{"tool":"my tool","fields":["a"],"rows":[]}]}`, []string{"encode", "--wire"},
			exitInvalid, []string{"[HDR-3]"}, ""},
		{"wire view with unknown key", `{"sections":[],"extra":1}`, []string{"encode", "--wire"}, exitInvalid, []string{"extra"}, ""},
		{"empty wire view [PAY-1]", `{"sections":[]}`, []string{"encode", "--wire"}, exitInvalid, []string{"[PAY-1]"}, ""},
		{"unknown command", "", []string{"frobnicate"}, exitUsage, []string{"unknown command"}, ""},
		{"no command", "", nil, exitUsage, []string{"usage"}, ""},
		{"bad flag", "", []string{"check", "--max-rows", "many"}, exitUsage, nil, ""},
		{"--wire is a flag like any other", "GCX1 tool=t fields=a\n", []string{"decode", "--wire=true"}, exitOK, nil,
			`{"sections":[{"tool":"t","fields":["a"],"meta":[],"rows":[]}]}` + "\n"},
		{"--wire=false decodes JSON", "[1]", []string{"decode", "--wire=false"}, exitOK, nil, "[1]\n"},
		{"limits apply to decode too [LIM-3]", "GCX1 tool=t fields=a rows=3\nx\ny\nz\n", []string{"decode", "--max-rows", "2"}, exitInvalid, []string{"line 4, column 1", "[LIM-3]"}, ""},
		{"JSON flags with --wire", `{"sections":[]}`, []string{"encode", "--wire", "--tool", "x"}, exitUsage, []string{"--tool"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if stdout != c.stdoutSays {
				t.Errorf("stdout %q, want %q", stdout, c.stdoutSays)
			}
			for _, s := range c.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q lacks %q", stderr, s)
				}
			}
		})
	}
}

// The wire reader refuses what has no GCX1 spelling instead of letting
// encoding/json replace it with U+FFFD [ENC-1].
func TestWireRejectsLoneSurrogates(t *testing.T) {
	for _, in := range []string{
		`{"sections":[{"tool":"t","fields":["\ud800"],"rows":[]}]}`,
		`{"sections":[{"tool":"t","fields":["a"],"rows":[["\udc00"]]}]}`,
		`{"sections":[{"tool":"t","fields":["a"],"rows":[["\ud83d x"]]}]}`,
		"{\"sections\":[{\"tool\":\"t\",\"fields\":[\"\xff\"],\"rows\":[]}]}",
	} {
		if code, out, stderr := gcx(t, in, "encode", "--wire"); code != exitInvalid || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", in, code, out, stderr)
		}
	}
	// A proper pair is fine.
	in := `{"sections":[{"tool":"t","fields":["a"],"rows":[["\ud83d\ude00 \"\\u\""]]}]}`
	if code, out, stderr := gcx(t, in, "encode", "--wire"); code != exitOK || out != "GCX1 tool=t fields=a\n😀 \"\\\\u\"\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// Every subcommand takes its input on stdin: -h succeeds and a stray
// argument is a usage error, never a file name quietly ignored [WIRE-3].
func TestFlagsAlike(t *testing.T) {
	for _, args := range [][]string{{"decode", "--wire"}, {"encode", "--wire"}, {"check"}, {"encode"}, {"decode"}} {
		if code, _, _ := gcx(t, "", append(args, "-h")...); code != exitOK {
			t.Errorf("%v -h: exit %d, want %d", args, code, exitOK)
		}
		code, stdout, stderr := gcx(t, "", append(args, "payload.gcx")...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "unexpected argument") {
			t.Errorf("%v payload.gcx: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// A spill file that cannot be made is a failure to write a file the
// command needs: exit 4, naming the spill file [WIRE-5]. encode --wire
// spills a long section's rows, decode --wire a long section's comments.
func TestSpillFileFails(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var view, payload strings.Builder
	view.WriteString(`{"sections":[{"tool":"t","fields":["a"],"meta":[],"rows":[`)
	payload.WriteString("GCX1 tool=t fields=a rows=1\n")
	long := strings.Repeat("x", 64)
	for i := range 20000 { // 1.3 MB, beyond what a spill keeps in memory
		if i > 0 {
			view.WriteByte(',')
		}
		view.WriteString(`["` + long + `"]`)
		payload.WriteString("#" + long + "\n")
	}
	view.WriteString(`],"comments":[]}]}`)
	payload.WriteString("x\n")
	for _, c := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"encode", "--wire"}, view.String()},
		{[]string{"decode", "--wire"}, payload.String()},
	} {
		code, out, stderr := gcx(t, c.stdin, c.args...)
		if code != exitIO || out != "" || !strings.HasPrefix(stderr, "gcx: the spill file (") || !strings.Contains(stderr, "missing/gcx-spill-") {
			t.Errorf("gcx %s with no TMPDIR: exit %d, %d bytes out, stderr %q", strings.Join(c.args, " "), code, len(out), stderr)
		}
	}
}
