package spec

import (
	"errors"
	"fmt"
	"strings"
)

// Error classes [ERR-1]. Every error a GCX1 decoder or encoder of this module
// reports wraps exactly one of them, so callers branch with errors.Is.
var (
	// ErrNotGCX: the input does not begin with the bytes "GCX": it is empty,
	// starts with a byte-order mark, or is some other format such as JSON
	// [PAY-1] [ENC-2].
	ErrNotGCX = errors.New("not GCX")

	// ErrUnsupportedVersion: a header carries a well-formed version tag
	// other than GCX1 [VER-2] [VER-4]. The caller should re-issue the tool
	// call without the GCX format and read JSON instead [VER-5].
	ErrUnsupportedVersion = errors.New("unsupported GCX version")

	// ErrSyntax: the payload does not match the grammar of Appendix A.
	ErrSyntax = errors.New("syntax error")

	// ErrConstraint: the payload matches the grammar but breaks a rule
	// that the grammar cannot express (Appendix B), such as a row with the
	// wrong number of values or a rows= count that disagrees.
	ErrConstraint = errors.New("constraint violated")

	// ErrLimit: a decoder limit was exceeded [LIM-1]. The payload may be
	// valid; this decoder declined to read it.
	ErrLimit = errors.New("limit exceeded")

	// ErrInvalidJSON: a JSON mapping encoder was given text that is not JSON,
	// or JSON outside the mapping's domain, such as an object with a
	// repeated member name [MAP-1].
	ErrInvalidJSON = errors.New("invalid JSON")

	// ErrModel: an encoder was given a data model that has no GCX1 spelling,
	// for example a tool name with a space [CAN-3]. Encoders never write
	// bytes that a decoder would reject.
	ErrModel = errors.New("model cannot be encoded")
)

// Error describes one failure with its class, position and the rule it
// breaks. Decoders fill every position field; encoder errors have no
// position (Line is 0) and name the offending section, row or field in Msg.
type Error struct {
	Class      error  // one of the Err* classes above
	Line       int    // 1-based line number; 0 when there is no position
	Column     int    // 1-based byte column within the line
	Offset     int64  // 0-based byte offset from the start of the payload
	Production string // grammar production being matched, if any
	Rule       string // rule ID in docs/wire-format.md, e.g. "VAL-2"
	Tag        string // the version tag, for ErrUnsupportedVersion
	Msg        string // what was found and what was expected
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("gcx: ")
	switch {
	case e.Line > 0 && e.Class == ErrInvalidJSON: // [MAP-1] asks for the offset too
		fmt.Fprintf(&b, "line %d, column %d, byte offset %d: ", e.Line, e.Column, e.Offset)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	b.WriteString(e.Class.Error())
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, " [%s]", e.Rule)
	}
	return b.String()
}

// Unwrap returns the error's class, so errors.Is(err, ErrSyntax) works.
func (e *Error) Unwrap() error { return e.Class }

// ClassName returns the short, stable name of an error class, as used by
// the conformance vectors: "not-gcx", "unsupported-version", "syntax",
// "constraint", "limit", "model" or "invalid-json". It returns "" for nil
// and "io" for an
// error of no class (a reader's own failure, say).
func ClassName(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrNotGCX):
		return "not-gcx"
	case errors.Is(err, ErrUnsupportedVersion):
		return "unsupported-version"
	case errors.Is(err, ErrSyntax):
		return "syntax"
	case errors.Is(err, ErrConstraint):
		return "constraint"
	case errors.Is(err, ErrLimit):
		return "limit"
	case errors.Is(err, ErrModel):
		return "model"
	case errors.Is(err, ErrInvalidJSON):
		return "invalid-json"
	}
	return "io"
}
