package codec

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Draft3Tag is the tag of GCX2-draft.3, tables where servers put them
// (docs/drafts/GCX2-draft.3.md).
const Draft3Tag = "GCX2-draft.3"

// Draft3 is the codec of GCX2-draft.3. A payload of the draft is a GCX1
// payload in its lines; what changes is a value whose tables lie deeper
// than GCX1's mapping looks for them (below a member of the root object,
// such as {"data":{"statements":[{"rows":[...]}]}}). Such a value is
// written in the tree form [D3-TREE-1]: a root with json=tree whose one
// cell is the value with each of its tables replaced by the string "@",
// then one table section per table, named by the tool and the table's
// path [D3-PATH-1]:
//
//	GCX2-draft.3 tool=execute_sql fields= json=tree rows=1
//	{"success":true,"data":{"statements":[{"sql":"SELECT 1","rows":"@"}]}}
//	GCX2-draft.3 tool=execute_sql.data.statements.0.rows fields=a rows=1
//	1
//
// Every other value is written as GCX1 writes it, under the draft's tag
// [D3-ENC-1]. The zero value is the draft as registered; Off switches its
// idea off in the encoder, for the ablation. The decoder reads every
// payload whatever Off says.
type Draft3 struct {
	Off []string
}

func init() { Register(Draft3{}) }

// The draft's ideas, by the names EncodeWithout knows them by.
const (
	draft3Tree  = "tree"  // tables below a member of the root in sections of their own [D3-TREE-1]
	draft3Cells = "cells" // GCX2-draft.1's cells in every table section [D3-CELL-1]
)

// formTree is the value of json= that marks the tree form [D3-TREE-1].
const formTree = "tree"

// Tag returns "GCX2-draft.3".
func (Draft3) Tag() string { return Draft3Tag }

// Ideas lists the draft's ideas in the order of its document.
func (Draft3) Ideas() []Idea {
	return []Idea{
		{Name: draft3Tree, Rules: []string{"D3-TREE-1", "D3-PATH-1", "D3-PATH-2", "D3-ENC-1"},
			Summary: "tables below a member of the root are written as table sections named by their paths, the rest of the value as one JSON cell"},
		{Name: draft3Cells, Rules: []string{"D3-CELL-1"},
			Summary: "every table section's cells as GCX2-draft.1 writes them: constant, template and keyed columns, ^ and … marks"},
	}
}

// Needs returns what the draft's ideas need in a generated value: tables
// nested in wrappers, at any depth, beside scalars and strings "@", and
// what GCX2-draft.1's cells need.
func (Draft3) Needs() Needs {
	n := Draft1{}.Needs()
	n.Nested = true
	n.Wrappers = []string{"data", "results", "items"}
	n.LookAlikes = slices.Concat(n.LookAlikes, []string{"@", `"@"`, "0", "a.b"})
	return n
}

// EncodeWithout is Encode with the named ideas switched off as well.
func (d Draft3) EncodeWithout(tool string, v jsonmap.Value, off []string) ([]byte, error) {
	for _, name := range off {
		if name != draft3Tree && name != draft3Cells {
			return nil, fmt.Errorf("codec: %s has no idea %q (it has %s and %s)", Draft3Tag, name, draft3Tree, draft3Cells)
		}
	}
	d.Off = slices.Concat(d.Off, off)
	return d.Encode(tool, v)
}

// Encode writes v as a GCX2-draft.3 payload under spec.DefaultLimits.
func (d Draft3) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return d.EncodeLimits(tool, v, spec.DefaultLimits)
}

// EncodeLimits writes v in the tree form when [D3-ENC-1] asks for it, else
// the GCX1 model of v [MAP-12], in GCX1's lines under the draft's tag,
// refusing what DecodeLimits under the same limits would refuse [LIM-4].
func (d Draft3) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(d.Off, draft3Tree) {
		if holes, tree := findHoles(tool, v); treeForm(v, holes) {
			if p, err = treeModel(tool, tree, holes); err != nil {
				return nil, err
			}
		}
	}
	// With the cells idea off the tables still pass through GCX2-draft.1's
	// encoder, with none of its ideas: a text that reads as a mark is
	// still guarded [D3-CELL-1].
	pol := policy{ideas: Draft1AllIdeas}
	if slices.Contains(d.Off, draft3Cells) {
		pol.ideas = 0
	}
	for _, i := range draft3Tables(p) {
		compressTable(&p.Sections[i], pol)
	}
	return WriteWireLimits(Draft3Tag, p, limits)
}

