package grammar

import (
	"fmt"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"golang.org/x/exp/ebnf"
)

// A Recognizer decides whether byte strings are sentences of one production
// of an EBNF grammar.
//
// Terminals are characters: the Unicode scalar values of the UTF-8-decoded
// input. A byte sequence that is not valid UTF-8 matches no terminal, so such
// input is never a sentence. A token of several characters ("tool=") stands
// for those characters in sequence; a range ("a" … "z") is one character of
// the range. Every production is treated as lexical: nothing is skipped
// between terminals, whatever the case of the production's name.
//
// The semantics are those of a context-free grammar, not of a parsing
// expression grammar: every alternative is explored, so an ambiguity or an
// alternative that shadows another cannot hide a sentence. The Recognizer is
// an Earley recognizer over one automaton per production (alternatives,
// options and repetitions become branches and loops), which accepts any
// context-free grammar, left recursion and empty productions included, runs
// without recursion, and takes linear time on grammars such as GCX1's whose
// productions nest to a bounded depth.
//
// A Recognizer is safe for concurrent use.
type Recognizer struct {
	states []state
	// closure[s] lists the states reachable from s by empty moves that
	// scan, call or accept; an Earley item only ever holds those.
	closure [][]int32
	prods   []production
	start   int32 // index of the start production in prods
	pool    sync.Pool
}

// A production is one compiled production of the grammar.
type production struct {
	name       string
	entry      int32 // state the production's automaton starts in
	exit       int32 // its accepting state
	nullable   bool  // it derives the empty string
	productive bool  // it derives some string
}

// A state is a node of a production's automaton. Its moves scan one
// character of a class, call a production, or move without input.
type state struct {
	accepts int32 // index of the production this state accepts, or -1
	scans   []scan
	calls   []call
	empties []int32
}

type scan struct {
	ascii [2]uint64 // the class's characters below 128, as a bitmap
	class charClass
	to    int32
}

// matches reports whether the scan moves over character r; r < 0 matches
// nothing.
func (sc *scan) matches(r rune) bool {
	if r < 0 {
		return false
	}
	if r < 128 {
		return sc.ascii[r>>6]&(1<<(r&63)) != 0
	}
	return sc.class.contains(r)
}

type call struct {
	prod int32
	to   int32
}

// A charClass is a set of characters: sorted, disjoint, non-adjacent ranges.
type charClass []charRange

type charRange struct{ lo, hi rune }

func (c charClass) contains(r rune) bool {
	i := sort.Search(len(c), func(i int) bool { return c[i].hi >= r })
	return i < len(c) && c[i].lo <= r
}

