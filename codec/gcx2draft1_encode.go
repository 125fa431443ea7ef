package codec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// Draft1Idea is a set of the ideas of GCX2-draft.1. The decoder reads
// every one of them whatever the set; the set says only which ones an
// encoder uses, which is how the draft's ablation table is measured.
type Draft1Idea uint

// The ideas, in the order of docs/drafts/GCX2-draft.1.md.
const (
	// Draft1Default: a column's most common text, held by at least half
	// of the rows, is declared once, coupon=null, and left out of those
	// rows; the others carry their own [D1-COL-1] [D1-COL-2]. A column
	// that holds one text in every row, kind=call, is the case without
	// exceptions.
	Draft1Default Draft1Idea = 1 << iota
	// Draft1Derive: a column made of other columns is declared as a
	// template, id={path}::{name}, with a hole for what differs from row
	// to row, caller={path}::* [D1-COL-2] [D1-COL-3].
	Draft1Derive
	// Draft1Affix: a prefix and a suffix every cell of a column shares
	// are declared once around a hole, created_at=2026-10-*.000Z
	// [D1-COL-2].
	Draft1Affix
	// Draft1Key: a column that is a function of another is declared
	// keyed by it, email=^{author}, and left empty where it repeats
	// [D1-KEY-1].
	Draft1Key
	// Draft1Ditto: a cell equal to the one above is written ^ [D1-DIT-1].
	Draft1Ditto
	// Draft1Abbrev: a text seen before in the column is written … and a
	// tail only that text ends with, …/store.go [D1-ABB-1].
	Draft1Abbrev

	// Draft1AllIdeas is GCX2-draft.1 as registered.
	Draft1AllIdeas = Draft1Default | Draft1Derive | Draft1Affix | Draft1Key | Draft1Ditto | Draft1Abbrev
)

// draft1Ideas describes each idea for the ablation table.
var draft1Ideas = []draft1IdeaInfo{
	{Idea{Name: "default", Rules: []string{"D1-COL-1", "D1-COL-2"}, Summary: "a column's most common text is declared once and left out of its rows: kind=call, coupon=null"}, Draft1Default},
	{Idea{Name: "derive", Rules: []string{"D1-COL-2", "D1-COL-3"}, Summary: "a column made of other columns is declared as a template: id={path}::{name}"}, Draft1Derive},
	{Idea{Name: "affix", Rules: []string{"D1-COL-2"}, Summary: "a prefix and suffix every cell of a column shares are declared once: node=ip-10-0-*.eu-west-1.compute.internal"}, Draft1Affix},
	{Idea{Name: "key", Rules: []string{"D1-KEY-1"}, Summary: "a column that is a function of another is left empty where it repeats: email=^{author}"}, Draft1Key},
	{Idea{Name: "ditto", Rules: []string{"D1-DIT-1", "D1-DIT-2"}, Summary: "a cell equal to the one above is written ^"}, Draft1Ditto},
	{Idea{Name: "abbrev", Rules: []string{"D1-ABB-1", "D1-DIT-2"}, Summary: "a text seen before in the column is written … and a tail only it ends with: …/store.go"}, Draft1Abbrev},
}

type draft1IdeaInfo struct {
	Idea
	bit Draft1Idea
}

// ParseDraft1Ideas returns the set of the named ideas.
func ParseDraft1Ideas(names ...string) (Draft1Idea, error) {
	var set Draft1Idea
	for _, n := range names {
		i := slices.IndexFunc(draft1Ideas, func(d draft1IdeaInfo) bool { return d.Name == n })
		if i < 0 {
			return 0, fmt.Errorf("%s has no idea %q", Draft1Tag, n)
		}
		set |= draft1Ideas[i].bit
	}
	return set, nil
}

