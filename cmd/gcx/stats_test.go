package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// describe writes a summary compactly for the table tests: per tool (and
// the total) its calls, rewritten, measured, tokens and bytes, the
// reasons; then dropped and the malformed line numbers.
func describe(sum *statsSummary) string {
	var b strings.Builder
	for _, t := range append(sum.tools, &sum.total) {
		fmt.Fprintf(&b, "%s %d/%d/%d %d>%d %d>%d", t.name, t.calls, t.rewritten, t.measured, t.serverTokens, t.modelTokens, t.serverBytes, t.modelBytes)
		for _, why := range sortedReasons(t.leftAlone) {
			fmt.Fprintf(&b, " %s=%d", why, t.leftAlone[why])
		}
		b.WriteString("; ")
	}
	fmt.Fprintf(&b, "dropped %d; lines %d; malformed", sum.dropped, sum.lines)
	for _, m := range sum.malformed {
		fmt.Fprintf(&b, " %d", m.line)
	}
	return b.String()
}

const (
	statsRewritten = `{"time":"2026-12-05T12:00:00.000Z","tool":"read_graph","format":"GCX1","server_tokens":100,"model_tokens":40,"server_bytes":300,"model_bytes":90,"ms_added":0.5}`
	statsCheaper   = `{"time":"2026-12-05T12:00:01.000Z","tool":"search","format":"json","reason":"json-cheaper","server_tokens":10,"model_tokens":10,"server_bytes":30,"model_bytes":30,"ms_added":0.1}`
	statsError     = `{"time":"2026-12-05T12:00:02.000Z","tool":"search","format":"untouched","reason":"error-result","server_tokens":7,"model_tokens":7,"server_bytes":20,"model_bytes":20,"ms_added":0.0}`
	statsOverLimit = `{"time":"2026-12-05T12:00:03.000Z","format":"untouched","reason":"over-limit"}`
	statsDropped   = `{"time":"2026-12-05T12:00:04.000Z","dropped":3}`
)

