// Package conformance holds the GCX1 conformance vectors and the runner that
// checks an implementation — a Go package or a program in any language —
// against them.
//
// The vectors are JSON files under vectors/, one per group, in a directory
// per category: decode (a payload and its wire view [WIRE-1]), reject (a
// payload and the error it must raise), encode (a wire view and its
// canonical bytes [CAN-2], or the encoder's refusal [CAN-3]), json (a JSON
// value written as GCX1 and read back [MAP-4]) and version (other tags and
// the fall-back to JSON [VER-2] [AUTO-3]). vectors.schema.json describes
// the format and docs/conformance.md the protocol.
//
// Load reads vectors (Vectors, the committed ones); Check runs them against
// an Implementation and returns a Report that judges every vector at two
// levels [ERR-6]: core (acceptance, the value, the error class and line) and
// diagnostic (also the column, offset and rule). A step an implementation
// does not run is a skip, never a pass. An Implementation is either
// in-process Go functions, as Reference, Streaming and StreamingReuse
// return, or a program that speaks the protocol of the gcx command, as
// Command builds. The command gcx conformance wraps Check; package
// conformancetest runs the vectors from a Go test, and is the only part of
// the suite that imports package testing.
package conformance