// String lists the ideas of the set, joined by "+", or "none".
func (s Draft1Idea) String() string {
	var out []string
	for _, d := range draft1Ideas {
		if s&d.bit != 0 {
			out = append(out, d.Name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "+")
}

// The encoder's thresholds. They are choices of this encoder, not rules
// of the draft: a decoder reads any declaration and any mark.
const (
	minDittoText   = 3  // a shorter text is written again rather than as ^
	minAbbrevDrop  = 12 // an abbreviation leaves out at least this many bytes
	minAbbrevTail  = 5  // and keeps at least this many, separator included
	maxAbbrevShown = 256
)

// policy is what an encoder does: the ideas it uses, and whether it
// abbreviates indented and multi-line texts too.
type policy struct {
	ideas          Draft1Idea
	abbreviateCode bool
}

// compressTable rewrites the cells of one table section of a GCX1 model
// into GCX2-draft.1 cells and declarations. The section's rows hold GCX1
// cell texts; what it leaves decodes back to exactly them.
func compressTable(s *spec.Section, pol policy) {
	ideas := pol.ideas
	rows := s.Rows
	if len(rows) == 0 {
		return
	}
	width := len(s.Fields)
	taken := map[string]bool{}
	for _, m := range s.Meta {
		taken[m.Key] = true
	}
	texts := make([][]string, width)
	for c := range width {
		texts[c] = make([]string, len(rows))
		for i, r := range rows {
			texts[c][i] = r[c]
		}
	}
	canDeclare := func(c int) bool { return declarable(s.Fields[c]) && !taken[s.Fields[c]] }
	referable := make([]bool, width)
	for c, f := range s.Fields {
		referable[c] = spec.IsName(f)
	}
	canRefer := func(c int) bool { return referable[c] }

	// Every column gets the declaration that saves the most bytes. One
	// that refers to other columns may refer only to columns whose own
	// declaration refers to none [D1-COL-3], so those are placed first,
	// best first, each only where it beats the column's plain choice.
	plain := make([]*decl, width)
	var deps []*decl
	var keys []int
	if ideas&Draft1Key != 0 {
		keys = keyCandidates(texts, canRefer)
	}
	refs := newRefIndex(rows[0], canRefer)
	for c := range width {
		if !canDeclare(c) {
			continue
		}
		plain[c] = inferLiteral(texts[c], c, s.Fields, ideas)
		if ideas&Draft1Derive != 0 {
			if d := inferDerived(rows, s.Fields, c, refs); d != nil {
				deps = append(deps, d)
			}
		}
		if ideas&Draft1Key != 0 {
			for _, k := range keys {
				if k != c {
					if d := inferKeyed(texts[c], texts[k], c, k, s.Fields); d != nil {
						deps = append(deps, d)
					}
				}
			}
		}
	}
	slices.SortStableFunc(deps, func(a, b *decl) int { return cmp.Compare(b.gain, a.gain) })
	decls := make([]*decl, width)
	referred := make([]bool, width)
	for _, d := range deps {
		c := d.col
		if decls[c] != nil || referred[c] || plain[c] != nil && plain[c].gain >= d.gain {
			continue
		}
		if slices.ContainsFunc(d.refs(), func(r int) bool { return decls[r] != nil }) {
			continue
		}
		decls[c] = d
		for _, r := range d.refs() {
			referred[r] = true
		}
	}
	for c := range width {
		if decls[c] == nil {
			decls[c] = plain[c]
		}
	}

	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	for c, d := range decls {
		if d != nil {
			d.write(rows, out)
			s.Meta = append(s.Meta, spec.Meta{Key: s.Fields[c], Value: d.spell(s.Fields)})
		}
	}
	for c := range width {
		writeMarks(out, c, pol)
	}
	s.Rows = out
}

// writeMarks writes column c's dittos and abbreviations, and stuffs the
// texts that would read as marks [D1-DIT-1] [D1-DIT-2] [D1-ABB-1].
func writeMarks(out [][]string, c int, pol policy) {
	ideas := pol.ideas
	seen := newTails()
	prev := ""
	for i := range out {
		text := out[i][c]
		switch {
		case ideas&Draft1Ditto != 0 && i > 0 && text == prev && len(text) >= minDittoText:
			out[i][c] = dittoMark
		case stuffed(text):
			out[i][c] = dittoMark + text
		case ideas&Draft1Abbrev != 0 && seen.seen[text]:
			if a, ok := abbreviate(seen, text, pol.abbreviateCode); ok {
				out[i][c] = a
			}
		}
		seen.add(text)
		prev = text
	}
}

// abbreviate returns the shortest abbreviation of an earlier text that
// names it alone, leaves out at least minAbbrevDrop bytes and keeps a
// tail of at least minAbbrevTail. It leaves alone JSON texts and texts
// that hold TAB, LF or CR (indented code, several lines), where a tail
// would say little to a reader.
func abbreviate(seen *tails, text string, code bool) (string, bool) {
	if len(text) > maxAbbrevShown || isJSONText(text) || !code && strings.ContainsAny(text, "\t\n\r") {
		return "", false
	}
	for p := len(text) - 1; p >= minAbbrevDrop && len(text)-p <= maxAbbrevTail; p-- {
		if !isSeparator(text[p]) || len(text)-p < minAbbrevTail {
			continue
		}
		if owner, ok := seen.lookup(text[p:]); ok && owner == text {
			return abbrevMark + text[p:], true
		}
	}
	return "", false
}

// write sets the cells of the declared column in out from the GCX1 texts
// of rows.
func (d *decl) write(rows, out [][]string) {
	c := d.col
	if d.isKey() {
		last := map[string]string{}
		for i, r := range rows {
			k := r[d.key]
			if prev, ok := last[k]; ok && prev == r[c] {
				out[i][c] = ""
			}
			last[k] = r[c]
		}
		return
	}
	hole := d.hasHole()
	for i, r := range rows {
		before, after := d.ends(r)
		switch {
		case hole:
			out[i][c] = r[c][len(before) : len(r[c])-len(after)]
		case r[c] == before:
			out[i][c] = ""
		}
	}
}

// weigh sets the bytes a template saves on a column of texts, its own
// length in the header taken off, and returns it, or nil when it saves
// nothing. rows are the rows the texts stand in, for the template's
// references; a template without references reads none. A template
// without a hole must give every empty text exactly, since an empty cell
// stands for the template.
func (d *decl) weigh(rows [][]string, texts []string, fields []string) *decl {
	gain := 0
	hole := d.hasHole()
	for i, text := range texts {
		var row []string
		if rows != nil {
			row = rows[i]
		}
		before, after := d.ends(row)
		switch {
		case hole:
			if len(text) < len(before)+len(after) || !strings.HasPrefix(text, before) || !strings.HasSuffix(text, after) {
				return nil
			}
			gain += len(before) + len(after)
		case text == before:
			gain += len(text)
		case text == "":
			return nil
		}
	}
	value := d.spell(fields)
	if strings.HasPrefix(value, string(keyMark)) {
		return nil // it would read as a key
	}
	d.gain = gain - (2 + len(fields[d.col]) + spec.MetaEscapes.Len(value))
	if d.gain <= 0 {
		return nil
	}
	return d
}

// maxCandidates bounds the columns the encoder weighs as the references
// or the key of each column, so that its work grows with the cells of a
// table and not with the square of its columns.
const maxCandidates = 16

// maxRefText bounds the first-row text of a column the encoder weighs as
// a reference, so that finding the columns a text begins or ends with
// costs a bounded amount per column.
const maxRefText = 128

// refIndex finds the columns whose first-row text begins or ends a given
// text: the candidates for a derived template's references [D1-COL-2].
type refIndex struct {
	byText  map[string][]int // first-row text -> the columns that hold it, in order
	lengths []int            // the distinct lengths of those texts, ascending
}

func newRefIndex(first []string, canRefer func(int) bool) *refIndex {
	x := &refIndex{byText: map[string][]int{}}
	for c, t := range first {
		if t == "" || len(t) > maxRefText || !canRefer(c) {
			continue
		}
		if len(x.byText[t]) == 0 {
			x.lengths = append(x.lengths, len(t))
		}
		x.byText[t] = append(x.byText[t], c)
	}
	slices.Sort(x.lengths)
	x.lengths = slices.Compact(x.lengths)
	return x
}

// matching calls yield for at most maxCandidates columns whose first-row
// text ends text (suffix) or begins it.
func (x *refIndex) matching(text string, suffix bool, yield func(col int)) {
	n := 0
	for _, l := range x.lengths {
		if l > len(text) {
			return
		}
		piece := text[:l]
		if suffix {
			piece = text[len(text)-l:]
		}
		for _, c := range x.byText[piece] {
			if n++; n > maxCandidates {
				return
			}
			yield(c)
		}
	}
}

// keyCandidates returns the columns worth weighing as keys [D1-KEY-1]: those
// a reference can name whose texts repeat — at least two, at most half as
// many as rows — the finest first, at most maxCandidates of them.
func keyCandidates(texts [][]string, canRefer func(int) bool) []int {
	type cand struct{ col, distinct int }
	var cands []cand
	for k, col := range texts {
		if !canRefer(k) {
			continue
		}
		seen := map[string]bool{}
		for _, t := range col {
			if seen[t] = true; len(seen) > len(col)/2 {
				break
			}
		}
		if n := len(seen); n >= 2 && n <= len(col)/2 {
			cands = append(cands, cand{k, n})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.distinct, a.distinct) })
	out := make([]int, 0, min(len(cands), maxCandidates))
	for _, c := range cands[:min(len(cands), maxCandidates)] {
		out = append(out, c.col)
	}
	return out
}

// inferKeyed weighs declaring column c keyed by column k [D1-KEY-1]. The
// encoder declares a key only where c is a function of k — every two rows
// with the same k text have the same c text — and k has at most half as
// many texts as rows, so that the key says something true and useful to a
// reader; and only where no c text is empty, since an empty cell repeats.
func inferKeyed(c, k []string, col, key int, fields []string) *decl {
	last := map[string]string{}
	gain := 0
	for i := range c {
		if c[i] == "" {
			return nil
		}
		if len(last) > len(c)/2 {
			return nil // a key that seldom repeats says little
		}
		if prev, ok := last[k[i]]; ok {
			if prev != c[i] {
				return nil
			}
			gain += len(c[i])
		}
		last[k[i]] = c[i]
	}
	d := &decl{col: col, key: key}
	d.gain = gain - (2 + len(fields[col]) + len(d.spell(fields)))
	if d.gain <= 0 {
		return nil
	}
	return d
}

// inferDerived weighs a template of column c that refers to other
// columns [D1-COL-2]: a column every text ends with, a column every text
// begins with (what is left), and between them the same literal text in
// every row or a shared prefix and suffix around a hole.
func inferDerived(rows [][]string, fields []string, c int, refs *refIndex) *decl {
	rem := make([]string, len(rows))
	for i, r := range rows {
		if r[c] == "" {
			return nil
		}
		rem[i] = r[c]
	}
	best := func(suffix bool, not int) int {
		bestCol, bestLen := -1, 0
		refs.matching(rem[0], suffix, func(r int) {
			if r == c || r == not {
				return
			}
			total := 0
			for i, row := range rows {
				t := row[r]
				if t == "" || suffix && !strings.HasSuffix(rem[i], t) || !suffix && !strings.HasPrefix(rem[i], t) {
					return
				}
				total += len(t)
			}
			if total > bestLen || total == bestLen && r < bestCol {
				bestCol, bestLen = r, total
			}
		})
		return bestCol
	}
	tail := best(true, -1)
	if tail >= 0 {
		for i, row := range rows {
			rem[i] = rem[i][:len(rem[i])-len(row[tail])]
		}
	}
	head := best(false, tail)
	if head < 0 && tail < 0 {
		return nil
	}
	d := &decl{col: c, key: -1}
	if head >= 0 {
		for i, row := range rows {
			rem[i] = rem[i][len(row[head]):]
		}
		d.parts = append(d.parts, tplPart{col: head})
	}
	middle, ok := middleParts(rem)
	if !ok {
		return nil
	}
	d.parts = append(d.parts, middle...)
	if tail >= 0 {
		d.parts = append(d.parts, tplPart{col: tail})
	}
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = r[c]
	}
	return d.weigh(rows, texts, fields)
}

