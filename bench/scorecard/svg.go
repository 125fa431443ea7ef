package scorecard

import (
	"encoding/xml"
	"fmt"
	"math"
)

// The chart is plain SVG 1.1 built with encoding/xml, so it is well-formed
// by construction and renders in any browser without scripts or fonts.

type svgRoot struct {
	XMLName    xml.Name `xml:"svg"`
	Xmlns      string   `xml:"xmlns,attr"`
	Width      int      `xml:"width,attr"`
	Height     int      `xml:"height,attr"`
	ViewBox    string   `xml:"viewBox,attr"`
	FontFamily string   `xml:"font-family,attr"`
	FontSize   int      `xml:"font-size,attr"`
	Title      string   `xml:"title"`
	Groups     []svgGroup
}

type svgGroup struct {
	XMLName xml.Name  `xml:"g"`
	ID      string    `xml:"id,attr"`
	Rects   []svgRect `xml:"rect"`
	Lines   []svgLine `xml:"line"`
	Texts   []svgText `xml:"text"`
}

type svgRect struct {
	X       float64 `xml:"x,attr"`
	Y       float64 `xml:"y,attr"`
	Width   float64 `xml:"width,attr"`
	Height  float64 `xml:"height,attr"`
	Fill    string  `xml:"fill,attr"`
	Opacity string  `xml:"fill-opacity,attr,omitempty"`
	Title   string  `xml:"title,omitempty"`
}

type svgLine struct {
	X1     float64 `xml:"x1,attr"`
	Y1     float64 `xml:"y1,attr"`
	X2     float64 `xml:"x2,attr"`
	Y2     float64 `xml:"y2,attr"`
	Stroke string  `xml:"stroke,attr"`
	Dash   string  `xml:"stroke-dasharray,attr,omitempty"`
}

type svgText struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Anchor string  `xml:"text-anchor,attr,omitempty"`
	Fill   string  `xml:"fill,attr,omitempty"`
	Weight string  `xml:"font-weight,attr,omitempty"`
	Style  string  `xml:"font-style,attr,omitempty"`
	Text   string  `xml:",chardata"`
}

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
		return round2(chartLeft + (v-lo)/(hi-lo)*chartPlot)
	}

	width := chartLeft + chartPlot + chartRight
	height := chartTop + chartRowH*float64(len(sc.Cases)) + chartBottom
	root := svgRoot{
		Xmlns: "http://www.w3.org/2000/svg", Width: int(width), Height: int(height),
		ViewBox:    fmt.Sprintf("0 0 %d %d", int(width), int(height)),
		FontFamily: "Helvetica, Arial, sans-serif", FontSize: 12,
		Title: sc.Name() + " cl100k_base token savings per case",
	}
	bg := svgGroup{ID: "background", Rects: []svgRect{{X: 0, Y: 0, Width: width, Height: height, Fill: "#ffffff"}}}
	head := svgGroup{ID: "legend", Texts: []svgText{{
		X: 12, Y: 22, Weight: "bold",
		Text: sc.Name() + " token savings per case (cl100k_base; positive = " + sc.Name() + " smaller)",
	}}}
	lx := 12.0
	for _, s := range all {
		head.Rects = append(head.Rects, svgRect{X: lx, Y: 34, Width: 12, Height: 12, Fill: s.color})
		head.Texts = append(head.Texts, svgText{X: lx + 18, Y: 44, Text: sc.Name() + " vs " + map[string]string{
			"JSON": "compact JSON", "TOON tab": "TOON, tab delimiter"}[s.label]})
		lx += 190
	}
	if sc.TOONVersion == "" {
		head.Texts = append(head.Texts, svgText{X: lx, Y: 44, Fill: "#666666", Text: "TOON: not measured"})
	}
	head.Texts = append(head.Texts, svgText{X: width - 12, Y: 44, Anchor: "end", Fill: "#666666", Style: "italic",
		Text: "grey names: not tabular; pale bars: off the scale"})

	grid := svgGroup{ID: "grid"}
	plotBottom := chartTop + chartRowH*float64(len(sc.Cases))
	for v := lo; v <= hi; v += 20 {
		line := svgLine{X1: x(v), Y1: chartTop - 6, X2: x(v), Y2: plotBottom, Stroke: "#dddddd"}
		if v == 0 {
			line.Stroke = "#333333"
		} else {
			line.Dash = "3,3"
		}
		grid.Lines = append(grid.Lines, line)
		grid.Texts = append(grid.Texts, svgText{X: x(v), Y: plotBottom + 16, Anchor: "middle", Fill: "#444444", Text: pct(v)})
	}
	grid.Texts = append(grid.Texts, svgText{X: chartLeft + chartPlot/2, Y: plotBottom + 32, Anchor: "middle", Fill: "#444444",
		Text: "token saving: (baseline − " + sc.Name() + ") / baseline"})

	bars := svgGroup{ID: "bars"}
	labels := svgGroup{ID: "labels"}
	for i, r := range sc.Cases {
		top := chartTop + chartRowH*float64(i)
		name := svgText{X: chartLeft - 8, Y: top + chartRowH/2 + 4, Anchor: "end", Text: r.Name}
		if !r.Shape.Tabular() {
			name.Fill, name.Style = "#888888", "italic"
		}
		labels.Texts = append(labels.Texts, name)
		for j, s := range all {
			y := top + 3 + float64(j)*(chartBarH+2)
			fy := y + chartBarH - 2
			v, ok := GCXSavings(r, s.base, CL100K)
			if !ok {
				labels.Texts = append(labels.Texts, svgText{X: chartLeft + chartPlot + 10, Y: fy, Fill: s.color, Text: "not measured"})
				continue
			}
			x0, x1 := x(0), x(v)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			bar := svgRect{
				X: x0, Y: y, Width: round2(math.Max(x1-x0, 1)), Height: chartBarH, Fill: s.color,
				Title: fmt.Sprintf("%s: %s vs %s %s", r.Name, sc.Name(), s.label, pct(v)),
			}
			if v < lo || v > hi {
				bar.Opacity = "0.4"
			}
			bars.Rects = append(bars.Rects, bar)
			labels.Texts = append(labels.Texts, svgText{X: chartLeft + chartPlot + 10, Y: fy, Fill: s.color,
				Text: fmt.Sprintf("%s %s", pct(v), s.label)})
		}
	}
	root.Groups = []svgGroup{bg, head, grid, bars, labels}
	out, err := xml.MarshalIndent(root, "", " ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
