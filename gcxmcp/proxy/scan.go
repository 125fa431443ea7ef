package proxy

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
)

// A host's message is read token by token, never decoded whole [PRX-6]:
// what the proxy keeps of it is a few offsets, the method, the id, the
// tool's name and what the host said of the binding, reduced by
// binding.Keep as each tag is read. A tools/call's arguments, or a binding
// member of three megabytes, are skipped over as they are read, holding
// nothing; the tag the proxy asks for is spliced into the message's text.

// span is where a value lies in the message: msg[from:to].
type span struct{ from, to int }

// hostMessage is what the proxy reads of one message of the host.
type hostMessage struct {
	// The top-level object's members, the first of each name as jsonmap's
	// Lookup takes it.
	method          string // "" unless a string
	methodSeen      bool
	id              span
	hasID           bool
	idToken         jsontext.Token // the id, when a scalar: what a body read as it passes keeps of it
	params          span           // the params object, when it is one
	paramsIsObject  bool
	name            string // params.name, when a string (shares msg)
	nameIsString    bool
	meta            span // params._meta
	hasMeta         bool
	metaIsObject    bool
	metaEmpty       bool
	requestID       span // params.requestId
	hasRequestID    bool
	perCall         binding.Said // params._meta's MetaAccept
	perRequest      binding.Said // params._meta's MetaClientCapabilities
	initializeCaps  binding.Said // params.capabilities of initialize
	isResponse      bool         // the object has no method member
	keep            *binding.Intermediary
	paramsNamesSeen map[string]bool
}

// scanHost reads msg, which must be one JSON object and nothing else: ok
// is false when it is not.
func scanHost(msg []byte, keep *binding.Intermediary) (h hostMessage, ok bool) {
	if h, ok := scanCompactHost(msg, keep); ok {
		return h, true
	}
	r := hostReaders.Get().(*jsontext.Reader)
	r.ResetString(unsafe.String(unsafe.SliceData(msg), len(msg)))
	h, ok = scanHostFrom(r, keep)
	r.ResetString("") // holding no message
	hostReaders.Put(r)
	return h, ok
}

// scanCompactHost is scanHost for the message most hosts send, a request
// in compact JSON whose params the proxy reads no deeper than their
// members (no _meta, no capabilities): checked whole by
// jsontext.IsCompactObject, which reads a byte at a time what the reader
// reads a token at a time, then walked member by member over what it
// checked. The message and what is read of it are scanHost's; ok is false,
// having read nothing, for any other message, which scanHost reads token
// by token. A compact text repeats no member name and escapes only what
// AppendString escapes, so that a name with no backslash is its literal's
// content, and a name with one is none the proxy reads.
func scanCompactHost(msg []byte, keep *binding.Intermediary) (h hostMessage, ok bool) {
	s := unsafe.String(unsafe.SliceData(msg), len(msg))
	if !jsontext.IsCompactObject(s, compactScanDepth) {
		return hostMessage{}, false
	}
	h.keep = keep
	ok = true
	compactMembers(s, 0, func(name string, v span) {
		switch name {
		case "method":
			h.methodSeen = true
			if s[v.from] == '"' {
				h.method = methodName(compactString(s, v))
			}
		case "id":
			h.hasID, h.id = true, v
			if k := compactKind(s[v.from]); k != jsontext.ObjectStart && k != jsontext.ArrayStart {
				// The token the reader returns: a literal's Text is empty.
				h.idToken = jsontext.Token{Kind: k, Pos: jsontext.Pos{Offset: int64(v.from), Line: 1, Column: v.from + 1}}
				switch k {
				case jsontext.String:
					h.idToken.Text = compactString(s, v)
				case jsontext.Number:
					h.idToken.Text = s[v.from:v.to]
				}
			}
		case "params":
			if s[v.from] != '{' {
				return
			}
			h.params, h.paramsIsObject = v, true
			compactMembers(s, v.from, func(name string, v span) {
				switch name {
				case "name":
					if s[v.from] == '"' {
						h.name, h.nameIsString = compactString(s, v), true
					}
				case "requestId":
					h.requestID, h.hasRequestID = v, true
				case "_meta", "capabilities":
					ok = false // read by scanHost
				}
			})
		}
	})
	if !ok {
		return hostMessage{}, false
	}
	h.isResponse = !h.methodSeen
	return h, true
}

