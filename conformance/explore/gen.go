package explore

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// gen draws cases from one seeded source. It is small on purpose: a
// handful of choices aimed at the corners of GCX1 (escapes, guards, empty
// values, comments, several sections, reserved meta keys) and of the
// mapping, on math/rand/v2, so that the gcx binary links no test gear.
type gen struct {
	r    *rand.Rand
	tag  string               // the version tag headers carry
	seed []conformance.Vector // committed vectors of the MCP binding, to mutate
}

func (g *gen) n(k int) int            { return g.r.IntN(k) }
func (g *gen) one(in int) bool        { return g.r.IntN(in) == 0 }
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// fragments are the pieces strings are built from: every character GCX1
// escapes, what a header, a comment or a guard begins with, the header's
// punctuation, multi-byte UTF-8 and controls.
var fragments = []string{
	"", "a", "x", "Go", "G", "GC", "GCX", "GCX1", "GCX1 ", "GCX2", "#", "# note", "\\", `\t`, `\n`, `\\`, `\s`,
	`\,`, `\#`, `\G`, "\t", "\n", "\r", "\r\n", " ", "  ", ",", "=", "tool=", "fields=", "rows=1", "é", "日本語",
	"😀", "\u2028", "\uFEFF", "\x00", "\x01", "\x1f", "\x7f", "\u0085", "-0", "1.0", "true", "null", "{}", "[]",
	`"x"`, "func(a int, b string) error", "internal/mcp/server.go", "62",
}

// text draws a string of fragments and now and then a long or arbitrary one.
func (g *gen) text() string {
	switch g.n(12) {
	case 0:
		return strings.Repeat(pick(g, []string{"x", "ab", "é", "\\", "\t"}), g.between(64, 600))
	case 1:
		var b strings.Builder
		for range g.between(1, 4) {
			b.WriteRune(rune(g.between(0x20, 0x2FFF)))
		}
		return b.String()
	}
	var b strings.Builder
	for range g.n(5) {
		b.WriteString(pick(g, fragments))
	}
	return b.String()
}

var names = []string{"search_symbols", "find_usages", "get_callers.nodes", "t", "a-b_c.d", "0", "_", ".", "x"}

// name draws a tool name or meta key [HDR-3].
func (g *gen) name() string {
	if g.one(2) {
		return pick(g, names)
	}
	const alphabet = "abcxyzABCZ0189_-."
	b := make([]byte, g.between(1, 6))
	for i := range b {
		b[i] = alphabet[g.n(len(alphabet))]
	}
	return string(b)
}

// section draws a valid section with up to maxRows rows.
func (g *gen) section(maxRows int) spec.Section {
	s := spec.Section{Tool: g.name()}
	for range g.between(1, 5) {
		f := g.text()
		if g.one(2) {
			f = pick(g, []string{"id", "kind", "name", "a", "b", "", "é", "名前", "a b"})
		}
		if !slices.Contains(s.Fields, f) {
			s.Fields = append(s.Fields, f)
		}
	}
	nrows := g.between(0, maxRows)
	for range nrows {
		row := make([]string, len(s.Fields))
		for i := range row {
			switch g.n(4) {
			case 0:
				row[i] = ""
			case 1:
				row[i] = pick(g, []string{"1", "a", "#x", "#", "GCX1", "GCX", "\\", "-0", "é"})
			default:
				row[i] = g.text()
			}
		}
		s.Rows = append(s.Rows, row)
	}
	var keys []string
	if g.one(2) {
		keys = append(keys, spec.KeyRows)
		s.Meta = append(s.Meta, spec.Meta{Key: spec.KeyRows, Value: strconv.Itoa(nrows)})
	}
	for range g.n(4) {
		k := pick(g, []string{spec.KeyRows, spec.KeyTotal, spec.KeyTruncated, "lang", "next_cursor", g.name()})
		if k == spec.KeyTool || k == spec.KeyFields || slices.Contains(keys, k) {
			continue
		}
		keys = append(keys, k)
		v := g.text()
		switch k {
		case spec.KeyRows:
			v = strconv.Itoa(nrows)
		case spec.KeyTotal:
			v = strconv.Itoa(nrows + g.n(100))
		case spec.KeyTruncated:
			v = pick(g, []string{"true", "false"})
		}
		s.Meta = append(s.Meta, spec.Meta{Key: k, Value: v})
	}
	if g.one(3) {
		at := 0
		for range g.between(1, 3) {
			at = g.between(at, nrows)
			text := strings.NewReplacer("\n", "", "\r", "").Replace(g.text())
			s.Comments = append(s.Comments, spec.Comment{Row: at, Text: text})
		}
	}
	return s
}

