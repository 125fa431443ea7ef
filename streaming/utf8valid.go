package streaming

import "unicode/utf8"

// validUTF8 reports whether b is valid UTF-8 [ENC-1].
func validUTF8(b []byte) bool { return utf8.Valid(b) }
