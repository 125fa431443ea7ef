package explore

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The rules a case cites beyond the one the reference's error names, or
// beyond those payloadRules reads off an accepted payload's bytes. Each
// is cited only when the case shows what the rule is about — a position
// after multi-byte text, a second error the order passed over, a limit
// that changed the outcome, a meta key the decoder must keep, a form the
// JSON encoder chose — computed from the input and the verdict, so that
// docs/coverage.md counts what the cases test, not what a generator meant.

// refusalRules returns the rules a refused case cites besides err's own.
func (r Reference) refusalRules(c Case, err error) []string {
	var e *spec.Error
	if !errors.As(err, &e) || r.Tag != spec.Version {
		return nil
	}
	class := spec.ClassName(err)
	var rules []string
	add := func(ok bool, rule string) {
		if ok {
			rules = append(rules, rule)
		}
	}
	switch c.Op {
	case conformance.OpEncode:
		// an encoder refuses a model with no spelling with a model error
		add(class == "model", "CAN-3")
		return rules
	case conformance.OpDecode, conformance.OpJSONDecode:
	case conformance.OpJSONEncode:
		add(e.Line > 0 && multiByteBefore(c.Input, e.Line, e.Column), "ERR-2")
		return rules
	default:
		return nil
	}
	unsupported := class == "unsupported-version"
	add(e.Rule == "VER-2" || e.Rule == "VER-3" || e.Rule == "VER-4", "VER-1") // the tag was read by its syntax
	add(unsupported, "VER-5")                                                 // what a client does next
	add(unsupported && reservedTag(e.Tag), "VER-6")
	add(unsupported && c.Op == conformance.OpDecode, "WIRE-3") // the exit status that asks for JSON
	add(class != "syntax", "ERR-1")
	add(e.Line > 0 && multiByteBefore(c.Input, e.Line, e.Column), "ERR-2")
	add(class == "syntax" && e.Rule != "VER-3", "ERR-5")
	add(c.Op == conformance.OpDecode && e.Line > 0 && rowBefore(c.Input, e.Line), "ERR-4")
	add(e.Rule == "ENC-3" || (e.Rule == "PAY-1" && len(c.Input) > 0 && strings.IndexByte(" \t\n", c.Input[0]) >= 0), "LINE-3")
	if c.Op == conformance.OpJSONDecode {
		// a mapping check decided past the root's header: at a row, or
		// where a section the root announced should stand [MAP-20]
		mapping := strings.HasPrefix(e.Rule, "MAP-") || strings.HasPrefix(e.Rule, "LAY-")
		add(mapping && e.Rule != "MAP-14" && e.Line > 1, "MAP-20")
		if len(c.Limits) > 0 {
			_, free := r.Impl.DecodeJSON(c.Input, nil)
			// as for the wire view: a limit decided [LIM-1], and, when
			// the input has an error of its own too, the order [ERR-3]
			add(e.Rule == "LIM-3" || !sameError(err, free), "LIM-1")
			add(free != nil && !sameError(err, free), "ERR-3")
		}
		return rules
	}
	if r.Impl.Decode == nil {
		return rules
	}
	if len(c.Limits) > 0 {
		_, free := r.Impl.Decode(c.Input, nil)
		// a limit decides: the input refused for it, or for a rule met
		// beyond the bound [LIM-1]
		add(e.Rule == "LIM-3" || !sameError(err, free), "LIM-1")
		// two errors, one for the limit and one without it [ERR-3]
		add(free != nil && !sameError(err, free), "ERR-3")
	}
	add(!slices.Contains(rules, "ERR-3") && laterError(r, c, e), "ERR-3")
	return rules
}

