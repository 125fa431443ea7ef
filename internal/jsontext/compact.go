package jsontext

import (
	"strconv"
	"sync"
	"unsafe"
)

// CompactKind reports whether s is exactly the compact form of one JSON
// value, and if so of what kind: the text AppendString and its
// counterparts for the other kinds would write — no whitespace, numbers
// as any valid literal, strings with only the escapes AppendString
// writes, objects without a repeated name. For an array or an object the
// kind is ArrayStart or ObjectStart.
//
// The error is non-nil only when s nests deeper than maxDepth (a positive
// bound), so that it cannot be decided; it is an *Error with Limit set,
// at the bracket that goes too deep, counted as if s were the whole input.
//
// It formats nothing when s is not compact, and reads each byte of s once
// (a long object also fills a set of its names), so callers may ask it of
// every value they meet.
func CompactKind(s string, maxDepth int) (Kind, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	c := compactChecker{text: s, src: unsafe.Slice(unsafe.StringData(s), len(s)), maxDepth: maxDepth, limitAt: -1}
	end, kind, ok := c.value(0)
	if c.limitAt >= 0 {
		return 0, false, c.limitError()
	}
	if !ok || end != len(s) {
		return 0, false, nil
	}
	return kind, true, nil
}

// compactChecker walks one text for CompactKind. A failure is plain
// false; limitAt is set when the nesting bound stopped it.
type compactChecker struct {
	text     string
	src      []byte // text's bytes, never written
	maxDepth int
	depth    int
	limitAt  int
	names    []string // names of the open objects, for the repeated-name check
}

func (c *compactChecker) value(i int) (int, Kind, bool) {
	if i >= len(c.src) {
		return 0, 0, false
	}
	switch b := c.src[i]; {
	case b == '"':
		end, _, f, _ := scanString(c.src, i, true, nil)
		return end, String, f == faultNone
	case b == '-' || '0' <= b && b <= '9':
		end, f, _ := scanNumber(c.src, i)
		return end, Number, f == faultNone
	case b == 't':
		return i + 4, True, literal(c.src, i, "true") < 0
	case b == 'f':
		return i + 5, False, literal(c.src, i, "false") < 0
	case b == 'n':
		return i + 4, Null, literal(c.src, i, "null") < 0
	case b == '[':
		return c.array(i)
	case b == '{':
		return c.object(i)
	}
	return 0, 0, false
}

func (c *compactChecker) enter(i int) bool {
	c.depth++
	if c.maxDepth > 0 && c.depth > c.maxDepth {
		c.limitAt = i
		return false
	}
	return true
}

func (c *compactChecker) array(i int) (int, Kind, bool) {
	if !c.enter(i) {
		return 0, 0, false
	}
	end, kind, ok := c.elements(i + 1)
	c.depth--
	return end, kind, ok
}

// elements reads an array's elements and its ']', from i.
func (c *compactChecker) elements(i int) (int, Kind, bool) {
	if i < len(c.src) && c.src[i] == ']' {
		return i + 1, ArrayStart, true
	}
	for {
		end, _, ok := c.value(i)
		if !ok || end >= len(c.src) {
			return 0, 0, false
		}
		switch c.src[end] {
		case ',':
			i = end + 1
		case ']':
			return end + 1, ArrayStart, true
		default:
			return 0, 0, false
		}
	}
}

func (c *compactChecker) object(i int) (int, Kind, bool) {
	if !c.enter(i) {
		return 0, 0, false
	}
	base := len(c.names)
	end, kind, ok := c.members(i+1, base)
	c.names = c.names[:base]
	c.depth--
	return end, kind, ok
}