// compactScanDepth bounds the nesting scanCompactHost reads: its check
// recurses once a level, where the reader keeps a byte a level, so that a
// request nested deeper, to the reader's bound or past it, is the
// reader's, and no host's request grows a session's stack by more than a
// few kilobytes.
const compactScanDepth = 32

// compactMembers calls member with the name and the value of each member
// of the object at s[at], in a text jsontext.IsCompactObject accepted.
func compactMembers(s string, at int, member func(name string, v span)) {
	i := at + 1
	if s[i] == '}' {
		return
	}
	for {
		end := jsontext.CompactEnd(s, i) // the name's literal
		v := span{end + 1, jsontext.CompactEnd(s, end+1)}
		member(s[i+1:end-1], v)
		if s[v.to] == '}' {
			return
		}
		i = v.to + 1
	}
}

// compactString is the string of the literal at v in a compact text: its
// content, unless it holds an escape.
func compactString(s string, v span) string {
	lit := s[v.from:v.to]
	if strings.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	str, _ := jsontext.Unquote(lit)
	return str
}

// compactKind is the kind of the value whose first byte is c in a
// compact text.
func compactKind(c byte) jsontext.Kind {
	switch c {
	case '{':
		return jsontext.ObjectStart
	case '[':
		return jsontext.ArrayStart
	case '"':
		return jsontext.String
	case 't':
		return jsontext.True
	case 'f':
		return jsontext.False
	case 'n':
		return jsontext.Null
	}
	return jsontext.Number
}

// hostReaders are the readers scanHost reads messages with, one at a time
// each: a reader is larger than most messages of the host, and what a scan
// keeps shares none of its memory (jsontext.Reader.ResetString).
var hostReaders = sync.Pool{New: func() any { return new(jsontext.Reader) }}

// scanHostFrom reads one message of the host from r, held whole or read
// as it passes (scanstream.go); the spans are offsets into the text read.
func scanHostFrom(r *jsontext.Reader, keep *binding.Intermediary) (h hostMessage, ok bool) {
	h.keep = keep
	if err := h.top(r); err != nil {
		return hostMessage{}, false
	}
	if err := r.End(); err != nil {
		return hostMessage{}, false
	}
	h.isResponse = !h.methodSeen
	return h, true
}

// members calls member for each member name of the object whose '{' was
// just read; member reads or skips the value. A name the proxy reads that
// comes twice in one object makes the message one the proxy does not
// follow (it passes untouched, as jsonmap would refuse it): a peer could
// read either.
func members(r *jsontext.Reader, member func(name string) error) error {
	var room [8]string
	seen := room[:0] // the names read that the proxy reads: at most a few
	for {
		tok, err := r.NextToken()
		if err != nil {
			return err
		}
		if tok.Kind == jsontext.ObjectEnd {
			return nil
		}
		name := tok.Text
		if isWanted(name) {
			for _, s := range seen {
				if s == name {
					return r.Fail(tok.Pos, "member name "+jsontext.QuotePrefix(name)+" appears twice in one object")
				}
			}
			seen = append(seen, name)
		}
		if err := member(name); err != nil {
			return err
		}
	}
}

// isWanted reports whether name is a member the proxy reads somewhere.
func isWanted(name string) bool {
	switch name {
	case "method", "id", "params", "name", "_meta", "requestId", "capabilities", "extensions",
		binding.MetaAccept, binding.MetaClientCapabilities, binding.Extension, binding.SettingAccept:
		return true
	}
	return false
}

// value reads the next value whole, skipping it, and returns where it
// lies and its first token's kind.
func value(r *jsontext.Reader) (span, jsontext.Kind, error) {
	k, err := r.Peek()
	if err != nil {
		return span{}, 0, err
	}
	if k == jsontext.ObjectStart || k == jsontext.ArrayStart {
		tok, err := r.NextToken()
		if err != nil {
			return span{}, 0, err
		}
		// SkipValue reads the rest of the container from its first
		// token on, so it is given back by reading until the depth falls.
		depth := r.Depth()
		for r.Depth() >= depth {
			if _, err := r.NextToken(); err != nil {
				return span{}, 0, err
			}
		}
		return span{int(tok.Pos.Offset), int(r.InputOffset())}, k, nil
	}
	tok, err := r.NextToken()
	if err != nil {
		return span{}, 0, err
	}
	return span{int(tok.Pos.Offset), int(r.InputOffset())}, k, nil
}

