package binding

import (
	"encoding/json"
	"errors"

	"github.com/gcxwire/gcx/spec"
)

// The binding's conformance vectors (conformance/vectors/mcp, whose ops
// docs/conformance.md describes) compare what a client ended with as a
// JSON object. ClientOutcome writes that object, for every adapter that
// runs the vectors: the conformance runner's built-in one and gcxmcp's.

// ClientOutcome returns the outcome of a client's call in the shape of an
// mcp-client vector's expected: requests, the value of MetaAccept in the
// _meta of each call the client made (nil for none); then what it read,
// or the error it ended in.
func ClientOutcome(requests [][]string, r *Read, err error) ([]byte, error) {
	calls := make([]map[string]any, len(requests))
	for i, accept := range requests {
		calls[i] = map[string]any{MetaAccept: accept}
	}
	if err != nil {
		return json.Marshal(clientFailed{Requests: calls, Error: classify(err)})
	}
	out := clientRead{Requests: calls, Format: r.Format, Truncated: r.Truncated, Reissued: r.Reissued}
	if r.Value != nil {
		v := string(r.Value)
		out.Value = &v
	}
	if r.Total >= 0 {
		out.Total = &r.Total
	}
	return json.Marshal(out)
}

// clientRead and clientFailed are the two shapes of a client's outcome:
// total is present when the result said it, truncated and reissued only
// when true, value is null when no text block holds JSON.
type clientRead struct {
	Requests  []map[string]any `json:"requests"`
	Format    string           `json:"format"`
	Value     *string          `json:"value"`
	Total     *int64           `json:"total,omitempty"`
	Truncated bool             `json:"truncated,omitempty"`
	Reissued  bool             `json:"reissued,omitempty"`
}

type clientFailed struct {
	Requests []map[string]any `json:"requests"`
	Error    clientError      `json:"error"`
}

type clientError struct {
	Class string `json:"class"`
	Rule  string `json:"rule,omitempty"`
	Tag   string `json:"tag,omitempty"`
}

// classify names an error as the vectors do: the binding's two classes,
// or the payload's own class, rule and tag [ERR-1] [MCP-8].
func classify(err error) clientError {
	switch {
	case errors.Is(err, ErrMismatch):
		return clientError{Class: "mismatch"}
	case errors.Is(err, ErrInvalidResult):
		return clientError{Class: "invalid-result"}
	}
	e := clientError{Class: spec.ClassName(err)}
	var se *spec.Error
	if errors.As(err, &se) {
		e.Rule, e.Tag = se.Rule, se.Tag
	}
	return e
}