// members reads an object's members and its '}', from i; the object's
// names go on c.names from base.
func (c *compactChecker) members(i, base int) (int, Kind, bool) {
	if i < len(c.src) && c.src[i] == '}' {
		return i + 1, ObjectStart, true
	}
	var set map[string]struct{}
	for {
		if i >= len(c.src) || c.src[i] != '"' {
			return 0, 0, false
		}
		end, _, f, _ := scanString(c.src, i, true, nil)
		if f != faultNone || end >= len(c.src) || c.src[end] != ':' {
			return 0, 0, false
		}
		// Compact form spells each string one way only, so names are
		// equal exactly when their literals are.
		name := c.text[i+1 : end-1]
		if !c.addName(base, &set, name) {
			return 0, 0, false
		}
		end, _, ok := c.value(end + 1)
		if !ok || end >= len(c.src) {
			return 0, 0, false
		}
		switch c.src[end] {
		case ',':
			i = end + 1
		case '}':
			return end + 1, ObjectStart, true
		default:
			return 0, 0, false
		}
	}
}

// addName records a name of the innermost object and reports whether it
// is new there: a scan while the object is small, a set once it grows.
func (c *compactChecker) addName(base int, set *map[string]struct{}, name string) bool {
	own := c.names[base:]
	if *set == nil && len(own) < setFrom {
		for _, n := range own {
			if n == name {
				return false
			}
		}
		c.names = append(c.names, name)
		return true
	}
	if *set == nil {
		*set = make(map[string]struct{}, 2*len(own))
		for _, n := range own {
			(*set)[n] = struct{}{}
		}
	}
	if _, dup := (*set)[name]; dup {
		return false
	}
	(*set)[name] = struct{}{}
	return true
}

// setFrom is the size at which a duplicate check switches from a scan to a
// set.
const setFrom = 16

func (c *compactChecker) limitError() error {
	line, col := 1, 1
	for _, b := range c.src[:c.limitAt] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &Error{Offset: int64(c.limitAt), Line: line, Column: col, Limit: true,
		Msg: "arrays and objects nested deeper than " + strconv.Itoa(c.maxDepth)}
}

// IsCompactObject reports whether s is exactly the compact form of one
// JSON object, as CompactKind reports ObjectStart, nested no deeper than
// maxDepth (a positive bound): a text nested deeper is simply not one. It
// holds the member names of a small text, a JSON-RPC request, in room it
// reuses, so that asking it of each message allocates nothing.
func IsCompactObject(s string, maxDepth int) bool {
	if s == "" || s[0] != '{' {
		return false
	}
	o := objectCheckers.Get().(*objectChecker)
	o.c = compactChecker{text: s, src: unsafe.Slice(unsafe.StringData(s), len(s)), maxDepth: maxDepth, limitAt: -1, names: o.names[:0]}
	end, _, ok := o.c.value(0)
	ok = ok && o.c.limitAt < 0 && end == len(s)
	o.c = compactChecker{}
	clear(o.names[:]) // holding none of s
	objectCheckers.Put(o)
	return ok
}

// objectChecker is IsCompactObject's checker, with room for the names of
// the objects open at once in a small text.
type objectChecker struct {
	c     compactChecker
	names [16]string
}

var objectCheckers = sync.Pool{New: func() any { return new(objectChecker) }}

// CompactEnd returns the index just past the value that begins at s[i],
// in a text that CompactKind or IsCompactObject found to be the compact
// form of a value: the end of a string literal, of a container with all
// it holds, or of a number or literal, which runs to the next ',', ':',
// '}' or ']'. It checks nothing, and is only for such a text.
func CompactEnd(s string, i int) int {
	src := unsafe.Slice(unsafe.StringData(s), len(s))
	depth := 0
	for {
		switch c := src[i]; c {
		case '"':
			// Strings are short in the texts this is for: a byte at a
			// time, the byte after a backslash passed with it.
			for i++; src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			i++
		case ',', ':':
			i++ // within a container
			continue
		default:
			for i < len(src) && src[i] != ',' && src[i] != ':' && src[i] != '}' && src[i] != ']' {
				i++
			}
		}
		if depth == 0 {
			return i
		}
	}
}
