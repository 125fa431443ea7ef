package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
)

// testDraft is GCX1 under a draft tag, registered for this package's
// tests as a draft of package codec would be.
const testDraft = "GCX2-draft.90"

func init() { codec.Register(codec.NewTemplate(testDraft)) }

// A draft is written only when named, and read only when accepted: a GCX1
// client (the default) refuses it with exit status 3 naming the tag, the
// cue to ask for JSON [VER-2] [VER-5].
func TestVersionFlags(t *testing.T) {
	const table = `[{"name":"alpha","size":1},{"name":"beta","size":2},{"name":"gamma","size":3},{"name":"delta","size":4}]`
	draft := testDraft + " tool=t fields=name,size rows=4\nalpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\n"
	gcx1 := "GCX1 tool=t fields=name,size rows=4\nalpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\n"
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string // a substring; "" means stderr must be empty
	}{
		{"EncodeDraft", []string{"encode", "--tag", testDraft, "--mode", "gcx", "--tool", "t"}, table, 0, draft, ""},
		{"EncodeDefaultIsGCX1", []string{"encode", "--mode", "gcx", "--tool", "t"}, table, 0, gcx1, ""},
		{"EncodeDraftAutoStats", []string{"encode", "--tag", testDraft, "--tool", "t", "--stats"}, table, 0, draft, "wrote gcx; " + testDraft + " "},
		{"EncodeDraftAutoKeepsJSON", []string{"encode", "--tag", testDraft}, `7`, 0, "7\n", ""},
		{"EncodeUnknownTag", []string{"encode", "--tag", "GCX9"}, table, 2, "", `no version "GCX9"`},
		{"EncodeWireDraft", []string{"encode", "--wire", "--tag", testDraft}, `{"sections":[]}`, 2, "", "--wire writes GCX1 only"},
		{"DecodeDraftRefusedByDefault", []string{"decode"}, draft, 3, "", "version tag " + testDraft + " is not GCX1; re-issue the call without the GCX format [VER-2]\n"},
		{"DecodeDraftAccepted", []string{"decode", "--accept", testDraft}, draft, 0, table + "\n", ""},
		{"DecodeEitherAccepted", []string{"decode", "--accept", "GCX1," + testDraft}, gcx1, 0, table + "\n", ""},
		{"DecodeGCX1NotAccepted", []string{"decode", "--accept", testDraft}, gcx1, 3, "", "version tag GCX1 is not " + testDraft + "; re-issue the call without the GCX format [VER-2]\n"},
		{"DecodeJSONWithDraftAccepted", []string{"decode", "--accept", testDraft}, ` [1] `, 0, "[1]\n", ""},
		{"DecodeDraftError", []string{"decode", "--accept", testDraft}, testDraft + " tool=t  fields=a\n", 1, "", "line 1, column 22"},
		{"DecodeUnknownTag", []string{"decode", "--accept", "GCX1,GCX9"}, gcx1, 2, "", `no version "GCX9"`},
		{"DecodeWireDraft", []string{"decode", "--wire", "--accept", testDraft}, draft, 2, "", "--wire reads GCX1 only"},
		{"DecodeWireAcceptGCX1", []string{"decode", "--wire", "--accept", "GCX1"}, "GCX1 tool=t fields=a\n", 0, `{"sections":[{"tool":"t","fields":["a"]`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, c.args...)
			if c.code == 0 && strings.HasPrefix(c.stdout, `{"sections"`) {
				if code != 0 || !strings.HasPrefix(stdout, c.stdout) {
					t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
				}
				return
			}
			checkRun(t, code, stdout, stderr, c.code, c.stdout, c.stderr)
		})
	}
}

