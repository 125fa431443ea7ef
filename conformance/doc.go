// Package conformance holds the GCX1 conformance vectors and the runner that
// checks a decoder or an encoder against them.
//
// The vectors are plain files under vectors/ (see README.md), readable from
// any language: valid/NAME.gcx with its wire view NAME.json [WIRE-1],
// invalid/NAME.gcx with the error it must raise in NAME.error.json, and
// invalid-encoder/NAME.json, a wire view with no GCX1 spelling [CAN-3].
// Load reads them; Run checks an Implementation against them. An
// Implementation is either in-process (Go functions, as Reference returns)
// or a command that speaks the wire view over stdin and stdout [WIRE-3], as
// DecoderCommand and EncoderCommand build. The command gcx-conformance wraps
// Run for implementations in other languages.
package conformance