// payload draws a valid payload of one to three sections.
func (g *gen) payload() *spec.Payload {
	p := &spec.Payload{}
	for range g.between(1, 3) {
		if g.one(5) {
			p.Sections = append(p.Sections, g.awkwardSection())
			continue
		}
		p.Sections = append(p.Sections, g.section(g.between(0, 5)))
	}
	return p
}

// encoded returns the canonical bytes of p under the generator's tag,
// through the reference encoder.
func (g *gen) encoded(ref Reference, p *spec.Payload) []byte {
	out, err := ref.Impl.Encode(wire.Marshal(p))
	if err != nil {
		return nil
	}
	return out
}

// interesting are the bytes a one-byte edit puts in: those the grammar
// reads, and bytes that break UTF-8.
var interesting = []byte("\t\t\t\n\n\r\\\\ ,=#GCX1tn0a\x00\xff\xc3\x80\xef")

// nearMiss changes, inserts or removes one byte of b, most often next to
// a byte the grammar reads, so that refusals, their classes, lines and
// columns are exercised; now and then it repeats or drops a line, or
// splices in a short fragment.
func (g *gen) nearMiss(b []byte) []byte {
	out := slices.Clone(b)
	if g.one(4) {
		// a TAB put in or taken out of one line: a value too many or too
		// few [ROW-2], wherever the line's first value puts its columns
		lines := bytes.SplitAfter(out, []byte("\n"))
		k := g.n(len(lines))
		var guarded, rows []int
		for i, l := range lines {
			if bytes.HasPrefix(l, []byte(`\#`)) || bytes.HasPrefix(l, []byte(`\G`)) {
				guarded = append(guarded, i)
			}
			if len(l) > 0 && !bytes.HasPrefix(l, []byte("GCX")) && l[0] != '#' {
				rows = append(rows, i)
			}
		}
		switch {
		case len(guarded) > 0 && g.one(2):
			// a guarded row: its columns count the guard's backslash
			k = pick(g, guarded)
		case len(rows) > 0 && g.one(2):
			k = pick(g, rows)
		}
		line := lines[k]
		if len(line) > 0 && !bytes.HasPrefix(line, []byte("GCX")) && line[0] != '#' && g.one(2) {
			// a guarded value put in front of a row: a value too many,
			// whose column counts the guard [ROW-4]
			lines[k] = slices.Concat([]byte(pick(g, []string{`\#`, `\#x`, `\GCX`, `\GCX1`})+"\t"), line)
			return bytes.Join(lines, nil)
		}
		if tab := bytes.IndexByte(line, '\t'); tab >= 0 && g.one(2) {
			lines[k] = slices.Delete(slices.Clone(line), tab, tab+1)
		} else {
			lines[k] = slices.Insert(slices.Clone(line), g.n(len(line)+1), '\t')
		}
		return bytes.Join(lines, nil)
	}
	at := g.n(len(out) + 1)
	if g.one(2) {
		// next to a byte the grammar reads
		var marks []int
		for i, c := range out {
			if strings.IndexByte("\t\n\\ ,=#", c) >= 0 {
				marks = append(marks, i)
			}
		}
		if len(marks) > 0 {
			at = min(len(out), pick(g, marks)+g.between(-1, 1)+1)
			at = max(at, 0)
		}
	}
	switch g.n(8) {
	case 0, 1:
		if at < len(out) {
			out[at] = pick(g, interesting)
			return out
		}
		fallthrough
	case 2, 3:
		return slices.Insert(out, at, pick(g, interesting))
	case 4, 5:
		if at < len(out) {
			return slices.Delete(out, at, at+1)
		}
		return out[:max(len(out)-1, 0)]
	}
	if g.n(3) > 0 {
		// a whole line repeated or dropped: rows= miscounted [META-4],
		// comments and sections moved
		lines := bytes.SplitAfter(out, []byte("\n"))
		k := g.n(len(lines))
		if g.one(2) {
			lines = slices.Insert(lines, k, lines[k])
		} else {
			lines = slices.Delete(lines, k, k+1)
		}
		return bytes.Join(lines, nil)
	}
	frag := pick(g, []string{"GCX2 ", "GCX1 tool=x fields=y\n", " rows=0", " k=v", "\\x", "\n\n", "#c\n", "\uFEFF", "\xed\xa0\x80"})
	return slices.Insert(out, at, []byte(frag)...)
}

