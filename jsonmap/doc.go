// Package jsonmap maps JSON values to GCX1 payloads and back, losslessly,
// as chapter 14 of docs/wire-format.md specifies.
//
// Encode writes the GCX1 payload of a JSON value; Decode gives the value
// back, in compact form. The mapping rides on the GCX1 grammar and never
// changes it: types travel in the spelling of each cell [MAP-5], so a
// string is written bare unless it would read as something else, and a
// number as its exact literal. Arrays of objects become tables [MAP-8],
// whose per-row objects may spread over columns and whose numeric-looking
// string columns may be declared bare [MAP-15]; objects carry their
// members in the header or in one row [MAP-10]; and a declared tool uses
// its frozen layout [LAY-1]. Whatever fits no table still encodes, as JSON
// text in a cell [MAP-9].
//
// Both directions run on package streaming, the production codec: the
// encoder writes through a streaming.Encoder a line at a time, under the
// limits its decoder applies [LIM-4], and the decoder reads with a
// streaming.Decoder and writes the JSON as rows arrive (DecodeTo,
// DecodeResponseTo), in memory bounded by a line [MAP-20], never leaving a
// whole JSON text behind an error [MAP-21]. Mapping errors take their
// positions from the decoder [MAP-14]. Encoding needs the whole value, so
// Encode parses it first; every step after that is linear in the members,
// rows, cells, string lengths and depth of the value. A value in a file
// need not be held: PlanFile reads it once and keeps only what the
// headers say, and FilePlan.Encode reads it again and writes each row as
// its element arrives, in memory bounded by the payload's longest line
// (file.go says exactly what is held).
//
// The package reads JSON with internal/jsontext, because the mapping must
// see what encoding/json hides: the literal text of numbers, the order of
// members and repeated member names. It never imports a tokenizer:
// choosing between GCX1 and JSON by token cost is package auto's job, so
// decoders stay small.
package jsonmap
