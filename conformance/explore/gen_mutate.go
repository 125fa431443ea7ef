package explore

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// A lane is a share of a run's cases: a category, and for the MCP
// binding one op of it, so that servers, clients and intermediaries each
// get as many cases as a category of the format does, whatever their
// cases cost. Case i of a run is drawn in lane i mod len(lanes): a fair
// share for every lane, and the same case for the same seed whatever the
// budget.
type lane struct {
	category string
	op       conformance.Op // the one op of the lane's cases; "" for any op of the category
}

// mcpLanes split the MCP binding's category by op.
var mcpLanes = []lane{
	{conformance.CategoryMCP, conformance.OpMCPServer},
	{conformance.CategoryMCP, conformance.OpMCPClient},
	{conformance.CategoryMCP, conformance.OpMCPProxy},
}

// lanesOf returns the lanes of the categories, in their order, leaving
// out an MCP lane whose op is declined.
func lanesOf(categories []string, declined map[conformance.Op]bool) []lane {
	var out []lane
	for _, c := range categories {
		if c != conformance.CategoryMCP {
			out = append(out, lane{category: c})
			continue
		}
		for _, l := range mcpLanes {
			if !declined[l.op] {
				out = append(out, l)
			}
		}
	}
	return out
}

// laneCase draws case i, case k = i/L of lane j = i mod L of L lanes (its
// try-th draw): two cases in three a committed vector with one mutation
// (mutateCase), the third a new one from the category's generator. The
// mutated vectors are not the lane's but a sweep over every lane's
// (sweepOf) — mutated case k of lane j mutates vector sweepSlot(k)·L + j
// of it, from one the seed picks —
// so that each committed vector gets the same share of mutations,
// however many vectors its lane holds, and a run reaches as many of them
// as its budget allows before it repeats one; the new cases keep the
// lanes' equal shares.
//
// It returns the case, the category it was drawn in (the lane's, or for
// a mutated vector the vector's) and whether it is a mutated vector.
func (g *gen) laneCase(l lane, lanes []lane, ref Reference, seed uint64, i, try int, declined map[conformance.Op]bool) (c Case, category string, mutated bool) {
	if slot, ok := sweepSlot(i / len(lanes)); ok {
		if c, category, ok := g.mutateCase(sweepOf(ref.Tag, lanes, declined), ref, seed, slot*len(lanes)+i%len(lanes), try); ok {
			return c, category, true
		}
	}
	switch l.op {
	case conformance.OpMCPServer:
		return g.serverCase(), l.category, false
	case conformance.OpMCPClient:
		return g.clientCase(), l.category, false
	case conformance.OpMCPProxy:
		return g.proxyCase(), l.category, false
	}
	return generators[l.category](g, ref), l.category, false
}

// sweepSlot says whether case k of a lane mutates a committed vector (two
// in three do: the vectors, changed, are where a program meets every
// alternative of what the spec names, and the third is drawn new), and
// which of the lane's mutated cases it is.
func sweepSlot(k int) (int, bool) {
	if k%3 == 2 {
		return 0, false
	}
	return k/3*2 + k%3, true
}

// sweepOf returns the committed vectors of the lanes, lane by lane, but
// those of ops declined: what mutateCase sweeps.
func sweepOf(tag string, lanes []lane, declined map[conformance.Op]bool) []*conformance.Vector {
	seeds := seedsOf(tag)
	var out []*conformance.Vector
	for _, l := range lanes {
		for _, v := range seeds[l] {
			if !declined[v.Op] {
				out = append(out, v)
			}
		}
	}
	return out
}

// seedVectors are the committed vectors of a version by lane: what
// mutateCase starts from.
var seedVectors sync.Map // version tag → map[lane][]*conformance.Vector

