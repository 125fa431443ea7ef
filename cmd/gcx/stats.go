package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/internal/plural"
	"github.com/gcxwire/gcx/internal/svgdoc"
)

// statsNotes is the part of gcx help stats that flags cannot say.
const statsNotes = `FILE is what gcx proxy --stats FILE appended: one JSON line per tools/call
result that passed through the proxy (- reads stdin). The table gives, per
server and tool, per server (where the file names several) and in total,
the calls, those whose text the model read in GCX1, the
cl100k_base tokens and bytes of the text the server wrote and of the text the
model read, the tokens saved and their share, and the milliseconds the proxy
spent on the results; a second table, why the other calls got no GCX1: left
as the server wrote them (json-cheaper, error-result, ...) or minified, because
their compact JSON cost fewer tokens than both the server's text and GCX1
(compact-cheaper).
Tokens are counted on the results' text blocks only: what the call asked and
what the tool answered are never in the file.

exit status: 0 every line was read; 1 some lines are malformed: stderr names
them by line number, and the summary of the others is printed all the same;
2 usage; 4 FILE could not be read or OUT not written.`

// statsConfig holds gcx stats's flags.
type statsConfig struct {
	svg string
}

func statsFlags(fs *flag.FlagSet) *statsConfig {
	cfg := &statsConfig{}
	fs.StringVar(&cfg.svg, "svg", "", "also draw the tokens per tool as an SVG chart in the file `OUT`")
	return cfg
}

// maxStatsLine bounds a line of a stats file: the proxy writes lines of a
// few hundred bytes; a longer one is malformed and skipped unread.
const maxStatsLine = 64 << 10

// maxReported bounds the malformed lines named on stderr.
const maxReported = 20

func runStats(c *subcommand, args []string, s streams) int {
	fs := c.flags(s.stderr)
	cfg := statsFlags(fs)
	// Flags may come before or after FILE.
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintf(s.stderr, "gcx stats: want one FILE, got %d: gcx stats [--svg OUT] FILE\n", len(files))
		return exitUsage
	}
	name := files[0]
	in := s.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(s.stderr, "gcx stats: %v\n", err)
			return exitIO
		}
		defer f.Close()
		in = f
	}
	sum, err := summarise(in)
	if err != nil {
		fmt.Fprintf(s.stderr, "gcx stats: reading %s: %v\n", name, err)
		return exitIO
	}
	for i, m := range sum.malformed {
		if i == maxReported {
			fmt.Fprintf(s.stderr, "gcx stats: %s: and %d more malformed lines\n", name, len(sum.malformed)-maxReported)
			break
		}
		fmt.Fprintf(s.stderr, "gcx stats: %s:%d: %s; skipped\n", name, m.line, m.why)
	}
	sum.writeTable(s.stdout)
	if cfg.svg != "" {
		chart, err := sum.svg()
		if err == nil {
			err = os.WriteFile(cfg.svg, chart, 0o644)
		}
		if err != nil {
			fmt.Fprintf(s.stderr, "gcx stats: writing the chart: %v\n", err)
			return exitIO
		}
	}
	if len(sum.malformed) > 0 {
		fmt.Fprintf(s.stderr, "gcx stats: %s: skipped %s of %d; the summary leaves them out\n", name, plural.Count(len(sum.malformed), "malformed line"), sum.lines)
		return exitInvalid
	}
	return exitOK
}

// toolStats adds up the calls of one server's tool, of one server, or of
// all.
type toolStats struct {
	server    string // "" when unknown, and for the total
	name      string // the tool's; for a server's row, allTools
	calls     int
	rewritten int // the model read a payload
	measured  int // calls whose texts the proxy read
	// Tokens and bytes of the text the server wrote, and of the text the
	// model read, over the measured calls.
	serverTokens, modelTokens, serverBytes, modelBytes int
	ms                                                 float64
	leftAlone                                          map[string]int // reason → calls
}

func (t *toolStats) add(l proxy.StatsLine) {
	t.calls++
	switch l.Format {
	case proxy.FormatUntouched, binding.FormatJSON:
		if t.leftAlone == nil {
			t.leftAlone = map[string]int{}
		}
		t.leftAlone[cmp.Or(l.Reason, "(none given)")]++
	default:
		t.rewritten++
	}
	if l.ServerTokens != nil {
		t.measured++
		t.serverTokens += *l.ServerTokens
		t.modelTokens += *l.ModelTokens
		t.serverBytes += *l.ServerBytes
		t.modelBytes += *l.ModelBytes
	}
	if l.MsAdded != nil {
		t.ms += *l.MsAdded
	}
}

