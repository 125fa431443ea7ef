package jsonmap

import (
	"slices"
	"strings"

	"github.com/gcxwire/gcx/spec"
)

// A tablePlanner decides what planTable decides [MAP-12] for an array it
// sees one element at a time, holding per-name state only: planTable's
// answers come from counts over the elements (how many have a member as
// an object, how many names its objects have), from each column's values
// (for str=), and from the order of neighbouring names (for the member
// order), all of which it gathers as the elements pass.
type tablePlanner struct {
	rows    int
	objects bool // every element so far is an object
	order   orderState
	names   []nameState // by index in order
}

// nameState is what a table needs of one member name: how often it is an
// object, its objects' own plan while it is always one, and its column's
// values as a plain column.
type nameState struct {
	objects int
	sub     *subPlanner // nil once the member is not an object
	col     columnStats
}

// subPlanner plans the columns of a member spread over columns [MAP-15]:
// the order of its objects' names, how many members they have in all,
// and each sub-column's values.
type subPlanner struct {
	order   orderState
	present int
	cols    []columnStats
}

// columnStats is what str= needs of a column's values [MAP-15].
type columnStats struct {
	notBare bool // some value is not a non-empty string
	quoted  int  // values that would need quotes as spelled values
}

func (c *columnStats) add(v *Value) {
	switch {
	case c.notBare:
	case v.Kind != String || v.Text == "":
		c.notBare = true
	case mustQuote(v.Text):
		c.quoted++
	}
}

// orderState gathers the member order of objects seen in turn, as
// memberOrder finds it: names by first appearance, whether every object
// agrees with that order, and the distinct pairs of neighbouring names,
// from which agreeingOrder finds one when they do not.
type orderState struct {
	index map[string]int32
	names []string
	agree bool
	after [][]int32 // per name: the distinct names some object puts right after it
	last  []int32   // scratch: the previous object's indexes
}

func newOrderState() orderState {
	return orderState{index: map[string]int32{}, agree: true}
}

// add notes one object's members and returns the index of each name,
// valid until the next call.
func (o *orderState) add(ms []Member) []int32 {
	at := o.last[:0]
	prev := int32(-1)
	for j := range ms {
		i, ok := o.index[ms[j].Key]
		if !ok {
			i = int32(len(o.names))
			key := strings.Clone(ms[j].Key)
			o.index[key] = i
			o.names = append(o.names, key)
			o.after = append(o.after, nil)
		}
		if prev >= 0 {
			if i < prev {
				o.agree = false
			}
			if !slices.Contains(o.after[prev], i) {
				o.after[prev] = append(o.after[prev], i)
			}
		}
		prev = i
		at = append(at, i)
	}
	o.last = at
	return at
}

// finish returns the names in an order every object agrees with and, by
// index of first appearance, each name's place in it; false when there is
// none.
func (o *orderState) finish() ([]string, []int32, bool) {
	pos := make([]int32, len(o.names))
	if o.agree {
		for i := range pos {
			pos[i] = int32(i)
		}
		return o.names, pos, true
	}
	order, ok := agreeingOrder(len(o.names), func(edge func(a, b int32)) {
		for a, bs := range o.after {
			for _, b := range bs {
				edge(int32(a), b)
			}
		}
	})
	if !ok {
		return nil, nil, false
	}
	ordered := make([]string, len(o.names))
	for p, i := range order {
		pos[i] = int32(p)
		ordered[p] = o.names[i]
	}
	return ordered, pos, true
}

func newTablePlanner() *tablePlanner {
	return &tablePlanner{objects: true, order: newOrderState()}
}

// add takes the next element.
func (t *tablePlanner) add(v *Value) {
	t.rows++
	if !t.objects {
		return
	}
	if v.Kind != Object {
		// The array form: nothing more to gather.
		t.objects, t.order, t.names = false, orderState{}, nil
		return
	}
	at := t.order.add(v.Members)
	for len(t.names) < len(t.order.names) {
		t.names = append(t.names, nameState{sub: &subPlanner{order: newOrderState()}})
	}
	for j, i := range at {
		m := &v.Members[j].Value
		n := &t.names[i]
		n.col.add(m)
		if m.Kind != Object {
			n.sub = nil
			continue
		}
		n.objects++
		if s := n.sub; s != nil {
			subAt := s.order.add(m.Members)
			s.present += len(subAt)
			for len(s.cols) < len(s.order.names) {
				s.cols = append(s.cols, columnStats{})
			}
			for k, si := range subAt {
				s.cols[si].add(&m.Members[k].Value)
			}
		}
	}
}