func TestSummarise(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"empty", "", "total 0/0/0 0>0 0>0; dropped 0; lines 0; malformed"},
		{"one rewritten", statsRewritten + "\n",
			"read_graph 1/1/1 100>40 300>90; total 1/1/1 100>40 300>90; dropped 0; lines 1; malformed"},
		{"tools by tokens saved, reasons counted", statsCheaper + "\n" + statsError + "\n" + statsRewritten + "\n" + statsRewritten + "\n",
			"read_graph 2/2/2 200>80 600>180; search 2/0/2 17>17 50>50 error-result=1 json-cheaper=1; " +
				"total 4/2/4 217>97 650>230 error-result=1 json-cheaper=1; dropped 0; lines 4; malformed"},
		{"over the limit: a call of unknown tool, not measured", statsOverLimit + "\n" + statsRewritten + "\n",
			"read_graph 1/1/1 100>40 300>90; (unknown) 1/0/0 0>0 0>0 over-limit=1; total 2/1/1 100>40 300>90 over-limit=1; dropped 0; lines 2; malformed"},
		{"dropped calls", statsDropped + "\n" + statsDropped + "\n",
			"total 0/0/0 0>0 0>0; dropped 6; lines 2; malformed"},
		{"blank lines, CRLF, no final newline", "\n" + statsRewritten + "\r\n\n" + statsRewritten,
			"read_graph 2/2/2 200>80 600>180; total 2/2/2 200>80 600>180; dropped 0; lines 4; malformed"},
		{"malformed lines are skipped, the rest summed", strings.Join([]string{
			statsRewritten,
			"not json",
			`{"time":"yesterday","tool":"t","format":"GCX1"}`,
			`{"time":"2026-12-05T12:00:00Z","tool":"t"}`,
			`{"time":"2026-12-05T12:00:00Z","tool":"t","format":"GCX1","server_tokens":5}`,
			`{"time":"2026-12-05T12:00:00Z","tool":"t","format":"GCX1","server_tokens":-5,"model_tokens":1,"server_bytes":1,"model_bytes":1}`,
			`{"time":"2026-12-05T12:00:00Z","dropped":-1}`,
			`{"time":"2026-12-05T12:00:00Z","tool":"t","format":"GCX1","dropped":2}`,
			`{"time":"2026-12-05T12:00:00Z","tool":"t","format":"GCX1","ms_added":-1}`,
			`[1,2]`,
			`{"time":"2026-12-05T12:00:00Z","tool":7,"format":"GCX1"}`,
			statsCheaper,
		}, "\n") + "\n",
			"read_graph 1/1/1 100>40 300>90; search 1/0/1 10>10 30>30 json-cheaper=1; total 2/1/2 110>50 330>120 json-cheaper=1; " +
				"dropped 0; lines 12; malformed 2 3 4 5 6 7 8 9 10 11"},
		{"a line over the bound is skipped unread", statsRewritten + "\n" + strings.Repeat("x", maxStatsLine+10) + "\n" + statsRewritten + "\n",
			"read_graph 2/2/2 200>80 600>180; total 2/2/2 200>80 600>180; dropped 0; lines 3; malformed 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sum, err := summarise(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(sum); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// The table's figures: saved and the share saved, grouped thousands, a
// dash where nothing was measured.
func TestStatsTable(t *testing.T) {
	in := strings.Repeat(statsRewritten+"\n", 30) + statsOverLimit + "\n" + statsDropped + "\n"
	sum, err := summarise(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sum.writeTable(&b)
	out := b.String()
	for _, want := range []string{
		"31 calls from 2026-12-05 12:00:00 to 2026-12-05 12:00:04 UTC",
		"server     tool        calls  rewritten  tokens as sent  tokens to model  saved  saved %  bytes as sent  bytes to model  ms added",
		"(unknown)  read_graph     30         30           3,000            1,200  1,800    60.0%          9,000           2,700      15.0",
		"(unknown)  (unknown)       1          0               -                -      -        -              -               -       0.0",
		"total                     31         30           3,000            1,200  1,800    60.0%",
		"1 call not read by the proxy",
		"3 calls not recorded: the recorder fell behind",
		"(unknown)  (unknown)  over-limit  1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// With several servers, the table has a row per server and tool, the
// servers by tokens saved and a server's tools together, a row per server
// of more than one tool, and the total; the reasons go per server and
// tool too. A tool of the same name on two servers is two rows.
func TestStatsPerServer(t *testing.T) {
	line := func(server, tool, format string, before, after int) string {
		return fmt.Sprintf(`{"time":"2026-12-05T12:00:00.000Z","server":%q,"tool":%q,"format":%q,"server_tokens":%d,"model_tokens":%d,"server_bytes":%d,"model_bytes":%d,"ms_added":1}`,
			server, tool, format, before, after, 3*before, 3*after)
	}
	in := strings.Join([]string{
		line("mcp-git", "git_log", "untouched", 500, 500),
		line("sqlite", "execute_sql", "GCX1", 2000, 1200),
		line("sqlite", "execute_sql", "GCX1", 1000, 600),
		line("sqlite", "list_tables", "GCX1", 100, 90),
		line("mcp-git", "search", "GCX1", 100, 50),
		line("sqlite", "search", "untouched", 10, 10),
		statsRewritten, // no server named
	}, "\n") + "\n"
	sum, err := summarise(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sum.writeTable(&b)
	// The table's rows, spaces collapsed, cut after the tokens saved.
	_, table, _ := strings.Cut(b.String(), "ms added\n")
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []string
	for _, l := range strings.Split(table, "\n") {
		f := strings.Fields(l)
		rows = append(rows, strings.Join(f[:len(f)-4], " "))
	}
	want := []string{
		"sqlite execute_sql 2 2 3,000 1,800 1,200",
		"sqlite list_tables 1 1 100 90 10",
		"sqlite search 1 0 10 10 0",
		"sqlite (all tools) 4 3 3,110 1,900 1,210",
		"(unknown) read_graph 1 1 100 40 60",
		"mcp-git search 1 1 100 50 50",
		"mcp-git git_log 1 0 500 500 0",
		"mcp-git (all tools) 2 1 600 550 50",
		"total 7 5 3,810 2,490 1,320",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("rows:\n%s\nwant\n%s\n\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"), b.String())
	}
	// The chart names each bar by server and tool, several servers being
	// in the file.
	chart, err := sum.svg()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sqlite: execute_sql: 3,000 tokens the server wrote", "mcp-git: search: 50 tokens the model read", "(unknown): read_graph: 100 tokens the server wrote"} {
		if !strings.Contains(string(chart), want) {
			t.Errorf("the chart lacks the bar %q", want)
		}
	}
	_, reasons, _ := strings.Cut(b.String(), "the model read the compact JSON):")
	if got, want := strings.Fields(reasons), strings.Fields("server tool reason calls  sqlite search (none given) 1  mcp-git git_log (none given) 1  total (none given) 2"); !slices.Equal(got, want) {
		t.Errorf("the reasons:\n%s\nwant the words %q", reasons, want)
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 100000: "100,000"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}

// gcx stats: exit statuses, malformed lines named by number on stderr
// with the summary still printed, flags before or after FILE, stdin, and
// an SVG chart that is well-formed with two bars per measured tool.
func TestStatsCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(good, []byte(statsRewritten+"\n"+statsCheaper+"\n"+statsOverLimit+"\n"), 0o644)
	os.WriteFile(bad, []byte(statsRewritten+"\nnot json\n"+statsCheaper+"\n{}\n"), 0o644)
	chart := filepath.Join(dir, "chart.svg")
	for _, c := range []struct {
		args           []string
		stdin          string
		code           int
		stdout, stderr string
	}{
		{[]string{"stats", good}, "", exitOK, "total", ""},
		{[]string{"stats", "-"}, statsRewritten + "\n", exitOK, "read_graph", ""},
		{[]string{"stats", bad}, "", exitInvalid, "total", "bad.jsonl:2: not a stats line"},
		{[]string{"stats", bad}, "", exitInvalid, "", "bad.jsonl:4: time \"\" is not an RFC 3339 time; skipped"},
		{[]string{"stats", bad}, "", exitInvalid, "2 calls", "skipped 2 malformed lines of 4"},
		{[]string{"stats"}, "", exitUsage, "", "want one FILE"},
		{[]string{"stats", good, good}, "", exitUsage, "", "want one FILE, got 2"},
		{[]string{"stats", "--frobnicate", good}, "", exitUsage, "", "frobnicate"},
		{[]string{"stats", filepath.Join(dir, "absent")}, "", exitIO, "", "no such file"},
		{[]string{"stats", "--svg", filepath.Join(dir, "no", "dir", "c.svg"), good}, "", exitIO, "", "writing the chart"},
		{[]string{"stats", good, "--svg", chart}, "", exitOK, "total", ""},
	} {
		code, stdout, stderr := gcx(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) || (c.stderr == "" && stderr != "") {
			t.Errorf("gcx %v: exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, %q, %q", c.args, code, stdout, stderr, c.code, c.stdout, c.stderr)
		}
	}
	b, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Groups  []struct {
			ID    string `xml:"id,attr"`
			Rects []struct {
				Title string `xml:"title"`
			} `xml:"rect"`
			Texts []string `xml:"text"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil || doc.XMLName.Local != "svg" {
		t.Fatalf("the chart is no SVG document (%v):\n%s", err, b)
	}
	var titles, texts []string
	for _, g := range doc.Groups {
		for _, r := range g.Rects {
			if g.ID == "bars" {
				titles = append(titles, r.Title)
			}
		}
		texts = append(texts, g.Texts...)
	}
	wantTitles := []string{"read_graph: 100 tokens the server wrote", "read_graph: 40 tokens the model read",
		"search: 10 tokens the server wrote", "search: 10 tokens the model read"}
	if !slices.Equal(titles, wantTitles) {
		t.Errorf("bars %q, want %q", titles, wantTitles)
	}
	for _, want := range []string{"100 → 40 (60.0% saved)", "1 call not read by the proxy", "(unknown)"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the chart lacks the text %q: %q", want, texts)
		}
	}
}

// gcx proxy --stats appends a line per tools/call result: cat stands in
// for a server, sending back the result the host wrote as its answer. A
// file that cannot be opened stops the proxy before it starts; one that
// cannot be written leaves the session as it was and exits 4.
func TestProxyStats(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "stats.jsonl")
	rows := `[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"},{\"id\":3,\"name\":\"c\"}]`
	session := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + rows + `"}]}}` + "\n"
	// cat answers no initialize, so names no server: the second session
	// names it with --server-name.
	for _, name := range []string{"", "people"} {
		code, stdout, stderr := gcx(t, session, "proxy", "--mode", "gcx", "--stats", file, "--server-name", name, "--", "cat")
		if code != exitOK || !strings.Contains(stdout, `GCX1 tool=list`) {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], `"server"`) || !strings.Contains(lines[1], `"server":"people","tool":"list","format":"GCX1"`) {
		t.Errorf("two sessions appended:\n%s", b)
	}
	if code, _, stderr := gcx(t, session, "proxy", "--stats", file, "--server-name", strings.Repeat("x", 101), "--", "cat"); code != exitUsage || !strings.Contains(stderr, "--server-name") {
		t.Errorf("a --server-name over 100 bytes: exit %d, %q", code, stderr)
	}
	code, _, stderr := gcx(t, session, "proxy", "--stats", filepath.Join(dir, "no", "such", "dir"), "--", "cat")
	if code != exitIO || !strings.Contains(stderr, "--stats") {
		t.Errorf("a stats file that cannot be opened: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		code, stdout, stderr := gcx(t, session, "proxy", "--mode", "gcx", "--stats", "/dev/full", "--", "cat")
		if code != exitIO || !strings.Contains(stdout, `GCX1 tool=list`) || !strings.Contains(stderr, "1 of 1 line could not be written") {
			t.Errorf("a stats file that cannot be written: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
}

// The chart's axis steps are round, and two to four of them reach the
// longest bar.
func TestNiceStep(t *testing.T) {
	for n, want := range map[int]int{0: 1, 3: 1, 4: 1, 5: 2, 8: 2, 9: 5, 21: 10, 2266: 1000, 4000: 1000, 4001: 2000, 1_000_000: 500_000} {
		step := niceStep(n)
		if step != want {
			t.Errorf("niceStep(%d) = %d, want %d", n, step, want)
		}
		if steps := (n + step - 1) / step; n > 4 && (steps < 2 || steps > 4) {
			t.Errorf("niceStep(%d) = %d: %d steps", n, step, steps)
		}
	}
}