func seedsOf(tag string) map[lane][]*conformance.Vector {
	if m, ok := seedVectors.Load(tag); ok {
		return m.(map[lane][]*conformance.Vector)
	}
	m := map[lane][]*conformance.Vector{}
	format, err := conformance.VectorsFor(tag)
	if err != nil {
		format = nil
	}
	var binding []conformance.Vector
	if tag == spec.Version {
		binding, _ = conformance.BindingVectors()
	}
	for _, vs := range [][]conformance.Vector{format, binding} {
		for i := range vs {
			v := &vs[i]
			if v.Expected.OrError != nil {
				// beyond the minimums [LIM-2]: a decoder may accept or
				// refuse it, where the reference's one answer would be
				// held against a program with other defaults
				continue
			}
			l := lane{category: v.Category}
			if v.Op.Binding() {
				l.op = v.Op
			}
			m[l] = append(m[l], v)
		}
	}
	seedVectors.Store(tag, m)
	return m
}

// mutateCase takes vector n of the sweep (from one the seed picks) and
// changes one thing in it — a byte, a line terminator, the case of a key,
// tag or name, a field, a row, a member or a boolean of its JSON, a limit
// just at or past what the input needs — and leaves the expected outcome
// to the reference. The first pass over the sweep (n below its length)
// takes each vector as committed, as go test -fuzz runs its seed corpus
// before it mutates: a run long enough to sweep once checks everything
// the vectors check, and its mutations start from inputs the program is
// known to read as the reference does. It reports false when the sweep
// is empty.
func (g *gen) mutateCase(seeds []*conformance.Vector, ref Reference, seed uint64, n, try int) (Case, string, bool) {
	if len(seeds) == 0 {
		return Case{}, "", false
	}
	// vector n of the sweep; after a few draws the reference could not
	// judge, any vector of the lane
	v := seeds[int((seed+uint64(n))%uint64(len(seeds)))]
	if try >= 8 {
		v = pick(g, seeds)
	}
	c := Case{Op: v.Op, Input: slices.Clone(v.Input), Tool: v.Tool, Mode: v.Mode}
	if len(v.Limits) > 0 {
		c.Limits = conformance.Limits{}
		for k, n := range v.Limits {
			c.Limits[k] = n
		}
	}
	if n < len(seeds) && try == 0 {
		return c, v.Category, true
	}
	for range 1 + g.n(2)*g.n(2) { // mostly one mutation, now and then two
		if c.Op.Binding() {
			g.mutateBinding(&c)
		} else {
			g.mutateFormat(&c, ref)
		}
	}
	return c, v.Category, true
}

// mutateFormat changes one thing in a case of the format or the mapping.
func (g *gen) mutateFormat(c *Case, ref Reference) {
	isJSON := c.Op == conformance.OpEncode || c.Op == conformance.OpJSONEncode
	takesLimits := c.Op == conformance.OpDecode || c.Op == conformance.OpJSONDecode ||
		(c.Op == conformance.OpJSONEncode && c.Mode == "gcx")
	if isJSON {
		g.mutateJSONInput(c, ref, takesLimits)
		return
	}
	k := g.n(12)
	if c.Op == conformance.OpJSONDecode && g.one(3) {
		k = g.between(7, 9) // the mapping reads fields, headers and rows together
	}
	switch {
	case k == 0 && takesLimits:
		g.boundLimits(c, ref)
	case k <= 2:
		c.Input = g.terminators(c.Input)
	case k == 3:
		c.Input = g.metaInOtherCase(c.Input)
	case k == 4:
		c.Input = g.caseOfWord(c.Input)
	case k == 5:
		c.Input = g.multiByte(c.Input)
	case k == 6:
		c.Input = g.blockEdge(c.Input)
	case k == 7:
		c.Input = g.columnEdit(c.Input)
	case k == 8:
		c.Input = g.headerEdit(c.Input)
	case k == 9:
		c.Input = g.rowEdit(c.Input)
	default:
		c.Input = g.nearMiss(c.Input)
	}
}