func (h *hostMessage) top(r *jsontext.Reader) error {
	if _, err := r.Expect(jsontext.ObjectStart); err != nil {
		return err
	}
	return members(r, func(name string) error {
		switch name {
		case "method":
			h.methodSeen = true
			tok, err := r.NextToken()
			if err != nil {
				return err
			}
			switch {
			case tok.Kind == jsontext.String:
				h.method = methodName(tok.Text)
			case tok.Kind == jsontext.ObjectStart || tok.Kind == jsontext.ArrayStart:
				return skipRest(r)
			}
			return nil
		case "id":
			h.hasID = true
			k, err := r.Peek()
			if err != nil || k == jsontext.ObjectStart || k == jsontext.ArrayStart {
				h.id, _, err = value(r)
				return err
			}
			tok, err := r.NextToken()
			h.id, h.idToken = span{int(tok.Pos.Offset), int(r.InputOffset())}, tok
			return err
		case "params":
			k, err := r.Peek()
			if err != nil {
				return err
			}
			if k != jsontext.ObjectStart {
				return r.SkipValue()
			}
			tok, _ := r.NextToken()
			h.paramsIsObject = true
			h.params.from = int(tok.Pos.Offset)
			err = h.paramsMembers(r)
			h.params.to = int(r.InputOffset())
			return err
		}
		return r.SkipValue()
	})
}

// skipRest reads the rest of the container whose opening token was just
// read.
func skipRest(r *jsontext.Reader) error {
	depth := r.Depth()
	for r.Depth() >= depth {
		if _, err := r.NextToken(); err != nil {
			return err
		}
	}
	return nil
}

// methodName returns the method if the proxy follows it, in a string of
// its own, and a mark that is no method's name otherwise.
func methodName(m string) string {
	for _, known := range []string{"initialize", "tools/call", "notifications/cancelled"} {
		if m == known {
			return known
		}
	}
	return "\x00other"
}

func (h *hostMessage) paramsMembers(r *jsontext.Reader) error {
	return members(r, func(name string) error {
		switch name {
		case "name":
			tok, err := r.NextToken()
			if err != nil {
				return err
			}
			switch tok.Kind {
			case jsontext.String:
				h.name, h.nameIsString = tok.Text, true
			case jsontext.ObjectStart, jsontext.ArrayStart:
				return skipRest(r)
			}
			return nil
		case "requestId":
			s, _, err := value(r)
			h.requestID, h.hasRequestID = s, true
			return err
		case "_meta":
			h.hasMeta = true
			k, err := r.Peek()
			if err != nil {
				return err
			}
			if k != jsontext.ObjectStart {
				s, _, err := value(r)
				h.meta = s
				return err
			}
			tok, _ := r.NextToken()
			h.metaIsObject, h.metaEmpty = true, true
			h.meta.from = int(tok.Pos.Offset)
			err = members(r, func(name string) error {
				h.metaEmpty = false
				switch name {
				case binding.MetaAccept:
					h.perCall.Spoke = true
					return h.tags(r, &h.perCall.Accept)
				case binding.MetaClientCapabilities:
					return h.capabilities(r, &h.perRequest)
				}
				return r.SkipValue()
			})
			h.meta.to = int(r.InputOffset())
			return err
		case "capabilities":
			return h.capabilities(r, &h.initializeCaps)
		}
		return r.SkipValue()
	})
}

// capabilities reads a capabilities object for the binding's member of
// its extensions [MCP-2].
func (h *hostMessage) capabilities(r *jsontext.Reader, said *binding.Said) error {
	return h.object(r, func(name string) error {
		if name != "extensions" {
			return r.SkipValue()
		}
		return h.object(r, func(name string) error {
			if name != binding.Extension {
				return r.SkipValue()
			}
			said.Spoke = true
			return h.object(r, func(name string) error {
				if name != binding.SettingAccept {
					return r.SkipValue()
				}
				return h.tags(r, &said.Accept)
			})
		})
	})
}