// limits draws decoder limits near the sizes of p, so that they bite now
// and then.
func (g *gen) limits(p []byte) conformance.Limits {
	l := conformance.Limits{}
	lines := strings.Split(string(p), "\n")
	longest := 1
	for _, line := range lines {
		longest = max(longest, len(line))
	}
	for range g.between(1, 2) {
		switch g.n(4) {
		case 0:
			l["max-line-bytes"] = max(1, longest+g.between(-8, 2))
		case 1:
			l["max-fields"] = g.between(1, 5)
		case 2:
			l["max-sections"] = g.between(1, 3)
		case 3:
			l["max-rows"] = g.between(1, 5)
		}
	}
	return l
}

// Case generators by category.

func (g *gen) decodeCase(ref Reference) Case {
	if g.one(60) {
		return g.minimumsCase(ref)
	}
	b := g.encoded(ref, g.payload())
	c := Case{Op: conformance.OpDecode, Input: b}
	if g.one(4) {
		c.Limits = g.limits(b)
	}
	return c
}

func (g *gen) rejectCase(ref Reference) Case {
	if g.one(3) {
		return g.rejectCornerCase(ref)
	}
	b := g.encoded(ref, g.payload())
	if g.one(3) {
		b = g.nearMiss(g.nearMiss(b))
	} else {
		b = g.nearMiss(b)
	}
	c := Case{Op: conformance.OpDecode, Input: b}
	if g.one(8) {
		c.Limits = g.limits(b)
	}
	return c
}

// brokenModel changes a valid payload into one an encoder must refuse, or
// leaves it alone.
func (g *gen) brokenModel(p *spec.Payload) {
	s := &p.Sections[g.n(len(p.Sections))]
	switch g.n(9) {
	case 0:
		s.Fields = nil
	case 1:
		s.Fields = append(s.Fields, s.Fields[0])
	case 2:
		s.Tool = pick(g, []string{"", "a b", "é", "a/b", "x=y"})
	case 3:
		s.Meta = append(s.Meta, spec.Meta{Key: pick(g, []string{"tool", "fields", "", "a b", "rows", "k"}), Value: "1"})
	case 4:
		s.Meta = append(s.Meta, spec.Meta{Key: pick(g, []string{"truncated", "total", "rows"}), Value: pick(g, []string{"yes", "01", "-1", "", "99"})})
	case 5:
		s.Rows = append(s.Rows, make([]string, len(s.Fields)+pick(g, []int{-1, 1})))
	case 6:
		s.Comments = append(s.Comments, spec.Comment{Row: pick(g, []int{-1, len(s.Rows) + 1}), Text: "c"})
	case 7:
		s.Comments = append(s.Comments, spec.Comment{Row: 0, Text: pick(g, []string{"a\nb", "\r"})})
	case 8:
		p.Sections = nil
	}
}

