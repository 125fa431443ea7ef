package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Symbol is one declaration, shaped as search_symbols' frozen layout
// [LAY-6]: the members in the layout's order, the signature optional.
type Symbol struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	FilePath  string `json:"file_path"`
	StartLine int    `json:"start_line"`
	Signature string `json:"signature,omitempty"`
}

// Usage is one use of a name, shaped as find_usages' frozen layout.
type Usage struct {
	FilePath string `json:"file_path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Kind     string `json:"kind"`
	Caller   string `json:"caller,omitempty"`
	Snippet  string `json:"snippet,omitempty"`
}

// index holds what the tools answer from: every top-level declaration of
// the Go files under a root, and every use of every identifier.
type index struct {
	symbols []Symbol
	usages  map[string][]Usage
	files   int
}

// buildIndex parses every .go file under root, skipping testdata, vendor
// and hidden directories. Paths are relative to root, with forward slashes.
func buildIndex(root string) (*index, error) {
	idx := &index{usages: map[string][]Usage{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil // a file that does not parse has nothing to index
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		idx.add(fset, filepath.ToSlash(rel), f, bytes.Split(src, []byte("\n")))
		idx.files++
		return nil
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

func (idx *index) add(fset *token.FileSet, path string, f *ast.File, lines [][]byte) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			name, kind := d.Name.Name, "function"
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name, kind = receiverName(d.Recv.List[0].Type)+"."+d.Name.Name, "method"
			}
			idx.symbols = append(idx.symbols, Symbol{
				ID: path + "::" + name, Kind: kind, Name: d.Name.Name, FilePath: path,
				StartLine: fset.Position(d.Pos()).Line, Signature: signature(fset, d),
			})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					idx.symbols = append(idx.symbols, Symbol{
						ID: path + "::" + s.Name.Name, Kind: "type", Name: s.Name.Name, FilePath: path,
						StartLine: fset.Position(s.Pos()).Line,
					})
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, n := range s.Names {
						if n.Name == "_" {
							continue
						}
						idx.symbols = append(idx.symbols, Symbol{
							ID: path + "::" + n.Name, Kind: kind, Name: n.Name, FilePath: path,
							StartLine: fset.Position(n.Pos()).Line,
						})
					}
				}
			}
		}
	}
	idx.addUsages(fset, path, f, lines)
}

// addUsages records every identifier that is not being declared, with the
// function it appears in and whether it is called.
func (idx *index) addUsages(fset *token.FileSet, path string, f *ast.File, lines [][]byte) {
	declared := map[*ast.Ident]bool{}
	called := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			declared[x.Name] = true
		case *ast.TypeSpec:
			declared[x.Name] = true
		case *ast.ValueSpec:
			for _, name := range x.Names {
				declared[name] = true
			}
		case *ast.CallExpr:
			switch fun := x.Fun.(type) {
			case *ast.Ident:
				called[fun] = true
			case *ast.SelectorExpr:
				called[fun.Sel] = true
			}
		}
		return true
	})
	for _, decl := range f.Decls {
		caller := ""
		if fd, ok := decl.(*ast.FuncDecl); ok {
			caller = fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				caller = receiverName(fd.Recv.List[0].Type) + "." + caller
			}
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || declared[id] || id.Name == "_" {
				return true
			}
			pos := fset.Position(id.Pos())
			kind := "ref"
			if called[id] {
				kind = "call"
			}
			u := Usage{FilePath: path, Line: pos.Line, Column: pos.Column, Kind: kind, Caller: caller}
			if pos.Line-1 < len(lines) {
				u.Snippet = strings.TrimSpace(string(lines[pos.Line-1]))
			}
			idx.usages[id.Name] = append(idx.usages[id.Name], u)
			return true
		})
	}
}

func receiverName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverName(t.X)
	case *ast.IndexExpr:
		return receiverName(t.X)
	case *ast.IndexListExpr:
		return receiverName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// signature prints a function's declaration without its body or comments.
func signature(fset *token.FileSet, d *ast.FuncDecl) string {
	head := *d
	head.Body, head.Doc = nil, nil
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, &head); err != nil {
		return ""
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// searchSymbols returns the declarations whose name holds query, ignoring
// case: exact names first, then by path and line. It returns at most limit
// and how many there were.
func (idx *index) searchSymbols(query string, limit int) ([]Symbol, int) {
	q := strings.ToLower(query)
	var hits []Symbol
	for _, s := range idx.symbols {
		if strings.Contains(strings.ToLower(s.Name), q) {
			hits = append(hits, s)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		return strings.EqualFold(hits[i].Name, query) && !strings.EqualFold(hits[j].Name, query)
	})
	return clip(hits, limit)
}

// findUsages returns the uses of name, in file order, at most limit, and
// how many there were.
func (idx *index) findUsages(name string, limit int) ([]Usage, int) {
	return clip(idx.usages[name], limit)
}

func clip[T any](all []T, limit int) ([]T, int) {
	out := make([]T, 0, min(len(all), limit))
	return append(out, all[:min(len(all), limit)]...), len(all)
}

func (idx *index) String() string {
	return fmt.Sprintf("%d files, %d symbols, %d names used", idx.files, len(idx.symbols), len(idx.usages))
}
