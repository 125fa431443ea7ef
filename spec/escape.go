package spec

import "strings"

// Escapes is one of GCX1's three escape alphabets: the bytes a kind of text
// cannot hold raw, each written as a backslash and a letter. Values escape
// TAB, LF, CR and backslash [VAL-1]; field names add SP and ',' [HDR-5];
// meta values add SP [HDR-7]. Every encoder and decoder of this module reads
// its alphabet from here, so the three are written down once.
type Escapes struct {
	// Production and Rule name what a backslash not followed by one of the
	// letters breaks [VAL-2] [HDR-5] [HDR-7]; Expected says what was due.
	Production, Rule, Expected string

	letter [256]byte // for each byte, the letter written after "\", or 0
	byteOf [256]byte // for each letter, the byte "\" and it stand for, or 0
}

func newEscapes(production, rule, text string, pairs ...string) *Escapes {
	e := &Escapes{Production: production, Rule: rule}
	letters := make([]string, len(pairs))
	for i, p := range pairs {
		c, l := p[0], p[1]
		e.letter[c], e.byteOf[l] = l, c
		letters[i] = string(l)
	}
	e.Expected = "one of " + strings.Join(letters, " ") + ` after "\" in ` + text
	return e
}

// The three alphabets.
var (
	ValueEscapes = newEscapes("escape", "VAL-2", "a value", `\\`, "\tt", "\nn", "\rr")
	FieldEscapes = newEscapes("field_escape", "HDR-5", "a field name", `\\`, "\tt", "\nn", "\rr", " s", ",,")
	MetaEscapes  = newEscapes("text_escape", "HDR-7", "a meta value", `\\`, "\tt", "\nn", "\rr", " s")
)

// Decode returns the byte that a backslash followed by letter stands for,
// and false if the pair is not an escape of this alphabet.
func (e *Escapes) Decode(letter byte) (byte, bool) {
	c := e.byteOf[letter]
	return c, c != 0
}

// Letter returns the letter written after a backslash for c, or 0 when c is
// written as itself.
func (e *Escapes) Letter(c byte) byte { return e.letter[c] }

// Append appends s to b with this alphabet's escapes. Runs of bytes that
// need none are copied whole.
func (e *Escapes) Append(b []byte, s string) []byte {
	from := 0
	for i := 0; i < len(s); i++ {
		if l := e.letter[s[i]]; l != 0 {
			b = append(b, s[from:i]...)
			b = append(b, '\\', l)
			from = i + 1
		}
	}
	return append(b, s[from:]...)
}

// Len returns the number of bytes s takes once escaped.
func (e *Escapes) Len(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if e.letter[s[i]] != 0 {
			n++
		}
	}
	return n
}

// GuardByte is the guard: a backslash written before a row whose first
// value begins with "#" or "GCX", which decodes to nothing [ROW-4].
const GuardByte = '\\'

// NeedsGuard reports whether a row whose first value is first must be
// written behind the guard, because unguarded it would read as a comment or
// a header [ROW-4].
func NeedsGuard(first string) bool {
	return strings.HasPrefix(first, "#") || strings.HasPrefix(first, TagPrefix)
}

// StartsGuard reports whether a row line begins with the guard [ROW-4]: a
// backslash before "#" or "G". Behind a guard before "G" the rest of
// TagPrefix must follow, which the reader checks where it can say where
// the guard is cut short.
func StartsGuard(line []byte) bool {
	return len(line) >= 2 && line[0] == GuardByte && (line[1] == '#' || line[1] == 'G')
}

// IsHeaderLine reports whether a line (or an input) begins with "GCX",
// which makes it a section header of some version and never a row [LINE-2].
func IsHeaderLine(line []byte) bool {
	return len(line) >= len(TagPrefix) && line[0] == 'G' && line[1] == 'C' && line[2] == 'X'
}
