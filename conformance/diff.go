package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// diffPayloads compares two decoded payloads as wire views compare: an
// absent meta, rows or comments list equals an empty one [WIRE-2]. It
// returns "" when they are equal, and otherwise the parts that differ, one
// line per part (a section's tool, fields, meta, each row, each comment),
// "-" for the expected payload and "+" for the one received, around the
// first and last part that differ. It takes time linear in the payloads,
// so the million-row vector costs no more than reading it.
func diffPayloads(want, got *spec.Payload) string {
	if equalPayloads(want, got) {
		return ""
	}
	return diffLines(payloadLines(want), payloadLines(got))
}

// equalPayloads reports whether two payloads are equal as wire views.
func equalPayloads(a, b *spec.Payload) bool {
	if len(a.Sections) != len(b.Sections) {
		return false
	}
	for i := range a.Sections {
		x, y := &a.Sections[i], &b.Sections[i]
		if x.Tool != y.Tool || !slices.Equal(x.Fields, y.Fields) || !slices.Equal(x.Meta, y.Meta) ||
			!slices.Equal(x.Comments, y.Comments) || len(x.Rows) != len(y.Rows) {
			return false
		}
		for r := range x.Rows {
			if !slices.Equal(x.Rows[r], y.Rows[r]) {
				return false
			}
		}
	}
	return true
}

// payloadLines lists the parts of p, one line each, in wire order.
func payloadLines(p *spec.Payload) []string {
	var lines []string
	add := func(section int, what string, v any) {
		if list, ok := v.([]string); ok && list == nil {
			v = []string{} // an absent list is an empty one [WIRE-2]
		}
		b, _ := json.Marshal(v)
		lines = append(lines, fmt.Sprintf("section %d %s %s", section+1, what, b))
	}
	for i := range p.Sections {
		s := &p.Sections[i]
		add(i, "tool", s.Tool)
		add(i, "fields", s.Fields)
		for _, m := range s.Meta {
			add(i, "meta", []string{m.Key, m.Value})
		}
		c := 0
		for r := 0; r <= len(s.Rows); r++ {
			for ; c < len(s.Comments) && s.Comments[c].Row <= r; c++ {
				add(i, "comment", []any{s.Comments[c].Row, s.Comments[c].Text})
			}
			if r < len(s.Rows) {
				add(i, fmt.Sprintf("row %d", r+1), s.Rows[r])
			}
		}
		for ; c < len(s.Comments); c++ {
			add(i, "comment", []any{s.Comments[c].Row, s.Comments[c].Text})
		}
	}
	return lines
}

// diffLines returns "" if want and got are equal, and otherwise the lines
// between their common beginning and their common end, each side cut after
// a few lines, with a line of context before them.
func diffLines(want, got []string) string {
	first := 0
	for first < len(want) && first < len(got) && want[first] == got[first] {
		first++
	}
	if first == len(want) && first == len(got) {
		return ""
	}
	w, g := len(want), len(got)
	for w > first && g > first && want[w-1] == got[g-1] {
		w--
		g--
	}
	var b strings.Builder
	if first > 0 {
		fmt.Fprintf(&b, " \t%s\n", want[first-1])
	}
	side := func(mark string, lines []string) {
		for i, line := range lines {
			if i == diffContext {
				fmt.Fprintf(&b, "%s\t... %d more lines\n", mark, len(lines)-i)
				break
			}
			fmt.Fprintf(&b, "%s\t%s\n", mark, line)
		}
	}
	side("-", want[first:w])
	side("+", got[first:g])
	return b.String()
}

// diffContext is how many equal lines diffBytes shows around the first
// difference.
const diffContext = 3

// diffBytes shows where two byte strings part, line by line, each line
// quoted so TAB, CR, NUL and invalid UTF-8 are visible: the lines before
// the first difference as context, then up to a few lines of each side.
// It is used only when they differ.
func diffBytes(want, got []byte) string {
	w, g := quotedLines(want), quotedLines(got)
	first := 0
	for first < len(w) && first < len(g) && w[first] == g[first] {
		first++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n", first+1)
	for i := max(0, first-diffContext); i < first; i++ {
		fmt.Fprintf(&b, " \t%s\n", w[i])
	}
	for i := first; i < len(w) && i < first+diffContext; i++ {
		fmt.Fprintf(&b, "-\t%s\n", w[i])
	}
	if len(w)-first > diffContext {
		fmt.Fprintf(&b, "-\t... %d more lines\n", len(w)-first-diffContext)
	}
	for i := first; i < len(g) && i < first+diffContext; i++ {
		fmt.Fprintf(&b, "+\t%s\n", g[i])
	}
	if len(g)-first > diffContext {
		fmt.Fprintf(&b, "+\t... %d more lines\n", len(g)-first-diffContext)
	}
	return b.String()
}

// quotedLines splits b after each LF and quotes every piece; a line longer
// than a screen is cut, with its length.
func quotedLines(b []byte) []string {
	const maxLine = 200
	var lines []string
	s := string(b)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s) - 1
		}
		line := s[:i+1]
		if len(line) > maxLine {
			lines = append(lines, strconv.Quote(line[:maxLine])+fmt.Sprintf("... (%d bytes)", len(line)))
		} else {
			lines = append(lines, strconv.Quote(line))
		}
		s = s[i+1:]
	}
	return lines
}

// quoteShort quotes b for a one-line message, cut after a screenful.
func quoteShort(b []byte) string {
	const maxShort = 120
	if len(b) > maxShort {
		return strconv.Quote(string(b[:maxShort])) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return strconv.Quote(string(b))
}