// draft3Tables returns the table sections of a model [D3-CELL-1]: every
// section after a json=tree root, or those GCX2-draft.1 finds in a GCX1
// model.
func draft3Tables(p *spec.Payload) []int {
	if len(p.Sections) == 0 || metaValue(p.Sections[0].Meta, jsonmap.KeyJSON) != formTree {
		return tableSections(p)
	}
	out := make([]int, 0, len(p.Sections)-1)
	for i := 1; i < len(p.Sections); i++ {
		out = append(out, i)
	}
	return out
}

// A hole is a table of the value that the tree form writes as a section
// of its own [D3-PATH-1]: its path from the value's root, each step a
// member name or an index, and the array.
type hole struct {
	path  []string
	table jsonmap.Value
}

// findHoles returns, in document order, the tables of v that hold no table
// themselves and whose section name, tool and path joined by ".", is a
// name that claims no layout [D3-PATH-1]; and the tree: v with each of
// them replaced by the string "@". One walk does both: each array is asked
// IsTable once, and only the containers on a hole's path are copied, each
// once, so it is linear in the value.
func findHoles(tool string, v jsonmap.Value) ([]hole, jsonmap.Value) {
	var holes []hole
	var path []string
	// walk returns x with its holes punched, whether it changed, and
	// whether x is or holds a table.
	var walk func(x jsonmap.Value) (jsonmap.Value, bool, bool)
	walk = func(x jsonmap.Value) (jsonmap.Value, bool, bool) {
		changed, inner := false, false
		switch x.Kind {
		case jsonmap.Array:
			var elems []jsonmap.Value
			for i := range x.Elems {
				path = append(path, strconv.Itoa(i))
				e, c, in := walk(x.Elems[i])
				path = path[:len(path)-1]
				inner = inner || in
				if c {
					if elems == nil {
						elems = slices.Clone(x.Elems)
					}
					elems[i], changed = e, true
				}
			}
			if changed {
				x.Elems = elems
			}
			if inner || !jsonmap.IsTable(x) {
				return x, changed, inner
			}
			if len(path) > 0 && nameable(tool, path) {
				holes = append(holes, hole{path: slices.Clone(path), table: x})
				return jsonmap.Value{Kind: jsonmap.String, Text: tableMark}, true, true
			}
			return x, false, true
		case jsonmap.Object:
			var members []jsonmap.Member
			for i := range x.Members {
				path = append(path, x.Members[i].Key)
				m, c, in := walk(x.Members[i].Value)
				path = path[:len(path)-1]
				inner = inner || in
				if c {
					if members == nil {
						members = slices.Clone(x.Members)
					}
					members[i].Value, changed = m, true
				}
			}
			if changed {
				x.Members = members
			}
		}
		return x, changed, inner
	}
	tree, _, _ := walk(v)
	return holes, tree
}

// nameable reports whether a table at path gets a section of its own
// [D3-PATH-1]: every step is a GCX1 name without a dot, and the section's
// name claims no layout [LAY-4].
func nameable(tool string, path []string) bool {
	for _, step := range path {
		if !spec.IsName(step) || strings.Contains(step, ".") {
			return false
		}
	}
	return !claimedNames()[sectionName(tool, path)]
}

// claimedNames holds the names that claim a layout [LAY-4], as claims
// finds them, read once: nameable asks for every table and every "@".
var claimedNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, l := range jsonmap.Layouts() {
		names[l.Tool] = true
		for _, p := range l.Parts {
			names[p.Tool] = true
		}
	}
	return names
})

// sectionName is the name of the section of the table at path [D3-PATH-1].
func sectionName(tool string, path []string) string {
	return tool + "." + strings.Join(path, ".")
}

// treeForm reports whether the tree form writes v [D3-ENC-1]: when a hole
// lies where GCX1's mapping writes no table, deeper than a member of a
// root object.
func treeForm(v jsonmap.Value, holes []hole) bool {
	for _, h := range holes {
		if len(h.path) >= 2 || (len(h.path) == 1 && v.Kind != jsonmap.Object) {
			return true
		}
	}
	return false
}

