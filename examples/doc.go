// Package examples holds realistic MCP tool results as JSON files, one per
// tool or shape, named after the tool that returns them. Each one goes
// through `gcx encode | gcx decode`, in both modes, and must come back as
// the same JSON value (TestExamplesLoopInProcess in cmd/gcx).
//
// The files are also the data of the token-cost rationale in the JSON
// mapping chapter of docs/wire-format.md (go test ./jsonmap/auto -run
// TestOptionCosts -v).
package examples
