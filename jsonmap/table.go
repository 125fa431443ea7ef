package jsonmap

import (
	"container/heap"
	"slices"
	"sort"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// A table is an array of objects laid out as rows [MAP-8]: the member names
// in an order every element agrees with, some members spread over columns
// (nest=) and some columns declared bare (str=) [MAP-15], as [MAP-12] step 2
// decides. Planning it and writing its rows each take time linear in the
// members of the elements (and n log n in the names), whatever their
// number: a table of one row with a million members costs what a million
// rows of one member cost.
type table struct {
	elems  []Value
	fields []string
	meta   []spec.Meta // nest= and str=, when the table has them
	bare   []bool      // per column: listed in str=

	// col maps each member of each element, elements in order and members
	// in order (k counting across all), to its column, or to -1-i for a
	// member spread over columns as nest[i].
	col  []int32
	nest []nestedMember
}

// nestedMember is a member whose objects are spread over the columns
// p.sub [MAP-15]; col maps each member of those objects, in element order,
// to its column.
type nestedMember struct {
	col []int32
}

// planTable lays out an array whose elements are all objects. It fails
// when an element is not an object or no single order of the member names
// agrees with every element's order.
func planTable(elems []Value) (*table, bool) {
	for i := range elems {
		if elems[i].Kind != Object {
			return nil, false
		}
	}
	names, at, ok := memberOrder(elems, func(v *Value) []Member { return v.Members })
	if !ok {
		return nil, false
	}
	t := &table{elems: elems}
	if len(names) == 0 {
		// Elements without members: one field, named "", empty in
		// every row, since a header needs a field [HDR-4].
		t.fields = []string{""}
		t.bare = []bool{false}
		return t, true
	}

	// Which members spread over columns, and their names in order.
	subs := nestable(elems, names, at)
	firstCol := make([]int32, len(names)) // column of a plain member; for a nested one, -1-i
	var nestNames []string
	for i, n := range names {
		if subs[i] == nil {
			firstCol[i] = int32(len(t.fields))
			t.fields = append(t.fields, n)
			continue
		}
		firstCol[i] = int32(-1 - len(t.nest))
		base := int32(len(t.fields))
		for _, s := range subs[i].names {
			t.fields = append(t.fields, n+"."+s)
		}
		col := subs[i].at
		for k := range col {
			col[k] += base
		}
		t.nest = append(t.nest, nestedMember{col: col})
		nestNames = append(nestNames, n)
	}
	t.col = at
	for k, i := range at {
		t.col[k] = firstCol[i]
	}

	t.bare = t.bareColumns()
	if len(nestNames) > 0 {
		t.meta = append(t.meta, spec.Meta{Key: KeyNest, Value: strings.Join(nestNames, ",")})
	}
	var strNames []string
	for c, bare := range t.bare {
		if bare {
			strNames = append(strNames, t.fields[c])
		}
	}
	if len(strNames) > 0 {
		t.meta = append(t.meta, spec.Meta{Key: KeyStr, Value: strings.Join(strNames, ",")})
	}
	return t, true
}

// walk calls cell with the column and value of every member of every
// element — of the nested objects' members for a spread member — element
// by element, in member order, and endRow, if not nil, after each element.
func (t *table) walk(cell func(col int, v *Value), endRow func() error) error {
	k := 0
	cursor := make([]int, len(t.nest))
	for r := range t.elems {
		ms := t.elems[r].Members
		for j := range ms {
			c := t.col[k+j]
			if c >= 0 {
				cell(int(c), &ms[j].Value)
				continue
			}
			n := -1 - c
			sub := ms[j].Value.Members
			cols := t.nest[n].col[cursor[n] : cursor[n]+len(sub)]
			cursor[n] += len(sub)
			for s := range sub {
				cell(int(cols[s]), &sub[s].Value)
			}
		}
		k += len(ms)
		if endRow != nil {
			if err := endRow(); err != nil {
				return err
			}
		}
	}
	return nil
}

// bareColumns decides str= [MAP-15] [MAP-12]: a column is bare when its
// name is neither empty nor holds a comma, every value in it is a
// non-empty string, and at least two of them would need quotes as spelled
// values — fewer would not repay naming the column.
func (t *table) bareColumns() []bool {
	notBare := make([]bool, len(t.fields))
	quoted := make([]int, len(t.fields))
	for c, f := range t.fields {
		notBare[c] = f == "" || strings.Contains(f, ",")
	}
	t.walk(func(c int, v *Value) {
		switch {
		case notBare[c]:
		case v.Kind != String || v.Text == "":
			notBare[c] = true
		case mustQuote(v.Text):
			quoted[c]++
		}
	}, nil)
	bare := make([]bool, len(t.fields))
	for c := range bare {
		bare[c] = !notBare[c] && quoted[c] >= 2
	}
	return bare
}

// nestOrder is the member order of one spread member's objects.
type nestOrder struct {
	names []string
	at    []int32
}

// nestable decides, for each member name, whether the member is spread
// over columns [MAP-15] [MAP-12], and returns the order of its objects'
// names (nil where it is not). That is so when every element has the
// member as an object, those objects agree on an order of their names and
// have at least one name, the columns would be at least half full, the
// name is neither empty nor holds a comma, and no other member name begins
// with it and a dot.
//
// It looks at every member once and every name a few times: the objects
// of all candidates are gathered in one pass over the elements, and the
// dotted-prefix test is a binary search among the sorted names.
func nestable(elems []Value, names []string, at []int32) []*nestOrder {
	objects := make([]int, len(names)) // elements whose member i is an object
	k := 0
	for r := range elems {
		for j := range elems[r].Members {
			if elems[r].Members[j].Value.Kind == Object {
				objects[at[k+j]]++
			}
		}
		k += len(elems[r].Members)
	}
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	candidate := make([]bool, len(names))
	any := false
	for i, n := range names {
		candidate[i] = objects[i] == len(elems) && n != "" && !strings.Contains(n, ",") && !hasDotted(sorted, n)
		any = any || candidate[i]
	}
	subs := make([]*nestOrder, len(names))
	if !any {
		return subs
	}
	objs := make([][]*Value, len(names))
	k = 0
	for r := range elems {
		for j := range elems[r].Members {
			if i := at[k+j]; candidate[i] {
				objs[i] = append(objs[i], &elems[r].Members[j].Value)
			}
		}
		k += len(elems[r].Members)
	}
	for i := range names {
		if !candidate[i] {
			continue
		}
		subNames, subAt, ok := memberOrderOf(objs[i])
		present := len(subAt)
		if !ok || len(subNames) == 0 || len(elems)*len(subNames)-present > present {
			continue
		}
		subs[i] = &nestOrder{names: subNames, at: subAt}
	}
	return subs
}

// hasDotted reports whether some name in sorted begins with n and a dot:
// such names sort together, from n+"." on.
func hasDotted(sorted []string, n string) bool {
	prefix := n + "."
	i := sort.SearchStrings(sorted, prefix)
	return i < len(sorted) && strings.HasPrefix(sorted[i], prefix)
}

func memberOrderOf(objs []*Value) ([]string, []int32, bool) {
	return memberOrder(objs, func(v **Value) []Member { return (*v).Members })
}

// memberOrder returns the member names of the objects in an order that
// agrees with every object's own order — the order of first appearance
// when it does, else the one agreeingOrder finds — and, for each member of
// each object (objects in order, members in order), the index of its name
// in that order.
func memberOrder[O any](objs []O, members func(*O) []Member) ([]string, []int32, bool) {
	index := map[string]int32{}
	var names []string
	var at []int32
	agree := true
	for o := range objs {
		ms := members(&objs[o])
		last := int32(-1)
		for j := range ms {
			i, ok := index[ms[j].Key]
			if !ok {
				i = int32(len(names))
				index[ms[j].Key] = i
				names = append(names, ms[j].Key)
			}
			if i < last {
				agree = false
			}
			last = i
			at = append(at, i)
		}
	}
	if agree {
		return names, at, true
	}
	order, ok := agreeingOrder(len(names), func(edge func(a, b int32)) {
		k := 0
		for o := range objs {
			n := len(members(&objs[o]))
			for j := 1; j < n; j++ {
				edge(at[k+j-1], at[k+j])
			}
			k += n
		}
	})
	if !ok {
		return nil, nil, false
	}
	pos := make([]int32, len(names))
	ordered := make([]string, len(names))
	for p, i := range order {
		pos[i] = int32(p)
		ordered[p] = names[i]
	}
	for k, i := range at {
		at[k] = pos[i]
	}
	return ordered, at, true
}

// agreeingOrder returns an order of n names in which each object's members
// appear in the object's own order, given as the edges between neighbours
// that edges reports, taking at every step the name that appeared first
// among those whose predecessors are placed (Kahn's algorithm). It fails
// when objects disagree, as {a,b} and {b,a} do.
func agreeingOrder(n int, edges func(func(a, b int32))) ([]int32, bool) {
	after := make([][]int32, n) // after[i]: names some object puts right after name i
	before := make([]int, n)    // number of distinct names that must precede
	seen := map[[2]int32]bool{}
	edges(func(a, b int32) {
		if !seen[[2]int32{a, b}] {
			seen[[2]int32{a, b}] = true
			after[a] = append(after[a], b)
			before[b]++
		}
	})
	ready := &intHeap{}
	for i := range n {
		if before[i] == 0 {
			heap.Push(ready, int32(i))
		}
	}
	order := make([]int32, 0, n)
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int32)
		order = append(order, i)
		for _, j := range after[i] {
			if before[j]--; before[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	return order, len(order) == n
}

type intHeap []int32

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int32)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