// treeModel returns the tree form [D3-TREE-1]: the root section with the
// tree, the value with each hole replaced by the string "@", as its one
// cell, then
// each hole's table in the table form [MAP-8], named by its path.
func treeModel(tool string, tree jsonmap.Value, holes []hole) (*spec.Payload, error) {
	p := &spec.Payload{Sections: []spec.Section{{Tool: tool, Fields: []string{""},
		Meta: []spec.Meta{{Key: jsonmap.KeyJSON, Value: formTree}, {Key: spec.KeyRows, Value: "1"}},
		Rows: [][]string{{string(tree.AppendCompact(nil))}}}}}
	for _, h := range holes {
		// A neutral name, which no layout claims, so that the mapping
		// writes the table form; the section then takes its own.
		t, err := jsonmap.Model("t", h.table)
		if err != nil {
			return nil, err
		}
		s := t.Sections[0]
		s.Tool = sectionName(tool, h.path)
		p.Sections = append(p.Sections, s)
	}
	return p, nil
}

// Decode reads a GCX2-draft.3 payload under spec.DefaultLimits. Another
// tag, GCX1 included, is unsupported-version naming it [D3-VER-1].
func (d Draft3) Decode(payload []byte) (jsonmap.Value, error) {
	return d.DecodeLimits(payload, spec.DefaultLimits)
}

// DecodeLimits is Decode under limits [LIM-3]: a root with json=tree is
// read as [D3-TREE-1] says, every other root as GCX1 reads it, and every
// table section's cells are expanded as GCX2-draft.1 expands them
// [D3-CELL-1].
func (Draft3) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	p, err := ReadWire(Draft3Tag, payload, limits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	loc := newLocator(payload, p, Draft3Tag)
	if len(p.Sections) > 0 && metaValue(p.Sections[0].Meta, jsonmap.KeyJSON) == formTree {
		return readTree(payload, p, loc)
	}
	plain, err := expand(p, loc)
	if err != nil {
		return jsonmap.Value{}, err
	}
	v, err := jsonmap.DecodePayload(plain)
	if err != nil {
		return jsonmap.Value{}, loc.remap(err, plain)
	}
	return v, nil
}

// metaValue returns the value of the pair with key, or "".
func metaValue(meta []spec.Meta, key string) string {
	if i := metaAt(meta, key); i >= 0 {
		return meta[i].Value
	}
	return ""
}