// mutateJSONInput changes one thing in a JSON input: a wire view or a
// value to write.
func (g *gen) mutateJSONInput(c *Case, ref Reference, takesLimits bool) {
	switch k := g.n(12); {
	case k == 0 && takesLimits:
		g.boundLimits(c, ref)
	case k == 11 && c.Op == conformance.OpJSONEncode, k == 1 && c.Op == conformance.OpJSONEncode:
		switch g.n(4) {
		case 0:
			c.Mode = pick(g, []string{"gcx", "auto"})
		case 1:
			c.Tool = g.respellWord(c.Tool)
		case 2:
			// a declared tool or one of its sections' names [LAY-4]
			c.Tool = pick(g, layoutSections())
		default:
			c.Tool = pick(g, []string{"", "t", "T", "a.b", "x-y", strings.Repeat("t", 64)})
		}
	case k <= 2:
		c.Input = g.terminators(c.Input)
	case k == 3:
		c.Input = g.caseOfWord(c.Input)
	case k == 4:
		c.Input = g.multiByte(c.Input)
	case k == 5:
		c.Input = g.blockEdge(c.Input)
	case k <= 7:
		// the same value spelled another way: the vector's own case,
		// whatever the reader makes of whitespace and escapes
		c.Input = g.respellJSON(c.Input)
	case k <= 10:
		in, err := jsonmap.Parse(c.Input)
		if err != nil {
			c.Input = g.jsonNearMiss(c.Input)
			return
		}
		if k == 8 {
			g.mutateValue(&in, 0) // a node anywhere: a number respelled, a string, an element
		} else {
			g.mutateMember(&in)
		}
		c.Input = in.AppendCompact(nil)
	default:
		c.Input = g.jsonNearMiss(c.Input)
	}
}

// terminators respells line terminators, where position rules count
// lines: every LF as CRLF or as a bare CR, one of them so, a CRLF as LF,
// the final LF taken away or a CR put before it.
func (g *gen) terminators(b []byte) []byte {
	lf := indexesOf(b, '\n')
	switch g.n(6) {
	case 0:
		return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	case 1:
		return bytes.ReplaceAll(b, []byte("\n"), []byte("\r"))
	case 2:
		if len(lf) > 0 {
			at := pick(g, lf)
			return slices.Concat(b[:at], []byte(pick(g, []string{"\r\n", "\r", "\n\r", "\r\r\n"})), b[at+1:])
		}
	case 3:
		if bytes.Contains(b, []byte("\r\n")) {
			return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		}
		if cr := indexesOf(b, '\r'); len(cr) > 0 {
			at := pick(g, cr)
			return slices.Concat(b[:at], []byte("\n"), b[at+1:])
		}
	case 4:
		if bytes.HasSuffix(b, []byte("\n")) {
			return bytes.TrimSuffix(b, []byte("\n"))
		}
		return append(slices.Clone(b), '\n')
	}
	// a CR inside a line, before its LF or within a value
	if len(b) == 0 {
		return []byte("\r")
	}
	at := g.n(len(b) + 1)
	if len(lf) > 0 && g.one(2) {
		at = pick(g, lf)
	}
	return slices.Insert(slices.Clone(b), at, '\r')
}

func indexesOf(b []byte, c byte) []int {
	var at []int
	for i, x := range b {
		if x == c {
			at = append(at, i)
		}
	}
	return at
}