func (g *gen) encodeCase(ref Reference) Case {
	p := g.payload()
	if g.one(3) {
		g.brokenModel(p)
	}
	var view []byte
	switch g.n(5) {
	case 0:
		view = g.respellJSON(wire.Marshal(p))
	case 1:
		view = g.nearMiss(wire.Marshal(p))
	case 2:
		// a member of the view of another JSON type [WIRE-2]
		view = wire.Marshal(p)
		if v, err := jsonmap.Parse(view); err == nil {
			g.retypeOne(&v, 0)
			view = v.AppendCompact(nil)
		}
	default:
		view = wire.Marshal(p)
	}
	return Case{Op: conformance.OpEncode, Input: view}
}

func (g *gen) versionCase(ref Reference) Case {
	tags := []string{"GCX2", "GCX1-stream", "GCX12", "GCX", "GCX1.0", "GCX2-draft.1", "GCXé", "GCX1\t", "GCX1\r",
		"GCX" + strings.Repeat("1", 29), "GCX" + strings.Repeat("a", 30), "GCX_", "gcx1", "GCX01", g.tag,
		// the bounds of [VER-1]: 31, 32 and 33 bytes, every tag character
		"GCX" + strings.Repeat("9", 28), "GCX" + strings.Repeat("Az09._-", 5)[:29], "GCX" + strings.Repeat("Az09._-", 5)[:30],
		"GCX1-stream", "GCX1-streamx", "GCX2.0", "GCX10"}
	p := g.payload()
	b := g.encoded(ref, p)
	lines := strings.SplitAfter(string(b), "\n")
	var headers []int
	for i, l := range lines {
		if strings.HasPrefix(l, "GCX") {
			headers = append(headers, i)
		}
	}
	if len(headers) > 0 {
		i := pick(g, headers)
		tag := pick(g, tags)
		rest := strings.TrimPrefix(lines[i], g.tag)
		if g.one(4) {
			rest = pick(g, []string{"", "\n", " ", " x\n"})
		}
		lines[i] = tag + rest
	}
	input := []byte(strings.Join(lines, ""))
	switch g.n(4) {
	case 0:
		// a JSON result read by a client that asked for GCX [AUTO-3]
		return Case{Op: conformance.OpJSONDecode, Input: append(g.jsonText(g.value(3)), '\n')}
	case 1:
		return Case{Op: conformance.OpJSONDecode, Input: input}
	}
	return Case{Op: conformance.OpDecode, Input: input}
}

// JSON values for the mapping.

var strs = []string{"", " ", "1", "-0", "1.0", "1e400", "true", "false", "null", `"x"`, "{}", "[]", `{"a":1}`, "[1,2]",
	" 1", "1 ", "@", "#", "#x", "GCX", "GCX1", "GCX1 hi", "\\", "\t", "\n", "\r", "a\tb", "\u2028", "\x00", "é",
	"😀", "\uFEFF", "key=value", "a,b", "-1", "12345678901234567890"}

var numbers = []string{"0", "-0", "1", "1.0", "1.00", "1e400", "-1e400", "1E5", "1e+5", "1E-5", "0.0", "-0.0",
	"12345678901234567890", "3.14159265358979323846", "5e-324", "42", "-7"}

var keys = []string{"id", "name", "kind", "line", "a", "b", "c", "total", "truncated", "rows", "json", "tool",
	"fields", "items", "nodes", "edges", "a.b", "x-y", "_", "", " ", "a b", "a,b", "a=b", "@", "#", "é", "1", "\t"}

func (g *gen) scalar() jsonmap.Value {
	switch g.n(6) {
	case 0:
		return jsonmap.Value{Kind: jsonmap.Null}
	case 1:
		return jsonmap.Value{Kind: pick(g, []jsonmap.Kind{jsonmap.True, jsonmap.False})}
	case 2:
		if g.one(2) {
			return jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(g.between(-1000, 100000))}
		}
		return jsonmap.Value{Kind: jsonmap.Number, Text: pick(g, numbers)}
	case 3:
		return jsonmap.Value{Kind: jsonmap.String, Text: pick(g, strs)}
	}
	return jsonmap.Value{Kind: jsonmap.String, Text: g.text()}
}

