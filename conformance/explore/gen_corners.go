package explore

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Generators for the corners the general ones seldom or never reach:
// declared tools and their layouts, the tables the JSON encoder spreads
// (nest=) or writes bare (str=), the header form with member tables,
// byte-order marks and guards wherever a value can stand, errors after
// multi-byte text and behind other errors, the minimums every decoder
// must accept, and long plain runs whose special byte ends a block.

// awkward are strings for every position a value can take: guards a
// writer must add (a value that begins with # or GCX), byte-order marks,
// the table mark, texts a JSON reader would take for values, multi-byte
// text and escapes.
var awkward = []string{"#", "#x", "# c", "GCX", "GCX1", "GCX1 tool=t fields=a", "GCX2", "GC", "G", "\uFEFF",
	"\uFEFFx", "x\uFEFF", "\uFEFFGCX1", "@", "62", "true", "1.0", "-0", "null", `"q"`, "[1,2]", "[1, 2]", "{}",
	"é", "日本語", "a\tb", "a\nb", "a\rb", "\\", `\t`, "  x  ", "é#", "😀GCX"}

// awkwardText draws an awkward string, now and then within other text.
func (g *gen) awkwardText() string {
	s := pick(g, awkward)
	switch g.n(4) {
	case 0:
		return s + g.text()
	case 1:
		return pick(g, []string{"", "é", "x"}) + s
	}
	return s
}

// plainRun draws a run of plain bytes whose length is a block size, or
// one off it, followed by a byte or character a decoder must look at:
// a scan that reads a block at a time meets the special byte at the end
// of a block, or just past it.
func (g *gen) plainRun() string {
	block := pick(g, []int{8, 16, 32, 64})
	switch {
	case g.one(96):
		block = 65536 // rare: a case this long costs a program its reading time
	case g.one(8):
		block = 4096
	}
	n := block*g.between(1, 2) + g.between(-1, 1)
	return strings.Repeat(pick(g, []string{"x", "a", "0"}), max(n, 1)) + pick(g, []string{"\t", "\\", "\n", "\r", "é", "\uFEFF", "#", "\x00", "\x7f"})
}

// layoutValue draws a value that fits the layout l [LAY-2], its strings
// awkward now and then.
func (g *gen) layoutValue(l jsonmap.Layout) jsonmap.Value {
	part := func(p jsonmap.Part) jsonmap.Value {
		object := func() jsonmap.Value {
			o := jsonmap.Value{Kind: jsonmap.Object}
			for _, f := range p.Fields {
				if f.Optional && g.one(3) {
					continue
				}
				o.Members = append(o.Members, jsonmap.Member{Key: f.Key, Value: g.typed(f.Type)})
			}
			return o
		}
		if p.Shape == jsonmap.ShapeObject {
			return object()
		}
		v := jsonmap.Value{Kind: jsonmap.Array}
		for range g.between(0, 4) {
			v.Elems = append(v.Elems, object())
		}
		return v
	}
	if len(l.Parts) == 1 {
		return part(l.Parts[0])
	}
	v := jsonmap.Value{Kind: jsonmap.Object}
	for _, p := range l.Parts {
		v.Members = append(v.Members, jsonmap.Member{Key: p.Key, Value: part(p)})
	}
	return v
}

// typed draws a value of a layout field's type [LAY-3].
func (g *gen) typed(t jsonmap.Type) jsonmap.Value {
	switch t {
	case jsonmap.TypeInt:
		return jsonmap.Value{Kind: jsonmap.Number, Text: pick(g, []string{"0", "1", "42", "-7", "-0", "12345678901234567890"})}
	case jsonmap.TypeNumber:
		return jsonmap.Value{Kind: jsonmap.Number, Text: pick(g, numbers)}
	case jsonmap.TypeBool:
		return jsonmap.Value{Kind: pick(g, []jsonmap.Kind{jsonmap.True, jsonmap.False})}
	case jsonmap.TypeJSON:
		return g.value(2)
	}
	if g.one(2) {
		return jsonmap.Value{Kind: jsonmap.String, Text: g.awkwardText()}
	}
	return jsonmap.Value{Kind: jsonmap.String, Text: pick(g, []string{"", "a", "search", "internal/x.go", "func()", "é"})}
}

