package scorecard

import (
	"fmt"
	"math"

	"github.com/gcxwire/gcx/internal/svgdoc"
)

// The chart is drawn with package svgdoc, which gcx stats shares.

const (
	chartLeft   = 180.0 // case names
	chartPlot   = 560.0 // the bars
	chartRight  = 130.0 // the figures
	chartFloor  = -40.0 // the axis never reaches further left
	chartTop    = 64.0
	chartRowH   = 30.0
	chartBarH   = 11.0
	chartBottom = 40.0
	colorJSON   = "#2b6cb0"
	colorTOON   = "#d9730d"
)

// SVG renders a bar chart of the per-case cl100k_base savings of the codec
// the main tables report (GCX1 by default)
// against compact JSON and, where measured, TOON-tab.
func (sc *Scorecard) SVG() ([]byte, error) {
	type series struct {
		label, color string
		base         Baseline
	}
	all := []series{{"JSON", colorJSON, VsCompact}}
	if sc.TOONVersion != "" {
		all = append(all, series{"TOON tab", colorTOON, VsTOONTab})
	}

	// The axis spans every value, in steps of 20%, but no further left than
	// chartFloor so that one tiny case (an empty result costs JSON one
	// token) cannot squash the rest; a bar beyond it is drawn pale up to the
	// edge, and its figure says how far it goes.
	lo, hi := 0.0, 20.0
	for _, r := range sc.Cases {
		for _, s := range all {
			if v, ok := GCXSavings(r, s.base, CL100K); ok {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	lo = math.Max(chartFloor, math.Floor(lo/20)*20)
	hi = math.Min(100, math.Ceil(hi/20)*20)
	x := func(v float64) float64 {
		v = math.Max(lo, math.Min(hi, v))
		return svgdoc.Round2(chartLeft + (v-lo)/(hi-lo)*chartPlot)
	}

	width := chartLeft + chartPlot + chartRight
	height := chartTop + chartRowH*float64(len(sc.Cases)) + chartBottom
	root := svgdoc.Root{
		Xmlns: svgdoc.Namespace, Width: int(width), Height: int(height),
		ViewBox:    fmt.Sprintf("0 0 %d %d", int(width), int(height)),
		FontFamily: "Helvetica, Arial, sans-serif", FontSize: 12,
		Title: sc.Name() + " cl100k_base token savings per case",
	}
	bg := svgdoc.Group{ID: "background", Rects: []svgdoc.Rect{{X: 0, Y: 0, Width: width, Height: height, Fill: "#ffffff"}}}
	head := svgdoc.Group{ID: "legend", Texts: []svgdoc.Text{{
		X: 12, Y: 22, Weight: "bold",
		Text: sc.Name() + " token savings per case (cl100k_base; positive = " + sc.Name() + " smaller)",
	}}}
	lx := 12.0
	for _, s := range all {
		head.Rects = append(head.Rects, svgdoc.Rect{X: lx, Y: 34, Width: 12, Height: 12, Fill: s.color})
		head.Texts = append(head.Texts, svgdoc.Text{X: lx + 18, Y: 44, Text: sc.Name() + " vs " + map[string]string{
			"JSON": "compact JSON", "TOON tab": "TOON, tab delimiter"}[s.label]})
		lx += 190
	}
	if sc.TOONVersion == "" {
		head.Texts = append(head.Texts, svgdoc.Text{X: lx, Y: 44, Fill: "#666666", Text: "TOON: not measured"})
	}
	head.Texts = append(head.Texts, svgdoc.Text{X: width - 12, Y: 44, Anchor: "end", Fill: "#666666", Style: "italic",
		Text: "grey names: not tabular; pale bars: off the scale"})

	grid := svgdoc.Group{ID: "grid"}
	plotBottom := chartTop + chartRowH*float64(len(sc.Cases))
	for v := lo; v <= hi; v += 20 {
		line := svgdoc.Line{X1: x(v), Y1: chartTop - 6, X2: x(v), Y2: plotBottom, Stroke: "#dddddd"}
		if v == 0 {
			line.Stroke = "#333333"
		} else {
			line.Dash = "3,3"
		}
		grid.Lines = append(grid.Lines, line)
		grid.Texts = append(grid.Texts, svgdoc.Text{X: x(v), Y: plotBottom + 16, Anchor: "middle", Fill: "#444444", Text: pct(v)})
	}
	grid.Texts = append(grid.Texts, svgdoc.Text{X: chartLeft + chartPlot/2, Y: plotBottom + 32, Anchor: "middle", Fill: "#444444",
		Text: "token saving: (baseline − " + sc.Name() + ") / baseline"})

	bars := svgdoc.Group{ID: "bars"}
	labels := svgdoc.Group{ID: "labels"}
	for i, r := range sc.Cases {
		top := chartTop + chartRowH*float64(i)
		name := svgdoc.Text{X: chartLeft - 8, Y: top + chartRowH/2 + 4, Anchor: "end", Text: r.Name}
		if !r.Shape.Tabular() {
			name.Fill, name.Style = "#888888", "italic"
		}
		labels.Texts = append(labels.Texts, name)
		for j, s := range all {
			y := top + 3 + float64(j)*(chartBarH+2)
			fy := y + chartBarH - 2
			v, ok := GCXSavings(r, s.base, CL100K)
			if !ok {
				labels.Texts = append(labels.Texts, svgdoc.Text{X: chartLeft + chartPlot + 10, Y: fy, Fill: s.color, Text: "not measured"})
				continue
			}
			x0, x1 := x(0), x(v)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			bar := svgdoc.Rect{
				X: x0, Y: y, Width: svgdoc.Round2(math.Max(x1-x0, 1)), Height: chartBarH, Fill: s.color,
				Title: fmt.Sprintf("%s: %s vs %s %s", r.Name, sc.Name(), s.label, pct(v)),
			}
			if v < lo || v > hi {
				bar.Opacity = "0.4"
			}
			bars.Rects = append(bars.Rects, bar)
			labels.Texts = append(labels.Texts, svgdoc.Text{X: chartLeft + chartPlot + 10, Y: fy, Fill: s.color,
				Text: fmt.Sprintf("%s %s", pct(v), s.label)})
		}
	}
	root.Groups = []svgdoc.Group{bg, head, grid, bars, labels}
	return svgdoc.Marshal(root)
}
