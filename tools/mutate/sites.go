package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
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
	op    string // operator: cmp, logic, const, negate, droperr
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
		case *ast.IfStmt:
			cond := n.Cond
			add(n, "negate", fmt.Sprintf("if %s → if !(…)", short(fset, cond)), func() {
				n.Cond = &ast.UnaryExpr{Op: token.NOT, X: &ast.ParenExpr{X: cond}}
			})
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

// short renders an expression on one line, cut to a readable length.
func short(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	format.Node(&b, fset, e)
	s := strings.Join(strings.Fields(b.String()), " ")
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
