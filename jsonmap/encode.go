package jsonmap

import (
	"container/heap"
	"fmt"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// KeyJSON is the meta key that names the generic form of a root section
// [MAP-7].
const KeyJSON = "json"

// The generic forms, as values of json= [MAP-7].
const (
	FormRows   = "rows"   // an array of objects, one row each [MAP-8]
	FormObject = "object" // an object, its members in the header [MAP-10]
	FormRow    = "row"    // an object, its members as the fields of one row [MAP-10]
	FormArray  = "array"  // an array of any values, one row each [MAP-9]
	FormValue  = "value"  // any value, in the only cell [MAP-9]
)

// Encode returns the canonical GCX1 payload of the JSON text value, as the
// result of tool [MAP-12]. It encodes every JSON value of the mapping's
// domain [MAP-1], losslessly: with the tool's frozen layout when the tool
// is declared and the value fits it [LAY-2], generically otherwise
// [LAY-7]. Its errors are *spec.Error values: class ErrInvalidJSON for the
// input, spec.ErrLimit for nesting beyond MaxDepth, spec.ErrModel for a
// tool name GCX1 cannot carry.
func Encode(tool string, value []byte) ([]byte, error) {
	v, err := Parse(value)
	if err != nil {
		return nil, err
	}
	return EncodeValue(tool, v)
}

// EncodeValue is Encode for a parsed value.
func EncodeValue(tool string, v Value) ([]byte, error) {
	p, err := Model(tool, v)
	if err != nil {
		return nil, err
	}
	return reference.Encode(p)
}

// Model returns the payload model of v as the result of tool, the one
// Encode writes [MAP-12].
func Model(tool string, v Value) (*spec.Payload, error) {
	if !spec.IsName(tool) {
		return nil, &spec.Error{Class: spec.ErrModel, Rule: "HDR-3",
			Msg: fmt.Sprintf("tool name %q must be one or more of A-Z a-z 0-9 _ - .", tool)}
	}
	for _, l := range registry {
		if l.Tool != tool {
			continue
		}
		if cells, err := l.cells(v); err == nil {
			return layoutPayload(l, cells), nil
		}
		break
	}
	return generic(tool, v), nil
}

// layoutPayload writes one section per part, with the frozen fields and
// the row count [LAY-2].
func layoutPayload(l Layout, cells [][][]string) *spec.Payload {
	p := &spec.Payload{Sections: make([]spec.Section, len(l.Parts))}
	for i, part := range l.Parts {
		p.Sections[i] = spec.Section{Tool: part.Tool, Fields: part.FieldNames(), Meta: []spec.Meta{rowCount(len(cells[i]))}, Rows: cells[i]}
	}
	return p
}

// generic chooses the form of v [MAP-12].
func generic(tool string, v Value) *spec.Payload {
	switch v.Kind {
	case Array:
		if t, ok := tableOf(v); ok {
			s := t.section(tool)
			if claimed(tool) {
				s.Meta = append([]spec.Meta{{Key: KeyJSON, Value: FormRows}}, s.Meta...)
			}
			return &spec.Payload{Sections: []spec.Section{s}}
		}
		return &spec.Payload{Sections: []spec.Section{listSection(tool, v.Elems)}}
	case Object:
		if p, ok := headerObject(tool, v); ok {
			return p
		}
		return rowObject(tool, v)
	}
	return &spec.Payload{Sections: []spec.Section{{
		Tool: tool, Fields: []string{""}, Meta: []spec.Meta{{Key: KeyJSON, Value: FormValue}, rowCount(1)},
		Rows: [][]string{{spell(v)}},
	}}}
}

// rowCount is the rows= pair every section with rows carries, so that a
// payload cut short at a line boundary is an error and not a shorter
// value [MAP-12] [META-4].
func rowCount(n int) spec.Meta {
	return spec.Meta{Key: spec.KeyRows, Value: strconv.Itoa(n)}
}

// listSection is the array form: one value per row [MAP-9].
func listSection(tool string, elems []Value) spec.Section {
	s := spec.Section{Tool: tool, Fields: []string{""},
		Meta: []spec.Meta{{Key: KeyJSON, Value: FormArray}, rowCount(len(elems))},
		Rows: make([][]string, len(elems))}
	for i, e := range elems {
		s.Rows[i] = []string{spell(e)}
	}
	return s
}

// headerObject tries the header form of an object [MAP-10]: members become
// meta pairs in order, and each member that is a non-empty table becomes
// "@" and a table — the first in the root section's own rows, the others
// in sections of their own named tool.key [MAP-11]. It declines when a
// member name or value breaks a header rule (a name outside [HDR-3], json,
// rows, tool or fields, a reserved key with a value [META-1] [META-3]
// refuse), and when a member value would need a header escape: SP, TAB,
// LF, CR or backslash, which cost more in a header than in a row.
func headerObject(tool string, v Value) (*spec.Payload, bool) {
	root := spec.Section{Tool: tool, Fields: []string{""}, Meta: []spec.Meta{{Key: KeyJSON, Value: FormObject}}}
	var more []spec.Section
	for _, m := range v.Members {
		switch m.Key {
		case KeyJSON, spec.KeyRows, KeyNest, KeyStr:
			return nil, false
		}
		if t, ok := memberTable(m); ok {
			root.Meta = append(root.Meta, spec.Meta{Key: m.Key, Value: tableMark})
			if root.Rows == nil {
				root.Fields, root.Rows = t.fields, t.rows
				head := append([]spec.Meta{root.Meta[0], rowCount(len(t.rows))}, t.meta...)
				root.Meta = append(head, root.Meta[1:]...)
			} else {
				more = append(more, t.section(tool+"."+m.Key))
			}
			continue
		}
		text := spellMember(m.Value)
		if strings.ContainsAny(text, " \t\n\r\\") {
			return nil, false
		}
		root.Meta = append(root.Meta, spec.Meta{Key: m.Key, Value: text})
	}
	p := &spec.Payload{Sections: append([]spec.Section{root}, more...)}
	if p.Check() != nil {
		return nil, false
	}
	return p, true
}

// rowObject writes an object in the row form [MAP-10]: its member names
// are the fields and its values the only row; a member that is a
// non-empty table and whose name is a GCX1 name is "@" there, and its
// table follows in a section named tool.key [MAP-11]. Every object has
// this form.
func rowObject(tool string, v Value) *spec.Payload {
	root := spec.Section{Tool: tool, Meta: []spec.Meta{{Key: KeyJSON, Value: FormRow}, rowCount(1)}}
	row := make([]string, 0, len(v.Members))
	var more []spec.Section
	for _, m := range v.Members {
		root.Fields = append(root.Fields, m.Key)
		if t, ok := memberTable(m); ok && spec.IsName(m.Key) {
			row = append(row, tableMark)
			more = append(more, t.section(tool+"."+m.Key))
			continue
		}
		row = append(row, spellMember(m.Value))
	}
	root.Rows = [][]string{row}
	return &spec.Payload{Sections: append([]spec.Section{root}, more...)}
}

// memberTable lays out a member's value as a table if it is a non-empty
// array of objects that agree on an order of names.
func memberTable(m Member) (table, bool) {
	if m.Value.Kind != Array || len(m.Value.Elems) == 0 {
		return table{}, false
	}
	return tableOf(m.Value)
}

// table is an array of objects laid out as rows: the member names in an
// order every element agrees with, and one row of spelled values per
// element, empty where the element lacks the member [MAP-8]. Its meta
// pairs are nest= and str= [MAP-15].
type table struct {
	fields []string
	meta   []spec.Meta
	rows   [][]string
}

func (t table) section(tool string) spec.Section {
	return spec.Section{Tool: tool, Fields: t.fields, Meta: append([]spec.Meta{rowCount(len(t.rows))}, t.meta...), Rows: t.rows}
}

// Meta keys of table sections [MAP-15].
const (
	KeyNest = "nest" // members whose objects are spread over columns
	KeyStr  = "str"  // columns of bare strings
)

// column is one field of a table: a member, or one member of a nested
// member's objects.
type column struct {
	member, sub string
	nested      bool
}

func (c column) name() string {
	if c.nested {
		return c.member + "." + c.sub
	}
	return c.member
}

// tableOf lays out an array whose elements are all objects. It fails when
// no single order of the member names agrees with every element's order,
// or when an element is not an object.
func tableOf(v Value) (table, bool) {
	for _, e := range v.Elems {
		if e.Kind != Object {
			return table{}, false
		}
	}
	names, ok := memberOrder(v.Elems)
	if !ok {
		return table{}, false
	}
	var cols []column
	var nest []string
	for _, n := range names {
		subs, ok := nestable(v.Elems, n, names)
		if !ok {
			cols = append(cols, column{member: n})
			continue
		}
		nest = append(nest, n)
		for _, sub := range subs {
			cols = append(cols, column{member: n, sub: sub, nested: true})
		}
	}
	if len(cols) == 0 {
		// Elements without members: one field, named "", empty in
		// every row, since a header needs a field [HDR-4].
		return table{fields: []string{""}, rows: emptyRows(len(v.Elems))}, true
	}
	at := make(map[column]int, len(cols))
	t := table{fields: make([]string, len(cols))}
	for i, c := range cols {
		at[c] = i
		t.fields[i] = c.name()
	}
	grid := make([][]*Value, len(v.Elems))
	for r, e := range v.Elems {
		grid[r] = make([]*Value, len(cols))
		for i := range e.Members {
			m := &e.Members[i]
			if c, ok := at[column{member: m.Key}]; ok {
				grid[r][c] = &m.Value
				continue
			}
			for j := range m.Value.Members {
				sm := &m.Value.Members[j]
				grid[r][at[column{member: m.Key, sub: sm.Key, nested: true}]] = &sm.Value
			}
		}
	}
	str := make([]bool, len(cols))
	var strNames []string
	for c := range cols {
		if str[c] = bareStrings(grid, c, t.fields[c]); str[c] {
			strNames = append(strNames, t.fields[c])
		}
	}
	t.rows = make([][]string, len(grid))
	for r, cells := range grid {
		row := make([]string, len(cols))
		for c, v := range cells {
			switch {
			case v == nil:
			case str[c]:
				row[c] = v.Text
			default:
				row[c] = spell(*v)
			}
		}
		t.rows[r] = row
	}
	if len(nest) > 0 {
		t.meta = append(t.meta, spec.Meta{Key: KeyNest, Value: strings.Join(nest, ",")})
	}
	if len(strNames) > 0 {
		t.meta = append(t.meta, spec.Meta{Key: KeyStr, Value: strings.Join(strNames, ",")})
	}
	return t, true
}

func emptyRows(n int) [][]string {
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = []string{""}
	}
	return rows
}