// union returns the class of the characters in a or b.
func union(a, b charClass) charClass {
	all := append(append(charClass(nil), a...), b...)
	slices.SortFunc(all, func(x, y charRange) int { return int(x.lo) - int(y.lo) })
	var out charClass
	for _, r := range all {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// NewRecognizer compiles the productions of g reachable from start. It
// reports an error if a production used is not defined, if a token or range
// is not made of valid characters, or if a production reachable from start
// derives no string at all: with every production productive, the prefix a
// Recognizer reports as viable really does continue to a sentence.
func NewRecognizer(g ebnf.Grammar, start string) (*Recognizer, error) {
	b := &builder{g: g, start: start, index: map[string]int32{}, classes: map[string]*classEntry{}}
	b.findRecursion()
	root, err := b.production(start)
	if err != nil {
		return nil, err
	}
	// Compiling a production may discover more; b.prods grows as we go.
	for i := 0; i < len(b.prods); i++ {
		if err := b.compile(int32(i)); err != nil {
			return nil, err
		}
	}
	r := &Recognizer{states: b.states, prods: b.prods, start: root}
	r.solve()
	for _, p := range r.prods {
		if !p.productive {
			return nil, fmt.Errorf("%s: production %s derives no string", b.g[p.name].Pos(), p.name)
		}
	}
	r.closure = make([][]int32, len(r.states))
	for s := range r.states {
		r.closure[s] = r.emptyClosure(int32(s))
	}
	r.pool.New = func() any { return new(run) }
	return r, nil
}

// builder turns ebnf expressions into automata.
type builder struct {
	g       ebnf.Grammar
	start   string
	index   map[string]int32 // production name → index in prods
	prods   []production
	states  []state
	classes map[string]*classEntry
	// recursive holds the productions that can reach themselves; sizes
	// memoises expandedSize.
	recursive map[string]bool
	sizes     map[string]int
}

// A classEntry records whether a production is a character class, that is
// a choice among single characters. Such a production becomes one scanning
// move instead of a call, which keeps the automata small and fast; the
// language is the same.
type classEntry struct {
	isClass bool
	class   charClass
}

func (b *builder) newState() int32 {
	b.states = append(b.states, state{accepts: -1})
	return int32(len(b.states) - 1)
}

// production returns the index of the named production, adding it to the
// list of productions to compile when it is first seen.
func (b *builder) production(name string) (int32, error) {
	if i, ok := b.index[name]; ok {
		return i, nil
	}
	if b.g[name] == nil {
		return 0, fmt.Errorf("grammar has no production %s", name)
	}
	i := int32(len(b.prods))
	b.index[name] = i
	b.prods = append(b.prods, production{name: name, entry: b.newState(), exit: b.newState()})
	b.states[b.prods[i].exit].accepts = i
	return i, nil
}

func (b *builder) compile(i int32) error {
	p := b.prods[i]
	return b.expr(b.g[p.name].Expr, p.entry, p.exit)
}

// expr adds the moves that lead from state from to state to by exactly the
// strings x derives. It adds no move into from and none out of to, so that
// several expressions can share the two ends (as alternatives do) without
// paths mixing between them.
func (b *builder) expr(x ebnf.Expression, from, to int32) error {
	switch x := x.(type) {
	case nil:
		b.empty(from, to)
	case *ebnf.Token:
		if !utf8.ValidString(x.String) {
			return fmt.Errorf("%s: token %q is not valid UTF-8", x.Pos(), x.String)
		}
		if x.String == "" {
			b.empty(from, to)
			return nil
		}
		at := from
		for i, r := range x.String {
			next := to
			if i+utf8.RuneLen(r) < len(x.String) {
				next = b.newState()
			}
			b.scan(at, charClass{{r, r}}, next)
			at = next
		}
	case *ebnf.Range:
		c, err := rangeClass(x)
		if err != nil {
			return err
		}
		b.scan(from, c, to)
	case *ebnf.Name:
		if c, ok := b.class(x.String); ok {
			b.scan(from, c, to)
			return nil
		}
		if b.inlines(x.String) {
			return b.expr(b.g[x.String].Expr, from, to)
		}
		p, err := b.production(x.String)
		if err != nil {
			return fmt.Errorf("%s: %v", x.Pos(), err)
		}
		b.states[from].calls = append(b.states[from].calls, call{prod: p, to: to})
	case ebnf.Sequence:
		at := from
		for i, e := range x {
			next := to
			if i < len(x)-1 {
				next = b.newState()
			}
			if err := b.expr(e, at, next); err != nil {
				return err
			}
			at = next
		}
	case ebnf.Alternative:
		for _, e := range x {
			if err := b.expr(e, from, to); err != nil {
				return err
			}
		}
	case *ebnf.Group:
		return b.expr(x.Body, from, to)
	case *ebnf.Option:
		b.empty(from, to)
		return b.expr(x.Body, from, to)
	case *ebnf.Repetition:
		// from → loop → to, and loop → body → loop, with fresh ends for
		// the body so that its moves stay inside the loop.
		loop, in, out := b.newState(), b.newState(), b.newState()
		b.empty(from, loop)
		b.empty(loop, in)
		b.empty(out, loop)
		b.empty(loop, to)
		return b.expr(x.Body, in, out)
	case *ebnf.Bad:
		return fmt.Errorf("%s: %s", x.Pos(), x.Error)
	default:
		return fmt.Errorf("%s: unknown expression %T", x.Pos(), x)
	}
	return nil
}

// inlineLimit bounds the expressions inlined at one call: copying a
// production into each place that uses it trades states for calls, and a
// grammar whose productions each use the one below twice would otherwise
// grow exponentially.
const inlineLimit = 1024

// inlines reports whether a use of the named production is compiled as a
// copy of its expression instead of a call. Copying changes no language, and
// it spares the recognizer a prediction and a completion for every short
// production it meets (an escape, a value). A recursive production must stay
// a call, and so does the start production, which the recognizer accepts
// by.
func (b *builder) inlines(name string) bool {
	return b.g[name] != nil && name != b.start && !b.recursive[name] &&
		b.expandedSize(b.g[name].Expr) <= inlineLimit
}

// expandedSize counts the nodes of x with the productions it inlines
// expanded. It only descends into productions that are not recursive, so it
// terminates, and it stops counting past inlineLimit.
func (b *builder) expandedSize(x ebnf.Expression) int {
	switch x := x.(type) {
	case *ebnf.Name:
		p := b.g[x.String]
		if p == nil || x.String == b.start || b.recursive[x.String] {
			return 1
		}
		if n, ok := b.sizes[x.String]; ok {
			return n
		}
		n := b.expandedSize(p.Expr)
		b.sizes[x.String] = n
		return n
	case ebnf.Sequence:
		return b.sumSizes(x)
	case ebnf.Alternative:
		return b.sumSizes(x)
	case *ebnf.Group:
		return 1 + b.expandedSize(x.Body)
	case *ebnf.Option:
		return 1 + b.expandedSize(x.Body)
	case *ebnf.Repetition:
		return 1 + b.expandedSize(x.Body)
	}
	return 1
}

func (b *builder) sumSizes(xs []ebnf.Expression) int {
	n := 1
	for _, e := range xs {
		n = min(n+b.expandedSize(e), inlineLimit+1)
	}
	return n
}

// findRecursion sets b.recursive to the productions that refer to
// themselves, directly or through others.
func (b *builder) findRecursion() {
	refs := make(map[string][]string, len(b.g))
	for name, p := range b.g {
		refs[name] = names(p.Expr, nil)
	}
	b.recursive = map[string]bool{}
	b.sizes = map[string]int{}
	for name := range b.g {
		seen := map[string]bool{}
		stack := append([]string(nil), refs[name]...)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == name {
				b.recursive[name] = true
				break
			}
			if !seen[n] {
				seen[n] = true
				stack = append(stack, refs[n]...)
			}
		}
	}
}

// names appends the production names x refers to.
func names(x ebnf.Expression, out []string) []string {
	switch x := x.(type) {
	case *ebnf.Name:
		out = append(out, x.String)
	case ebnf.Sequence:
		for _, e := range x {
			out = names(e, out)
		}
	case ebnf.Alternative:
		for _, e := range x {
			out = names(e, out)
		}
	case *ebnf.Group:
		out = names(x.Body, out)
	case *ebnf.Option:
		out = names(x.Body, out)
	case *ebnf.Repetition:
		out = names(x.Body, out)
	}
	return out
}

func (b *builder) empty(from, to int32) {
	b.states[from].empties = append(b.states[from].empties, to)
}

func (b *builder) scan(from int32, c charClass, to int32) {
	sc := scan{class: c, to: to}
	for _, r := range c {
		for ch := r.lo; ch <= min(r.hi, 127); ch++ {
			sc.ascii[ch>>6] |= 1 << (ch & 63)
		}
	}
	b.states[from].scans = append(b.states[from].scans, sc)
}

// rangeClass returns the class of a range "lo" … "hi".
func rangeClass(x *ebnf.Range) (charClass, error) {
	lo, ok1 := singleChar(x.Begin.String)
	hi, ok2 := singleChar(x.End.String)
	if !ok1 || !ok2 || lo > hi {
		return nil, fmt.Errorf("%s: range %q … %q is not two characters in increasing order", x.Pos(), x.Begin.String, x.End.String)
	}
	return charClass{{lo, hi}}, nil
}

// singleChar returns the character s consists of, if s is one valid
// character.
func singleChar(s string) (rune, bool) {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || size != len(s) || r == utf8.RuneError && size == 1 {
		return 0, false
	}
	return r, true
}

// class reports whether the named production is a character class and, if
// so, returns its characters. A production that refers to itself, however
// indirectly, is not a class; the entry is marked done before its body is
// examined, so such a cycle ends the search instead of recursing forever.
func (b *builder) class(name string) (charClass, bool) {
	if e, ok := b.classes[name]; ok {
		return e.class, e.isClass
	}
	e := &classEntry{}
	b.classes[name] = e
	if p := b.g[name]; p != nil {
		e.class, e.isClass = b.exprClass(p.Expr)
	}
	return e.class, e.isClass
}

func (b *builder) exprClass(x ebnf.Expression) (charClass, bool) {
	switch x := x.(type) {
	case *ebnf.Token:
		if r, ok := singleChar(x.String); ok {
			return charClass{{r, r}}, true
		}
	case *ebnf.Range:
		if c, err := rangeClass(x); err == nil {
			return c, true
		}
	case *ebnf.Name:
		return b.class(x.String)
	case *ebnf.Group:
		return b.exprClass(x.Body)
	case ebnf.Alternative:
		var all charClass
		for _, e := range x {
			c, ok := b.exprClass(e)
			if !ok {
				return nil, false
			}
			all = union(all, c)
		}
		return all, true
	}
	return nil, false
}

// solve computes which productions are nullable and which are productive,
// each as a least fixed point: a pass that finds nothing new ends it.
func (r *Recognizer) solve() {
	for changed := true; changed; {
		changed = false
		for i := range r.prods {
			p := &r.prods[i]
			if !p.nullable && r.reaches(p.entry, p.exit, false) {
				p.nullable, changed = true, true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range r.prods {
			p := &r.prods[i]
			if !p.productive && r.reaches(p.entry, p.exit, true) {
				p.productive, changed = true, true
			}
		}
	}
}

// reaches reports whether the automaton can move from state from to state
// to by empty moves and calls of productions already known to be nullable
// or, if scanning, by any scan and calls of productions known productive.
func (r *Recognizer) reaches(from, to int32, scanning bool) bool {
	seen := map[int32]bool{from: true}
	stack := []int32{from}
	push := func(s int32) {
		if !seen[s] {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s == to {
			return true
		}
		st := &r.states[s]
		for _, t := range st.empties {
			push(t)
		}
		for _, c := range st.calls {
			if p := r.prods[c.prod]; scanning && p.productive || !scanning && p.nullable {
				push(c.to)
			}
		}
		if scanning {
			for _, sc := range st.scans {
				push(sc.to)
			}
		}
	}
	return false
}

// emptyClosure lists the states reachable from s by empty moves (s
// included) that do something: scan, call or accept.
func (r *Recognizer) emptyClosure(s int32) []int32 {
	var out []int32
	seen := map[int32]bool{s: true}
	stack := []int32{s}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st := &r.states[t]
		if st.accepts >= 0 || len(st.scans) > 0 || len(st.calls) > 0 {
			out = append(out, t)
		}
		for _, u := range st.empties {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	slices.Sort(out)
	return out
}

// An item is an Earley item: a production's automaton is in state, having
// started at character index origin.
type item struct {
	state  int32
	origin int
}

// A wait records an item that calls prod at some position: when prod
// completes from there, the caller moves on to state to.
type wait struct {
	prod, to int32
	origin   int
}

// itemSet is the set of items at one position, in insertion order, which is
// also the order they are processed in.
type itemSet struct {
	items []item
	index map[item]struct{} // built once the set is too large to scan
}

const scanLimit = 32

func (s *itemSet) add(it item) {
	if s.index != nil {
		if _, ok := s.index[it]; ok {
			return
		}
		s.index[it] = struct{}{}
	} else {
		for _, x := range s.items {
			if x == it {
				return
			}
		}
		if len(s.items) == scanLimit {
			s.index = make(map[item]struct{}, 2*scanLimit)
			for _, x := range s.items {
				s.index[x] = struct{}{}
			}
			s.index[it] = struct{}{}
		}
	}
	s.items = append(s.items, it)
}

func (s *itemSet) has(it item) bool {
	if s.index != nil {
		_, ok := s.index[it]
		return ok
	}
	return slices.Contains(s.items, it)
}

func (s *itemSet) reset() {
	s.items = s.items[:0]
	s.index = nil
}

// run is the working memory of one Recognize call, pooled between calls.
type run struct {
	cur, next itemSet
	waits     []wait
	waitStart []int // waits[waitStart[k]:waitStart[k+1]] were made at character index k
}

// Recognize reports whether src is a sentence of the start production, and
// the length in bytes of the longest prefix of src that is a prefix of some
// sentence: the offset of the first byte at which src stops being the start
// of a sentence. For a sentence it is len(src); for invalid UTF-8 it is at
// most the offset of the first invalid byte.
func (r *Recognizer) Recognize(src []byte) (ok bool, viable int) {
	w := r.pool.Get().(*run)
	defer r.pool.Put(w)
	w.cur.reset()
	w.next.reset()
	w.waits = w.waits[:0]
	w.waitStart = w.waitStart[:0]

	r.addClosure(&w.cur, r.prods[r.start].entry, 0)
	pos := 0
	for k := 0; ; k++ {
		w.waitStart = append(w.waitStart, len(w.waits))
		ch, size := rune(-1), 0 // -1 matches no class: the end, or invalid UTF-8
		if pos < len(src) {
			ch, size = utf8.DecodeRune(src[pos:])
			if ch == utf8.RuneError && size == 1 {
				ch = -1
			}
		}
		for i := 0; i < len(w.cur.items); i++ {
			it := w.cur.items[i]
			st := &r.states[it.state]
			if st.accepts >= 0 {
				r.complete(w, st.accepts, it.origin, k)
			}
			for j := range st.scans {
				if sc := &st.scans[j]; sc.matches(ch) {
					r.addClosure(&w.next, sc.to, it.origin)
				}
			}
			for _, c := range st.calls {
				w.waits = append(w.waits, wait{prod: c.prod, to: c.to, origin: it.origin})
				r.addClosure(&w.cur, r.prods[c.prod].entry, k)
				// A nullable callee may already have completed here,
				// before this wait was recorded; move past it now.
				if r.prods[c.prod].nullable {
					r.addClosure(&w.cur, c.to, it.origin)
				}
			}
		}
		if pos == len(src) {
			return w.cur.has(item{r.prods[r.start].exit, 0}), pos
		}
		if len(w.next.items) == 0 {
			return false, pos
		}
		pos += size
		w.cur, w.next = w.next, w.cur
		w.next.reset()
	}
}

// complete moves on every item that waited at character index origin for
// production p, which has just completed at index k.
func (r *Recognizer) complete(w *run, p int32, origin, k int) {
	end := len(w.waits)
	if origin < k {
		end = w.waitStart[origin+1]
	}
	for _, wt := range w.waits[w.waitStart[origin]:end] {
		if wt.prod == p {
			r.addClosure(&w.cur, wt.to, wt.origin)
		}
	}
}

func (r *Recognizer) addClosure(s *itemSet, state int32, origin int) {
	for _, t := range r.closure[state] {
		s.add(item{t, origin})
	}
}