// misfit changes a fitting value so that it no longer fits [LAY-7]: a
// member added, two swapped, one retyped or null, one dropped.
func (g *gen) misfit(v *jsonmap.Value) {
	var objects []*jsonmap.Value
	var walk func(*jsonmap.Value)
	walk = func(v *jsonmap.Value) {
		switch v.Kind {
		case jsonmap.Object:
			objects = append(objects, v)
			// into the parts of a layout of several, and their rows
			for i := range v.Members {
				if k := v.Members[i].Value.Kind; k == jsonmap.Array || (k == jsonmap.Object && len(objects) == 1) {
					walk(&v.Members[i].Value)
				}
			}
		case jsonmap.Array:
			for i := range v.Elems {
				walk(&v.Elems[i])
			}
		}
	}
	walk(v)
	if len(objects) == 0 {
		*v = jsonmap.Value{Kind: jsonmap.Object}
		return
	}
	o := pick(g, objects)
	o.Members = slices.Clone(o.Members)
	if len(o.Members) == 0 || g.one(4) {
		o.Members = append(o.Members, jsonmap.Member{Key: pick(g, []string{"extra", "ID", "id ", "x"}), Value: g.scalar()})
		return
	}
	i := g.n(len(o.Members))
	switch g.n(4) {
	case 0:
		j := g.n(len(o.Members))
		o.Members[i], o.Members[j] = o.Members[j], o.Members[i]
	case 1:
		o.Members[i].Value = jsonmap.Value{Kind: jsonmap.Null}
	case 2:
		o.Members[i].Value = pick(g, []jsonmap.Value{{Kind: jsonmap.String, Text: "1"}, {Kind: jsonmap.Number, Text: "1.5"}, {Kind: jsonmap.True}})
	default:
		o.Members = slices.Delete(o.Members, i, i+1)
	}
}

// spreadTable draws a table whose elements share an object member, which
// the encoder spreads over columns [MAP-17], and string columns most of
// whose strings need quotes, which it writes bare [MAP-18].
func (g *gen) spreadTable() jsonmap.Value {
	inner := pick(g, [][]string{{"line", "col"}, {"file", "line"}, {"a"}, {"x.y", "z"}})
	outer := pick(g, []string{"pos", "loc", "p", "a.b"})
	v := jsonmap.Value{Kind: jsonmap.Array}
	for range g.between(1, 4) {
		pos := jsonmap.Value{Kind: jsonmap.Object}
		for _, k := range inner {
			if g.one(5) {
				continue
			}
			pos.Members = append(pos.Members, jsonmap.Member{Key: k, Value: g.scalar()})
		}
		row := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{
			{Key: "id", Value: jsonmap.Value{Kind: jsonmap.String, Text: pick(g, []string{"62", "true", "1.0", "null", "-0", "[]", "a", g.awkwardText()})}},
			{Key: outer, Value: pos},
		}}
		if g.one(2) {
			row.Members = append(row.Members, jsonmap.Member{Key: "n", Value: jsonmap.Value{Kind: jsonmap.String, Text: pick(g, []string{"1", "2", "false", "x"})}})
		}
		v.Elems = append(v.Elems, row)
	}
	return v
}

// headerObject draws an object of scalar members and one or two tables:
// the header form, its rows for the first table and member tables for
// the rest [MAP-10] [MAP-11].
func (g *gen) headerObject() jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.Object}
	for _, k := range []string{"total", "cursor", "note", "items", "edges", "@"} {
		switch {
		case k == "items" || k == "edges":
			if g.one(3) {
				continue
			}
			t := g.table(2)
			if g.one(3) {
				t = g.spreadTable()
			}
			v.Members = append(v.Members, jsonmap.Member{Key: k, Value: t})
		case g.one(2):
			s := g.scalar()
			if g.one(2) {
				s = jsonmap.Value{Kind: jsonmap.String, Text: g.awkwardText()}
			}
			v.Members = append(v.Members, jsonmap.Member{Key: k, Value: s})
		}
	}
	return v
}

