package spec

// Version is the only version tag this module decodes [VER-2].
const Version = "GCX1"

// TagPrefix begins every GCX version tag, whatever the version [VER-1].
const TagPrefix = "GCX"

// MaxTagBytes bounds a version tag, "GCX" included [VER-1]. It lets a decoder
// classify a first line after reading at most MaxTagBytes+1 bytes of it.
const MaxTagBytes = 32

// TagKind classifies the start of a line that may begin a section.
type TagKind int

const (
	// TagNotGCX: the bytes do not begin with "GCX".
	TagNotGCX TagKind = iota
	// TagMalformed: "GCX" is not followed by a well-formed tag [VER-3].
	TagMalformed
	// TagGCX1: the tag is exactly GCX1.
	TagGCX1
	// TagOther: a well-formed tag naming another version [VER-2].
	TagOther
)

// IsTagByte reports whether c may follow "GCX" in a version tag: an ASCII
// letter or digit, '.', '_' or '-' [VER-1].
func IsTagByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '-'
}

// ReadTag classifies the version tag at the start of line, which holds the
// bytes of one line and may run on past its LF. A tag is "GCX" followed by
// one or more tag bytes, at most MaxTagBytes in all, and ends at SP, LF or
// the end of the input [VER-1].
//
// For TagGCX1 and TagOther, tag is the tag and n its length. For
// TagMalformed, n is the 0-based index of the byte that breaks the tag rule
// (the error's column is n+1). For TagNotGCX, n is 0.
func ReadTag(line []byte) (tag string, kind TagKind, n int) {
	if StartsGCX1(line) {
		return Version, TagGCX1, len(Version) // every header of a GCX1 payload
	}
	if len(line) < len(TagPrefix) || string(line[:len(TagPrefix)]) != TagPrefix {
		return "", TagNotGCX, 0
	}
	n = len(TagPrefix)
	for n < len(line) && IsTagByte(line[n]) {
		if n == MaxTagBytes {
			return "", TagMalformed, n
		}
		n++
	}
	if n == len(TagPrefix) {
		return "", TagMalformed, n
	}
	if n < len(line) && line[n] != ' ' && line[n] != '\n' {
		return "", TagMalformed, n
	}
	if string(line[:n]) == Version {
		return Version, TagGCX1, n // no copy for the tag of every header
	}
	return string(line[:n]), TagOther, n
}

// StartsGCX1 reports whether line begins with the tag GCX1 followed by SP
// or LF, as ReadTag classifies it, in a test small enough to inline: the
// tag of every header of a GCX1 payload. A tag cut short by the end of the
// input is left to ReadTag.
func StartsGCX1(line []byte) bool {
	return len(line) > len(Version) && string(line[:len(Version)]) == Version &&
		(line[len(Version)] == ' ' || line[len(Version)] == '\n')
}

// IsNameByte reports whether c may appear in a tool name or a meta key: an
// ASCII letter or digit, '_', '-' or '.' [HDR-3]. These are the characters
// MCP allows in tool names; neither kind of name has escapes.
func IsNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.'
}

// IsName reports whether s is a valid tool name or meta key: one or more
// name bytes [HDR-3].
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !IsNameByte(s[i]) {
			return false
		}
	}
	return true
}
