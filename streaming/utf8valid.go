package streaming

import "unicode/utf8"

// validUTF8 reports whether b is entirely valid UTF-8, giving exactly
// utf8.Valid's answer: no surrogate halves (U+D800–U+DFFF), no overlong
// forms, nothing above U+10FFFF, no stray continuation byte, and no
// sequence cut short, at the end or before another character.
//
// On amd64 with SSSE3 it checks 16 bytes a step with table lookups
// (utf8valid_amd64.s), skipping runs of ASCII 32 bytes at a time; elsewhere,
// and under the purego tag, it is validUTF8Portable.
func validUTF8(b []byte) bool {
	if haveUTF8Vector {
		return validUTF8Vector(b)
	}
	return validUTF8Portable(b)
}

// validUTF8Portable is the check in Go alone.
func validUTF8Portable(b []byte) bool {
	return utf8.Valid(b)
}
