package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// src holds one site of each of the two operators for the mutants that
// survived from outside the repository (issue 29): names matched without
// regard to case, and a depth bound dropped. It imports no strings, so a
// fold mutant must import it.
const src = `package p

import "errors"

const MaxDepth = 3

type member struct{ Key string }

func find(ms []member, key string) int {
	for i, m := range ms {
		if m.Key == key {
			return i
		}
	}
	return -1
}

func kind(name string) int {
	switch name {
	case "rows":
		return 1
	}
	return 0
}

func nest(depth, maxDepth int) error {
	if maxDepth > 0 && depth > maxDepth {
		return errors.New("too deeply nested")
	}
	return nil
}

func run(depth int) error { return nest(depth, MaxDepth) }
`

// Each new operator finds its sites in src, and every mutant it makes
// compiles: a mutant that does not is stillborn and never scored, so an
// operator that made only those would measure nothing.
func TestFoldAndDepthMutantsCompile(t *testing.T) {
	fset := token.NewFileSet()
	_, ms, err := mutations(fset, "p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		if m.op == "fold" || m.op == "depth" {
			got = append(got, m.id())
		}
	}
	want := []string{"p.go:11:6:fold", "p.go:19:2:fold", "p.go:27:2:depth", "p.go:33:48:depth"}
	if !slices.Equal(got, want) {
		t.Fatalf("fold and depth sites: got %v, want %v", got, want)
	}
	for _, id := range want {
		fset := token.NewFileSet()
		f, ms, _ := mutations(fset, "p.go", []byte(src))
		i := slices.IndexFunc(ms, func(m mutation) bool { return m.id() == id })
		ms[i].apply()
		text, err := render(fset, f)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		checked := token.NewFileSet()
		mutant, err := parser.ParseFile(checked, "p.go", text, 0)
		if err != nil {
			t.Fatalf("%s does not parse: %v\n%s", id, err, text)
		}
		conf := types.Config{Importer: importer.ForCompiler(token.NewFileSet(), "source", nil)}
		if _, err := conf.Check("p", checked, []*ast.File{mutant}, nil); err != nil {
			t.Errorf("%s does not compile: %v\n%s", id, err, text)
		}
	}
}