// caseOfWord respells one word of ASCII letters in another case: a key
// before '=', a tag, a field or tool name, a JSON member name or value,
// so that every comparison the spec calls exact meets two spellings. A
// word before '=' or in quotes is chosen more often than others.
func (g *gen) caseOfWord(b []byte) []byte {
	type word struct{ start, end int }
	var words, marked []word
	for i := 0; i < len(b); {
		if !isLetter(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && (isLetter(b[j]) || b[j] >= '0' && b[j] <= '9' || b[j] == '_') {
			j++
		}
		w := word{i, j}
		words = append(words, w)
		if j < len(b) && (b[j] == '=' || b[j] == '"') || i > 0 && (b[i-1] == '=' || b[i-1] == '"' || b[i-1] == ',') {
			marked = append(marked, w)
		}
		i = j
	}
	if len(words) == 0 {
		return b
	}
	w := pick(g, words)
	if len(marked) > 0 && g.n(3) > 0 {
		w = pick(g, marked)
	}
	out := slices.Clone(b)
	copy(out[w.start:w.end], g.respellWord(string(b[w.start:w.end])))
	return out
}

// respellWord changes the case of a word: all of it, its first letter or
// its last, so that it differs from the word only in case where it can.
func (g *gen) respellWord(s string) string {
	if s == "" {
		return s
	}
	flip := func(c byte) byte {
		switch {
		case c >= 'a' && c <= 'z':
			return c - 'a' + 'A'
		case c >= 'A' && c <= 'Z':
			return c - 'A' + 'a'
		}
		return c
	}
	out := []byte(s)
	switch g.n(3) {
	case 0:
		if strings.ToUpper(s) != s {
			return strings.ToUpper(s)
		}
		return strings.ToLower(s)
	case 1:
		out[0] = flip(out[0])
	default:
		out[len(out)-1] = flip(out[len(out)-1])
	}
	return string(out)
}

// metaInOtherCase adds to a header a copy of one of its key=value
// tokens with the key in other case (or another value): a key that is a
// reserved one's in other case is an ordinary meta key, and two keys that
// differ only in case are two keys, where the spec compares exactly.
func (g *gen) metaInOtherCase(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var headers []int
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(spec.TagPrefix)) {
			headers = append(headers, i)
		}
	}
	if len(headers) == 0 {
		return g.caseOfWord(b)
	}
	k := pick(g, headers)
	body := bytes.TrimRight(lines[k], "\r\n")
	end := lines[k][len(body):]
	var pairs [][]byte
	for _, t := range bytes.Split(body, []byte(" "))[1:] {
		if bytes.IndexByte(t, '=') > 0 {
			pairs = append(pairs, t)
		}
	}
	if len(pairs) == 0 {
		return g.caseOfWord(b)
	}
	t := pick(g, pairs)
	eq := bytes.IndexByte(t, '=')
	extra := g.respellWord(string(t[:eq])) + string(t[eq:])
	if g.one(3) {
		extra = extra[:eq+1] + pick(g, []string{"x", "0", "1", "true", "rows"})
	}
	lines[k] = slices.Concat(body, []byte(" "+extra), end)
	return bytes.Join(lines, nil)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// multiBytes are texts whose bytes outnumber their characters, so that a
// position counted in bytes and one counted in characters differ after
// them.
var multiBytes = []string{"é", "日本語", "😀", "\u2028", "ß"}

// multiByte puts multi-byte text in front of a byte the grammar reads (or
// anywhere), so that the positions of what follows count it.
func (g *gen) multiByte(b []byte) []byte {
	at := g.n(len(b) + 1)
	var marks []int
	for i, c := range b {
		if strings.IndexByte("\t\n\r\\=,\"", c) >= 0 {
			marks = append(marks, i)
		}
	}
	if len(marks) > 0 && g.n(3) > 0 {
		at = pick(g, marks)
	}
	return slices.Insert(slices.Clone(b), at, []byte(pick(g, multiBytes))...)
}

// blockEdge lengthens one line so that the input's length lands just at,
// before or past a power of two: where a scanner that reads in blocks
// carries a run of bytes (a value, an escape, a line) from one block to
// the next.
func (g *gen) blockEdge(b []byte) []byte {
	edge := 1 << g.between(6, 16)
	want := edge + g.between(-2, 2)
	if want <= len(b) {
		return b
	}
	if len(b) > 0 && (b[0] == '{' || b[0] == '[') {
		// a JSON text: whitespace after it, the same value [MAP-1]
		return slices.Concat(b, []byte(strings.Repeat(pick(g, []string{" ", "\n", "\t", "\r\n"}), want-len(b))[:want-len(b)]))
	}
	pad := []byte(strings.Repeat(pick(g, []string{"x", "é", "\\\\", "\\t", " "}), want-len(b)))[:want-len(b)]
	// into the first value of a line after the first (a row), or the end
	at := len(b)
	if lf := indexesOf(b, '\n'); len(lf) > 1 {
		at = pick(g, lf[:len(lf)-1]) + 1
		if tab := bytes.IndexByte(b[at:], '\t'); tab >= 0 && g.one(2) {
			at += tab
		}
	}
	return slices.Concat(b[:at], pad, b[at:])
}