// reservedTag reports whether tag is one chapter 5 reserves: GCX1-stream,
// or GCX2 and higher [VER-6].
func reservedTag(tag string) bool {
	n, ok := strings.CutPrefix(tag, spec.TagPrefix)
	if !ok || n == "" {
		return false
	}
	if n == "1-stream" {
		return true
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return n[0] != '0' && n != "1"
}

// multiByteBefore reports whether the bytes of line (from 1) before
// column (from 1) hold a character of more than one byte, where a column
// counted in characters would differ from one counted in bytes [ERR-2].
func multiByteBefore(input []byte, line, column int) bool {
	l := lineOf(input, line)
	if l == nil {
		return false
	}
	prefix := l[:min(len(l), max(column-1, 0))]
	return slices.ContainsFunc(prefix, func(b byte) bool { return b >= 0x80 })
}

// lineOf returns line n (from 1) of input without its LF, or nil.
func lineOf(input []byte, n int) []byte {
	for i := 1; ; i++ {
		end := bytes.IndexByte(input, '\n')
		if i == n {
			if end < 0 {
				return input
			}
			return input[:end]
		}
		if end < 0 {
			return nil
		}
		input = input[end+1:]
	}
}

// rowBefore reports whether a row line stands before line n: data a
// decoder had read when it met the error, and must not return [ERR-4].
func rowBefore(input []byte, n int) bool {
	lines := bytes.Split(input, []byte("\n"))
	for i := 1; i < n-1 && i < len(lines); i++ {
		if !bytes.HasPrefix(lines[i], []byte("GCX")) && !bytes.HasPrefix(lines[i], []byte("#")) {
			return true
		}
	}
	return false
}

func sameError(a, b error) bool {
	var ea, eb *spec.Error
	if !errors.As(a, &ea) || !errors.As(b, &eb) {
		return a == nil && b == nil
	}
	return ea.Rule == eb.Rule && ea.Line == eb.Line && ea.Column == eb.Column && spec.ClassName(a) == spec.ClassName(b)
}

// laterError reports whether the input holds a second error beyond the
// one reported, so that the order of [ERR-3] chose between them: with the
// reported error's row or comment line taken out (or its section's rows=
// count, for a [META-4]), the input is still refused, by another rule, at
// a later line. A META-4 the removal itself causes does not count, nor the
// same rule again (a section's next row beyond a row limit, say).
func laterError(r Reference, c Case, e *spec.Error) bool {
	lines := bytes.SplitAfter(c.Input, []byte("\n"))
	if e.Line < 1 || e.Line > len(lines) {
		return false
	}
	var repaired []byte
	line := lines[e.Line-1]
	switch {
	case e.Rule == "META-4":
		at := bytes.Index(line, []byte(" rows="))
		if at < 0 {
			return false
		}
		end := at + len(" rows=")
		for end < len(line) && line[end] >= '0' && line[end] <= '9' {
			end++
		}
		fixed := slices.Concat(line[:at], line[end:])
		repaired = slices.Concat(slices.Concat(lines[:e.Line-1]...), fixed, slices.Concat(lines[e.Line:]...))
	case e.Line > 1 && !bytes.HasPrefix(line, []byte("GCX")):
		repaired = slices.Concat(slices.Concat(lines[:e.Line-1]...), slices.Concat(lines[e.Line:]...))
	default:
		return false
	}
	_, err := r.Impl.Decode(repaired, c.Limits)
	var later *spec.Error
	if !errors.As(err, &later) || later.Rule == "META-4" || later.Rule == e.Rule {
		// none, one the repair made, or the same defect met again
		return false
	}
	if e.Rule == "META-4" {
		// the repair kept the lines where they were; META-4 is decided
		// where the section ends, so a later line is one past that end
		return later.Line > e.Line
	}
	return later.Line >= e.Line
}

// modelRules returns the rules an accepted GCX1 payload's model shows,
// beyond those payloadRules reads off its bytes. view says the vector
// expects a wire view [WIRE-1], so a decoder read the payload: the rules
// that bind decoders alone are cited only then. limits are the decoder's,
// nil for its defaults.
func modelRules(b []byte, p *spec.Payload, limits conformance.Limits, view bool) []string {
	var rules []string
	add := func(ok bool, rule string) {
		if ok && !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	longest, fields := 0, 0
	for l := range bytes.SplitSeq(b, []byte("\n")) {
		longest = max(longest, len(l))
		switch {
		case len(l) > 0 && l[0] == 'G' && !bytes.HasPrefix(l, []byte("GCX")):
			add(true, "LINE-2") // a row that begins as a header would
		case len(l) > 0 && (l[0] == ' ' || l[len(l)-1] == ' '):
			add(view, "LINE-3") // spaces a trimming decoder would lose
		}
	}
	add(bytes.Contains(b, []byte("\uFEFF")), "ENC-2") // U+FEFF past the start is data
	needsEscape := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' || r == 0x2028 || r == 0x2029 })
	}
	for _, s := range p.Sections {
		fields = max(fields, len(s.Fields))
		add(len(s.Rows) == 0 || (len(p.Sections) > 1 && slices.ContainsFunc(s.Comments, func(c spec.Comment) bool { return c.Row == len(s.Rows) })), "PAY-2")
		for i, m := range s.Meta {
			reserved := m.Key == spec.KeyRows || m.Key == spec.KeyTotal || m.Key == spec.KeyTruncated
			add(view && !reserved, "HDR-9")
			add(view && m.Key == spec.KeyTotal, "META-2")
			add(reserved && i > 0, "META-5")
			add(view && needsEscape(m.Value), "WIRE-1")
		}
		for _, row := range s.Rows {
			add(len(row) == 1 && row[0] == "", "ROW-1")
			add(len(row) == 1 && row[0] == "", "LINE-2") // the empty line is a row line
			for _, v := range row {
				add(strings.ContainsAny(v, "\t\n\r"), "VAL-3")
				add(view && needsEscape(v), "WIRE-1")
			}
		}
		for _, c := range s.Comments {
			add(strings.ContainsAny(c.Text, "\\\t") || strings.HasPrefix(c.Text, " ") || strings.HasSuffix(c.Text, " "), "CMT-1")
			add(len(s.Rows) > 0, "CMT-2")
			add(view, "WIRE-1")
		}
	}
	if limits == nil {
		add(longest >= 1<<20 || fields >= 1024 || len(p.Sections) >= 256, "LIM-2")
	} else {
		// accepted at a bound exactly: the limit admits what reaches it
		add(atLimit(p, longest, limits), "LIM-1")
	}
	return rules
}

// atLimit reports whether a payload, whose longest line is longest bytes,
// reaches one of limits exactly: its longest line, its widest header, its
// count of sections or its longest section.
func atLimit(p *spec.Payload, longest int, limits conformance.Limits) bool {
	fields, rows := 0, 0
	for _, s := range p.Sections {
		fields = max(fields, len(s.Fields))
		rows = max(rows, len(s.Rows))
	}
	at := func(name string, size int) bool {
		bound, ok := limits[name]
		return ok && bound == size
	}
	return at("max-line-bytes", longest) || at("max-fields", fields) || at("max-sections", len(p.Sections)) || at("max-rows", rows)
}

// longestLine returns the length of b's longest line, LF excluded.
func longestLine(b []byte) int {
	longest := 0
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		longest = max(longest, len(line))
	}
	return longest
}

