package codec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcxwire/gcx/conformance/persistent"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// programEnv makes the test binary a draft codec written as a program:
// GCX2-draft.1's codec behind the protocol of draft codecs. Its value
// names the way it runs: "per-call" exits 2 on --persistent, and
// "per-call-hang" does too and hangs on a value that holds "hang"; "persistent"
// offers the mode; "persistent-crash" and "persistent-hang" offer it and
// exit or hang on a value that holds the string "crash" or "hang".
const programEnv = "GCX_CODEC_TEST_PROGRAM"

func init() {
	mode := os.Getenv(programEnv)
	if mode == "" {
		return
	}
	args := os.Args[1:]
	if len(args) == 1 && args[0] == persistent.Flag {
		if mode == "per-call" || mode == "per-call-hang" {
			os.Exit(2)
		}
		err := persistent.Serve(os.Stdin, os.Stdout, func(args []string, stdin []byte, stdout, stderr io.Writer) int {
			switch {
			case mode == "persistent-crash" && bytes.Contains(stdin, []byte("crash")):
				os.Exit(5)
			case mode == "persistent-hang" && bytes.Contains(stdin, []byte("hang")):
				time.Sleep(time.Hour)
			}
			return draftProgram(args, stdin, stdout, stderr)
		})
		if err != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	in, _ := io.ReadAll(os.Stdin)
	if mode == "per-call-hang" && bytes.Contains(in, []byte("hang")) {
		time.Sleep(time.Hour)
	}
	os.Exit(draftProgram(args, in, os.Stdout, os.Stderr))
}

// draftProgram is one run of the test's draft program.
func draftProgram(args []string, stdin []byte, stdout, stderr io.Writer) int {
	c, _ := Lookup(Draft1Tag)
	draft := c.(Limited)
	if len(args) < 1 {
		return 2
	}
	op, flags := args[0], map[string]string{}
	for i := 1; i+1 < len(args); i += 2 {
		flags[args[i]] = args[i+1]
	}
	var limits spec.Limits
	for _, f := range spec.LimitFlags {
		if n, err := strconv.Atoi(flags["--"+f.Name]); err == nil {
			*f.Field(&limits) = n
		}
	}
	var out []byte
	var err error
	switch op {
	case "encode":
		var v jsonmap.Value
		if v, err = jsonmap.Parse(stdin); err == nil {
			out, err = draft.EncodeLimits(flags["--tool"], v, limits)
		}
	case "decode":
		var v jsonmap.Value
		if v, err = draft.DecodeLimits(stdin, limits); err == nil {
			out = append(v.AppendCompact(nil), '\n')
		}
	default:
		return 2
	}
	var e *spec.Error
	switch {
	case errors.As(err, &e) && e.Class == spec.ErrUnsupportedVersion:
		fmt.Fprintln(stderr, err)
		return 3
	case err != nil:
		fmt.Fprintln(stderr, err)
		return 1
	}
	stdout.Write(out)
	return 0
}

// programValues are JSON values for the program tests: tables, scalars,
// text with LF, TAB and bytes beyond ASCII, and one the encoder refuses
// under a limit.
var programValues = []string{
	`[{"a":1,"b":"x"},{"a":2,"b":"x"},{"a":3,"b":"y\tz"}]`,
	`{"k":"line\nbreak","n":null,"t":true}`,
	`"名前 ∅ \\GCX1"`,
	`[]`,
	`{"rows":[{"id":"1","s":"same"},{"id":"2","s":"same"},{"id":"3","s":"same"}]}`,
}

// programCodec returns the test binary as a program codec in mode.
func programCodec(t *testing.T, mode string, timeout time.Duration, perCall bool) *program {
	t.Helper()
	t.Setenv(programEnv, mode)
	p := NewProgram(ProgramConfig{Tag: Draft1Tag, Timeout: timeout, PerCall: perCall}, os.Args[0]).(*program)
	t.Cleanup(func() { p.Close() })
	return p
}

// outcome is what a program codec gave for one value: the payload, the
// value decoded, under no limits and under a row limit, as bytes and
// error texts, for comparing two ways of running it.
func outcome(p *program, text string) string {
	v, err := jsonmap.Parse([]byte(text))
	if err != nil {
		return "parse: " + err.Error()
	}
	var b strings.Builder
	for _, limits := range []spec.Limits{{}, {MaxRows: 1}} {
		payload, err := p.EncodeLimits("t", v, limits)
		fmt.Fprintf(&b, "encode %q %v\n", payload, err)
		if err != nil {
			continue
		}
		back, err := p.DecodeLimits(payload, limits)
		fmt.Fprintf(&b, "decode %q %v\n", back.AppendCompact(nil), err)
	}
	wrong, err := p.Decode([]byte("GCX1 tool=t fields=a\n"))
	fmt.Fprintf(&b, "decode GCX1 %q %v\n", wrong.AppendCompact(nil), err)
	return b.String()
}

// A program in persistent mode gives, call for call, the same bytes and
// the same errors as one started per call, with one process for all.
func TestProgramPersistentSameAsPerCall(t *testing.T) {
	perCall := programCodec(t, "persistent", 10*time.Second, true)
	kept := programCodec(t, "persistent", 10*time.Second, false)
	for _, text := range programValues {
		want, got := outcome(perCall, text), outcome(kept, text)
		if got != want {
			t.Errorf("%s:\npersistent:\n%s\nper call:\n%s", text, got, want)
		}
		if !strings.Contains(want, "encode \"GCX2-draft.1") {
			t.Errorf("%s: the draft did not encode it:\n%s", text, want)
		}
	}
	if !kept.persistent || kept.sessions.Started() != 1 {
		t.Errorf("persistent mode: %v, %d processes started; want it used, with one process", kept.persistent, kept.sessions.Started())
	}
	if perCall.persistent || perCall.sessions.Started() != 0 {
		t.Errorf("PerCall: persistent mode used")
	}
	// A program without the mode is run a process per call.
	without := programCodec(t, "per-call", 10*time.Second, false)
	if got, want := outcome(without, programValues[0]), outcome(perCall, programValues[0]); got != want {
		t.Errorf("without the mode:\n%s\nwant:\n%s", got, want)
	}
	if without.persistent {
		t.Error("a program that exits 2 on --persistent is run in persistent mode")
	}
}

// A program run a process per call that hangs is stopped at the timeout,
// and the call fails saying so; the next call runs as before.
func TestProgramPerCallHangTimesOut(t *testing.T) {
	p := programCodec(t, "per-call-hang", 2*time.Second, false)
	v, _ := jsonmap.Parse([]byte(`"hang"`))
	if payload, err := p.Encode("t", v); err == nil || !strings.Contains(err.Error(), "timed out after 2s") {
		t.Errorf("Encode of a value the program hangs on: %q, %v; want an error saying it timed out after 2s", payload, err)
	}
	if p.persistent {
		t.Error("a program that exits 2 on --persistent is run in persistent mode")
	}
	v, _ = jsonmap.Parse([]byte(programValues[0]))
	if _, err := p.Encode("t", v); err != nil {
		t.Errorf("the call after the hang: %v", err)
	}
}

// A call that crashes or hangs the persistent process fails alone: the
// calls before and after it succeed, in a new process after it.
func TestProgramPersistentCrashFailsOneCall(t *testing.T) {
	for _, c := range []struct{ mode, value, want string }{
		{"persistent-crash", `"crash"`, "exited with status 5 while answering"},
		{"persistent-hang", `"hang"`, "timed out after 2s"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p := programCodec(t, c.mode, 2*time.Second, false)
			for i, text := range []string{programValues[0], c.value, programValues[1], programValues[4]} {
				v, _ := jsonmap.Parse([]byte(text))
				payload, err := p.Encode("t", v)
				if i == 1 {
					if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, persistent.ErrLost) {
						t.Errorf("call %d: %v, want an error saying %q", i+1, err, c.want)
					}
					continue
				}
				if err != nil {
					t.Fatalf("call %d: %v", i+1, err)
				}
				back, err := p.Decode(payload)
				if err != nil || !bytes.Equal(back.AppendCompact(nil), v.AppendCompact(nil)) {
					t.Errorf("call %d: %s came back as %s, %v", i+1, text, back.AppendCompact(nil), err)
				}
			}
			if n := p.sessions.Started(); n != 2 {
				t.Errorf("%d processes started, want 2: the first, and one after the lost call", n)
			}
		})
	}
}