// object reads the members of the next value with member when it is an
// object, and skips it otherwise.
func (h *hostMessage) object(r *jsontext.Reader, member func(name string) error) error {
	k, err := r.Peek()
	if err != nil {
		return err
	}
	if k != jsontext.ObjectStart {
		return r.SkipValue()
	}
	r.NextToken()
	return members(r, member)
}

// tags reads a list of tags into kept with binding.Keep, one string at a
// time. A value that is not a list of strings accepts nothing [MCP-11].
func (h *hostMessage) tags(r *jsontext.Reader, kept *[]string) error {
	k, err := r.Peek()
	if err != nil {
		return err
	}
	if k != jsontext.ArrayStart {
		return r.SkipValue()
	}
	r.NextToken()
	allStrings := true
	for {
		more, err := r.NextElement()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		tok, err := r.NextToken()
		if err != nil {
			return err
		}
		switch tok.Kind {
		case jsontext.String:
			if allStrings {
				*kept = h.keep.Keep(*kept, tok.Text)
			}
		case jsontext.ObjectStart, jsontext.ArrayStart:
			allStrings = false
			if err := skipRest(r); err != nil {
				return err
			}
		default:
			allStrings = false
		}
	}
	if !allStrings {
		*kept = nil
	}
	return nil
}

// key returns the idKey of the value at s, false when it is longer than
// the proxy follows [PRX-6].
func key(msg []byte, s span) (string, bool) {
	if s.to-s.from > MaxIDBytes {
		return "", false
	}
	v, err := jsonmap.Parse(msg[s.from:s.to])
	if err != nil {
		return "", false
	}
	k := idKey(v)
	return k, len(k) <= MaxIDBytes
}

// callKey is key(msg, h.id), without parsing the id again when the scan
// kept it as a token, a string or a number as ids are: the same key, as
// jsonmap.Parse makes a scalar's value of its one token.
func (h *hostMessage) callKey(msg []byte) (string, bool) {
	if h.id.to-h.id.from <= MaxIDBytes {
		if k, ok := h.idKey(); ok {
			return k, true
		}
	}
	return key(msg, h.id)
}

// ask returns msg with tags put under MetaAccept in its params' _meta
// [PRX-3], as binding.Pending.AskJSON does on a parsed message, spliced
// into the text: the rest of the message, its arguments included, is
// copied as it came and never decoded.
func (h *hostMessage) ask(msg []byte, tags []string) []byte {
	member := jsontext.AppendString(nil, binding.MetaAccept)
	member = append(member, ':', '[')
	for i, t := range tags {
		if i > 0 {
			member = append(member, ',')
		}
		member = jsontext.AppendString(member, t)
	}
	member = append(member, ']')
	var at, cut int // the insertion goes at msg[at:], replacing msg[at:cut]
	var insert []byte
	switch {
	case h.hasMeta && h.metaIsObject:
		at, cut = h.meta.from+1, h.meta.from+1
		insert = member
		if !h.metaEmpty {
			insert = append(insert, ',')
		}
	case h.hasMeta:
		at, cut = h.meta.from, h.meta.to
		insert = append(append([]byte{'{'}, member...), '}')
	default:
		// params holds at least the tool's name: a comma follows.
		at, cut = h.params.from+1, h.params.from+1
		insert = append(append(append([]byte(`"_meta":{`), member...), '}'), ',')
	}
	out := make([]byte, 0, len(msg)-(cut-at)+len(insert))
	out = append(out, msg[:at]...)
	out = append(out, insert...)
	return append(out, msg[cut:]...)
}

// readableOffer keeps of the tags an upstream offers those the proxy
// reads (binding.Readable), all that it negotiates with [PRX-3], at most
// binding.MaxKeptTags: a long offer is not kept for the session's life
// [PRX-6].
func readableOffer(offer []string) []string {
	var kept []string
	for _, t := range offer {
		if i := slices.Index(binding.Readable, t); i >= 0 && !slices.Contains(kept, t) && len(kept) < binding.MaxKeptTags {
			kept = append(kept, binding.Readable[i])
		}
	}
	return kept
}
