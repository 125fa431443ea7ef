package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/jsonmap"
)

// TestEncodeJSONCommand: gcx encode's modes, flags and exit statuses
// [MAP-12] [AUTO-1] [WIRE-3].
func TestEncodeJSONCommand(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string // a substring; "" means stderr must be empty
	}{
		{"GCXMode", []string{"--mode", "gcx", "--tool", "t"}, `[{"a":1},{"a":"1"}]`, 0, "GCX1 tool=t fields=a rows=2\n1\n\"1\"\n", ""},
		{"GCXModeSingleDash", []string{"-mode=gcx", "-tool=t"}, `"x"`, 0, "GCX1 tool=t fields= json=value rows=1\nx\n", ""},
		{"AutoChoosesJSONForAScalar", nil, ` 42 `, 0, "42\n", ""},
		{"AutoChoosesGCXForATable", []string{"--tool", "t"}, `[{"name":"alpha","size":1},{"name":"beta","size":2},{"name":"gamma","size":3},{"name":"delta","size":4}]`, 0,
			"GCX1 tool=t fields=name,size rows=4\nalpha\t1\nbeta\t2\ngamma\t3\ndelta\t4\n", ""},
		{"DefaultToolName", []string{"--mode", "gcx"}, `[]`, 0, "GCX1 tool=result fields= rows=0\n", ""},
		{"Stats", []string{"--stats"}, `1`, 0, "1\n", "wrote json; GCX1 15 tokens, compact JSON 1 token (cl100k_base)"},
		{"StatsInGCXMode", []string{"--mode", "gcx", "--stats"}, `1`, 0, "GCX1 tool=result fields= json=value rows=1\n1\n",
			"wrote gcx; GCX1 15 tokens, compact JSON 1 token (cl100k_base)"},
		{"RequireLayoutFits", []string{"--mode", "gcx", "--tool", "graph_stats", "--require-layout"}, `{"nodes":1,"edges":2,"files":3,"symbols":4}`, 0,
			"GCX1 tool=graph_stats fields=nodes,edges,files,symbols,packages,indexed rows=1\n1\t2\t3\t4\t\t\n", ""},
		{"RequireLayoutRefuses", []string{"--mode", "gcx", "--tool", "graph_stats", "--require-layout"}, `{"nodes":1}`, 1, "", `lacks member "edges"`},
		{"OffLayoutEncodesGenerically", []string{"--mode", "gcx", "--tool", "graph_stats"}, `{"nodes":1}`, 0, "GCX1 tool=graph_stats fields= json=object nodes=1\n", ""},
		{"InvalidJSON", []string{"--mode", "gcx"}, `{"a":}`, 1, "", "line 1, column 6, byte offset 5: invalid JSON: expected a JSON value"},
		{"DuplicateKey", []string{"--mode", "gcx"}, `{"a":1,"a":2}`, 1, "", `member name "a" appears twice`},
		{"EmptyInput", nil, "", 1, "", "found end of input"},
		{"BadToolName", []string{"--mode", "gcx", "--tool", "my tool"}, `1`, 1, "", "tool name \"my tool\""},
		{"BadMode", []string{"--mode", "toon"}, `1`, 2, "", "--mode must be auto or gcx"},
		{"UnknownFlag", []string{"--pretty"}, `1`, 2, "", "flag provided but not defined"},
		{"ExtraArgument", []string{"x.json"}, `1`, 2, "", "unexpected argument"},
		{"Help", []string{"-h"}, ``, 0, "", "usage: gcx encode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, append([]string{"encode"}, c.args...)...)
			checkRun(t, code, stdout, stderr, c.code, c.stdout, c.stderr)
		})
	}
}

// TestDecodeJSONCommand: gcx decode writes the value of a GCX1 payload or
// of the JSON auto mode writes; exit 1 for invalid input, 3 for another
// version [MAP-7] [AUTO-3] [VER-5].
func TestDecodeJSONCommand(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{"Table", nil, "GCX1 tool=t fields=a,b rows=2\n1\t\n\"\"\tnull\n", 0, "[{\"a\":1},{\"a\":\"\",\"b\":null}]\n", ""},
		{"Layout", nil, "GCX1 tool=graph_stats fields=nodes,edges,files,symbols,packages,indexed rows=1\n1\t2\t3\t4\t\t\n", 0, "{\"nodes\":1,\"edges\":2,\"files\":3,\"symbols\":4}\n", ""},
		{"JSONResult", nil, " [1, 2.0] \n", 0, "[1,2.0]\n", ""},
		{"LayoutViolation", nil, "GCX1 tool=graph_stats fields=nodes\n1\n", 1, "", "frozen fields"},
		{"Truncated", nil, "GCX1 tool=t fields=a rows=2\n1\n", 1, "", "rows=2 but the section holds 1 rows"},
		{"MissingFinalLF", nil, "GCX1 tool=t fields=a\n1", 1, "", "syntax error"},
		{"OtherVersion", nil, "GCX2 tool=t fields=a\nx\n", 3, "", "re-issue the call without the GCX format"},
		{"Neither", nil, "hello", 1, "", "does not begin with GCX, so it was read as JSON"},
		{"ExtraArgument", []string{"x"}, "", 2, "", "unexpected argument"},
		{"Help", []string{"--help"}, "", 0, "", "usage: gcx decode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := gcx(t, c.stdin, append([]string{"decode"}, c.args...)...)
			checkRun(t, code, stdout, stderr, c.code, c.stdout, c.stderr)
		})
	}
}