func (t *toolStats) saved() int { return t.serverTokens - t.modelTokens }

// share is the share of the server's tokens saved, in percent; NaN when
// no tokens were measured.
func (t *toolStats) share() float64 {
	if t.serverTokens == 0 {
		return math.NaN()
	}
	return 100 * float64(t.saved()) / float64(t.serverTokens)
}

// statsSummary is what gcx stats makes of a file.
type statsSummary struct {
	// tools are the servers' tools, a server's together: servers by
	// tokens saved, most first, and a server's tools so.
	tools       []*toolStats
	servers     []*toolStats // in the same order, one row each
	total       toolStats
	dropped     int // calls the recorder could not keep up with
	lines       int // lines read, malformed ones included
	malformed   []malformedLine
	first, last time.Time
}

type malformedLine struct {
	line int
	why  string
}

// unknownTool names the calls whose tool the proxy could not know, and
// unknownServer the servers that gave no name.
const (
	unknownTool   = "(unknown)"
	unknownServer = "(unknown)"
)

// allTools is the tool column of a server's row.
const allTools = "(all tools)"

// statsKey is a tool of a server.
type statsKey struct{ server, tool string }

// summarise reads a stats file. Its error is the reader's; a malformed
// line is recorded in the summary and skipped.
func summarise(in io.Reader) (*statsSummary, error) {
	sum := &statsSummary{total: toolStats{name: "total"}}
	byName := map[statsKey]*toolStats{}
	r := bufio.NewReaderSize(in, maxStatsLine)
	for n := 1; ; n++ {
		text, err := r.ReadSlice('\n')
		tooLong := false
		for err == bufio.ErrBufferFull {
			// The rest of a line over the bound is skipped unread.
			tooLong = true
			_, err = r.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if len(text) == 0 && !tooLong {
			break // the end, after a line's newline
		}
		sum.lines++
		if tooLong {
			sum.malformed = append(sum.malformed, malformedLine{n, fmt.Sprintf("longer than %d bytes", maxStatsLine)})
		} else if text = bytes.TrimSpace(text); len(text) > 0 {
			if err := sum.read(text, byName); err != nil {
				sum.malformed = append(sum.malformed, malformedLine{n, err.Error()})
			}
		}
		if err == io.EOF {
			break
		}
	}
	byServer := map[string]*toolStats{}
	for _, t := range byName {
		sum.tools = append(sum.tools, t)
		s := byServer[t.server]
		if s == nil {
			s = &toolStats{server: t.server, name: allTools}
			byServer[t.server] = s
			sum.servers = append(sum.servers, s)
		}
		s.merge(t)
	}
	bySaved := func(a, b *toolStats) int {
		return cmp.Or(cmp.Compare(b.saved(), a.saved()), cmp.Compare(b.calls, a.calls), strings.Compare(a.server, b.server), strings.Compare(a.name, b.name))
	}
	slices.SortFunc(sum.servers, bySaved)
	rank := map[string]int{}
	for i, s := range sum.servers {
		rank[s.server] = i
	}
	slices.SortFunc(sum.tools, func(a, b *toolStats) int {
		return cmp.Or(cmp.Compare(rank[a.server], rank[b.server]), bySaved(a, b))
	})
	return sum, nil
}

// merge adds u's calls to t.
func (t *toolStats) merge(u *toolStats) {
	t.calls += u.calls
	t.rewritten += u.rewritten
	t.measured += u.measured
	t.serverTokens += u.serverTokens
	t.modelTokens += u.modelTokens
	t.serverBytes += u.serverBytes
	t.modelBytes += u.modelBytes
	t.ms += u.ms
	for why, n := range u.leftAlone {
		if t.leftAlone == nil {
			t.leftAlone = map[string]int{}
		}
		t.leftAlone[why] += n
	}
}

// serverName is the server column of a server's or a tool's row.
func (t *toolStats) serverName() string { return cmp.Or(t.server, unknownServer) }

// read adds one line to the summary, or says why it is malformed.
func (sum *statsSummary) read(text []byte, byName map[statsKey]*toolStats) error {
	var l proxy.StatsLine
	if err := json.Unmarshal(text, &l); err != nil {
		return fmt.Errorf("not a stats line (%v): %s", err, quoteStart(text))
	}
	when, err := time.Parse(time.RFC3339Nano, l.Time)
	if err != nil {
		return fmt.Errorf("time %s is not an RFC 3339 time", quoteStart([]byte(l.Time)))
	}
	if l.Dropped != 0 || (l.Format == "" && l.Tool == "") {
		if l.Dropped <= 0 || l.Format != "" || l.Tool != "" {
			return fmt.Errorf("a line of dropped calls wants a positive dropped and nothing else, has dropped %d", l.Dropped)
		}
		sum.dropped += l.Dropped
		sum.span(when)
		return nil
	}
	if l.Format == "" {
		return errors.New("no format")
	}
	figures := []*int{l.ServerTokens, l.ModelTokens, l.ServerBytes, l.ModelBytes}
	present := 0
	for _, f := range figures {
		if f != nil {
			if *f < 0 {
				return errors.New("a negative count of tokens or bytes")
			}
			present++
		}
	}
	if present != 0 && present != len(figures) {
		return errors.New("server_tokens, model_tokens, server_bytes and model_bytes go together")
	}
	if l.MsAdded != nil && (*l.MsAdded < 0 || math.IsNaN(*l.MsAdded)) {
		return fmt.Errorf("ms_added %v is negative", *l.MsAdded)
	}
	key := statsKey{l.Server, cmp.Or(l.Tool, unknownTool)}
	t := byName[key]
	if t == nil {
		t = &toolStats{server: key.server, name: key.tool}
		byName[key] = t
	}
	t.add(l)
	sum.total.add(l)
	sum.span(when)
	return nil
}

func (sum *statsSummary) span(when time.Time) {
	if sum.first.IsZero() || when.Before(sum.first) {
		sum.first = when
	}
	if when.After(sum.last) {
		sum.last = when
	}
}

// quoteStart quotes at most 40 bytes of b.
func quoteStart(b []byte) string {
	const n = 40
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// writeTable writes the summary as text tables: a row per server and
// tool, a row per server where the file names several, and the total.
func (sum *statsSummary) writeTable(w io.Writer) {
	t := &sum.total
	fmt.Fprintf(w, "%s", plural.Count(t.calls, "call"))
	if !sum.first.IsZero() {
		fmt.Fprintf(w, " from %s to %s", sum.first.UTC().Format("2006-01-02 15:04:05"), sum.last.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	fmt.Fprintf(w, "; tokens are cl100k_base, of the results' text blocks: as the server sent them, and as the model read them\n\n")
	rows := sum.rows()
	// The figures align right, the names left: tabwriter aligns every
	// column one way, so the names come padded.
	serverWidth, nameWidth := len("server"), len("tool")
	for _, r := range rows {
		serverWidth, nameWidth = max(serverWidth, len(r.server)), max(nameWidth, len(r.tool))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\t%-*s\tcalls\trewritten\ttokens as sent\ttokens to model\tsaved\tsaved %%\tbytes as sent\tbytes to model\tms added\t\n", serverWidth, "server", nameWidth, "tool")
	for _, r := range rows {
		fmt.Fprintf(tw, "%-*s\t%-*s\t", serverWidth, r.server, nameWidth, r.tool)
		if r.measured == 0 {
			fmt.Fprintf(tw, "%d\t%d\t-\t-\t-\t-\t-\t-\t%.1f\t\n", r.calls, r.rewritten, r.ms)
			continue
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t\n", r.calls, r.rewritten,
			grouped(r.serverTokens), grouped(r.modelTokens), grouped(r.saved()), percent(r.share()),
			grouped(r.serverBytes), grouped(r.modelBytes), r.ms)
	}
	tw.Flush()
	if unread := t.calls - t.measured; unread > 0 {
		fmt.Fprintf(w, "\n%s not read by the proxy (over its message limit, or no result): counted as calls, not in the tokens\n", plural.Count(unread, "call"))
	}
	if sum.dropped > 0 {
		fmt.Fprintf(w, "\n%s not recorded: the recorder fell behind (the proxy answered them as usual)\n", plural.Count(sum.dropped, "call"))
	}
	if len(t.leftAlone) == 0 {
		return
	}
	fmt.Fprint(w, "\ncalls not written as GCX1, and why (compact-cheaper: the model read the compact JSON):\n\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "server\ttool\treason\tcalls\n")
	for _, r := range rows {
		if r.tool == allTools {
			continue // its tools' rows say it
		}
		for _, why := range sortedReasons(r.leftAlone) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", r.server, r.tool, why, r.leftAlone[why])
		}
	}
	tw.Flush()
}

// statsRow is a row of the table: a server's tool, a server, or the total.
type statsRow struct {
	server, tool string
	*toolStats
}

// rows lists the table's rows: each server's tools, followed by the
// server's own row where the file names several servers and the server
// more than one tool; then the total.
func (sum *statsSummary) rows() []statsRow {
	var rows []statsRow
	byServer := make(map[string]*toolStats, len(sum.servers))
	for _, s := range sum.servers {
		byServer[s.server] = s
	}
	for i, tool := range sum.tools {
		rows = append(rows, statsRow{tool.serverName(), tool.name, tool})
		if i+1 < len(sum.tools) && sum.tools[i+1].server == tool.server {
			continue
		}
		if len(sum.servers) < 2 {
			continue
		}
		if s := byServer[tool.server]; s.calls > tool.calls {
			rows = append(rows, statsRow{s.serverName(), allTools, s})
		}
	}
	return append(rows, statsRow{"total", "", &sum.total})
}

// sortedReasons lists the reasons most calls first.
func sortedReasons(m map[string]int) []string {
	var reasons []string
	for why := range m {
		reasons = append(reasons, why)
	}
	slices.SortFunc(reasons, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })
	return reasons
}

// grouped writes n with its thousands separated by commas.
func grouped(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

func percent(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// The chart: per tool, a bar of the tokens the server wrote over one of the
// tokens the model read, on one scale, the figures beside them.
const (
	statsLeft    = 190.0
	statsPlot    = 470.0
	statsRight   = 250.0
	statsTop     = 78.0
	statsRowH    = 34.0
	statsBarH    = 12.0
	statsBottom  = 44.0
	colorServer  = "#a0aec0"
	colorModel   = "#2b6cb0"
	colorUnknown = "#888888"
)

func (sum *statsSummary) svg() ([]byte, error) {
	t := &sum.total
	width := statsLeft + statsPlot + statsRight
	rows := max(len(sum.tools), 1)
	height := statsTop + statsRowH*float64(rows) + statsBottom
	top := 0
	for _, tool := range sum.tools {
		top = max(top, tool.serverTokens, tool.modelTokens)
	}
	step := niceStep(top)
	scale := step * max(1, (top+step-1)/step)
	x := func(v int) float64 { return svgdoc.Round2(statsLeft + float64(v)/float64(scale)*statsPlot) }

	root := svgdoc.Root{
		Xmlns: svgdoc.Namespace, Width: int(width), Height: int(height),
		ViewBox:    fmt.Sprintf("0 0 %d %d", int(width), int(height)),
		FontFamily: "Helvetica, Arial, sans-serif", FontSize: 12,
		Title: "gcx proxy: cl100k_base tokens per server and tool, as the server wrote them and as the model read them",
	}
	bg := svgdoc.Group{ID: "background", Rects: []svgdoc.Rect{{Width: width, Height: height, Fill: "#ffffff"}}}
	headline := "gcx proxy: no calls recorded"
	if t.calls > 0 {
		headline = fmt.Sprintf("gcx proxy: %s tokens saved of %s (%s), cl100k_base, over %s",
			grouped(t.saved()), grouped(t.serverTokens), percent(t.share()), plural.Count(t.calls, "call"))
	}
	head := svgdoc.Group{ID: "legend", Texts: []svgdoc.Text{{X: 12, Y: 22, Weight: "bold", Text: headline}}}
	if !sum.first.IsZero() {
		head.Texts = append(head.Texts, svgdoc.Text{X: 12, Y: 40, Fill: "#666666", Text: fmt.Sprintf("%d rewritten; from %s to %s",
			t.rewritten, sum.first.UTC().Format("2006-01-02 15:04"), sum.last.UTC().Format("2006-01-02 15:04 UTC"))})
	}
	lx := 12.0
	for _, s := range []struct{ label, color string }{{"tokens the server wrote", colorServer}, {"tokens the model read", colorModel}} {
		head.Rects = append(head.Rects, svgdoc.Rect{X: lx, Y: 50, Width: 12, Height: 12, Fill: s.color})
		head.Texts = append(head.Texts, svgdoc.Text{X: lx + 18, Y: 60, Text: s.label})
		lx += 190
	}

	grid := svgdoc.Group{ID: "grid"}
	plotBottom := statsTop + statsRowH*float64(rows)
	for v := 0; v <= scale; v += step {
		line := svgdoc.Line{X1: x(v), Y1: statsTop - 6, X2: x(v), Y2: plotBottom, Stroke: "#dddddd", Dash: "3,3"}
		if v == 0 {
			line.Stroke, line.Dash = "#333333", ""
		}
		grid.Lines = append(grid.Lines, line)
		grid.Texts = append(grid.Texts, svgdoc.Text{X: x(v), Y: plotBottom + 16, Anchor: "middle", Fill: "#444444", Text: grouped(v)})
	}
	grid.Texts = append(grid.Texts, svgdoc.Text{X: statsLeft + statsPlot/2, Y: plotBottom + 34, Anchor: "middle", Fill: "#444444",
		Text: "cl100k_base tokens of the results' text blocks, summed over the tool's calls"})

	bars := svgdoc.Group{ID: "bars"}
	labels := svgdoc.Group{ID: "labels"}
	if len(sum.tools) == 0 {
		labels.Texts = append(labels.Texts, svgdoc.Text{X: statsLeft + 8, Y: statsTop + statsRowH/2 + 4, Fill: colorUnknown, Style: "italic", Text: "no calls recorded"})
	}
	for i, tool := range sum.tools {
		rowTop := statsTop + statsRowH*float64(i)
		label := tool.name
		if len(sum.servers) > 1 {
			label = tool.serverName() + ": " + tool.name
		}
		name := svgdoc.Text{X: statsLeft - 8, Y: rowTop + statsRowH/2 + 4, Anchor: "end", Text: shortName(label)}
		if tool.measured == 0 {
			name.Fill, name.Style = colorUnknown, "italic"
			labels.Texts = append(labels.Texts, name, svgdoc.Text{X: statsLeft + 8, Y: rowTop + statsRowH/2 + 4, Fill: colorUnknown, Style: "italic",
				Text: plural.Count(tool.calls, "call") + " not read by the proxy"})
			continue
		}
		labels.Texts = append(labels.Texts, name)
		for j, s := range []struct {
			tokens int
			color  string
			what   string
		}{{tool.serverTokens, colorServer, "the server wrote"}, {tool.modelTokens, colorModel, "the model read"}} {
			y := rowTop + 4 + float64(j)*(statsBarH+2)
			bars.Rects = append(bars.Rects, svgdoc.Rect{X: x(0), Y: y, Width: math.Max(x(s.tokens)-x(0), 1), Height: statsBarH, Fill: s.color,
				Title: fmt.Sprintf("%s: %s tokens %s", label, grouped(s.tokens), s.what)})
		}
		labels.Texts = append(labels.Texts,
			svgdoc.Text{X: statsLeft + statsPlot + 10, Y: rowTop + 14,
				Text: fmt.Sprintf("%s → %s (%s saved)", grouped(tool.serverTokens), grouped(tool.modelTokens), percent(tool.share()))},
			svgdoc.Text{X: statsLeft + statsPlot + 10, Y: rowTop + 28, Fill: "#666666",
				Text: fmt.Sprintf("%d of %s rewritten", tool.rewritten, plural.Count(tool.calls, "call"))})
	}
	root.Groups = []svgdoc.Group{bg, head, grid, bars, labels}
	return svgdoc.Marshal(root)
}

// shortName cuts a tool's name that would not fit left of the bars.
func shortName(name string) string {
	const fits = 26
	if r := []rune(name); len(r) > fits {
		return string(r[:fits-1]) + "…"
	}
	return name
}

// niceStep returns the step of the axis's ticks: 1, 2 or 5 times a power
// of ten, the least that is at least a quarter of n, so that the axis
// reaching n has two to four steps.
func niceStep(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step := p * m; step*4 >= n {
				return step
			}
		}
	}
}