// ornament adds to a payload of the mapping what its decoder must ignore
// [MAP-13]: comments, and meta pairs on a section's header.
func (g *gen) ornament(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var out [][]byte
	for _, l := range lines {
		if bytes.HasPrefix(l, []byte("GCX")) && bytes.HasSuffix(l, []byte("\n")) && g.one(2) {
			l = slices.Concat(l[:len(l)-1], []byte(pick(g, []string{" total=9", " truncated=true", " next_cursor=abc", " k=#x"})), []byte("\n"))
		}
		out = append(out, l)
		if len(l) > 0 && g.one(3) {
			out = append(out, []byte(pick(g, []string{"#", "#c\n", "# note é\n", "#GCX1\n"})))
			if !bytes.HasSuffix(out[len(out)-1], []byte("\n")) {
				out[len(out)-1] = append(out[len(out)-1], '\n')
			}
		}
	}
	return bytes.Join(out, nil)
}

// mappingEdit breaks a payload of the mapping where its reader checks it:
// a field list renamed, shortened or reordered [LAY-5], a cell emptied or
// retyped [LAY-3], a root renamed after its declared tool [LAY-4], nest=
// and str= that name no field [MAP-15] [MAP-16], a section dropped or a
// row added [MAP-11] [MAP-9].
func (g *gen) mappingEdit(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) == 0 {
		return b
	}
	var headers, rows []int
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("GCX")) {
			headers = append(headers, i)
		} else if len(l) > 0 && l[0] != '#' {
			rows = append(rows, i)
		}
	}
	edit := g.n(9)
	if first := lines[0]; !bytes.Contains(first, []byte(" json=")) && g.one(2) {
		// a payload that claims a layout, or a table: its fields, cells
		// and name are what its reader checks [LAY-3] [LAY-4] [LAY-5]
		edit = pick(g, []int{0, 1, 1, 2})
	}
	k := g.n(len(lines))
	switch {
	case (edit == 1 || edit == 5) && len(rows) > 0:
		k = pick(g, rows)
	case edit != 1 && edit != 5 && len(headers) > 0:
		k = pick(g, headers)
	}
	l := string(lines[k])
	switch edit {
	case 0:
		if at := strings.Index(l, "fields="); at >= 0 {
			rest := l[at+len("fields="):]
			end := strings.IndexAny(rest, " \n")
			if end < 0 {
				end = len(rest)
			}
			names := strings.Split(rest[:end], ",")
			switch {
			case len(names) > 1 && g.one(2):
				names[0], names[1] = names[1], names[0]
			case g.one(2):
				names = append(names, "extra")
			default:
				names[len(names)-1] += "x"
			}
			l = l[:at] + "fields=" + strings.Join(names, ",") + rest[end:]
		}
	case 1:
		if !strings.HasPrefix(l, "GCX") && !strings.HasPrefix(l, "#") {
			cells := strings.Split(strings.TrimSuffix(l, "\n"), "\t")
			cells[g.n(len(cells))] = pick(g, []string{"", "x", "1.5", "null", "@", "\\#x"})
			l = strings.Join(cells, "\t") + "\n"
		}
	case 2:
		l = strings.Replace(l, "tool=get_callers.nodes", "tool=get_callers", 1)
		l = strings.Replace(l, "tool=search_symbols", "tool="+pick(g, []string{"find_usages", "get_callers.edges", "search_symbols.x"}), 1)
	case 3:
		if strings.HasPrefix(l, "GCX") {
			l = strings.TrimSuffix(l, "\n") + pick(g, []string{" nest=zz", " str=zz", " nest=id", " str=id,id", " nest=", " json=rows"}) + "\n"
		}
	case 4:
		if len(lines) > 1 && k > 0 && strings.HasPrefix(l, "GCX") {
			// a section dropped: the root announced it
			return slices.Concat(slices.Concat(lines[:k]...), slices.Concat(lines[k+1:]...))
		}
	case 5:
		// a row too many
		l += l
	case 6:
		// a reserved value in other case [MAP-7] [META-3]
		if respelled := g.respellCase(l); respelled != l {
			l = respelled
			break
		}
		return g.nearMiss(b)
	default:
		return g.nearMiss(b)
	}
	lines[k] = []byte(l)
	return bytes.Join(lines, nil)
}

