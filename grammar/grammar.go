// Package grammar makes the GCX1 grammar executable.
//
// The file gcx1.ebnf, printed in Appendix A of docs/wire-format.md, is the
// whole GCX1 syntax in the notation of golang.org/x/exp/ebnf. This package
// embeds it, parses and verifies it, and runs it with a Recognizer: a
// context-free recognizer that decides whether a byte string is a sentence
// of the grammar. The tests of the reference parser use the Recognizer as an
// oracle, so the parser cannot drift from the grammar the specification
// prints. Like package reference, it is an oracle and nothing more: no
// product path runs it.
package grammar

import (
	_ "embed" // for the grammar text
	"strings"

	"golang.org/x/exp/ebnf"
)

//go:embed gcx1.ebnf
var source string

// FileName is the name of the grammar file, used in error positions.
const FileName = "gcx1.ebnf"

// Start is the start production of the GCX1 grammar.
const Start = "payload"

// Source returns the text of gcx1.ebnf.
func Source() string { return source }

// Load parses gcx1.ebnf and verifies it from Start: every production used is
// defined, every production defined is reachable, and ranges are single
// characters in increasing order.
func Load() (ebnf.Grammar, error) { return load(FileName, source, Start) }

// load parses and verifies a grammar text; tests feed it broken copies.
func load(name, src, start string) (ebnf.Grammar, error) {
	g, err := ebnf.Parse(name, strings.NewReader(src))
	if err != nil {
		return nil, err
	}
	if err := ebnf.Verify(g, start); err != nil {
		return nil, err
	}
	return g, nil
}

// LoadRecognizer returns a Recognizer for the GCX1 grammar from Start.
func LoadRecognizer() (*Recognizer, error) {
	g, err := Load()
	if err != nil {
		return nil, err
	}
	return NewRecognizer(g, Start)
}