// value draws a JSON value nested at most depth levels: scalars, arrays,
// objects, and tables — arrays of objects whose members come and go.
func (g *gen) value(depth int) jsonmap.Value {
	if depth == 0 {
		return g.scalar()
	}
	switch g.n(5) {
	case 0:
		return g.scalar()
	case 1:
		v := jsonmap.Value{Kind: jsonmap.Array}
		for range g.n(4) {
			v.Elems = append(v.Elems, g.value(depth-1))
		}
		return v
	case 2:
		return g.object(depth)
	}
	return g.table(depth)
}

func (g *gen) object(depth int) jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.Object}
	for range g.n(5) {
		k := pick(g, keys)
		if _, dup := v.Lookup(k); dup {
			continue
		}
		child := g.scalar()
		if depth > 1 && g.one(3) {
			child = g.value(depth - 1)
		}
		v.Members = append(v.Members, jsonmap.Member{Key: k, Value: child})
	}
	return v
}

// table draws an array of objects sharing most of their member names, in
// the same order, with nulls, empty strings and missing members.
func (g *gen) table(depth int) jsonmap.Value {
	var columns []string
	for range g.between(1, 4) {
		k := pick(g, keys[:13])
		if !slices.Contains(columns, k) {
			columns = append(columns, k)
		}
	}
	v := jsonmap.Value{Kind: jsonmap.Array}
	above := map[string]jsonmap.Value{}
	for range g.between(0, 4) {
		row := jsonmap.Value{Kind: jsonmap.Object}
		for _, k := range columns {
			if g.one(6) {
				continue // missing
			}
			cell := g.scalar()
			prev, repeat := above[k]
			switch {
			case repeat && g.one(3):
				cell = prev // columns repeat their values, as a kind or a path does
			case g.one(6):
				cell = jsonmap.Value{Kind: jsonmap.String}
			case depth > 1 && g.one(6):
				cell = g.value(depth - 1)
			}
			row.Members = append(row.Members, jsonmap.Member{Key: k, Value: cell})
			above[k] = cell
		}
		v.Elems = append(v.Elems, row)
	}
	if depth > 1 && g.one(3) {
		// a result object around the table: {"items":[...], "total":N}
		return jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: pick(g, []string{"items", "nodes", "results"}), Value: v},
			{Key: "total", Value: jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(g.n(50))}},
		}}
	}
	return v
}

// jsonText writes v compactly, or now and then with whitespace and
// escapes a reader must resolve.
func (g *gen) jsonText(v jsonmap.Value) []byte {
	b := v.AppendCompact(nil)
	if g.one(3) {
		return g.respellJSON(b)
	}
	return b
}

// respellJSON spells a compact JSON text another way with the same value:
// whitespace between tokens, and \u escapes for some ASCII letters.
func (g *gen) respellJSON(b []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString && c >= 'a' && c <= 'z' && g.one(4):
			out = append(out, []byte(`\u00`+strconv.FormatInt(int64(c), 16))...)
			continue
		case !inString && c == '"':
			inString = true
		case !inString && (c == ',' || c == ':' || c == '[' || c == '{') && g.one(3):
			out = append(out, c)
			out = append(out, pick(g, []string{" ", "\n  ", "\t", "\r\n"})...)
			continue
		}
		out = append(out, c)
	}
	return out
}