// gcx conformance --tag runs a registered draft's vectors — those it
// inherits from GCX1, respelled with its tag — and its report names the
// tag.
func TestConformanceTag(t *testing.T) {
	code, stdout, stderr := gcx(t, "", "conformance", "--tag", testDraft)
	if code != exitOK || !strings.Contains(stdout, "== codec "+testDraft+": ") || !strings.Contains(stdout, " vectors of "+testDraft+" (built-in vectors)") ||
		!strings.HasSuffix(stdout, " passed, 0 failed, 0 skipped\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// gcx bench --codec measures a registered draft in a column of its own.
func TestBenchCodecFlag(t *testing.T) {
	cases, out := t.TempDir(), t.TempDir()
	fixture := `{"tool":"t","description":"two rows","response":[{"a":1,"b":"x y"},{"a":2,"b":"z"}]}`
	if err := os.WriteFile(filepath.Join(cases, "two.json"), []byte(fixture), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gcx(t, "", "bench", "-cases", cases, "-out", out, "-toon", "", "-explanations", filepath.Join(cases, "none"), "-codec", "GCX1,"+testDraft)
	if code != exitOK || !strings.Contains(stdout, "  "+testDraft+": tabular median ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "scorecard.md"))
	if err != nil || !strings.Contains(string(md), "| GCX1 | vs JSON | "+testDraft+" | vs JSON |") {
		t.Errorf("scorecard.md lacks the column of %s: %v\n%s", testDraft, err, md)
	}
}

// limitlessDraft is a draft that takes no limits: a codec that is not
// codec.Limited.
const limitlessDraft = "GCX2-draft.91"

type limitless struct{ codec.Codec }

func init() { codec.Register(limitless{codec.NewTemplate(limitlessDraft)}) }

// A draft reads and writes under the limit flags as GCX1 does: what
// encode writes under limits, decode under them reads; what encode refuses
// under limits is a limit error [LIM-4], and decode under the same limits
// refuses the payload written without them [LIM-3]. A draft that takes no
// limits makes the flags a usage error rather than be ignored [LIM-1].
func TestEncodeDecodeLimitsAgreeDrafts(t *testing.T) {
	table, err := os.ReadFile("../../examples/search_symbols.json")
	if err != nil {
		t.Fatal(err)
	}
	wide := wideTable(5000)
	cases := []struct {
		name, value string
		limit       []string // a limit flag that refuses the value, and its value
	}{
		{"Fields", string(table), []string{"--max-fields", "3"}},
		{"Rows", string(table), []string{"--max-rows", "3"}},
		{"LineBytes", string(table), []string{"--max-line-bytes", "30"}},
		{"DefaultFields", wide, nil},
	}
	for _, tag := range []string{codec.Draft1Tag, testDraft} {
		for _, c := range cases {
			t.Run(tag+"/"+c.name, func(t *testing.T) {
				enc := []string{"encode", "--mode", "gcx", "--tag", tag}
				dec := []string{"decode", "--accept", tag}
				code, out, stderr := gcx(t, c.value, append(enc, c.limit...)...)
				if code != exitInvalid || out != "" || !strings.Contains(stderr, "[LIM-4]") {
					t.Fatalf("encode under %v: exit %d, %d bytes out, %s", c.limit, code, len(out), stderr)
				}
				unlimited := []string{"--max-fields", "0", "--max-line-bytes", "0"}
				code, payload, stderr := gcx(t, c.value, append(enc, unlimited...)...)
				if code != exitOK || !strings.HasPrefix(payload, tag+" ") {
					t.Fatalf("encode without limits: exit %d, %s", code, stderr)
				}
				if code, _, stderr := gcx(t, payload, append(dec, c.limit...)...); code != exitInvalid || !strings.Contains(stderr, "[LIM-3]") {
					t.Errorf("decode under %v: exit %d, %s", c.limit, code, stderr)
				}
				code, back, stderr := gcx(t, payload, append(dec, unlimited...)...)
				if want, _ := jsonmap.Compact([]byte(c.value)); code != exitOK || back != string(want)+"\n" {
					t.Errorf("decode without limits: exit %d, %s", code, stderr)
				}
				// Auto mode gives way to JSON where the limits refuse the
				// payload, as it does for GCX1.
				code, out, stderr = gcx(t, c.value, append([]string{"encode", "--tag", tag, "--stats"}, c.limit...)...)
				if code != exitOK || !strings.HasPrefix(out, "[{") || !strings.Contains(stderr, "no "+tag+": ") {
					t.Errorf("auto mode under %v: exit %d, %.20q, %s", c.limit, code, out, stderr)
				}
			})
		}
	}
	t.Run("NotLimited", func(t *testing.T) {
		const table = `[{"a":1}]`
		payload := limitlessDraft + " tool=result fields=a rows=1\n1\n"
		for _, args := range [][]string{
			{"encode", "--tag", limitlessDraft, "--max-rows", "3"},
			{"encode", "--tag", limitlessDraft, "--mode", "gcx", "--max-fields", "0"},
			{"decode", "--accept", limitlessDraft, "--max-line-bytes", "30"},
			{"decode", "--accept", "GCX1," + limitlessDraft, "--max-sections", "0"},
		} {
			code, out, stderr := gcx(t, table, args...)
			checkRun(t, code, out, stderr, exitUsage, "", "version "+limitlessDraft+" (--"+strings.TrimPrefix(args[1], "--")+") takes no limits")
		}
		code, out, stderr := gcx(t, table, "encode", "--tag", limitlessDraft, "--mode", "gcx")
		checkRun(t, code, out, stderr, exitOK, payload, "")
		code, out, stderr = gcx(t, payload, "decode", "--accept", limitlessDraft)
		checkRun(t, code, out, stderr, exitOK, table+"\n", "")
	})
}

// failingWriter refuses every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// Stats asked for with --stats and lost on stderr make the run fail
// [WIRE-5], for GCX1 and for a draft.
func TestStatsLost(t *testing.T) {
	for _, args := range [][]string{
		{"encode", "--stats"},
		{"encode", "--stats", "--mode", "gcx"},
		{"encode", "--stats", "--tag", codec.Draft1Tag},
		{"encode", "--stats", "--tag", codec.Draft1Tag, "--max-fields", "1"},
	} {
		var out bytes.Buffer
		if code := run(args, strings.NewReader(`[{"a":1,"b":2},{"a":3,"b":4}]`), &out, failingWriter{}); code != exitIO {
			t.Errorf("gcx %s 2>/dev/full: exit %d, want %d", strings.Join(args, " "), code, exitIO)
		}
	}
}

// decode --stats tells a client what the model read beside the value: the
// format, and the total= and truncated= of a table's root header, which
// are no part of the value [MAP-13] [MCP-7]. In a header-form root they
// are members, so they are not reported as truncation.
func TestDecodeStats(t *testing.T) {
	table := "GCX1 tool=search_symbols fields=id,kind,name,path,line,sig rows=1 total=41 truncated=true\na\tb\tc\td\t1\t\n"
	wrapped := "GCX1 tool=t fields=a json=object rows=1 items=@ total=41\nx\n"
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		stdout      string
		stderr      string
	}{
		{"Table", table, []string{"decode", "--stats"}, 0, `[{"id":"a","kind":"b","name":"c","file_path":"d","start_line":1}]` + "\n", "gcx decode: read GCX1; total=41; truncated=true\n"},
		{"HeaderFormMembers", wrapped, []string{"decode", "--stats"}, 0, `{"items":[{"a":"x"}],"total":41}` + "\n", "gcx decode: read GCX1\n"},
		{"JSON", " [1] ", []string{"decode", "--stats"}, 0, "[1]\n", "gcx decode: read json\n"},
		{"Draft", testDraft + " tool=t fields=a rows=1\nx\n", []string{"decode", "--stats", "--accept", testDraft}, 0, `[{"a":"x"}]` + "\n", "gcx decode: read " + testDraft + "\n"},
		{"NotWithWire", table, []string{"decode", "--stats", "--wire"}, 2, "", "--stats goes with a result"},
		{"InvalidReportsNothing", "GCX1 tool=t fields=a rows=2\nx\n", []string{"decode", "--stats"}, 1, "", "META-4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, c.args...)
			if code != c.code || stdout != c.stdout || !strings.Contains(stderr, c.stderr) || (c.code == 0 && stderr != c.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, %q, %q", code, stdout, stderr, c.code, c.stdout, c.stderr)
			}
			if c.code != 0 && strings.Contains(stderr, "gcx decode: read") {
				t.Errorf("a failed decode reported what it read: %q", stderr)
			}
		})
	}
}