// memberOrder returns the member names of objs in an order that agrees
// with every object's own order: the order of first appearance when it
// does, else the one agreeingOrder finds.
func memberOrder(objs []Value) ([]string, bool) {
	index := map[string]int{}
	var names []string
	agree := true
	for _, e := range objs {
		last := -1
		for _, m := range e.Members {
			i, ok := index[m.Key]
			if !ok {
				i = len(names)
				index[m.Key] = i
				names = append(names, m.Key)
			}
			if i < last {
				agree = false
			}
			last = i
		}
	}
	if agree {
		return names, true
	}
	return agreeingOrder(objs, names, index)
}

// nestable reports whether member n of the elements is spread over
// columns n.sub [MAP-15], and returns the subs in order. That is so when
// every element has n as an object, those objects agree on an order of
// their names and have at least one name, the columns would be at least
// half full, n is neither empty nor holds a comma, and no other member
// name begins with n and a dot.
func nestable(elems []Value, n string, names []string) ([]string, bool) {
	if n == "" || strings.Contains(n, ",") {
		return nil, false
	}
	for _, other := range names {
		if strings.HasPrefix(other, n+".") {
			return nil, false
		}
	}
	objs := make([]Value, len(elems))
	present := 0
	for i, e := range elems {
		m, ok := e.Lookup(n)
		if !ok || m.Kind != Object {
			return nil, false
		}
		objs[i] = m
		present += len(m.Members)
	}
	subs, ok := memberOrder(objs)
	if !ok || len(subs) == 0 || len(elems)*len(subs)-present > present {
		return nil, false
	}
	return subs, true
}

