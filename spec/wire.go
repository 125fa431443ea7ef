package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// The wire view is the decoded model written as JSON [WIRE-1]. It is what
// `gcx decode --wire` prints and `gcx encode --wire` reads, and the protocol
// between the conformance runner and a decoder under test:
//
//	{"sections":[{"tool":"search_symbols","fields":["id","kind"],
//	  "meta":[["rows","2"]],"rows":[["a","function"],["b",""]],
//	  "comments":[[0,"two hits"]]}]}
//
// meta holds the header pairs after fields= in wire order; comments holds
// [row, text] pairs, row being the number of rows before the comment; it is
// omitted when empty.

type wirePayload struct {
	Sections []wireSection `json:"sections"`
}

type wireSection struct {
	Tool     *string       `json:"tool"`
	Fields   []string      `json:"fields"`
	Meta     []wirePair    `json:"meta"`
	Rows     [][]string    `json:"rows"`
	Comments []wireComment `json:"comments,omitempty"`
}

// wirePair is a [key, value] pair; decoding it insists on exactly two
// strings, where a [2]string would quietly fill in a missing value.
type wirePair [2]string

func (m *wirePair) UnmarshalJSON(b []byte) error {
	var pair []string
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("a meta entry is a [key, value] pair of strings, got %s", b)
	}
	m[0], m[1] = pair[0], pair[1]
	return nil
}

var integerLiteral = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// wireComment is a [row, text] pair.
type wireComment struct {
	Row  int
	Text string
}

func (c wireComment) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{c.Row, c.Text})
}

func (c *wireComment) UnmarshalJSON(b []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("a comment is a [row, text] pair, got %s", b)
	}
	// The row is a JSON integer written without fraction or exponent
	// [WIRE-2]. One beyond int's range is still well-formed: it names a row
	// no section has, which the model check refuses [CMT-3].
	if !integerLiteral.Match(pair[0]) {
		return fmt.Errorf("comment row %s is not an integer written without fraction or exponent", pair[0])
	}
	row, err := strconv.Atoi(string(pair[0]))
	if err != nil {
		row = math.MaxInt
		if pair[0][0] == '-' {
			row = math.MinInt
		}
	}
	c.Row = row
	if err := json.Unmarshal(pair[1], &c.Text); err != nil {
		return fmt.Errorf("comment text: %v", err)
	}
	return nil
}

// MarshalWire returns the wire view of p as compact JSON followed by LF
// [WIRE-1]. Empty meta and rows are written as [] so every key is present.
func MarshalWire(p *Payload) ([]byte, error) {
	w := wirePayload{Sections: make([]wireSection, 0, len(p.Sections))}
	for _, s := range p.Sections {
		ws := wireSection{
			Tool:   &s.Tool,
			Fields: s.Fields,
			Meta:   make([]wirePair, 0, len(s.Meta)),
			Rows:   s.Rows,
		}
		if ws.Fields == nil {
			ws.Fields = []string{}
		}
		if ws.Rows == nil {
			ws.Rows = [][]string{}
		}
		for _, m := range s.Meta {
			ws.Meta = append(ws.Meta, wirePair{m.Key, m.Value})
		}
		for _, c := range s.Comments {
			ws.Comments = append(ws.Comments, wireComment{Row: c.Row, Text: c.Text})
		}
		w.Sections = append(w.Sections, ws)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalWire reads a wire view [WIRE-2]. It is strict, because a lenient
// reader would hide mistakes in conformance vectors: unknown or repeated
// keys, a missing "tool" or "fields", null where a list or string belongs,
// trailing data, invalid UTF-8 and lone surrogate escapes (which
// encoding/json would quietly turn into U+FFFD) are all errors of class
// ErrModel citing WIRE-2. "meta", "rows" and "comments" may be omitted when
// empty. The result is not checked against the GCX1 rules; an encoder does
// that.
func UnmarshalWire(b []byte) (*Payload, error) {
	if !utf8.Valid(b) {
		return nil, wireErr("not valid UTF-8")
	}
	if err := checkSurrogates(b); err != nil {
		return nil, err
	}
	if err := checkObjects(b); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var w wirePayload
	if err := dec.Decode(&w); err != nil {
		return nil, wireErr(err.Error())
	}
	if dec.More() {
		return nil, wireErr("data after the top-level object")
	}
	if w.Sections == nil {
		return nil, wireErr(`missing "sections"`)
	}
	p := &Payload{}
	for i, ws := range w.Sections {
		if ws.Tool == nil || ws.Fields == nil {
			return nil, wireErr(fmt.Sprintf(`section %d: "tool" and "fields" are required`, i+1))
		}
		// Empty lists become nil, as the decoders leave them, so a model
		// read from a wire view compares equal to the decoded one.
		s := Section{Tool: *ws.Tool, Fields: ws.Fields}
		if len(ws.Rows) > 0 {
			s.Rows = ws.Rows
		}
		for _, m := range ws.Meta {
			s.Meta = append(s.Meta, Meta{Key: m[0], Value: m[1]})
		}
		for _, c := range ws.Comments {
			s.Comments = append(s.Comments, Comment{Row: c.Row, Text: c.Text})
		}
		p.Sections = append(p.Sections, s)
	}
	return p, nil
}

func wireErr(msg string) *Error {
	return &Error{Class: ErrModel, Rule: "WIRE-2", Msg: "wire view: " + msg}
}

// checkObjects walks the JSON text and rejects a key repeated within one
// object, which encoding/json would resolve silently in favour of the last,
// and null anywhere: no part of a wire view may be null.
func checkObjects(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		keys     map[string]bool
		isObject bool
		wantKey  bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return wireErr(err.Error())
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].isObject && stack[top].wantKey {
			if key, ok := tok.(string); ok {
				if stack[top].keys[key] {
					return wireErr(fmt.Sprintf("key %q appears twice in one object", key))
				}
				stack[top].keys[key] = true
				stack[top].wantKey = false
				continue
			}
		}
		if top >= 0 && stack[top].isObject {
			stack[top].wantKey = true // this token is a member's value
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]bool{}, isObject: true, wantKey: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		case nil:
			return wireErr("null is not allowed in a wire view")
		}
	}
}

// checkSurrogates rejects \u escapes that name half of a surrogate pair
// without its other half: such a string has no UTF-8 spelling.
func checkSurrogates(b []byte) error {
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			inString = !inString
		case inString && c == '\\' && i+1 < len(b):
			if b[i+1] != 'u' {
				i++ // skip the escaped character, which may be a quote
				continue
			}
			r, ok := hex4(b, i+2)
			if !ok {
				continue // encoding/json reports the malformed escape
			}
			i += 5
			switch {
			case 0xDC00 <= r && r <= 0xDFFF:
				return wireErr(fmt.Sprintf("lone low surrogate \\u%04X", r))
			case 0xD800 <= r && r <= 0xDBFF:
				lo, ok := rune(0), false
				if i+2 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					lo, ok = hex4(b, i+3)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return wireErr(fmt.Sprintf("lone high surrogate \\u%04X", r))
				}
				i += 6
			}
		}
	}
	return nil
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c-'a') + 10
		case 'A' <= c && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}
