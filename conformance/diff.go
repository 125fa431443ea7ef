package conformance

import (
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/spec"
)

// diffPayloads compares two decoded payloads as wire views compare: an
// absent meta, rows or comments list equals an empty one [WIRE-2]. It
// returns "" when they are equal.
func diffPayloads(want, got *spec.Payload) string {
	if equalPayloads(want, got) {
		return "" // cmp takes seconds on the million-row vector; this takes milliseconds
	}
	return cmp.Diff(want, got, cmpopts.EquateEmpty())
}

// equalPayloads is diffPayloads without the diff.
func equalPayloads(a, b *spec.Payload) bool {
	if len(a.Sections) != len(b.Sections) {
		return false
	}
	for i := range a.Sections {
		s, t := &a.Sections[i], &b.Sections[i]
		if s.Tool != t.Tool || !slices.Equal(s.Fields, t.Fields) || !slices.Equal(s.Meta, t.Meta) ||
			!slices.Equal(s.Comments, t.Comments) || len(s.Rows) != len(t.Rows) {
			return false
		}
		for r := range s.Rows {
			if !slices.Equal(s.Rows[r], t.Rows[r]) {
				return false
			}
		}
	}
	return true
}

// diffBytes shows two byte strings line by line, each line quoted so TAB,
// CR, NUL and invalid UTF-8 are visible. It is used only when they differ.
func diffBytes(want, got []byte) string {
	return cmp.Diff(quotedLines(want), quotedLines(got))
}

// quotedLines splits b after each LF and quotes every piece.
func quotedLines(b []byte) []string {
	var lines []string
	s := string(b)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s) - 1
		}
		lines = append(lines, strconv.Quote(s[:i+1]))
		s = s[i+1:]
	}
	return lines
}