// A tablePlan is a planned table: its header's fields, nest= and str=,
// and where each member's values go.
type tablePlan struct {
	fields []string
	meta   []spec.Meta
	bare   []bool
	// column maps a member name to its column, or to -1-k for a member
	// spread over columns as nested[k].
	column map[string]int32
	nested []map[string]int32 // per spread member: its objects' names to columns
}

// finish plans the table, as planTable does, or reports that the array
// is no table.
func (t *tablePlanner) finish() (*tablePlan, bool) {
	if !t.objects {
		return nil, false
	}
	names, pos, ok := t.order.finish()
	if !ok {
		return nil, false
	}
	p := &tablePlan{column: map[string]int32{}}
	if len(names) == 0 {
		p.fields, p.bare = []string{""}, []bool{false}
		return p, true
	}
	byPos := make([]int, len(names)) // place in order → index of first appearance
	for i, at := range pos {
		byPos[at] = i
	}

	// Which members spread over columns, as nestable decides.
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	type spread struct {
		names []string
		pos   []int32
	}
	subs := make([]*spread, len(names)) // by index of first appearance
	for i, n := range t.order.names {
		st := &t.names[i]
		if st.sub == nil || st.objects != t.rows || n == "" || strings.Contains(n, ",") || hasDotted(sorted, n) {
			continue
		}
		subNames, subPos, ok := st.sub.order.finish()
		present := st.sub.present
		if !ok || len(subNames) == 0 || t.rows*len(subNames)-present > present {
			continue
		}
		subs[i] = &spread{names: subNames, pos: subPos}
	}

	var stats []*columnStats
	var nestNames []string
	for _, i := range byPos {
		n := t.order.names[i]
		sp := subs[i]
		if sp == nil {
			p.column[n] = int32(len(p.fields))
			p.fields = append(p.fields, n)
			stats = append(stats, &t.names[i].col)
			continue
		}
		p.column[n] = int32(-1 - len(p.nested))
		base := int32(len(p.fields))
		cols := make(map[string]int32, len(sp.names))
		sub := t.names[i].sub
		for k, s := range sub.order.names {
			cols[s] = base + sp.pos[k]
		}
		byAt := make([]int, len(sp.names))
		for k, at := range sp.pos {
			byAt[at] = k
		}
		for _, k := range byAt {
			p.fields = append(p.fields, n+"."+sub.order.names[k])
			stats = append(stats, &sub.cols[k])
		}
		p.nested = append(p.nested, cols)
		nestNames = append(nestNames, n)
	}

	// str= [MAP-15], as bareColumns decides.
	p.bare = make([]bool, len(p.fields))
	var strNames []string
	for c, f := range p.fields {
		p.bare[c] = f != "" && !strings.Contains(f, ",") && !stats[c].notBare && stats[c].quoted >= 2
		if p.bare[c] {
			strNames = append(strNames, f)
		}
	}
	if len(nestNames) > 0 {
		p.meta = append(p.meta, spec.Meta{Key: KeyNest, Value: strings.Join(nestNames, ",")})
	}
	if len(strNames) > 0 {
		p.meta = append(p.meta, spec.Meta{Key: KeyStr, Value: strings.Join(strNames, ",")})
	}
	return p, true
}

// fill calls cell with the column and value of every member of the
// element v — of the objects' members for a spread member — in member
// order, as walk does for one element.
func (p *tablePlan) fill(v *Value, cell func(col int, v *Value)) {
	for j := range v.Members {
		m := &v.Members[j]
		c := p.column[m.Key]
		if c >= 0 {
			cell(int(c), &m.Value)
			continue
		}
		cols := p.nested[-1-c]
		for k := range m.Value.Members {
			s := &m.Value.Members[k]
			cell(int(cols[s.Key]), &s.Value)
		}
	}
}
