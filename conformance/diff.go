package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/spec"
)

// maxDiffRows bounds the payloads diffPayloads hands to cmp, which is slow
// on the million-row vector; larger ones get their first difference only.
const maxDiffRows = 1000

// diffPayloads compares two decoded payloads as wire views compare: an
// absent meta, rows or comments list equals an empty one [WIRE-2]. It
// returns "" when they are equal.
func diffPayloads(want, got *spec.Payload) string {
	if equalPayloads(want, got) {
		return ""
	}
	if countRows(want) <= maxDiffRows && countRows(got) <= maxDiffRows {
		return cmp.Diff(want, got, cmpopts.EquateEmpty())
	}
	return firstDifference(want, got)
}

func countRows(p *spec.Payload) int {
	n := 0
	for _, s := range p.Sections {
		n += len(s.Rows)
	}
	return n
}

// equalPayloads is diffPayloads without the diff.
func equalPayloads(a, b *spec.Payload) bool {
	return firstDifference(a, b) == ""
}

// firstDifference names the first part of two payloads that differs, with
// both versions, or returns "" if they are equal.
func firstDifference(want, got *spec.Payload) string {
	show := func(what string, w, g any) string {
		return fmt.Sprintf("%s:\n-\t%#v\n+\t%#v", what, w, g)
	}
	if len(want.Sections) != len(got.Sections) {
		return show("number of sections", len(want.Sections), len(got.Sections))
	}
	for i := range want.Sections {
		w, g := &want.Sections[i], &got.Sections[i]
		where := fmt.Sprintf("section %d", i+1)
		switch {
		case w.Tool != g.Tool:
			return show(where+" tool", w.Tool, g.Tool)
		case !slices.Equal(w.Fields, g.Fields):
			return show(where+" fields", w.Fields, g.Fields)
		case !slices.Equal(w.Meta, g.Meta):
			return show(where+" meta", w.Meta, g.Meta)
		case !slices.Equal(w.Comments, g.Comments):
			return show(where+" comments", w.Comments, g.Comments)
		}
		for r := 0; r < len(w.Rows) && r < len(g.Rows); r++ {
			if !slices.Equal(w.Rows[r], g.Rows[r]) {
				return show(fmt.Sprintf("%s row %d", where, r+1), w.Rows[r], g.Rows[r])
			}
		}
		if len(w.Rows) != len(g.Rows) {
			return show(where+" number of rows", len(w.Rows), len(g.Rows))
		}
	}
	return ""
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