// mappingRules returns the rules of chapter 14 an accepted case of the
// JSON mapping shows: p is the GCX1 side (json-encode's output,
// json-decode's input) decoded, nil when it is no GCX1 payload; value is
// the JSON side; encoding says the reference wrote the payload for tool.
func mappingRules(p *spec.Payload, value jsonmap.Value, encoding bool, tool string) []string {
	var rules []string
	add := func(ok bool, rule string) {
		if ok && !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	add(respelledNumbers(value), "MAP-2")
	if p == nil || len(p.Sections) == 0 {
		return rules
	}
	root := p.Sections[0]
	form, _ := root.Lookup(jsonmap.KeyJSON)
	layout, claimed := claimedLayout(root.Tool, form, p)
	headerForm := form == "object"
	for i, s := range p.Sections {
		// a table section: the table form's root, a member table, a
		// layout's part; their other pairs are no part of the value
		table := i > 0 || form == "" || form == "rows"
		pairs := 0
		str := map[string]bool{}
		for j, m := range s.Meta {
			switch m.Key {
			case jsonmap.KeyJSON, spec.KeyRows, "nest", "str":
				pairs++
			default:
				// a pair that is no part of the value [MAP-13]
				add(!encoding && table, "MAP-13")
				if i == 0 && headerForm {
					spelledRules(m.Value, add, encoding)
				}
			}
			if m.Key == "nest" {
				add(true, "MAP-15")
				add(encoding, "MAP-17")
			}
			if m.Key == "str" {
				add(true, "MAP-16")
				add(encoding, "MAP-18")
				for _, f := range strings.Split(m.Value, ",") {
					str[f] = true
				}
			}
			add(encoding && j > 0 && pairs > 1, "MAP-19")
		}
		add(!encoding && len(s.Comments) > 0, "MAP-13")
		if claimed {
			continue
		}
		for _, row := range s.Rows {
			for k, cell := range row {
				if k < len(s.Fields) && str[s.Fields[k]] {
					continue
				}
				spelledRules(cell, add, encoding)
			}
		}
	}
	switch form {
	case "array", "value":
		add(true, "MAP-9")
	case "object", "row":
		add(true, "MAP-10")
		add(len(p.Sections) > 1, "MAP-11")
	case "rows":
		add(true, "MAP-8")
	case "":
		add(!claimed, "MAP-8")
	}
	add(encoding && headerForm && len(root.Meta) > 1, "MAP-19")
	if claimed {
		add(true, "LAY-1")
		add(true, "LAY-2")
		add(true, "LAY-4")
		add(true, "LAY-5")
		add(true, "LAY-6")
		for i, part := range layout.Parts {
			if i >= len(p.Sections) {
				break
			}
			for _, row := range p.Sections[i].Rows {
				for k, f := range part.Fields {
					add(k < len(row) && row[k] != "" && f.Type != jsonmap.TypeString, "LAY-3")
					add(k < len(row) && row[k] == "@", "LAY-2")
				}
			}
		}
	}
	if l, ok := jsonmap.Lookup(tool); encoding && ok {
		// a value that does not fit its declared tool is written
		// generically, with json= [LAY-7] [LAY-4]
		add(l.Fit(value) != nil, "LAY-7")
		add(form != "", "LAY-4")
	}
	if _, isPart := partOf(tool); encoding && isPart && form != "" {
		add(true, "LAY-4")
	}
	return rules
}

// spelledRules cites what a non-empty spelled text shows: a string the
// encoder had to quote [MAP-6], or a text that looks like JSON and is no
// compact form, so a string [MAP-5].
func spelledRules(cell string, add func(bool, string), encoding bool) {
	if cell == "" || cell == "@" {
		return
	}
	if !strings.ContainsRune(`{["-0123456789tfn`, rune(cell[0])) {
		return
	}
	kind, compact, err := jsontext.CompactKind(cell, jsonmap.MaxDepth)
	switch {
	case err != nil:
		add(true, "MAP-5") // too deep to tell: an encoder quotes it [MAP-6]
	case !compact:
		add(true, "MAP-5")
	case kind == jsontext.String:
		add(true, "MAP-6")
		add(!encoding, "MAP-5")
	}
}

// respelledNumbers reports whether v holds a number whose literal a
// floating-point reader would change, or keep only by chance: a fraction,
// an exponent, -0, or more digits than a double holds [MAP-2].
func respelledNumbers(v jsonmap.Value) bool {
	switch v.Kind {
	case jsonmap.Number:
		return strings.ContainsAny(v.Text, ".eE") || v.Text == "-0" || len(v.Text) > 15
	case jsonmap.Array:
		return slices.ContainsFunc(v.Elems, respelledNumbers)
	case jsonmap.Object:
		return slices.ContainsFunc(v.Members, func(m jsonmap.Member) bool { return respelledNumbers(m.Value) })
	}
	return false
}

// claimedLayout returns the layout a root section without json= claims
// [LAY-4], when its sections are that layout's parts.
func claimedLayout(tool, form string, p *spec.Payload) (jsonmap.Layout, bool) {
	if form != "" {
		return jsonmap.Layout{}, false
	}
	l, ok := partOf(tool)
	if !ok || len(p.Sections) != len(l.Parts) {
		return jsonmap.Layout{}, false
	}
	return l, true
}

// partOf returns the layout whose first part's section is named tool.
func partOf(tool string) (jsonmap.Layout, bool) {
	for _, l := range jsonmap.Layouts() {
		if l.Parts[0].Tool == tool {
			return l, true
		}
	}
	return jsonmap.Layout{}, false
}
