package jsontext

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The lexical rules of RFC 8259 are written here once; the Reader and
// CompactKind both call them. They work on a byte slice that holds the
// whole token (a Reader makes sure of that before calling), and report a
// fault as a code and the index of the offending byte, so that a caller
// that only wants a yes or no — CompactKind, on every cell of a payload —
// formats no message.

// fault says what is wrong with a token.
type fault uint8

const (
	faultNone       fault = iota
	faultUnclosed         // the input ends inside a string
	faultControl          // a raw control character in a string
	faultUTF8             // a string that is not valid UTF-8
	faultEscape           // an escape RFC 8259 does not define
	faultHex              // \u not followed by four hex digits
	faultSurrogate        // a \u surrogate without its partner
	faultNotCompact       // an escape compact form does not write
	faultDigit            // a number without its digits
	faultFraction         // a "." without a digit after it
	faultExponent         // an exponent without a digit
)

// message spells a fault found at src[at].
func (f fault) message(src []byte, at int) string {
	switch f {
	case faultUnclosed:
		return "string not closed before the end of input"
	case faultControl:
		return "control character U+00" + string(hexDigits[src[at]>>4]) + string(hexDigits[src[at]&0xF]) + " must be escaped in a string"
	case faultUTF8:
		return "string is not valid UTF-8"
	case faultEscape:
		return `unknown escape \` + describeEscape(src, at) + " in a string"
	case faultHex:
		return `expected four hex digits after \u, found ` + describe(src, at)
	case faultSurrogate:
		return "string holds an unpaired surrogate escape, which is no Unicode character"
	case faultNotCompact:
		return "escape that compact form does not write"
	case faultDigit:
		return "expected a digit in a number, found " + describe(src, at)
	case faultFraction:
		return "expected a digit after the decimal point, found " + describe(src, at)
	case faultExponent:
		return "expected a digit in the exponent, found " + describe(src, at)
	}
	return "invalid JSON"
}

func describeEscape(src []byte, at int) string {
	if at < len(src) && src[at] > 0x20 && src[at] < utf8.RuneSelf {
		return string(src[at])
	}
	return "(a backslash followed by " + describe(src, at) + ")"
}

const hexDigits = "0123456789abcdef"

// shortEscapes maps the control characters JSON lets a string write with
// a two-character escape to the letter after the backslash.
var shortEscapes = [32]byte{'\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r'}

// escapeLetter maps the letter after a backslash to the byte it stands
// for, for the escapes that stand for one byte.
var escapeLetter = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// needsEscape marks the bytes a compact string writes escaped: '"', '\'
// and the controls.
var needsEscape = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// escapeSpelling holds, for each byte AppendString escapes (needsEscape),
// its escape, up to six bytes, with the escape's length in the eighth: a
// backslash and the byte for '"' and '\', the letter of shortEscapes, or
// \u00 and two lower-case hex digits. A word of it is stored whole.
var escapeSpelling = func() (t [256][8]byte) {
	for c := range 256 {
		e := &t[c]
		switch {
		case !needsEscape[c]:
			continue
		case c == '"' || c == '\\':
			e[0], e[1], e[7] = '\\', byte(c), 2
		case shortEscapes[c] != 0:
			e[0], e[1], e[7] = '\\', shortEscapes[c], 2
		default:
			copy(e[:], []byte{'\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF]})
			e[7] = 6
		}
	}
	return t
}()

// AppendString appends s to dst as a JSON string in compact form: '"' and
// '\' escaped, the controls U+0008, U+0009, U+000A, U+000C and U+000D as
// \b \t \n \f \r, the other controls below U+0020 as \u00 and two
// lower-case hex digits, and every other character as itself. Unlike
// append, it may write over up to fifteen bytes of the capacity past the
// length it returns.
func AppendString(dst []byte, s string) []byte {
	// Written in place past dst's length by appendEscaped, many bytes a
	// step over the runs that need no escape. The room past n is kept at
	// what remains of s and 16 more, which appendEscaped needs; it stops
	// at an escape that would leave less, and the room is grown.
	src := unsafe.StringData(s)
	n := len(dst)
	buf := dst[:cap(dst)]
	if len(buf)-n < len(s)+17 {
		buf = room(buf, n, len(s))
	}
	buf[n] = '"'
	n++
	for i := 0; i < len(s); {
		r, w := appendEscaped(&buf[n], len(buf)-n, (*byte)(unsafe.Add(unsafe.Pointer(src), i)), len(s)-i)
		i, n = i+r, n+w
		if i < len(s) {
			buf = room(buf, n, len(s)-i)
		}
	}
	return append(buf[:n], '"')
}

// room returns buf, written up to n, grown for rest bytes of a string to
// escape: rest and an eighth more, and 24 to spare, so that an escape
// (six bytes for one) still leaves rest-1 and 16 bytes of room.
func room(buf []byte, n, rest int) []byte {
	buf = slices.Grow(buf[:n], rest+rest>>3+24)
	return buf[:cap(buf)]
}

// appendEscapedWords is appendEscaped in portable Go: it tests eight bytes
// a step (escapeWord), storing each word whole as it lies before knowing
// how many of its bytes are plain.
func appendEscapedWords(dst *byte, room int, src *byte, n int) (read, written int) {
	// room >= n-i+16 holds throughout (the caller's room, then kept by
	// each escape), so the eight-byte stores need no bounds checks.
	out := unsafe.Slice(dst, room)
	in := unsafe.Slice(src, n)
	i, j := 0, 0
	for i < n {
		if i+8 <= n {
			raw := *(*uint64)(unsafe.Add(unsafe.Pointer(src), i))
			*(*uint64)(unsafe.Add(unsafe.Pointer(dst), j)) = raw
			w := raw
			if !littleEndian {
				w = bits.ReverseBytes64(raw)
			}
			m := escapeWord(w)
			if m == 0 {
				i, j = i+8, j+8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i, j = i+k, j+k
		}
		c := in[i]
		if !needsEscape[c] {
			out[j] = c
			i, j = i+1, j+1
			continue
		}
		e := &escapeSpelling[c]
		size := int(e[7])
		if room-j-size < n-i-1+16 {
			break // no room for it: the caller's
		}
		copy(out[j:j+8], e[:])
		i, j = i+1, j+size
	}
	return i, j
}

// NeedsEscape reports whether AppendString escapes any byte of s: a
// quote, a backslash or a control.
func NeedsEscape(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if escapeWord(stringWord(s, i)) != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if needsEscape[s[i]] {
			return true
		}
	}
	return false
}

// UnescapedRun returns how many bytes b begins with that AppendString
// writes as they stand: none is a quote, a backslash or a control. It
// tests eight bytes a step.
func UnescapedRun(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if m := escapeWord(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(b) && !needsEscape[b[i]]; i++ {
	}
	return i
}

// stringWord is the eight bytes of s from i, the first the lowest.
func stringWord(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// scanString checks the string literal whose opening quote is src[i]. It
// returns the index just past the closing quote and whether the literal
// holds escapes, or a fault and the index of the offending byte. Faults
// come in byte order: the first byte that breaks a rule is the one
// reported. With compact set, only the escapes AppendString writes are
// accepted (faultNotCompact otherwise). With dst non-nil, the string's
// characters are appended to *dst when the literal holds escapes.
func scanString(src []byte, i int, compact bool, dst *[]byte) (end int, escaped bool, f fault, at int) {
	return scanStringFrom(src, i, i+1, compact, dst)
}

// scanStringFrom is scanString for a caller that knows src[i+1:plainTo]
// to be bytes plainRun passes over, which it does not test again.
func scanStringFrom(src []byte, i, plainTo int, compact bool, dst *[]byte) (end int, escaped bool, f fault, at int) {
	i++
	start := i
	i = plainTo
	for {
		i = plainRun(src, i)
		if i >= len(src) {
			return 0, false, faultUnclosed, i
		}
		c := src[i]
		if c == '"' {
			return i + 1, false, faultNone, 0
		}
		if c < utf8.RuneSelf {
			break // a backslash or a control
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return 0, false, faultUTF8, i
		}
		i += size
	}
	// The rest of a literal with escapes: its characters decoded into d,
	// when decoding, which is sized once to hold all of them and a word
	// more, so that the plain runs between escapes are copied a word at a
	// time as they are tested, with no check of room: a literal decodes to
	// no more bytes than it spans, so n never passes i-start.
	var d []byte
	n := 0
	if dst != nil {
		d = (*dst)[:0]
		if need := i - start + spanToQuote(src, i) + utf8.UTFMax + 8; cap(d) < need {
			d = make([]byte, 0, need)
		}
		n = copy(d[:cap(d)], src[start:i])
		d = d[:cap(d)]
	}
loop:
	for {
		for ; i+8 <= len(src); i += 8 {
			w := binary.LittleEndian.Uint64(src[i:])
			if dst != nil {
				binary.LittleEndian.PutUint64(d[n:], w)
			}
			if fire := plainWord(w); fire != 0 {
				k := bits.TrailingZeros64(fire) >> 3
				i, n = i+k, n+k
				break
			}
			n += 8
		}
		if i+8 > len(src) {
			from := i
			i = plainRun(src, i)
			if dst != nil {
				n += copy(d[n:], src[from:i])
			}
		}
		if i >= len(src) {
			f, at = faultUnclosed, i
			break loop
		}
		c := src[i]
		switch {
		case c == '"':
			end = i + 1
			break loop
		case c < 0x20:
			f, at = faultControl, i
			break loop
		case c == '\\':
			// The escapes of one byte but '/', which compact form
			// refuses, are the common ones; escape reads every other.
			if i+1 < len(src) {
				if b := escapeLetter[src[i+1]]; b != 0 && b != '/' {
					if dst != nil {
						d[n] = b
						n++
					}
					i += 2
					continue
				}
			}
			var r rune
			var next int
			if next, f, at = escape(src, i, compact, &r); f != faultNone {
				break loop
			}
			if dst != nil {
				n += utf8.EncodeRune(d[n:], r)
			}
			i = next
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				f, at = faultUTF8, i
				break loop
			}
			if dst != nil {
				n += copy(d[n:], src[i:i+size])
			}
			i += size
		}
	}
	if dst != nil {
		*dst = d[:n]
	}
	return end, f == faultNone, f, at
}

// spanToQuote returns the bytes from src[from], which begins a character
// of a string literal (not the inside of an escape), to the literal's
// closing quote, or to the end of src when it has none: the first quote
// after an even number of backslashes.
func spanToQuote(src []byte, from int) int {
	for i := from; i < len(src); i++ {
		q := bytes.IndexByte(src[i:], '"')
		if q < 0 {
			break
		}
		i += q
		backslashes := 0
		for k := i - 1; k >= from && src[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return i - from
		}
	}
	return len(src) - from
}

// Word-at-a-time tests: eight bytes per step with integer arithmetic.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// plainRun returns the index of the first byte at or after i that a
// string cannot hold as it stands or that needs a closer look — '"', '\',
// a control, a byte beyond ASCII — or len(src). It tests eight bytes a
// step: in a word without such a byte no test fires, and in one with
// some, the lowest that fires is the first such byte (a borrow only ever
// spreads upwards from a byte that fires itself).
func plainRun(src []byte, i int) int {
	for ; i+8 <= len(src); i += 8 {
		if fire := plainWord(binary.LittleEndian.Uint64(src[i:])); fire != 0 {
			return i + bits.TrailingZeros64(fire)>>3
		}
	}
	for ; i < len(src); i++ {
		if c := src[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// plainWord marks, in the high bit of each of the eight bytes of w, the
// bytes plainRun stops at; its lowest mark is the first of them.
func plainWord(w uint64) uint64 {
	return escapeWord(w) | w&highBits
}

// escapeWord marks, as plainWord does, the bytes of w that needsEscape
// marks: a control, '"', '\'. Only the lowest mark is sure to be one of
// them (a borrow spreads upwards from a byte that is marked itself), so
// a word has one exactly when it has a mark.
func escapeWord(w uint64) uint64 {
	q := w ^ ('"' * lowBits)
	b := w ^ ('\\' * lowBits)
	return (((w - 0x20*lowBits) &^ w) | ((q - lowBits) &^ q) | ((b - lowBits) &^ b)) & highBits
}

// escape reads the escape whose backslash is src[i] and sets *r to the
// character it stands for.
func escape(src []byte, i int, compact bool, r *rune) (next int, f fault, at int) {
	if i+1 >= len(src) {
		return 0, faultUnclosed, i + 1
	}
	c := src[i+1]
	if c != 'u' {
		b := escapeLetter[c]
		if b == 0 {
			return 0, faultEscape, i + 1
		}
		if compact && b == '/' {
			return 0, faultNotCompact, i
		}
		*r = rune(b)
		return i + 2, faultNone, 0
	}
	u, f, at := hex4(src, i+2)
	if f != faultNone {
		return 0, f, at
	}
	if compact && (u >= 0x20 || shortEscapes[u] != 0 || !lowerHex00(src[i+2:i+6], u)) {
		return 0, faultNotCompact, i // compact form escapes only controls, in lower-case hex
	}
	if !utf16.IsSurrogate(u) {
		*r = u
		return i + 6, faultNone, 0
	}
	j := i + 6
	if u >= 0xDC00 || j+6 > len(src) || src[j] != '\\' || src[j+1] != 'u' {
		return 0, faultSurrogate, i
	}
	// The next six bytes decide [MAP-1]: unless they are a low surrogate
	// escape, the high one is unpaired and is the first offending byte,
	// even when those bytes are no escape at all ("\ud800\uzz").
	low, f, _ := hex4(src, j+2)
	if f != faultNone || low < 0xDC00 || low > 0xDFFF {
		return 0, faultSurrogate, i
	}
	*r = utf16.DecodeRune(u, low)
	return j + 6, faultNone, 0
}

// lowerHex00 reports whether the four hex digits are those AppendString
// writes for the control u: "00" and two lower-case digits.
func lowerHex00(digits []byte, u rune) bool {
	return digits[0] == '0' && digits[1] == '0' && digits[2] == hexDigits[u>>4] && digits[3] == hexDigits[u&0xF]
}

func hex4(src []byte, i int) (rune, fault, int) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(src) {
			return 0, faultHex, k
		}
		c := src[k]
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, faultHex, k
		}
	}
	return r, faultNone, 0
}

// scanNumber checks the number literal that begins at src[i]:
//
//	number = [ "-" ] ( "0" | digit1-9 { digit } ) [ "." digit { digit } ] [ ( "e" | "E" ) [ "+" | "-" ] digit { digit } ]
//
// It returns the index just past it: the literal ends at the first byte
// that cannot continue it.
func scanNumber(src []byte, i int) (end int, f fault, at int) {
	if src[i] == '-' {
		i++
	}
	switch {
	case i < len(src) && src[i] == '0':
		i++
	case i < len(src) && '1' <= src[i] && src[i] <= '9':
		i = digits(src, i+1)
	default:
		return 0, faultDigit, i
	}
	if i < len(src) && src[i] == '.' {
		j := digits(src, i+1)
		if j == i+1 {
			return 0, faultFraction, j
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return 0, faultExponent, j
		}
		i = j
	}
	return i, faultNone, 0
}

func digits(src []byte, i int) int {
	for i < len(src) && '0' <= src[i] && src[i] <= '9' {
		i++
	}
	return i
}

// literal checks that src[i:] begins with word (true, false or null) and
// returns the index of the first byte that differs, or -1.
func literal(src []byte, i int, word string) int {
	for k := 0; k < len(word); k++ {
		if i+k >= len(src) || src[i+k] != word[k] {
			return i + k
		}
	}
	return -1
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
