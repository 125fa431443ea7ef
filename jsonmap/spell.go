package jsonmap

import "errors"

// Spelled values [MAP-5] [MAP-6]: the text of a cell or of an object-form
// meta value says its own type. A text that is the compact form of a JSON
// value is that value; any other text is a string, itself. So paths,
// names and prose are written bare, numbers, booleans and null as their
// literals, and only a string that would read as something else — "62",
// "true", "", `{"a":1}` — is written as its JSON string literal.

// spell returns the text v is written as [MAP-6].
func spell(v Value) string {
	if v.Kind == String {
		if mustQuote(v.Text) {
			return string(appendQuoted(nil, v.Text))
		}
		return v.Text
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
	_, ok, err := compactValue(s)
	return ok || err != nil
}

// mayBeJSON reports whether c can begin a JSON text in compact form.
func mayBeJSON(c byte) bool {
	switch c {
	case '{', '[', '"', '-', 't', 'f', 'n':
		return true
	}
	return '0' <= c && c <= '9'
}

// compactValue reports whether s is the compact form of a JSON value and,
// if so, returns it. The error is non-nil only when s is nested too deep
// to decide [MAP-4].
func compactValue(s string) (Value, bool, error) {
	p := &jsonParser{src: s, strict: true}
	v, err := p.value()
	switch {
	case err == nil && p.pos == len(p.src):
		return v, true, nil
	case err == nil || errors.Is(err, errNotCompact):
		return Value{}, false, nil
	}
	return Value{}, false, err
}

// unspell returns the value a non-empty text denotes [MAP-5]. Its error is
// a limit error (class spec.ErrLimit) without position; callers place it.
func unspell(text string) (Value, error) {
	if text != "" && mayBeJSON(text[0]) {
		v, ok, err := compactValue(text)
		if err != nil {
			return Value{}, err
		}
		if ok {
			return v, nil
		}
	}
	return Value{Kind: String, Text: text}, nil
}