// middleParts returns the parts between a derived template's references:
// the literal every remainder equals, or the literal prefix and suffix
// they share around a hole.
func middleParts(rem []string) ([]tplPart, bool) {
	if !slices.ContainsFunc(rem, func(m string) bool { return m != rem[0] }) {
		if !literalOK(rem[0]) {
			return nil, false
		}
		if rem[0] == "" {
			return nil, true
		}
		return []tplPart{{lit: rem[0], col: -1}}, true
	}
	pre, suf := sharedEnds(rem)
	return affixParts(pre, suf), true
}

func affixParts(pre, suf string) []tplPart {
	var parts []tplPart
	if pre != "" {
		parts = append(parts, tplPart{lit: pre, col: -1})
	}
	parts = append(parts, tplPart{col: -1, hole: true})
	if suf != "" {
		parts = append(parts, tplPart{lit: suf, col: -1})
	}
	return parts
}

// sharedEnds returns the longest prefix and suffix every text shares,
// each cut back to a separator so that no word is split: a prefix ends
// with a byte that is not a letter or digit, a suffix begins with one.
func sharedEnds(texts []string) (pre, suf string) {
	pre = texts[0]
	for _, t := range texts[1:] {
		n := 0
		for n < len(pre) && n < len(t) && pre[n] == t[n] {
			n++
		}
		pre = pre[:n]
	}
	for len(pre) > 0 && (isWordByte(pre[len(pre)-1]) || !literalOK(pre)) {
		pre = pre[:len(pre)-1]
	}
	suf = texts[0][len(pre):]
	for _, t := range texts[1:] {
		t = t[len(pre):]
		n := 0
		for n < len(suf) && n < len(t) && suf[len(suf)-1-n] == t[len(t)-1-n] {
			n++
		}
		suf = suf[len(suf)-n:]
	}
	for len(suf) > 0 && (isWordByte(suf[0]) || !literalOK(suf)) {
		suf = suf[1:]
	}
	return pre, suf
}

