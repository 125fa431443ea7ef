// Package spec is the shared vocabulary of GCX1: the decoded data model, the
// version tag rules, the error taxonomy and the decoder limits.
//
// Every other package of the module speaks in these types. The normative text
// is docs/wire-format.md; identifiers in brackets, such as [HDR-3], are the
// rule IDs defined there.
package spec
