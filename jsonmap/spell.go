package jsonmap

import (
	"unsafe"

	"github.com/gcxwire/gcx/internal/jsontext"
)

// Spelled values [MAP-5] [MAP-6]: the text of a cell or of an object-form
// meta value says its own type. A text that is the compact form of a JSON
// value is that value; any other text is a string, itself. So paths,
// names and prose are written bare, numbers, booleans and null as their
// literals, and only a string that would read as something else — "62",
// "true", "", `{"a":1}` — is written as its JSON string literal.

// spell returns the text v is written as [MAP-6].
func spell(v Value) string {
	switch v.Kind {
	case Number:
		return v.Text
	case True:
		return "true"
	case False:
		return "false"
	case Null:
		return "null"
	case String:
		if !mustQuote(v.Text) {
			return v.Text
		}
	}
	return string(v.AppendCompact(nil))
}

// tableMark is the text that stands, in an object's header pair or row
// cell, for a member whose value is a table of the payload [MAP-11]; the
// string "@" is therefore quoted there.
const tableMark = "@"

// spellMember is spell for a member value of the header and row forms of
// an object, where the text "@" is taken [MAP-11].
func spellMember(v Value) string {
	if v.Kind == String && v.Text == tableMark {
		return `"@"`
	}
	return spell(v)
}

// mustQuote reports whether the string s cannot be written bare: it is
// empty, which marks an absent member [MAP-8], or it is the compact form of
// a JSON value [MAP-5]. A text too deep to tell is quoted, which is always
// safe.
func mustQuote(s string) bool {
	if s == "" {
		return true
	}
	if !mayBeJSON(s[0]) {
		return false
	}
	_, ok, err := jsontext.CompactKind(s, MaxDepth)
	return ok || err != nil
}

// mayBeJSON reports whether c can begin a JSON text in compact form.
func mayBeJSON(c byte) bool {
	return jsonStart[c]
}

var jsonStart = [256]bool{'{': true, '[': true, '"': true, '-': true, 't': true, 'f': true, 'n': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// spelledKind returns the kind of value a non-empty spelled text denotes
// [MAP-5], and whether the text is its own compact form; a text that is
// no compact form is a string, written quoted. Its error is a limit error
// (class spec.ErrLimit) without a position; callers place it [MAP-4].
func spelledKind(text string) (kind Kind, compact bool, err error) {
	if !mayBeJSON(text[0]) {
		return String, false, nil
	}
	k, ok, err := jsontext.CompactKind(text, MaxDepth)
	if err != nil {
		return 0, false, err
	}
	if !ok {
		return String, false, nil
	}
	return kindOf[k], true, nil
}

// kindOf maps the kinds CompactKind reports to the kinds of values.
var kindOf = [...]Kind{
	jsontext.ObjectStart: Object, jsontext.ArrayStart: Array, jsontext.String: String, jsontext.Number: Number,
	jsontext.True: True, jsontext.False: False, jsontext.Null: Null,
}

// bytesString returns a string that shares b's bytes; it changes when they
// do. The encoder spells a row's cells into a buffer it reuses once the
// row is written, and the decoder reads rows the streaming decoder reuses.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