// bareStrings reports whether column c is written as bare strings
// [MAP-15]: its name is neither empty nor holds a comma, every value in it
// is a non-empty string, and at least two of them would need quotes as
// spelled values — fewer would not repay naming the column in str=.
func bareStrings(grid [][]*Value, c int, name string) bool {
	if name == "" || strings.Contains(name, ",") {
		return false
	}
	quoted := 0
	for _, cells := range grid {
		v := cells[c]
		if v == nil {
			continue
		}
		if v.Kind != String || v.Text == "" {
			return false
		}
		if mustQuote(v.Text) {
			quoted++
		}
	}
	return quoted >= 2
}

// agreeingOrder returns an order of names in which each element's members
// appear in the element's own order, taking at every step the name that
// appeared first among those whose predecessors are placed (Kahn's
// algorithm). It fails when elements disagree, as {a,b} and {b,a} do.
func agreeingOrder(elems []Value, names []string, index map[string]int) ([]string, bool) {
	after := make([][]int, len(names)) // after[i]: names some element puts right after name i
	before := make([]int, len(names))  // number of distinct names that must precede
	seen := map[[2]int]bool{}
	for _, e := range elems {
		for j := 1; j < len(e.Members); j++ {
			edge := [2]int{index[e.Members[j-1].Key], index[e.Members[j].Key]}
			if !seen[edge] {
				seen[edge] = true
				after[edge[0]] = append(after[edge[0]], edge[1])
				before[edge[1]]++
			}
		}
	}
	ready := &intHeap{}
	for i := range names {
		if before[i] == 0 {
			heap.Push(ready, i)
		}
	}
	order := make([]string, 0, len(names))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		order = append(order, names[i])
		for _, j := range after[i] {
			if before[j]--; before[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	return order, len(order) == len(names)
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
