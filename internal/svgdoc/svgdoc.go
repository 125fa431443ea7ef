// Package svgdoc writes the charts gcx draws — the scorecard of
// bench/scorecard and the savings of gcx stats — as plain SVG 1.1 built
// with encoding/xml, so that they are well-formed by construction and
// render in any browser without scripts or fonts.
package svgdoc

import (
	"encoding/xml"
	"math"
)

// Root is an svg element: a drawing of Width by Height, in groups.
type Root struct {
	XMLName    xml.Name `xml:"svg"`
	Xmlns      string   `xml:"xmlns,attr"`
	Width      int      `xml:"width,attr"`
	Height     int      `xml:"height,attr"`
	ViewBox    string   `xml:"viewBox,attr"`
	FontFamily string   `xml:"font-family,attr"`
	FontSize   int      `xml:"font-size,attr"`
	Title      string   `xml:"title"`
	Groups     []Group
}

// Namespace is the SVG namespace, Root.Xmlns.
const Namespace = "http://www.w3.org/2000/svg"

// Group is a g element.
type Group struct {
	XMLName xml.Name `xml:"g"`
	ID      string   `xml:"id,attr"`
	Rects   []Rect   `xml:"rect"`
	Lines   []Line   `xml:"line"`
	Texts   []Text   `xml:"text"`
}

// Rect is a rect element; Title is its tooltip.
type Rect struct {
	X       float64 `xml:"x,attr"`
	Y       float64 `xml:"y,attr"`
	Width   float64 `xml:"width,attr"`
	Height  float64 `xml:"height,attr"`
	Fill    string  `xml:"fill,attr"`
	Opacity string  `xml:"fill-opacity,attr,omitempty"`
	Title   string  `xml:"title,omitempty"`
}

// Line is a line element.
type Line struct {
	X1     float64 `xml:"x1,attr"`
	Y1     float64 `xml:"y1,attr"`
	X2     float64 `xml:"x2,attr"`
	Y2     float64 `xml:"y2,attr"`
	Stroke string  `xml:"stroke,attr"`
	Dash   string  `xml:"stroke-dasharray,attr,omitempty"`
}

// Text is a text element.
type Text struct {
	X      float64 `xml:"x,attr"`
	Y      float64 `xml:"y,attr"`
	Anchor string  `xml:"text-anchor,attr,omitempty"`
	Fill   string  `xml:"fill,attr,omitempty"`
	Weight string  `xml:"font-weight,attr,omitempty"`
	Style  string  `xml:"font-style,attr,omitempty"`
	Text   string  `xml:",chardata"`
}

// Marshal returns the document: the XML declaration, root indented, and a
// final newline.
func Marshal(root Root) ([]byte, error) {
	out, err := xml.MarshalIndent(root, "", " ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

// Round2 rounds a coordinate to hundredths, which keeps the text short.
func Round2(v float64) float64 { return math.Round(v*100) / 100 }