// affixOK reports whether a column's literal prefix or suffix is worth
// declaring to a reader: it holds a letter or digit and no control
// character, so that a hole never just strips indentation or punctuation.
func affixOK(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < ' ' }) < 0 &&
		strings.IndexFunc(s, func(r rune) bool { return r < 0x80 && isWordByte(byte(r)) }) >= 0
}

// isJSONText reports whether a cell text is a JSON array, object or
// string literal, whose brackets and quotes an affix would tear apart.
func isJSONText(t string) bool { return t != "" && strings.IndexByte(`[{"`, t[0]) >= 0 }

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// inferLiteral weighs a template of column c without references
// [D1-COL-2]: the most common text, held by at least half of the rows
// (Draft1Default), or a shared prefix and suffix around a hole
// (Draft1Affix).
func inferLiteral(texts []string, c int, fields []string, ideas Draft1Idea) *decl {
	if slices.Contains(texts, "") {
		return nil
	}
	counts := map[string]int{}
	mode, modeN := "", 0
	for _, t := range texts {
		counts[t]++
		if n := counts[t]; n > modeN || n == modeN && t < mode {
			mode, modeN = t, n
		}
	}
	lit := &decl{col: c, key: -1, parts: []tplPart{{lit: mode, col: -1}}}
	var best *decl
	switch {
	case !literalOK(mode) || strings.HasPrefix(mode, string(keyMark)):
	case 2*modeN >= len(texts) && ideas&Draft1Default != 0:
		best = lit.weigh(nil, texts, fields)
	}
	if ideas&Draft1Affix != 0 && modeN < len(texts) && !slices.ContainsFunc(texts, isJSONText) {
		pre, suf := sharedEnds(texts)
		if !affixOK(pre) {
			pre = ""
		}
		if !affixOK(suf) {
			suf = ""
		}
		if pre != "" || suf != "" {
			d := &decl{col: c, key: -1, parts: affixParts(pre, suf)}
			if d = d.weigh(nil, texts, fields); d != nil && (best == nil || d.gain > best.gain) {
				best = d
			}
		}
	}
	return best
}
