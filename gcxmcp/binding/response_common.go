package binding

import (
	"unsafe"

	"github.com/gcxwire/gcx/jsonmap"
)

// Most tools/call results come in one shape, in compact JSON:
//
//	{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"…"}],"structuredContent":…}}
//
// with the members in any order, isError perhaps, and structuredContent
// perhaps absent. Reading its dozen tokens of envelope with the JSON
// reader costs a few hundred instructions each (positions, the state
// machine, the names' set), more than comparing structuredContent; so
// readCommon reads that shape alone, byte by byte, and leaves any other
// message, and any doubt, to the reader (ReadResponse), which reads it
// anew but for the text's literal, if readCommon read it. What it
// accepts it reads as the reader does: the same Response, the same checks
// (TestPropertyCommonAsReader, FuzzReadCommonAsReader).

// readCommon reads msg when it is a response of the common shape: the
// envelope's names plain ASCII, each once; an id that is a plain integer
// or a string of plain ASCII; jsonrpc a string of plain ASCII; a result
// whose content, when present, is one text block, "type":"text" and a
// text whose literal holds a JSON text read whole (parseLiteral), whose
// structuredContent, when present, comes after the content and is that
// text's value in compact form (matchCompact), and whose isError, when
// present, is true or false. ok is false for anything else, having filled
// room in part, and read is what it read of the text's literal, if it
// read it, for the reader not to read it again (parseLiteral).
func readCommon(msg []byte, room *responseRoom) (resp *Response, read literalRead, ok bool) {
	x := &responseReader{msg: msg, resp: &room.resp, room: room, structured: span{-1, -1}, read: literalRead{at: -1}}
	if x.common() {
		return x.resp, x.read, true
	}
	return nil, x.read, false
}

// common is readCommon's reading, into x.
func (x *responseReader) common() bool {
	msg, room := x.msg, x.room
	b := msg
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	room.resp = Response{msg: msg, meta: span{-1, -1}, texts: room.texts[:0], fixes: room.fixes[:0]}
	var seenID, seenRPC, seenResult bool
	i := 1
	for {
		name, at, ok := plainName(b, i)
		if !ok {
			return false
		}
		switch name {
		case "id":
			end := plainScalar(b, at)
			if seenID || end < 0 {
				return false
			}
			seenID, x.resp.ID, i = true, b[at:end], end
		case "jsonrpc":
			end := plainString(b, at)
			if seenRPC || end < 0 {
				return false
			}
			seenRPC, i = true, end
		case "result":
			if seenResult {
				return false
			}
			seenResult = true
			if i = x.commonResult(at); i < 0 {
				return false
			}
		default:
			return false
		}
		if i >= len(b) {
			return false
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '}' || i+1 != len(b) || !seenID || !seenResult {
			return false
		}
		break
	}
	if x.hasStruct {
		room.structured = msg[x.structured.from:x.structured.to]
		x.resp.Result.Structured = &room.structured
	}
	return true
}

// commonResult reads the result object whose '{' is b[i], as readCommon
// says, and returns the index past its '}', or -1.
func (x *responseReader) commonResult(i int) int {
	b := x.msg
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	res := &x.room.result
	x.resp.Result = res
	var seenContent, seenError bool
	i++
	for {
		name, at, ok := plainName(b, i)
		if !ok {
			return -1
		}
		switch name {
		case "content":
			if seenContent {
				return -1
			}
			seenContent = true
			if i = x.commonContent(at); i < 0 {
				return -1
			}
		case "structuredContent":
			if x.hasStruct || x.block == nil || at >= len(b) || b[at] == 'n' {
				return -1 // before the content, twice, or null
			}
			// As compare's first case: the compact form of the block's
			// value, nested within the reader's bound two deep (the
			// response and its result).
			n, depth, fixes, same := matchCompact(b[at:], at, &x.block.value, x.block.shared, x.resp.fixes)
			if !same || 2+depth > jsonmap.MaxDepth {
				return -1
			}
			x.hasStruct = true
			x.structured = span{at, at + n}
			x.resp.fixes = fixes
			x.settle(true)
			i = at + n
		case "isError":
			if seenError {
				return -1
			}
			seenError = true
			switch {
			case len(b)-at >= 4 && string(b[at:at+4]) == "true":
				res.IsError, i = true, at+4
			case len(b)-at >= 5 && string(b[at:at+5]) == "false":
				i = at + 5
			default:
				return -1
			}
		default:
			return -1
		}
		if i >= len(b) {
			return -1
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '}' {
			return -1
		}
		x.resp.resultEnd = i
		return i + 1
	}
}

// commonContent reads a content array of one text block whose '[' is
// b[i], "type":"text" and a text whose literal holds a JSON text read
// whole, and returns the index past its ']', or -1.
func (x *responseReader) commonContent(i int) int {
	b := x.msg
	if len(b)-i < 2 || b[i] != '[' || b[i+1] != '{' {
		return -1
	}
	i += 2
	var isText bool
	at := span{-1, -1} // the text's string literal
	var v jsonmap.Value
	for {
		name, from, ok := plainName(b, i)
		if !ok {
			return -1
		}
		switch name {
		case "type":
			if isText || len(b)-from < 6 || string(b[from:from+6]) != `"text"` {
				return -1
			}
			isText, i = true, from+6
		case "text":
			if at.from >= 0 || from >= len(b) || b[from] != '"' {
				return -1
			}
			value, n, ok := x.parseLiteral(from)
			if !ok {
				return -1
			}
			v, at, i = value, span{from, from + n}, from+n
		default:
			return -1
		}
		if i >= len(b) {
			return -1
		}
		if b[i] == ',' {
			i++
			continue
		}
		if len(b)-i < 2 || b[i] != '}' || b[i+1] != ']' || !isText || at.from < 0 {
			return -1
		}
		break
	}
	// As readContent leaves a content of one text block whose text's
	// value was read from its literal.
	res := x.resp.Result
	res.Content = append(x.room.content[:0], Block{IsText: true})
	x.resp.texts = append(x.resp.texts, at)
	x.room.block = block{at: 0, shared: b[at.from+1 : at.to-1], value: v, parsed: true}
	x.literal = &x.room.block
	x.content = true
	res.undecoded = literalText{at: 0, lit: unsafe.String(&b[at.from], at.to-at.from)}
	x.found(x.literal)
	return i + 2
}

// plainName reads the member name whose quote is b[i] and the ':' after
// it, when it is plain: printable ASCII but for quotes and backslashes,
// so that its literal is its compact form. at is the index past the ':'.
func plainName(b []byte, i int) (name string, at int, ok bool) {
	end := plainString(b, i)
	if end < 0 || end >= len(b) || b[end] != ':' {
		return "", 0, false
	}
	return unsafe.String(&b[i+1], end-i-2), end + 1, true
}

// plainString returns the index past the string literal whose quote is
// b[i] when the string is plain, as plainName says, and -1 otherwise.
func plainString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20 || c > 0x7e || c == '\\':
			return -1
		}
	}
	return -1
}

// plainScalar returns the index past the id at b[i] when it is a plain
// string or an integer without sign, fraction or exponent (0, or digits
// not beginning with 0), and -1 otherwise.
func plainScalar(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	if b[i] == '"' {
		return plainString(b, i)
	}
	if b[i] == '0' {
		return i + 1
	}
	j := i
	for j < len(b) && '0' <= b[j] && b[j] <= '9' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
