package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/gcxwire/gcx/internal/svgdoc"
)

// The markers between which -docs replaces the table.
const (
	beginMarker = "<!-- floors:begin (written by go run ./bench/floors) -->"
	endMarker   = "<!-- floors:end -->"
)

// markdown is the table: one line per row, medians over rounds.
func markdown(results []result, header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; the ratio is the median of the rounds' ratios, with their range.\n\n", header)
	b.WriteString("| path | input | held against | path: time, MB/s, alloc | against: time | ratio | goal | met, or what bounds it |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---|\n")
	for _, r := range results {
		goal, verdict := "", r.bound
		if r.goal > 0 {
			goal = fmt.Sprintf("≤ %.2f×", r.goal)
			switch {
			case r.ratio <= r.goal:
				verdict = "**yes**"
			case r.bound != "":
				verdict = "no: " + r.bound
			default:
				verdict = "no"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s, %.0f, %s | %s | **%s×** (%s–%s) | %s | %s |\n",
			r.path, r.input, r.against.name, duration(r.subjectNs),
			float64(r.bytes)/r.subjectNs*1e3, size(r.subjectB),
			duration(r.againstNs), ratio(r.ratio), ratio(r.low), ratio(r.high), goal, verdict)
	}
	return b.String()
}

func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func size(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

func ratio(r float64) string {
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2f", r)
}

// svg draws each row's ratio as a bar on a log scale from 1/8 to 256, with
// its goal as a tick: green where the goal is met, amber where it is not,
// grey where there is none.
func svg(results []result) ([]byte, error) {
	const (
		left, right = 540.0, 40.0
		plot        = 420.0
		barH, gap   = 14.0, 6.0
		top         = 40.0
		minLog      = -3.0 // 1/8
		maxLog      = 8.0  // 256
	)
	x := func(r float64) float64 {
		l := math.Log2(max(r, math.Exp2(minLog)))
		return svgdoc.Round2(left + plot*(min(l, maxLog)-minLog)/(maxLog-minLog))
	}
	height := int(top + float64(len(results))*(barH+gap) + 40)
	width := int(left + plot + right)
	root := svgdoc.Root{Xmlns: svgdoc.Namespace, Width: width, Height: height,
		ViewBox:    fmt.Sprintf("0 0 %d %d", width, height),
		FontFamily: "sans-serif", FontSize: 11,
		Title: "gcx: each path's time over its floor's, measured side by side (go run ./bench/floors)"}
	var axis, bars, labels svgdoc.Group
	axis.ID, bars.ID, labels.ID = "axis", "bars", "labels"
	labels.Texts = append(labels.Texts, svgdoc.Text{X: 10, Y: 20, Weight: "bold",
		Text: "Time of each path over the time of what it is held against (log scale; tick: goal)"})
	bottom := top + float64(len(results))*(barH+gap)
	for l := minLog; l <= maxLog; l++ {
		at := x(math.Exp2(l))
		stroke := "#dddddd"
		if l == 0 {
			stroke = "#333333"
		}
		axis.Lines = append(axis.Lines, svgdoc.Line{X1: at, Y1: top - 6, X2: at, Y2: bottom, Stroke: stroke})
		axis.Texts = append(axis.Texts, svgdoc.Text{X: at, Y: bottom + 14, Anchor: "middle", Text: ratio(math.Exp2(l)) + "×"})
	}
	for i, r := range results {
		y := top + float64(i)*(barH+gap)
		fill := "#9e9e9e"
		if r.goal > 0 {
			fill = "#2e7d32"
			if r.ratio > r.goal {
				fill = "#ef8f00"
			}
		}
		from, to := x(1), x(r.ratio)
		if to < from {
			from, to = to, from
		}
		bars.Rects = append(bars.Rects, svgdoc.Rect{X: from, Y: y, Width: svgdoc.Round2(max(to-from, 1)), Height: barH, Fill: fill,
			Title: fmt.Sprintf("%s, %s: %s× %s (%s–%s)", r.path, r.input, ratio(r.ratio), r.against.name, ratio(r.low), ratio(r.high))})
		if r.goal > 0 {
			g := x(r.goal)
			bars.Lines = append(bars.Lines, svgdoc.Line{X1: g, Y1: y - 2, X2: g, Y2: y + barH + 2, Stroke: "#000000", Dash: "2,2"})
		}
		labels.Texts = append(labels.Texts,
			svgdoc.Text{X: left - 8, Y: y + barH - 3, Anchor: "end", Text: fmt.Sprintf("%s (%s) vs %s", r.path, shortInput(r.input), r.against.name)},
			svgdoc.Text{X: x(r.ratio) + 4, Y: y + barH - 3, Fill: "#333333", Text: ratio(r.ratio) + "×"})
	}
	root.Groups = []svgdoc.Group{axis, bars, labels}
	return svgdoc.Marshal(root)
}

// shortInput is an input's name without its size.
func shortInput(input string) string {
	name, _, _ := strings.Cut(input, ",")
	return name
}

// replaceTable writes table between the floors markers of the file.
func replaceTable(path, table string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin := bytes.Index(doc, []byte(beginMarker))
	end := bytes.Index(doc, []byte(endMarker))
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: no %q ... %q", path, beginMarker, endMarker)
	}
	var out bytes.Buffer
	out.Write(doc[:begin+len(beginMarker)])
	out.WriteString("\n")
	out.WriteString(table)
	out.Write(doc[end:])
	return os.WriteFile(path, out.Bytes(), 0o644)
}