// jsonCornerCase draws a case of the mapping from the generators above:
// the value written (json-encode), or the reference's payload of it read
// back, ornamented or broken (json-decode).
func (g *gen) jsonCornerCase(ref Reference) Case {
	var v jsonmap.Value
	tool := g.name()
	switch g.n(5) {
	case 0, 1:
		l := pick(g, jsonmap.Layouts())
		tool = l.Tool
		if g.one(4) {
			tool = l.Parts[0].Tool
		}
		v = g.layoutValue(l)
		if g.one(3) {
			g.misfit(&v)
		}
	case 2:
		v = g.spreadTable()
	case 3:
		v = g.headerObject()
	default:
		v = g.awkwardArray()
	}
	text := v.AppendCompact(nil)
	if g.n(5) < 2 {
		mode := "gcx"
		if g.one(5) {
			mode = "auto"
		}
		switch {
		case g.one(12):
			text = append([]byte("\uFEFF"), text...) // a byte-order mark before the JSON [MAP-1]
		case g.one(10):
			text = g.jsonNearMiss(text)
		}
		return g.jsonLimits(ref, Case{Op: conformance.OpJSONEncode, Input: text, Tool: tool, Mode: mode})
	}
	out, err := ref.Impl.EncodeJSON(text, tool, "gcx", nil)
	if err != nil {
		return Case{Op: conformance.OpJSONEncode, Input: text, Tool: tool, Mode: "gcx"}
	}
	switch g.n(8) {
	case 0, 1:
		out = g.ornament(out)
	case 2, 3, 4, 5:
		out = g.mappingEdit(out)
	case 6:
		if g.one(3) {
			out = append([]byte("\uFEFF"), out...) // [ENC-2] on the client's side
		}
	}
	return g.jsonLimits(ref, Case{Op: conformance.OpJSONDecode, Input: out})
}

// minimumsCase draws a payload at one of the sizes every decoder must
// accept by default [LIM-2]: 1,024 fields, 256 sections, a line of 1 MiB.
func (g *gen) minimumsCase(ref Reference) Case {
	var b strings.Builder
	kind := g.n(5)
	if kind == 0 && !g.one(4) {
		// the line minimum, once in many draws: a mebibyte costs a program
		// more than the rest of a run
		kind = 1
	}
	switch kind {
	case 0:
		b.WriteString(g.tag + " tool=t fields=a\n")
		unit := pick(g, []string{"x", "é", "ab", "\\t"})
		b.WriteString(strings.Repeat(unit, (1<<20)/len(unit)))
		b.WriteString("\n")
	case 1, 2:
		b.WriteString(g.tag + " tool=t fields=")
		for i := range 1024 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("f" + strconv.Itoa(i))
		}
		b.WriteString(" rows=1\n")
		b.WriteString(strings.Repeat("\t", 1023) + "x\n")
	default:
		for i := range 256 {
			b.WriteString(g.tag + " tool=t" + strconv.Itoa(i%7) + " fields=a\n")
			if g.one(2) {
				b.WriteString("x\n")
			}
		}
	}
	return Case{Op: conformance.OpDecode, Input: []byte(b.String())}
}

