package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// A site is one place in a file where one operator plants one bug. Sites
// are numbered in the order a walk of the file's syntax meets them, so the
// same source always yields the same numbering and a mutant is named by
// its file and index alone.
type site struct {
	file  string // path relative to the module root
	index int    // position in the file's walk order
	line  int
	col   int
	op    string // operator: cmp, logic, const, negate, droperr, fold, depth
	desc  string // what changes, as "a < b → a <= b"
}

func (s site) id() string { return fmt.Sprintf("%s:%d:%d:%s", s.file, s.line, s.col, s.op) }

// mutation is a site together with the edit that makes its mutant; the
// edit changes the syntax tree it was found in.
type mutation struct {
	site
	apply func()
}

// mutations parses src and lists every single-point mutation the
// operators below find in it. The operators are the bugs a reviewer is
// likeliest to miss:
//
//	cmp      a comparison flipped at its boundary (< to <=, > to >=, and
//	         back) or negated (== to !=, and back)
//	logic    && and || exchanged
//	const    an integer literal one higher (an off-by-one)
//	negate   an if statement's condition negated
//	droperr  a function returning error returns nil where it returned an
//	         error
//	fold     names compared without regard to case: an exact comparison
//	         of names (a == b, a != b, where an operand is a member,
//	         field, key, tool or tag name) becomes strings.EqualFold, and
//	         a switch on a name switches on strings.ToLower of it
//	depth    a depth bound dropped: an if statement that refuses what is
//	         nested too deeply (its condition compares a depth with >
//	         or >= and its body returns) never fires, and a MaxDepth
//	         passed on or stored becomes 0, no bound
//
// Literals and comparisons that cannot change behaviour by construction
// are left out: capacity hints of make, array lengths in types, and
// anything in a const block of iota.
func mutations(fset *token.FileSet, file string, src []byte) (*ast.File, []mutation, error) {
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	var out []mutation
	add := func(n ast.Node, op, desc string, apply func()) {
		p := fset.Position(n.Pos())
		out = append(out, mutation{site{file: file, index: len(out), line: p.Line, col: p.Column, op: op, desc: desc}, apply})
	}
	skip := map[ast.Node]bool{} // literals that are hints, not behaviour
	var results []*ast.FieldList
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok == token.CONST && usesIota(n) {
				return false
			}
			if n.Tok == token.IMPORT {
				return false
			}
		case *ast.ArrayType:
			if n.Len != nil {
				skip[n.Len] = true
			}
		case *ast.CallExpr:
			for i, arg := range n.Args {
				if isMaxDepth(arg) {
					add(arg, "depth", fmt.Sprintf("%s → 0 in a call", short(fset, arg)), func() { n.Args[i] = zero() })
				}
			}
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "make" {
				// make(map[K]V, hint) and make([]T, n, capacity): the hint
				// and the capacity change allocation, not results.
				if _, isMap := n.Args[0].(*ast.MapType); isMap && len(n.Args) > 1 {
					skip[n.Args[1]] = true
				}
				if len(n.Args) > 2 {
					skip[n.Args[2]] = true
				}
			}
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			results = append(results, n.Type.Results)
			ast.Inspect(n.Body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.FuncLit:
			results = append(results, n.Type.Results)
			ast.Inspect(n.Body, visit)
			results = results[:len(results)-1]
			return false
		case *ast.BinaryExpr:
			if to, ok := flipped[n.Op]; ok {
				from := n.Op
				add(n, opFor(from), fmt.Sprintf("%s → %s", from, to), func() { n.Op = to })
			}
			if (n.Op == token.EQL || n.Op == token.NEQ) && comparesNames(n.X, n.Y) {
				x, y, op := n.X, n.Y, n.Op
				add(n, "fold", fmt.Sprintf("%s → strings.EqualFold(…)", short(fset, n)), func() {
					// The node stays a comparison: EqualFold(x, y) == true, or != true.
					n.X = &ast.CallExpr{Fun: stringsFunc(f, "EqualFold"), Args: []ast.Expr{x, y}}
					n.Op, n.Y = op, ast.NewIdent("true")
				})
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && nameLike(n.Tag) && operand(n.Tag) && hasStringCase(n) {
				tag := n.Tag
				add(n, "fold", fmt.Sprintf("switch %s → switch strings.ToLower(…)", short(fset, tag)), func() {
					n.Tag = &ast.CallExpr{Fun: stringsFunc(f, "ToLower"), Args: []ast.Expr{tag}}
				})
			}
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if isMaxDepth(rhs) {
					add(rhs, "depth", fmt.Sprintf("%s → 0 stored", short(fset, rhs)), func() { n.Rhs[i] = zero() })
				}
			}
		case *ast.IfStmt:
			cond := n.Cond
			add(n, "negate", fmt.Sprintf("if %s → if !(…)", short(fset, cond)), func() {
				n.Cond = &ast.UnaryExpr{Op: token.NOT, X: &ast.ParenExpr{X: cond}}
			})
			if refusesDepth(fset, n) {
				add(n, "depth", fmt.Sprintf("if %s → if false", short(fset, cond)), func() { n.Cond = ast.NewIdent("false") })
			}
		case *ast.BasicLit:
			if n.Kind == token.INT && !skip[n] {
				v, err := strconv.ParseInt(n.Value, 0, 64)
				if err == nil && v < 1<<62 {
					old := n.Value
					add(n, "const", fmt.Sprintf("%s → %d", old, v+1), func() { n.Value = strconv.FormatInt(v+1, 10) })
				}
			}
		case *ast.ReturnStmt:
			if len(results) == 0 || !returnsError(results[len(results)-1]) || len(n.Results) == 0 {
				break
			}
			last := n.Results[len(n.Results)-1]
			if id, ok := last.(*ast.Ident); ok && id.Name == "nil" {
				break
			}
			i := len(n.Results) - 1
			add(n, "droperr", fmt.Sprintf("return …, %s → return …, nil", short(fset, last)), func() {
				n.Results[i] = ast.NewIdent("nil")
			})
		}
		return true
	}
	ast.Inspect(f, visit)
	return f, out, nil
}