// boundLimits sets one limit (or two) just at, below or past what the
// input needs (a measure of the payload: its longest line, most fields,
// sections and rows), or moves a limit the vector sets by one either way.
func (g *gen) boundLimits(c *Case, ref Reference) {
	if c.Limits == nil {
		c.Limits = conformance.Limits{}
	}
	if len(c.Limits) > 0 && g.one(2) {
		names := make([]string, 0, len(c.Limits))
		for name := range c.Limits {
			names = append(names, name)
		}
		slices.Sort(names)
		name := pick(g, names)
		c.Limits[name] = max(1, c.Limits[name]+pick(g, []int{-1, 1}))
		return
	}
	payload := c.Input
	if c.Op == conformance.OpJSONEncode {
		out, err := ref.Impl.EncodeJSON(c.Input, c.Tool, "gcx", nil)
		if err != nil {
			return
		}
		payload = out
	}
	m := measure(payload)
	for range 1 + g.n(2) { // now and then two, so that which bites first is judged [ERR-3]
		f := pick(g, spec.LimitFlags)
		c.Limits[f.Name] = max(1, *f.Field(&m)+g.between(-1, 1))
	}
}

// measure returns what a payload needs of each limit, as a reader that
// splits lines at LF sees it: the longest line in bytes (with and without
// its terminator is a matter of ±1, which boundLimits draws), the most
// fields of a header, the sections, the most rows of a section.
func measure(p []byte) spec.Limits {
	var m spec.Limits
	rows := 0
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		m.MaxLineBytes = max(m.MaxLineBytes, len(line))
		switch {
		case bytes.HasPrefix(line, []byte(spec.TagPrefix)):
			m.MaxSections++
			rows = 0
			if i := bytes.Index(line, []byte(" fields=")); i >= 0 {
				value := line[i+len(" fields="):]
				if end := bytes.IndexAny(value, " \r\n"); end >= 0 {
					value = value[:end]
				}
				m.MaxFields = max(m.MaxFields, 1+bytes.Count(value, []byte(","))-bytes.Count(value, []byte(`\,`)))
			}
		case len(line) > 0 && line[0] != '#':
			rows++
			m.MaxRows = max(m.MaxRows, rows)
		}
	}
	return m
}

// mutateBinding changes one thing in an input of the MCP binding: the
// case of a member's name, a boolean to its other value or away, an
// isError: false where a result may carry one, a payload in a text block
// respelled (terminators, case, a near miss), or a node of mutateValue.
func (g *gen) mutateBinding(c *Case) {
	in, err := jsonmap.Parse(c.Input)
	if err != nil {
		return
	}
	switch g.n(4) {
	case 0:
		g.mutateMember(&in)
	case 1:
		strs := stringsOf(&in, nil)
		if len(strs) == 0 {
			g.mutateValue(&in, 0)
			break
		}
		s := pick(g, strs)
		b := []byte(s.Text)
		if v, err := jsonmap.Parse(b); err == nil && (v.Kind == jsonmap.Object || v.Kind == jsonmap.Array) && g.one(2) {
			// a tool's value in a text block: changed as a value is
			g.mutateMember(&v)
			s.Text = string(v.AppendCompact(nil))
			break
		}
		switch g.n(4) {
		case 0:
			b = g.terminators(b)
		case 1:
			b = g.caseOfWord(b)
		case 2:
			b = g.multiByte(b)
		default:
			b = g.nearMiss(b)
		}
		s.Text = string(b)
	case 2:
		// isError: false (or true) on a result or answer: a boolean the
		// vectors may hold at one value and absent only
		objs := objectsOf(&in, nil)
		var results []*jsonmap.Value
		for _, o := range objs {
			if slices.ContainsFunc(o.Members, func(m jsonmap.Member) bool { return m.Key == "content" }) {
				results = append(results, o)
			}
		}
		if len(results) == 0 {
			g.mutateMember(&in)
			break
		}
		set(pick(g, results), "isError", jbool(g.one(2)))
	default:
		g.mutateValue(&in, 0)
	}
	c.Input = in.AppendCompact(nil)
}