func (g *gen) jsonCase(ref Reference) Case {
	if g.one(3) {
		return g.jsonCornerCase(ref)
	}
	v := g.value(3)
	tool := g.name()
	switch g.n(6) {
	case 0, 1:
		mode := "gcx"
		if g.one(4) {
			mode = "auto"
		}
		text := g.jsonText(v)
		if g.one(5) {
			text = g.jsonNearMiss(text)
		}
		return g.jsonLimits(ref, Case{Op: conformance.OpJSONEncode, Input: text, Tool: tool, Mode: mode})
	}
	out, err := ref.Impl.EncodeJSON(v.AppendCompact(nil), tool, "gcx", nil)
	if err != nil {
		return Case{Op: conformance.OpJSONEncode, Input: v.AppendCompact(nil), Tool: tool, Mode: "gcx"}
	}
	switch {
	case g.one(3):
		out = g.nearMiss(out)
	case g.one(4):
		out = []byte(g.respellCase(string(out))) // the root's json= in other case [MAP-7]
	}
	return g.jsonLimits(ref, Case{Op: conformance.OpJSONDecode, Input: out})
}

// jsonLimits sets limits, one case in five, on a case of the mapping that
// takes them — json-decode, and json-encode in mode gcx [LIM-4] — drawn
// near the sizes of the payload: the case's input, or the reference's
// payload of the value, so that they bite now and then.
func (g *gen) jsonLimits(ref Reference, c Case) Case {
	if !g.one(5) || (c.Op == conformance.OpJSONEncode && c.Mode != "gcx") {
		return c
	}
	payload := c.Input
	if c.Op == conformance.OpJSONEncode {
		out, err := ref.Impl.EncodeJSON(c.Input, c.Tool, "gcx", nil)
		if err != nil {
			return c
		}
		payload = out
	}
	c.Limits = g.limits(payload)
	return c
}

// mcpCase mutates the input of a committed vector of the MCP binding: a
// member dropped, a mode, tag or hint changed, a payload given a
// near-miss, a value replaced; the binding decides the outcome.
func (g *gen) mcpCase(ref Reference) Case {
	if len(g.seed) == 0 {
		return Case{}
	}
	v := pick(g, g.seed)
	in, err := jsonmap.Parse(v.Input)
	if err != nil {
		return Case{}
	}
	for range g.between(1, 3) {
		g.mutateValue(&in, 0)
	}
	return Case{Op: v.Op, Input: in.AppendCompact(nil)}
}

var bindingStrings = []string{"GCX1", "GCX2", "GCX2-draft.1", "json", "toon", "", "auto", "gcx", "off", "text",
	"io.github.gcxwire/format", "io.github.gcxwire/accept"}

// mutateValue changes one node of v, reached by a random walk.
func (g *gen) mutateValue(v *jsonmap.Value, depth int) {
	switch v.Kind {
	case jsonmap.Object:
		if len(v.Members) == 0 || (depth > 0 && g.one(6)) {
			break
		}
		i := g.n(len(v.Members))
		if g.one(5) {
			v.Members = slices.Delete(slices.Clone(v.Members), i, i+1)
			return
		}
		v.Members = slices.Clone(v.Members)
		g.mutateValue(&v.Members[i].Value, depth+1)
		return
	case jsonmap.Array:
		if len(v.Elems) == 0 || (depth > 0 && g.one(6)) {
			break
		}
		i := g.n(len(v.Elems))
		v.Elems = slices.Clone(v.Elems)
		if g.one(6) {
			v.Elems = slices.Delete(v.Elems, i, i+1)
			return
		}
		g.mutateValue(&v.Elems[i], depth+1)
		return
	case jsonmap.String:
		switch {
		case strings.HasPrefix(v.Text, "GCX") && g.one(2):
			v.Text = string(g.nearMiss([]byte(v.Text)))
		case g.one(2):
			v.Text = pick(g, bindingStrings)
		default:
			v.Text = g.scalar().Text
		}
		return
	case jsonmap.Number:
		if g.one(2) {
			v.Text = g.respellNumber(v.Text)
			return
		}
	case jsonmap.True, jsonmap.False:
		if g.one(2) {
			*v = g.retyped(*v) // a boolean a loose reader would take: 1, "true" [MCP-7]
			return
		}
		v.Kind = pick(g, []jsonmap.Kind{jsonmap.True, jsonmap.False, jsonmap.Null})
		return
	}
	*v = g.value(2)
}
