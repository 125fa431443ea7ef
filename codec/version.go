package codec

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// The order of versions. A tag of the form GCX<major> is a release and
// GCX<major>-draft.<n> a draft of that release, major and n being decimal
// numbers from 1 without leading zeros. Releases are ordered by major; the
// drafts of a major come after the release before it and before their own
// release, in the order of n:
//
//	GCX1 < GCX2-draft.1 < GCX2-draft.2 < GCX2 < GCX3-draft.1 < ...
//
// Every other well-formed tag (GCX1-stream, GCX1.1, GCXa) is unranked:
// older than every ranked tag, and ordered among the unranked by its bytes
// only so that the order is total. A registered codec's tag is always
// ranked (the registry's test checks it), so "the newest" of a set of
// registered tags is a version, never an accident of spelling.

// rank is the place of a tag in the order: major, then stage (0 for a
// draft, 1 for the release), then the draft's number.
type rank struct {
	ranked             bool
	major, stage, step int
}

const draftMark = "-draft."

func rankOf(tag string) rank {
	rest, ok := strings.CutPrefix(tag, "GCX")
	if !ok {
		return rank{}
	}
	major, draft, isDraft := strings.Cut(rest, draftMark)
	m, ok := number(major)
	if !ok {
		return rank{}
	}
	if !isDraft {
		return rank{ranked: true, major: m, stage: 1}
	}
	n, ok := number(draft)
	if !ok {
		return rank{}
	}
	return rank{ranked: true, major: m, step: n}
}

// number reads a decimal number from 1 written without leading zeros.
func number(s string) (int, bool) {
	if s == "" || s[0] == '0' || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Ranked reports whether tag has a place in the order of versions: a
// release GCX<major> or a draft GCX<major>-draft.<n>.
func Ranked(tag string) bool { return rankOf(tag).ranked }

// Compare returns -1 when tag a is older than b, +1 when it is newer, and 0
// when they are the same tag.
func Compare(a, b string) int {
	ra, rb := rankOf(a), rankOf(b)
	switch {
	case ra.ranked != rb.ranked:
		if ra.ranked {
			return 1
		}
		return -1
	case !ra.ranked:
		return strings.Compare(a, b)
	}
	return cmp.Or(cmp.Compare(ra.major, rb.major), cmp.Compare(ra.stage, rb.stage), cmp.Compare(ra.step, rb.step))
}

// NewestFirst returns the tags sorted newest first, without repeats: the
// order of preference of a server that prefers the newest version it
// shares with a client.
func NewestFirst(tags []string) []string {
	out := slices.Clone(tags)
	slices.SortFunc(out, func(a, b string) int { return Compare(b, a) })
	return slices.Compact(out)
}

// Negotiate returns the tag a server that offers the tags of offer, most
// preferred first, writes for a client that reads the tags of accept: the
// first tag of offer that accept lists, or "" — JSON — when they share
// none [MCP-4]. The client's order does not matter, and a server never
// writes a tag the client did not list. A server whose offer is
// NewestFirst(S) therefore agrees with every client on the newest tag the
// two share.
func Negotiate(accept, offer []string) string {
	for _, tag := range offer {
		if slices.Contains(accept, tag) {
			return tag
		}
	}
	return ""
}