// readTree reads the tree form [D3-TREE-1] front to back: the root
// header, its cell read as a json=value root's [MAP-7], then section by
// section its name [D3-PATH-1] [D3-PATH-2], its cells [D3-CELL-1] and its
// table, read as a GCX1 table-form root [MAP-8] and put in the place of
// the string "@" its name gives. The "@" strings of the tree are found in
// one walk and the sections met in order, so the reading is linear.
func readTree(payload []byte, p *spec.Payload, loc *locator) (jsonmap.Value, error) {
	root := p.Sections[0]
	if len(root.Fields) != 1 || root.Fields[0] != "" || len(root.Meta) != 2 || root.Meta[0].Key != jsonmap.KeyJSON || root.Meta[1] != (spec.Meta{Key: spec.KeyRows, Value: "1"}) {
		return jsonmap.Value{}, draft3Error(payload, 1, 1, "D3-TREE-1",
			"a json=tree root declares fields= (one empty field) and carries json=tree and rows=1, nothing else")
	}
	asValue := root
	asValue.Meta = []spec.Meta{{Key: jsonmap.KeyJSON, Value: jsonmap.FormValue}, root.Meta[1]}
	tree, err := jsonmap.DecodePayload(&spec.Payload{Sections: []spec.Section{asValue}})
	if err != nil {
		return jsonmap.Value{}, loc.remap(err, p)
	}
	if tree.Kind != jsonmap.Object && tree.Kind != jsonmap.Array {
		return jsonmap.Value{}, draft3Error(payload, 2, 1, "D3-TREE-1", "the cell of a json=tree root is a JSON object or array")
	}
	marks := markPaths(root.Tool, &tree)
	next := 0 // the first "@" a later section may name [D3-PATH-2]
	line := 1 + sectionLines(root)
	// plain is the payload with the sections read so far expanded, which
	// the locator moves the mapping's errors from.
	plain := &spec.Payload{Sections: slices.Clone(p.Sections)}
	loc.kept = make([][]int, len(p.Sections))
	for si := 1; si < len(p.Sections); si++ {
		s := p.Sections[si]
		at := slices.IndexFunc(marks[next:], func(m mark) bool { return m.name == s.Tool })
		switch {
		case at < 0 && !strings.HasPrefix(s.Tool, root.Tool+"."):
			return jsonmap.Value{}, draft3Error(payload, line, 1, "D3-PATH-1",
				fmt.Sprintf("a section after a json=tree root is named %s.PATH, not %s", root.Tool, quoteName(s.Tool)))
		case at < 0:
			return jsonmap.Value{}, draft3Error(payload, line, 1, "D3-PATH-2",
				fmt.Sprintf("section %s names no string \"@\" of the tree after the previous table's", quoteName(s.Tool)))
		case metaAt(s.Meta, jsonmap.KeyJSON) >= 0 || len(s.Rows) == 0:
			return jsonmap.Value{}, draft3Error(payload, line, 1, "D3-PATH-1",
				"a table section of the tree form is in the table form, without json=, with at least one row")
		}
		expanded, kept, err := expandTable(p, si, loc)
		if err != nil {
			return jsonmap.Value{}, err
		}
		plain.Sections[si], loc.kept[si] = expanded, kept
		table, err := jsonmap.DecodePayload(&spec.Payload{Sections: []spec.Section{expanded}})
		if err != nil {
			return jsonmap.Value{}, loc.remap(fromLine(err, line), plain)
		}
		next += at
		*marks[next].at = table
		next++
		line += sectionLines(s)
	}
	return tree, nil
}

// A mark is a string "@" of the tree whose path could name a section: the
// name it would have and where it is.
type mark struct {
	name string
	at   *jsonmap.Value
}

// markPaths returns the strings "@" of tree in document order whose paths
// are nameable [D3-PATH-1], with their section names.
func markPaths(tool string, tree *jsonmap.Value) []mark {
	var marks []mark
	var path []string
	var walk func(x *jsonmap.Value)
	walk = func(x *jsonmap.Value) {
		switch x.Kind {
		case jsonmap.String:
			if x.Text == tableMark && len(path) > 0 && nameable(tool, path) {
				marks = append(marks, mark{name: sectionName(tool, path), at: x})
			}
		case jsonmap.Array:
			for i := range x.Elems {
				path = append(path, strconv.Itoa(i))
				walk(&x.Elems[i])
				path = path[:len(path)-1]
			}
		case jsonmap.Object:
			for i := range x.Members {
				path = append(path, x.Members[i].Key)
				walk(&x.Members[i].Value)
				path = path[:len(path)-1]
			}
		}
	}
	walk(tree)
	return marks
}

// sectionLines is the number of lines section s takes: its header, rows
// and comments, one line each.
func sectionLines(s spec.Section) int { return 1 + len(s.Rows) + len(s.Comments) }

func quoteName(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// fromLine moves an error that jsonmap.DecodePayload placed in a payload
// of one section to the GCX1 spelling of the whole model, where that
// section begins at line first; the locator then moves it to the draft's
// payload.
func fromLine(err error, first int) error {
	var e *spec.Error
	if !errors.As(err, &e) || e.Line == 0 {
		return err
	}
	fixed := *e
	fixed.Line += first - 1
	return &fixed
}

// draft3Error is a constraint error of the draft's own rules at a line and
// column of the payload.
func draft3Error(payload []byte, line, col int, rule, msg string) error {
	return &spec.Error{Class: spec.ErrConstraint, Line: line, Column: col,
		Offset: int64(lineStart(payload, line) + col - 1), Production: draftProduction, Rule: rule, Msg: msg}
}

// DecodeWire reads the draft's lines, which are GCX1's.
func (Draft3) DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error) {
	return ReadWire(Draft3Tag, payload, limits)
}

// EncodeWire writes the draft's lines, which are GCX1's.
func (Draft3) EncodeWire(p *spec.Payload) ([]byte, error) { return WriteWire(Draft3Tag, p) }