// mutateMember changes one member of an object of v: its name in another
// case, a boolean to its other value or away, the member away or twice.
func (g *gen) mutateMember(v *jsonmap.Value) {
	objs := objectsOf(v, nil)
	objs = slices.DeleteFunc(objs, func(o *jsonmap.Value) bool { return len(o.Members) == 0 })
	if len(objs) == 0 {
		g.mutateValue(v, 0)
		return
	}
	o := pick(g, objs)
	var bools []int
	for i, m := range o.Members {
		if m.Value.Kind == jsonmap.True || m.Value.Kind == jsonmap.False {
			bools = append(bools, i)
		}
	}
	i := g.n(len(o.Members))
	switch g.n(6) {
	case 4:
		// two members in the other order [LAY-2]
		if len(o.Members) > 1 {
			j := g.n(len(o.Members) - 1)
			o.Members[j], o.Members[j+1] = o.Members[j+1], o.Members[j]
			return
		}
		fallthrough
	case 5:
		// a name emptied, made dotted, or cut at its dot: where the
		// mapping spreads or nests names [MAP-15] [MAP-17]
		name := o.Members[i].Key
		if before, _, ok := strings.Cut(name, "."); ok && g.one(2) {
			o.Members[i].Key = before
		} else {
			o.Members[i].Key = pick(g, []string{"", name + ".a", "." + name, name + "."})
		}
	case 0:
		o.Members[i].Key = g.respellWord(o.Members[i].Key)
	case 1:
		if len(bools) > 0 {
			i = pick(g, bools)
			if g.one(2) {
				o.Members[i].Value = jbool(o.Members[i].Value.Kind == jsonmap.False)
				return
			}
		}
		o.Members = slices.Delete(o.Members, i, i+1)
	case 2:
		// twice, or beside a member whose name differs only in case
		m := o.Members[i]
		if g.one(2) {
			m.Key = g.respellWord(m.Key)
		}
		o.Members = slices.Insert(o.Members, i+1, m)
	default:
		if strings.ContainsAny(o.Members[i].Key, "/_") || g.one(2) {
			// a member name of the binding's marks, respelled word by word
			o.Members[i].Key = string(g.caseOfWord([]byte(o.Members[i].Key)))
		} else {
			g.mutateValue(&o.Members[i].Value, 1)
		}
	}
}

// objectsOf appends the objects within v, v first if it is one.
func objectsOf(v *jsonmap.Value, out []*jsonmap.Value) []*jsonmap.Value {
	switch v.Kind {
	case jsonmap.Object:
		out = append(out, v)
		for i := range v.Members {
			out = objectsOf(&v.Members[i].Value, out)
		}
	case jsonmap.Array:
		for i := range v.Elems {
			out = objectsOf(&v.Elems[i], out)
		}
	}
	return out
}

// stringsOf appends the string values within v.
func stringsOf(v *jsonmap.Value, out []*jsonmap.Value) []*jsonmap.Value {
	switch v.Kind {
	case jsonmap.String:
		out = append(out, v)
	case jsonmap.Object:
		for i := range v.Members {
			out = stringsOf(&v.Members[i].Value, out)
		}
	case jsonmap.Array:
		for i := range v.Elems {
			out = stringsOf(&v.Elems[i], out)
		}
	}
	return out
}
