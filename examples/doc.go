// Package examples holds realistic MCP tool results as JSON files, one per
// tool or shape, named after the tool that returns them. Each one goes
// through `gcx encode --mode gcx | gcx decode` and must come back as the
// same JSON value; the test builds the gcx command and runs that pipe.
//
// The files are also the data of the token-cost rationale in the JSON
// mapping chapter of docs/wire-format.md (go test ./jsonmap/auto -run
// TestOptionCosts -v).
package examples
