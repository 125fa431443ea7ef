package reference

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gcxwire/gcx/spec"
)

// equateEmptyModel compares models whose slices may be nil or empty. The wire
// cannot tell the two apart, and the decoder always returns nil for absent
// meta, rows and comments (TestDecodeModelConventions); a model built by a
// caller may use either, so only comparisons against such models use it.
// Decoded models are compared with plain cmp.Diff, which is exact.
var equateEmptyModel = cmpopts.EquateEmpty()

// Shorthands for building expected models in tables.

func fields(names ...string) []string { return names }

func row(values ...string) []string { return values }

func rows(rs ...[]string) [][]string { return rs }

// meta builds meta pairs from alternating keys and values.
func meta(kv ...string) []spec.Meta {
	if len(kv)%2 != 0 {
		panic("meta: odd number of arguments")
	}
	var out []spec.Meta
	for i := 0; i < len(kv); i += 2 {
		out = append(out, spec.Meta{Key: kv[i], Value: kv[i+1]})
	}
	return out
}

func comment(row int, text string) spec.Comment { return spec.Comment{Row: row, Text: text} }

func comments(cs ...spec.Comment) []spec.Comment { return cs }

func payload(sections ...spec.Section) *spec.Payload {
	return &spec.Payload{Sections: sections}
}

// wantErr is the exact error a decoder must report.
type wantErr struct {
	class  error
	rule   string
	line   int
	column int
	offset int64
	tag    string // only for spec.ErrUnsupportedVersion
}

// at is a position: 1-based line and byte column, 0-based byte offset.
type at struct {
	line, column int
	offset       int64
}

func syntaxAt(rule string, pos at) wantErr {
	return wantErr{spec.ErrSyntax, rule, pos.line, pos.column, pos.offset, ""}
}
func constraintAt(rule string, pos at) wantErr {
	return wantErr{spec.ErrConstraint, rule, pos.line, pos.column, pos.offset, ""}
}

func unsupportedAt(rule, tag string, pos at) wantErr {
	return wantErr{spec.ErrUnsupportedVersion, rule, pos.line, pos.column, pos.offset, tag}
}

// checkDecodeError checks that a decode of in failed exactly as want says:
// no payload [ERR-4], an *spec.Error of the wanted class [ERR-1], rule, tag
// and position [ERR-2], and a position consistent with the input.
func checkDecodeError(t *testing.T, in []byte, got *spec.Payload, err error, want wantErr) {
	t.Helper()
	if err == nil {
		t.Fatalf("decoded without error to %+v; want %s error [%s]", got, spec.ClassName(want.class), want.rule)
	}
	if got != nil {
		t.Errorf("returned a payload with the error [ERR-4]: %+v", got)
	}
	var e *spec.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *spec.Error", err, err)
	}
	if !errors.Is(err, want.class) {
		t.Errorf("class = %s, want %s (%v)", spec.ClassName(err), spec.ClassName(want.class), err)
	}
	if e.Rule != want.rule {
		t.Errorf("rule = %s, want %s (%v)", e.Rule, want.rule, err)
	}
	if e.Line != want.line || e.Column != want.column || e.Offset != want.offset {
		t.Errorf("position = %d:%d @%d, want %d:%d @%d (%v)",
			e.Line, e.Column, e.Offset, want.line, want.column, want.offset, err)
	}
	if e.Tag != want.tag {
		t.Errorf("tag = %q, want %q", e.Tag, want.tag)
	}
	if msg := positionMismatch(in, e); msg != "" {
		t.Error(msg)
	}
}

// positionMismatch returns "" if e's Line and Column are what its Offset
// means in in, and the Offset lies within in or at its end [ERR-2].
func positionMismatch(in []byte, e *spec.Error) string {
	if e.Offset < 0 || e.Offset > int64(len(in)) {
		return fmt.Sprintf("offset %d lies outside the input of %d bytes", e.Offset, len(in))
	}
	before := in[:e.Offset]
	line := bytes.Count(before, []byte("\n")) + 1
	column := len(before) - bytes.LastIndexByte(before, '\n')
	if e.Line != line || e.Column != column {
		return fmt.Sprintf("line:column %d:%d disagrees with offset %d, which is %d:%d",
			e.Line, e.Column, e.Offset, line, column)
	}
	return ""
}