func checkRun(t *testing.T, code int, stdout, stderr string, wantCode int, wantStdout, wantStderr string) {
	t.Helper()
	if code != wantCode {
		t.Errorf("exit status %d, want %d (stderr %q)", code, wantCode, stderr)
	}
	if diff := cmp.Diff(wantStdout, stdout); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if wantStderr == "" && stderr != "" || !strings.Contains(stderr, wantStderr) {
		t.Errorf("stderr %q, want it to contain %q", stderr, wantStderr)
	}
	if code != exitOK && stdout != "" {
		t.Errorf("a failed command wrote to stdout")
	}
}

// TestExamplesLoopInProcess: `gcx encode --mode gcx | gcx decode` gives
// back every example's value, in both modes, under its own tool name and
// under an undeclared one [MAP-4] [AUTO-2]. (The built binary is driven
// over real pipes by the conformance suite's json vectors, in
// conformance's TestGCXConformanceCommand.)
func TestExamplesLoopInProcess(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonmap.Compact(in)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tool := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, args := range [][]string{{"--mode", "gcx", "--tool", tool}, {"--tool", tool}, {"--mode", "gcx"}} {
			code, encoded, stderr := gcx(t, string(in), append([]string{"encode"}, args...)...)
			if code != exitOK {
				t.Fatalf("%s: gcx encode %v: exit %d: %s", f, args, code, stderr)
			}
			code, decoded, stderr := gcx(t, encoded, "decode")
			if code != exitOK {
				t.Fatalf("%s: gcx decode after encode %v: exit %d: %s", f, args, code, stderr)
			}
			if diff := cmp.Diff(string(want)+"\n", decoded); diff != "" {
				t.Errorf("%s: gcx encode %v | gcx decode (-want +got):\n%s", f, args, diff)
			}
		}
	}
}

// gcx encode and gcx decode take the same limit flags, and what encode
// writes under limits decode reads under them [LIM-4]: a 5,000-key table is
// refused by mode gcx under the default field limit, written as JSON by auto
// mode, and written and read back with the limit lifted on both sides.
func TestEncodeDecodeLimitsAgree(t *testing.T) {
	value := wideTable(5000)
	code, out, stderr := gcx(t, value, "encode", "--mode", "gcx")
	if code != exitInvalid || out != "" || !strings.Contains(stderr, "[LIM-4]") {
		t.Fatalf("mode gcx under the default limits: exit %d, %d bytes out, %s", code, len(out), stderr)
	}
	code, out, stderr = gcx(t, value, "encode", "--stats")
	if code != exitOK || !strings.HasPrefix(out, "[{") || !strings.Contains(stderr, "no GCX1") {
		t.Fatalf("auto mode under the default limits: exit %d, %.20q, %s", code, out, stderr)
	}
	code, payload, stderr := gcx(t, value, "encode", "--mode", "gcx", "--max-fields", "0")
	if code != exitOK || !strings.HasPrefix(payload, "GCX1 ") {
		t.Fatalf("mode gcx without a field limit: exit %d, %s", code, stderr)
	}
	if code, _, stderr := gcx(t, payload, "decode"); code != exitInvalid || !strings.Contains(stderr, "[LIM-3]") {
		t.Errorf("decode under the default limits: exit %d, %s", code, stderr)
	}
	code, back, stderr := gcx(t, payload, "decode", "--max-fields", "0")
	if code != exitOK || back != value+"\n" {
		t.Errorf("decode without a field limit: exit %d, %s", code, stderr)
	}
}

// wideTable is a one-row table of n keys "k0":0, "k1":1, ...: wider than
// the default field limit when n passes 4096 [LIM-2].
func wideTable(n int) string {
	var b strings.Builder
	b.WriteString(`[{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString(`}]`)
	return b.String()
}
