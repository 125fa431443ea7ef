package jsontext

import "strconv"

// Kind is the kind of a token.
type Kind uint8

// The kinds of tokens. A member name is a Name token, not a String: the
// Reader knows from the grammar which a string literal is.
const (
	ObjectStart Kind = iota + 1 // '{'
	ObjectEnd                   // '}'
	ArrayStart                  // '['
	ArrayEnd                    // ']'
	Name                        // a member name; Text is the name
	String                      // Text is the string, escapes resolved
	Number                      // Text is the literal, exactly as written
	True
	False
	Null
)

var kindNames = [...]string{
	ObjectStart: "'{'", ObjectEnd: "'}'", ArrayStart: "'['", ArrayEnd: "']'",
	Name: "a member name", String: "a string", Number: "a number", True: "true", False: "false", Null: "null",
}

// String names the kind for messages: "a string", "'{'".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// IsValue reports whether a token of kind k begins or is a value.
func (k Kind) IsValue() bool { return k != ObjectEnd && k != ArrayEnd && k != Name && k != 0 }

// Token is one token of a JSON text.
type Token struct {
	Kind Kind
	// Text is the string of a Name or String token and the literal of a
	// Number; it is empty for the other kinds.
	Text string
	Pos  Pos
}