// rejectCornerCase draws a payload broken where the general near miss
// seldom breaks it: a byte-order mark at the start [ENC-2]; an error just
// after multi-byte text, where columns in bytes and in characters differ
// [ERR-2]; two errors, where the order decides [ERR-3]; a later header
// with a tag at the bounds of [VER-1].
func (g *gen) rejectCornerCase(ref Reference) Case {
	p := g.payload()
	b := g.encoded(ref, p)
	switch g.n(8) {
	case 4:
		b = g.breakEscapeOrMeta(b)
	case 5, 6, 7:
		// a guarded value where the row has no room for it: the column of
		// a value too many counts the guard's backslash [ROW-2] [ROW-4]
		lines := bytes.SplitAfter(b, []byte("\n"))
		var rows []int
		for i, l := range lines {
			if i > 0 && len(l) > 0 && l[0] != '#' && !bytes.HasPrefix(l, []byte("GCX")) {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			b = append(b, []byte(`\#x`+"\t"+`\GCX1`+"\n")...)
			break
		}
		k := pick(g, rows)
		line := bytes.TrimSuffix(lines[k], []byte("\n"))
		guard := pick(g, []string{`\#`, `\#x`, `\GCX`, `\GCX1 t`, `\#é`})
		switch g.n(4) {
		case 0:
			line = slices.Concat(line, []byte("\t"+guard))
		case 1, 2:
			line = slices.Concat([]byte(guard+"\t"), line)
		default:
			line = []byte(guard) // a row of one guarded value, too few for most
		}
		lines[k] = append(line, '\n')
		b = bytes.Join(lines, nil)
	case 0:
		b = append([]byte(pick(g, []string{"\uFEFF", "\uFEFF\uFEFF", "\uFEFF#"})), b...)
	case 1:
		// after the last multi-byte character of a line, or after one put in
		lines := bytes.SplitAfter(b, []byte("\n"))
		k := g.n(len(lines))
		line := slices.Clone(lines[k])
		at := bytes.LastIndexFunc(line, func(r rune) bool { return r >= 0x80 })
		if at < 0 {
			at = g.n(len(line) + 1)
			line = slices.Insert(line, at, []byte(pick(g, []string{"é", "日本", "😀"}))...)
		}
		for at < len(line) && line[at] >= 0x80 {
			at++
		}
		lines[k] = slices.Insert(line, at, []byte(pick(g, []string{"\\q", "\r", "\\", "\xff", " ", "\t", "\\G"}))...)
		b = bytes.Join(lines, nil)
	case 2:
		b = g.nearMiss(b)
		b = append(b, []byte(pick(g, []string{"x\\q\n", "GCX2\n", g.tag + " tool=u fields=a,a\n", "\r\n"}))...)
	default:
		tagChars := "abcXYZ0189._-"
		tag := []byte("GCX")
		for range pick(g, []int{28, 29, 30}) {
			tag = append(tag, tagChars[g.n(len(tagChars))])
		}
		b = append(b, tag...)
		b = append(b, []byte(pick(g, []string{" tool=t fields=a\n", "\n", ""}))...)
	}
	c := Case{Op: conformance.OpDecode, Input: b}
	if g.one(6) {
		c.Limits = g.limits(b)
	}
	return c
}

// awkwardSection draws a section whose tool name, fields, meta values,
// cells and comments are awkward: guards, byte-order marks, long plain
// runs.
func (g *gen) awkwardSection() spec.Section {
	s := g.section(3)
	for i := range s.Fields {
		if g.one(2) {
			f := g.awkwardText()
			if !slices.Contains(s.Fields, f) {
				s.Fields[i] = f
			}
		}
	}
	for i := range s.Meta {
		if k := s.Meta[i].Key; k != spec.KeyRows && k != spec.KeyTotal && k != spec.KeyTruncated && g.one(2) {
			s.Meta[i].Value = g.awkwardText()
		}
	}
	for _, row := range s.Rows {
		for i := range row {
			switch g.n(8) {
			case 0:
				row[i] = g.plainRun()
			case 1, 2, 3:
				row[i] = g.awkwardText()
			}
		}
	}
	for i := range s.Comments {
		if g.one(2) {
			s.Comments[i].Text = strings.NewReplacer("\n", "", "\r", "").Replace(g.awkwardText())
		}
	}
	return s
}

// breakEscapeOrMeta breaks a header where its reader checks it: a bad
// escape in a field name [HDR-5] or a meta value [HDR-7], or a reserved
// key with a value it refuses [META-1] [META-3], or a key repeated
// [HDR-8].
func (g *gen) breakEscapeOrMeta(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	var headers []int
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(g.tag+" ")) {
			headers = append(headers, i)
		}
	}
	if len(headers) == 0 {
		return g.nearMiss(b)
	}
	k := pick(g, headers)
	line := string(bytes.TrimSuffix(lines[k], []byte("\n")))
	bad := pick(g, []string{`\q`, `\,`, `\#`, `\G`, `\`, "\\\t", `\é`})
	switch g.n(4) {
	case 0:
		// within the field list
		at := strings.Index(line, "fields=") + len("fields=")
		end := strings.IndexByte(line[at:], ' ')
		if end < 0 {
			end = len(line) - at
		}
		line = line[:at+g.n(end+1)] + bad + line[at+g.n(end+1):]
	case 1:
		line += " " + pick(g, []string{"k", "note", "lang"}) + "=" + pick(g, []string{"", "é", "x"}) + bad
	case 2:
		line += pick(g, []string{" truncated=yes", " truncated=", " rows=01", " total=-1", " total=x", " rows=99"})
	default:
		line += pick(g, []string{" k=1 k=2", " tool=x", " fields=y", " rows=0 rows=0"})
	}
	lines[k] = []byte(line + "\n")
	return bytes.Join(lines, nil)
}

// awkwardArray draws the array and value forms' corners [MAP-9]: elements
// that are awkward strings, the empty string (which a cell can only hold
// quoted), and other scalars; now and then a lone value.
func (g *gen) awkwardArray() jsonmap.Value {
	element := func() jsonmap.Value {
		switch g.n(4) {
		case 0:
			return jsonmap.Value{Kind: jsonmap.String}
		case 1:
			return g.scalar()
		}
		return jsonmap.Value{Kind: jsonmap.String, Text: g.awkwardText()}
	}
	if g.one(4) {
		return element()
	}
	v := jsonmap.Value{Kind: jsonmap.Array}
	for range g.between(0, 5) {
		v.Elems = append(v.Elems, element())
	}
	return v
}

// jsonEdges are the bytes at the edges of the range JSON forbids raw in a
// string [MAP-1]: its first and last, U+0000 and U+001F (drawn most, as
// a range check is wrong at its ends), U+0001 and LF, refused, and the
// space and DEL just outside it, accepted.
var jsonEdges = []byte{0x00, 0x00, 0x1f, 0x1f, 0x01, 0x0a, 0x20, 0x7f}

// jsonNearMiss breaks a JSON text where a reader of its strings looks
// [MAP-1]: a string's escape of a control character written raw, as a
// writer that forgets to escape would, or a byte at the edges of the
// forbidden range put into a string; otherwise a byte edit of nearMiss.
func (g *gen) jsonNearMiss(b []byte) []byte {
	var escapes, inside []int // escapes of controls (their backslashes); bytes within strings
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\' && i+1 < len(b):
			if control, n := escapedControl(b[i:]); n > 0 && control < 0x20 {
				escapes = append(escapes, i)
			}
			inside = append(inside, i)
			i++ // the escaped byte
		case c == '"':
			if inString = !inString; !inString {
				inside = append(inside, i)
			}
		case inString:
			inside = append(inside, i)
		}
	}
	switch {
	case len(escapes) > 0 && g.one(2):
		at := pick(g, escapes)
		control, n := escapedControl(b[at:])
		return slices.Concat(b[:at], []byte{control}, b[at+n:])
	case len(inside) > 0 && g.one(2):
		return slices.Insert(slices.Clone(b), pick(g, inside), pick(g, jsonEdges))
	}
	return g.nearMiss(b)
}

// shortEscapes are JSON's two-character escapes of controls.
var shortEscapes = map[byte]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escapedControl reads the JSON escape at the start of b and returns the
// byte it stands for and its length, or a length of 0 when it is not the
// escape of a byte below 0x80.
func escapedControl(b []byte) (byte, int) {
	if len(b) < 2 || b[0] != '\\' {
		return 0, 0
	}
	if c, ok := shortEscapes[b[1]]; ok {
		return c, 2
	}
	if len(b) >= 6 && b[1] == 'u' && string(b[2:4]) == "00" {
		if v, err := strconv.ParseUint(string(b[4:6]), 16, 8); err == nil && v < 0x80 {
			return byte(v), 6
		}
	}
	return 0, 0
}

// respellCase writes a reserved value of the first header in l that has
// one in other case — a form name of json= [MAP-7], a boolean of
// truncated= [META-3] — which names no form and no boolean: these values
// compare byte for byte. l is a header line or a whole payload.
func (g *gen) respellCase(l string) string {
	var at []int
	for _, key := range []string{" json=", " truncated="} {
		if i := strings.Index(l, key); i >= 0 {
			at = append(at, i+len(key))
		}
	}
	if len(at) == 0 {
		return l
	}
	start := pick(g, at)
	end := start + strings.IndexAny(l[start:]+" ", " \n")
	value := l[start:end]
	if value == "" {
		return l
	}
	switch g.n(3) {
	case 0:
		value = strings.ToUpper(value)
	case 1:
		value = strings.ToUpper(value[:1]) + value[1:]
	default:
		value = value[:len(value)-1] + strings.ToUpper(value[len(value)-1:])
	}
	return l[:start] + value + l[end:]
}

// retyped returns a value of another JSON type than v, most often one a
// loose reader would take for v — true for 1, the string "1" for 1, 1 for
// true — so that a reader that tests a value's type loosely (a language
// in which a boolean is an integer, or a string converted on the way)
// shows it [WIRE-2] [MCP-7] [MCP-11].
func (g *gen) retyped(v jsonmap.Value) jsonmap.Value {
	null := jsonmap.Value{Kind: jsonmap.Null}
	switch v.Kind {
	case jsonmap.True, jsonmap.False:
		one := "0"
		if v.Kind == jsonmap.True {
			one = "1"
		}
		return pick(g, []jsonmap.Value{{Kind: jsonmap.Number, Text: one}, jstr(one), jstr(strconv.FormatBool(v.Kind == jsonmap.True)), null})
	case jsonmap.Number:
		return pick(g, []jsonmap.Value{jstr(v.Text), jbool(v.Text != "0"), null, jarr(v)})
	case jsonmap.String:
		number := "1"
		if _, err := strconv.ParseFloat(v.Text, 64); err == nil {
			number = v.Text
		}
		return pick(g, []jsonmap.Value{{Kind: jsonmap.Number, Text: number}, jbool(v.Text != ""), null, jarr(v), jobj("", v)})
	case jsonmap.Null:
		return pick(g, []jsonmap.Value{jstr("null"), jbool(false), jnum(0)})
	case jsonmap.Array:
		return pick(g, []jsonmap.Value{jobj(), jstr(""), null})
	}
	return pick(g, []jsonmap.Value{jarr(), jstr(""), null})
}

// retypeOne replaces one node of v, reached by a random walk, with a
// value of another type (retyped).
func (g *gen) retypeOne(v *jsonmap.Value, depth int) {
	switch {
	case v.Kind == jsonmap.Object && len(v.Members) > 0 && (depth == 0 || !g.one(6)):
		v.Members = slices.Clone(v.Members)
		g.retypeOne(&v.Members[g.n(len(v.Members))].Value, depth+1)
	case v.Kind == jsonmap.Array && len(v.Elems) > 0 && (depth == 0 || !g.one(6)):
		v.Elems = slices.Clone(v.Elems)
		g.retypeOne(&v.Elems[g.n(len(v.Elems))], depth+1)
	default:
		*v = g.retyped(*v)
	}
}