// flipped maps each operator to its mutant.
var flipped = map[token.Token]token.Token{
	token.EQL:  token.NEQ,
	token.NEQ:  token.EQL,
	token.LSS:  token.LEQ,
	token.LEQ:  token.LSS,
	token.GTR:  token.GEQ,
	token.GEQ:  token.GTR,
	token.LAND: token.LOR,
	token.LOR:  token.LAND,
}

func opFor(t token.Token) string {
	if t == token.LAND || t == token.LOR {
		return "logic"
	}
	return "cmp"
}

func usesIota(d *ast.GenDecl) bool {
	found := false
	ast.Inspect(d, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// returnsError reports whether a function's last result is of type error.
func returnsError(l *ast.FieldList) bool {
	if l == nil || len(l.List) == 0 {
		return false
	}
	id, ok := l.List[len(l.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

// nameWords are the words that say an identifier holds a name: a member,
// field, key, tool or tag name, which GCX compares byte for byte; notName
// are last words that say it holds something else (a kind, a length, a
// state) and "err" a first word that says so.
var (
	nameWords = map[string]bool{"name": true, "names": true, "key": true, "keys": true, "field": true, "fields": true,
		"member": true, "members": true, "tool": true, "tag": true}
	notName = map[string]bool{"kind": true, "bytes": true, "len": true, "count": true, "state": true}
)

// camelWord splits an identifier into its words.
var camelWord = regexp.MustCompile(`[A-Z]?[a-z0-9]+|[A-Z]+`)

// nameLike reports whether e reads as a name: the last identifier of a
// variable, field or element names a name.
func nameLike(e ast.Expr) bool {
	words := camelWord.FindAllString(lastIdent(e), -1)
	if len(words) == 0 || strings.EqualFold(words[0], "err") || notName[strings.ToLower(words[len(words)-1])] {
		return false
	}
	for _, w := range words {
		if nameWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// notNameLike reports whether e's last identifier says it holds no name.
func notNameLike(e ast.Expr) bool {
	words := camelWord.FindAllString(lastIdent(e), -1)
	return len(words) > 0 && (strings.EqualFold(words[0], "err") || notName[strings.ToLower(words[len(words)-1])])
}

// lastIdent returns the identifier a variable, field or element is read
// by: x, s.x and s.x[i] give x.
func lastIdent(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return lastIdent(e.X)
	}
	return ""
}

// operand reports whether e may be a string: a variable, a field, an
// element or a string literal, not a call, a number or nil.
func operand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name != "nil" && e.Name != "true" && e.Name != "false"
	case *ast.SelectorExpr, *ast.IndexExpr:
		return true
	case *ast.BasicLit:
		return e.Kind == token.STRING
	}
	return false
}

// comparesNames reports whether x == y compares names: both may be
// strings, one reads as a name, and they are not both literals.
func comparesNames(x, y ast.Expr) bool {
	_, xLit := x.(*ast.BasicLit)
	_, yLit := y.(*ast.BasicLit)
	return operand(x) && operand(y) && !(xLit && yLit) && !notNameLike(x) && !notNameLike(y) && (nameLike(x) || nameLike(y))
}

// hasStringCase reports whether a switch has a case of a string literal.
func hasStringCase(n *ast.SwitchStmt) bool {
	for _, c := range n.Body.List {
		for _, e := range c.(*ast.CaseClause).List {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				return true
			}
		}
	}
	return false
}

// isMaxDepth reports whether e names a depth bound, MaxDepth or maxDepth,
// as a variable, a constant or a field.
func isMaxDepth(e ast.Expr) bool {
	name := ""
	switch e := e.(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	}
	return strings.EqualFold(name, "maxdepth")
}

// refusesDepth reports whether an if statement refuses what is nested too
// deeply: its condition compares something named for depth with > or
// >=, and its body returns.
func refusesDepth(fset *token.FileSet, n *ast.IfStmt) bool {
	deep := false
	ast.Inspect(n.Cond, func(c ast.Node) bool {
		if b, ok := c.(*ast.BinaryExpr); ok && (b.Op == token.GTR || b.Op == token.GEQ) {
			deep = deep || strings.Contains(strings.ToLower(oneLine(fset, b)), "depth")
		}
		return !deep
	})
	if !deep {
		return false
	}
	returns := false
	ast.Inspect(n.Body, func(c ast.Node) bool {
		_, ok := c.(*ast.ReturnStmt)
		returns = returns || ok
		return !returns
	})
	return returns
}

func zero() ast.Expr { return &ast.BasicLit{Kind: token.INT, Value: "0"} }

// stringsFunc returns strings.name for a mutant, importing package
// strings into f when it does not already.
func stringsFunc(f *ast.File, name string) ast.Expr {
	imported := false
	for _, imp := range f.Imports {
		imported = imported || (imp.Path.Value == `"strings"` && imp.Name == nil)
	}
	if !imported {
		spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: `"strings"`}}
		f.Imports = append(f.Imports, spec)
		f.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}}, f.Decls...)
	}
	return &ast.SelectorExpr{X: ast.NewIdent("strings"), Sel: ast.NewIdent(name)}
}

// oneLine renders an expression on one line.
func oneLine(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	format.Node(&b, fset, e)
	return strings.Join(strings.Fields(b.String()), " ")
}

// short renders an expression on one line, cut to a readable length.
func short(fset *token.FileSet, e ast.Expr) string {
	s := oneLine(fset, e)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// render prints the (mutated) file.
func render(fset *token.FileSet, f *ast.File) ([]byte, error) {
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
