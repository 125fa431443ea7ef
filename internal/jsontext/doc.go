// Package jsontext reads JSON text strictly, for the parts of gcx that must
// see what encoding/json hides: the exact literal of every number, the order
// of members, repeated member names and the position of every byte.
//
// # Accepted syntax
//
// Exactly one JSON text of RFC 8259, optionally surrounded by whitespace
// (SP, TAB, LF, CR), and nothing else:
//
//   - no byte-order mark, no comments, no trailing commas, no NaN or Infinity,
//     no single quotes, no leading zeros or "+" in numbers, no data after the
//     value;
//   - strings (and member names) are valid UTF-8, hold no raw control
//     character below U+0020, use only the escapes \" \\ \/ \b \f \n \r \t
//     and \u with four hex digits, and every such escape that is a surrogate
//     is a high surrogate followed at once by a low one, so that a string
//     always denotes Unicode characters;
//   - arrays and objects nest at most MaxDepth deep (DefaultMaxDepth unless
//     set otherwise); deeper input is an error whose Limit field is true;
//   - with RejectDuplicateNames, no object has two members whose names are
//     equal once their escapes are resolved.
//
// # Two ways in
//
// A Reader reads tokens one at a time: from an io.Reader, holding one token
// at a time (its buffer grows only to the longest token, and whitespace is
// dropped as it is read), or from a string held whole, where the text of
// every string without escapes is a substring of the input and costs no
// copy. The two give the same tokens and the same errors for the same bytes.
//
// CompactKind answers the narrower question the GCX1 mapping asks of every
// cell: is this text exactly the compact form of some JSON value — no
// whitespace, only the escapes AppendString writes, no repeated name?
// AppendString writes a string in that compact form.
//
// # Errors
//
// Every error in the text is an *Error with the byte offset, line and byte
// column of the offending byte and a message that quotes at most a short
// prefix of any input (see QuotePrefix). Callers give it their own class and
// rule. An error from the underlying io.Reader is returned as it is.
//
// The package imports nothing of gcx, so any package may use it.
package jsontext
