package binding

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
)

// An intermediary meets most tools/call results as the compact JSON text
// a server wrote, the text block's JSON and structuredContent holding one
// value. ReadResponse reads such a response in one pass, token by token:
// it never builds structuredContent's value but compares its bytes with
// the compact form of the value parsed from the JSON block's text, which
// the mapping needs anyway; and Apply writes the answer by splicing the
// few changed bytes into the text. Both give exactly what ResultFromJSON
// and ApplyJSON give on the parsed message, with AppendCompact writing it
// out (TestPropertyResponseTextAsTree); any other message is left to
// those two.

// A span is where a value lies in a text: text[from:to].
type span struct{ from, to int }

// Response is a JSON-RPC response read by ReadResponse.
type Response struct {
	// ID is the compact JSON text of the response's id.
	ID []byte
	// Result is the result as ResultFromJSON reads it, with structuredContent
	// as its JSON text in the message.
	Result *Result

	msg   []byte
	texts []span // per content block: its text's string literal, when a text block
	// structuredContent's value when it is not in compact form: where it
	// lies; the answer writes the JSON block's value, the same, in its
	// place, in compact form.
	structured span
	recompact  bool
	// The strings of structuredContent, when it holds the JSON block's
	// value, that are in another form than the compact one: the answer
	// writes them anew.
	fixes     []stringAt
	resultEnd int  // the offset of the result's closing '}'
	meta      span // the _meta object, from -1 when there is none
	metaKeys  int  // how many members _meta has
	marks     [3]span
}

// answerMarks are the _meta keys an answer writes, in EachMeta's order.
var answerMarks = [3]string{MetaFormat, MetaCompact, MetaDiffers}

// ReadResponse reads msg when it is a JSON-RPC response holding a result
// object, in compact form [MAP-3] — the bytes jsonmap's AppendCompact
// writes of its value — but for the escapes of the content's texts and,
// when it holds the JSON block's value, of structuredContent, which an
// answer writes anew. ok is false for every other message, which the
// caller reads as a jsonmap value: not JSON, not in that form, a request,
// an error response, a result ResultFromJSON refuses.
func ReadResponse(msg []byte) (resp *Response, ok bool) {
	read := literalRead{at: -1}
	if !readerOnly {
		var resp *Response
		if resp, read, ok = readCommon(msg, new(responseRoom)); ok {
			return resp, true
		}
	}
	rr := new(readerRoom)
	room, r := &rr.responseRoom, &rr.reader
	r.ResetString(unsafe.String(unsafe.SliceData(msg), len(msg)))
	r.MaxDepth = jsonmap.MaxDepth
	r.RejectDuplicateNames = true
	r.CheckCompact = true
	room.resp = Response{msg: msg, meta: span{-1, -1}, texts: room.texts[:0], fixes: room.fixes[:0]}
	x := &responseReader{r: r, msg: msg, resp: &room.resp, room: room, read: read}
	if !x.top() || r.End() != nil || !r.Compact() || x.resp.ID == nil || x.resp.Result == nil {
		return nil, false
	}
	if x.hasStruct {
		// Its compact JSON text, as ResultFromJSON gives it. When the
		// JSON block is not known yet (structuredContent came before the
		// content, or the content has several text blocks), the binding
		// looks for it as in any result. A pointer to it, kept in the
		// room, so that putting it in the interface allocates nothing.
		room.structured = msg[x.structured.from:x.structured.to]
		x.resp.Result.Structured = &room.structured
	}
	return x.resp, true
}

// readerOnly makes ReadResponse read every message with the JSON reader,
// never readCommon: what a test holds readCommon to.
var readerOnly = false

// responseRoom is what ReadResponse makes of a message, in one
// allocation: the response, its result and JSON block, and room for the
// content of one block and for a string written anew, and
// structuredContent's text.
type responseRoom struct {
	resp       Response
	structured json.RawMessage
	result     Result
	block      block
	content    [1]Block
	texts      [1]span
	fixes      [1]stringAt
}

// readerRoom is a responseRoom with the JSON reader that fills it, in one
// allocation, for a message readCommon leaves (the reader is over half
// its size: readCommon's room does without it).
type readerRoom struct {
	responseRoom
	reader jsontext.Reader
}

type responseReader struct {
	r    *jsontext.Reader
	msg  []byte
	resp *Response
	room *responseRoom
	// The JSON block, when the content holds one text block with a JSON
	// text: its value, parsed.
	block *block
	// literal is the value of the first text whose value was read from
	// its literal, and its block (parseLiteral).
	literal    *block
	content    bool // the content has been read
	structured span // structuredContent's value, from -1 when none has been read
	hasStruct  bool // structuredContent is present and not null
	read       literalRead
}

// valueStart is where the value of the member name the reader returned
// last begins in a compact text: after its ':'.
func (x *responseReader) valueStart() (int, bool) {
	at := int(x.r.InputOffset())
	if at >= len(x.msg) || x.msg[at] != ':' {
		return 0, false
	}
	return at + 1, true
}

// skip reads the next value and returns where it lies.
func (x *responseReader) skip() (span, bool) {
	from, ok := x.valueStart()
	if !ok || x.r.SkipValue() != nil {
		return span{}, false
	}
	return span{from, int(x.r.InputOffset())}, true
}

// object reads the members of an object whose '{' is next, calling member
// with each name; member reads the value.
func (x *responseReader) object(member func(name string) bool) bool {
	if tok, err := x.r.NextToken(); err != nil || tok.Kind != jsontext.ObjectStart {
		return false
	}
	for {
		tok, err := x.r.NextToken()
		if err != nil {
			return false
		}
		if tok.Kind == jsontext.ObjectEnd {
			return true
		}
		if !member(tok.Text) {
			return false
		}
	}
}

func (x *responseReader) peek() jsontext.Kind {
	k, _ := x.r.Peek()
	return k
}

func (x *responseReader) top() bool {
	seenResult := false
	return x.object(func(name string) bool {
		switch name {
		case "method":
			return false // a request
		case "id":
			s, ok := x.skip()
			x.resp.ID = x.msg[s.from:s.to]
			return ok
		case "result":
			if seenResult || x.peek() != jsontext.ObjectStart {
				return false
			}
			seenResult = true
			x.resp.Result = &x.room.result
			x.structured = span{-1, -1}
			if !x.object(x.resultMember) {
				return false
			}
			x.resp.resultEnd = int(x.r.InputOffset()) - 1
			return true
		}
		_, ok := x.skip()
		return ok
	})
}

func (x *responseReader) resultMember(name string) bool {
	res := x.resp.Result
	switch name {
	case "content":
		return x.readContent()
	case "structuredContent":
		from, ok := x.valueStart()
		if !ok {
			return false
		}
		if bytes.HasPrefix(x.msg[from:], []byte("null")) {
			// null is no structured result [MCP-5]; the reader checks
			// what follows.
			_, ok := x.skip()
			return ok
		}
		x.hasStruct = true
		if x.block != nil {
			return x.compare(from)
		}
		s, ok := x.skip()
		x.structured = s
		return ok
	case "isError":
		s, ok := x.skip()
		res.IsError = ok && string(x.msg[s.from:s.to]) == "true"
		return ok
	case "_meta":
		from, ok := x.valueStart()
		if !ok || x.peek() != jsontext.ObjectStart {
			return false // ResultFromJSON refuses it
		}
		x.resp.marks = [3]span{{-1, -1}, {-1, -1}, {-1, -1}}
		if !x.object(func(key string) bool {
			x.resp.metaKeys++
			s, ok := x.skip()
			if i := slices.Index(answerMarks[:], key); i >= 0 {
				x.resp.marks[i] = s
			}
			return ok
		}) {
			return false
		}
		x.resp.meta = span{from, int(x.r.InputOffset())}
		return json.Unmarshal(x.msg[from:x.resp.meta.to], &res.Meta) == nil
	}
	_, ok := x.skip()
	return ok
}

// readContent reads the content array as ResultFromJSON does, keeping
// where each text block's text lies; a content of one text block with a
// JSON text has that text parsed, and it is the JSON block when
// structuredContent holds the same value [MCP-5].
func (x *responseReader) readContent() bool {
	if x.content || x.peek() != jsontext.ArrayStart {
		return false
	}
	x.content = true
	x.r.NextToken()
	res := x.resp.Result
	res.Content = x.room.content[:0]
	only := -1 // the one text block, -2 when there are several
	for {
		k := x.peek()
		if k == jsontext.ArrayEnd {
			x.r.NextToken()
			break
		}
		if k != jsontext.ObjectStart {
			if x.r.SkipValue() != nil {
				return false
			}
			res.Content = append(res.Content, Block{})
			x.resp.texts = append(x.resp.texts, span{-1, -1})
			continue
		}
		var isText, textIsString bool
		var at span // the text's string literal
		if !x.object(func(name string) bool {
			if name != "type" && name != "text" {
				_, ok := x.skip()
				return ok
			}
			from, ok := x.valueStart()
			if !ok || from >= len(x.msg) || isSpace(x.msg[from]) {
				return false
			}
			if name == "text" && x.msg[from] == '"' {
				// The text as its literal, not decoded: the text's value
				// is read from it where it lies, which checks it, or else
				// it is passed and decoded below.
				textIsString = true
				if x.literal == nil {
					if v, n, ok := x.parseLiteral(from); ok && x.r.PassValue(n) == nil {
						x.room.block = block{at: len(res.Content), shared: x.msg[from+1 : from+n-1], value: v, parsed: true}
						x.literal = &x.room.block
						at = span{from, from + n}
						return true
					}
				}
				lit, err := x.r.PassString()
				at = span{from, from + len(lit)}
				return err == nil
			}
			// A text block's text may be in any form, for an answer writes
			// it anew: the reader need not scan a long text a second time
			// for the form of its escapes, as it does in a text still in
			// compact form. What it does not check here is checked below.
			before := x.r.Compact()
			x.r.SetCompact(false)
			k := x.peek()
			x.r.SetCompact(true)
			if k != jsontext.String {
				err := x.r.SkipValue()
				x.r.SetCompact(before && x.r.Compact())
				return err == nil
			}
			tok, err := x.r.NextToken()
			x.r.SetCompact(before)
			if err != nil {
				return false
			}
			isText = tok.Text == "text"
			x.checkCompact(span{from, int(x.r.InputOffset())}, tok.Text)
			return true
		}) {
			return false
		}
		if !isText {
			if textIsString {
				text, ok := x.unquote(at)
				if !ok {
					return false
				}
				x.checkCompact(at, text) // a text that stays as it is
			}
			res.Content = append(res.Content, Block{})
			x.resp.texts = append(x.resp.texts, span{-1, -1})
			continue
		}
		if !textIsString {
			return false // ResultFromJSON refuses it
		}
		if only == -1 {
			only = len(res.Content)
		} else {
			only = -2
		}
		res.Content = append(res.Content, Block{IsText: true})
		x.resp.texts = append(x.resp.texts, at)
	}
	if b := x.literal; b != nil && b.at == only {
		// The one text block's value, read from its literal: the same as
		// that of the decoded text (jsonmap.ParseLiteral), which is
		// decoded only if something asks for it (Result.DecodeTexts).
		t := x.resp.texts[only]
		res.undecoded = literalText{at: only, lit: unsafe.String(&x.msg[t.from], t.to-t.from)}
		x.found(b)
		return true
	}
	for i, t := range x.resp.texts {
		if t.from >= 0 {
			var ok bool
			if res.Content[i].Text, ok = x.unquote(t); !ok {
				return false // no JSON string: the message is no JSON
			}
		}
	}
	if only < 0 {
		return true
	}
	text := res.Content[only].Text
	if !mayBeJSON(text) || len(text) >= streamAbove {
		return true
	}
	// The text is a string, never written: its value may share it rather
	// than copy it, as the mapping of a text does.
	v, _, err := jsonmap.ParseShared(bytesOf(text))
	if err != nil {
		return true
	}
	x.found(&block{at: only, json: bytesOf(text), shared: bytesOf(text), value: v, parsed: true})
	return true
}

// parseLiteral reads the value of the text whose literal's opening
// quote is at, from the literal where it lies in the message, and returns
// the literal's length with its quotes. Reading the literal whole checks
// it, as decoding it would. ok is false when the literal must be decoded
// to know the text's value, whether it has one that is read whole
// (streamAbove: a literal at least as long may hold such a text), or
// whether it is a JSON string at all.
// A literal read before, by readCommon on a message it then left to the
// reader, is not read again: its value, or that it has none read whole,
// is the same.
func (x *responseReader) parseLiteral(at int) (v jsonmap.Value, n int, ok bool) {
	if r := &x.read; r.at == at {
		return r.v, r.n, r.ok
	}
	text := x.msg[at+1 : min(len(x.msg), at+1+streamAbove)]
	v, _, end, ok := jsonmap.ParseLiteral(text)
	x.read = literalRead{at: at, v: v, n: end + 2, ok: ok}
	return v, end + 2, ok
}

// literalRead is what parseLiteral read of the literal whose opening
// quote is at, -1 when none.
type literalRead struct {
	at int
	v  jsonmap.Value
	n  int
	ok bool
}

// found makes b, the value of the one text block's text, the JSON block
// when structuredContent holds the same value [MCP-5].
func (x *responseReader) found(b *block) {
	x.block = b
	if x.structured.from >= 0 {
		// structuredContent came first and was read token by token.
		n, _, _, ok := matchCompact(x.msg[x.structured.from:x.structured.to], 0, &b.value, b.shared, nil)
		x.settle(ok && n == x.structured.to-x.structured.from)
		return
	}
	if !x.hasStruct {
		x.settle(false)
	}
}

// unquote returns the string of the literal at s, which the reader
// passed, and false when it is no JSON string literal.
func (x *responseReader) unquote(s span) (string, bool) {
	return jsontext.Unquote(unsafe.String(&x.msg[s.from], s.to-s.from))
}

// checkCompact notes that the message is not in compact form unless the
// string literal at s is the compact form of str.
func (x *responseReader) checkCompact(s span, str string) {
	lit := x.msg[s.from:s.to]
	if len(lit) != len(str)+2 || string(lit[1:len(lit)-1]) != str || jsontext.NeedsEscape(str) {
		if !bytes.Equal(lit, jsontext.AppendString(nil, str)) {
			x.r.SetCompact(false)
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// compare reads structuredContent's value, which begins at from, by
// comparing it with the compact form of the JSON block's value: when it
// is that form, the reader passes over it; otherwise it reads it.
func (x *responseReader) compare(from int) bool {
	n, depth, fixes, same := matchCompact(x.msg[from:], from, &x.block.value, x.block.shared, x.resp.fixes)
	if same && x.r.Depth()+depth <= x.r.MaxDepth && x.r.PassValue(n) == nil {
		x.structured = span{from, from + n}
		// The answer writes these strings in compact form, as
		// AppendCompact does.
		x.resp.fixes = fixes
		x.settle(true)
		return true
	}
	// Not the compact form of the block's value: another value, or the
	// same in another form (a server that escapes '<', as Go's
	// encoding/json does). Read it token by token, comparing.
	before := x.r.Compact()
	x.r.SetCompact(true)
	c := tokenCompare{r: x.r}
	if c.value(&x.block.value) != nil {
		return false
	}
	compact := x.r.Compact()
	x.r.SetCompact(before)
	x.structured = span{from, int(x.r.InputOffset())}
	switch {
	case !c.differs && !compact:
		x.resp.structured, x.resp.recompact = x.structured, true
	case c.differs && !compact:
		return false // its compact form is not at hand
	}
	x.settle(!c.differs)
	return true
}

// tokenCompare reads one value from r and notes whether it differs from
// a value held.
type tokenCompare struct {
	r       *jsontext.Reader
	differs bool
}

// value reads the next value, comparing it with v; nil v is no value:
// what is read differs.
func (c *tokenCompare) value(v *jsonmap.Value) error {
	tok, err := c.r.NextToken()
	if err != nil {
		return err
	}
	var want jsonmap.Kind
	switch tok.Kind {
	case jsontext.ObjectStart:
		if v == nil || v.Kind != jsonmap.Object {
			c.differs, v = true, nil
		}
		for i := 0; ; i++ {
			name, err := c.r.NextToken()
			if err != nil {
				return err
			}
			if name.Kind == jsontext.ObjectEnd {
				if v != nil && i != len(v.Members) {
					c.differs = true
				}
				return nil
			}
			var sub *jsonmap.Value
			if v != nil && i < len(v.Members) && v.Members[i].Key == name.Text {
				sub = &v.Members[i].Value
			}
			if err := c.value(sub); err != nil {
				return err
			}
		}
	case jsontext.ArrayStart:
		if v == nil || v.Kind != jsonmap.Array {
			c.differs, v = true, nil
		}
		for i := 0; ; i++ {
			k, err := c.r.Peek()
			if err != nil {
				return err
			}
			if k == jsontext.ArrayEnd {
				c.r.NextToken()
				if v != nil && i != len(v.Elems) {
					c.differs = true
				}
				return nil
			}
			var sub *jsonmap.Value
			if v != nil && i < len(v.Elems) {
				sub = &v.Elems[i]
			}
			if err := c.value(sub); err != nil {
				return err
			}
		}
	case jsontext.String:
		want = jsonmap.String
	case jsontext.Number:
		want = jsonmap.Number
	case jsontext.True:
		want = jsonmap.True
	case jsontext.False:
		want = jsonmap.False
	default:
		want = jsonmap.Null
	}
	if v == nil || v.Kind != want || v.Text != tok.Text {
		c.differs = true
	}
	return nil
}

// settle makes the one text block the result's JSON block: its value is
// structuredContent's when same, and differs from it when the result has
// one that is not.
func (x *responseReader) settle(same bool) {
	// The block itself, not a copy: it is the reader's own, and a later
	// settle (structuredContent read after the text) only says again
	// whether it differs.
	x.block.differs = x.hasStruct && !same
	x.resp.Result.known = x.block
}

// Apply returns the response with the answer made [MCP-6]: what ApplyJSON
// makes of the parsed response, written as AppendCompact writes it.
func (resp *Response) Apply(a Answer) []byte {
	type edit struct {
		from, to int
		text     string // a string value to write in place
		raw      bool   // or the bytes values[rawFrom:rawTo]
		rawFrom  int
		rawTo    int
	}
	// The edits, the marks' values and the members written into _meta
	// are few and short: held on the stack (the edits refer to the bytes
	// by offsets, so that nothing on the stack is pointed to from a
	// slice that may grow onto the heap), they cost no allocation.
	var editRoom [8]edit
	var metaRoom, valueRoom [128]byte
	edits, meta, values := editRoom[:0], metaRoom[:0], valueRoom[:0]
	if a.Block != resp.Result.undecoded.at {
		resp.Result.DecodeTexts() // a text written anew
	}
	if a.Block >= 0 {
		edits = append(edits, edit{from: resp.texts[a.Block].from, to: resp.texts[a.Block].to, text: a.Text})
	}
	// Every text block's text is written anew, as AppendCompact does: it
	// was read in whatever form it came.
	for i, t := range resp.texts {
		if t.from >= 0 && i != a.Block {
			edits = append(edits, edit{from: t.from, to: t.to, text: resp.Result.Content[i].Text})
		}
	}
	for _, f := range resp.fixes {
		edits = append(edits, edit{from: f.from, to: f.to, text: f.s})
	}
	if resp.recompact {
		from := len(values)
		values = resp.Result.known.value.AppendCompact(values)
		edits = append(edits, edit{from: resp.structured.from, to: resp.structured.to, raw: true, rawFrom: from, rawTo: len(values)})
	}
	sep := resp.metaKeys > 0
	a.EachMeta(func(key string, value any) {
		from := len(values)
		switch x := value.(type) {
		case string:
			values = jsontext.AppendString(values, x)
		case bool:
			values = strconv.AppendBool(values, x)
		}
		if resp.meta.from != -1 {
			if i := slices.Index(answerMarks[:], key); i >= 0 && resp.marks[i].from >= 0 {
				edits = append(edits, edit{from: resp.marks[i].from, to: resp.marks[i].to, raw: true, rawFrom: from, rawTo: len(values)})
				return
			}
		}
		if sep {
			meta = append(meta, ',')
		}
		sep = true
		meta = jsontext.AppendString(meta, key)
		meta = append(meta, ':')
		meta = append(meta, values[from:]...)
	})
	switch {
	case resp.meta.from < 0:
		at, from := resp.resultEnd, len(values)
		values = append(append(append(values, `,"_meta":{`...), meta...), '}')
		edits = append(edits, edit{from: at, to: at, raw: true, rawFrom: from, rawTo: len(values)})
	case len(meta) > 0:
		at, from := resp.meta.to-1, len(values)
		values = append(values, meta...)
		edits = append(edits, edit{from: at, to: at, raw: true, rawFrom: from, rawTo: len(values)})
	}
	slices.SortStableFunc(edits, func(p, q edit) int { return p.from - q.from })
	size := len(resp.msg) + 64 + len(meta)
	if a.Block >= 0 {
		size += len(a.Text) + len(a.Text)/8 - (resp.texts[a.Block].to - resp.texts[a.Block].from)
	}
	out := make([]byte, 0, max(size, 64))
	at := 0
	for _, e := range edits {
		out = append(out, resp.msg[at:e.from]...)
		if e.raw {
			out = append(out, values[e.rawFrom:e.rawTo]...)
		} else {
			out = jsontext.AppendString(out, e.text)
		}
		at = e.to
	}
	return append(out, resp.msg[at:]...)
}

// matchCompact reports whether b begins with a JSON text of v's value
// in the compact form [MAP-3] but for the escapes of its strings, and
// then its length, the depth of v's nesting, and the strings in another
// form than the compact one, at offsets from base, appended to fixes[:0]
// (room the caller has, or nil). It reads each byte of b once and holds
// nothing but the escaped form of a string that has escapes, and where
// each string in another form lies. text is the JSON text v was parsed
// from by jsonmap.ParseShared.
func matchCompact(b []byte, base int, v *jsonmap.Value, text []byte, fixes []stringAt) (n, depth int, _ []stringAt, ok bool) {
	m := compactMatcher{b: b, base: base, text: text, fixes: fixes[:0]}
	if !m.value(v, 0) {
		return // no match: every result its zero value
	}
	return m.i, m.depth, m.fixes, true
}

type compactMatcher struct {
	b       []byte
	i       int
	depth   int
	escaped []byte
	// The strings matched in another form than the compact one, at
	// offsets from base.
	fixes []stringAt
	base  int
	// The text the value was parsed from, sharing it: a string of the
	// value that lies in it was a literal without escapes there, so it
	// holds no byte its compact form escapes.
	text []byte
	// slow matches an object's members by name and value alone, without
	// the loop that compares them in line: what a test holds that loop to.
	slow bool
}

// stringAt is a string literal, text[from:to], and its string.
type stringAt struct {
	from, to int
	s        string
}

func (m *compactMatcher) lit(s string) bool {
	if len(m.b)-m.i < len(s) || string(m.b[m.i:m.i+len(s)]) != s {
		return false
	}
	m.i += len(s)
	return true
}

func (m *compactMatcher) char(c byte) bool {
	if m.i >= len(m.b) || m.b[m.i] != c {
		return false
	}
	m.i++
	return true
}

// str matches a string literal. When s lies in the text the value was
// parsed from, it needs no escape and its compact form is s quoted,
// compared in place; any other string, and one that does not stand there
// as itself (a server that writes '<' as \u003c), is strOther's, which
// finds whether the literal is the compact form as it reads it.
func (m *compactMatcher) str(s string) bool {
	if rest := m.b[m.i:]; m.inText(s) && len(rest) >= len(s)+2 && rest[0] == '"' && rest[len(s)+1] == '"' && string(rest[1:len(s)+1]) == s {
		m.i += len(s) + 2
		return true
	}
	return m.strOther(s)
}

// name matches a member's name and the ':' after it. A name is most
// often short and plain, and lies in the text the value was parsed from
// (then its compact form has no escape): that case is tested here, with
// no call but to compare the bytes, and any other is str's.
func (m *compactMatcher) name(key string) bool {
	b, i, n := m.b, m.i, len(key)
	if len(b)-i >= n+3 && b[i] == '"' && b[i+n+1] == '"' && b[i+n+2] == ':' && string(b[i+1:i+n+1]) == key && m.inText(key) {
		m.i = i + n + 3
		return true
	}
	return m.str(key) && m.char(':')
}

// inText reports whether s lies in the text the value was parsed from.
func (m *compactMatcher) inText(s string) bool {
	return len(s) > 0 && m.textAfter(s) >= len(s)
}

// textAfter is how many bytes of the text the value was parsed from lie
// from s's first byte on, and -1 when s does not begin in it.
func (m *compactMatcher) textAfter(s string) int {
	p, t := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(m.text)))
	if p < t || p >= t+uintptr(len(m.text)) {
		return -1
	}
	return int(t + uintptr(len(m.text)) - p)
}

// quoted reports whether b[i:] begins with s quoted and then the byte
// after, when after is not 0: s's compact form where s lies in the text
// the value was parsed from (it had no escape there, so its compact form
// has none). A string of at most eight bytes with eight bytes of the text
// from its start, and of b, is compared as one word, with no call.
func (m *compactMatcher) quoted(b []byte, i int, s string, after byte) bool {
	n, room := len(s), m.textAfter(s)
	end := i + n + 1 // the closing quote
	if n == 0 || room < n || len(b)-i < n+2 || b[i] != '"' || b[end] != '"' {
		return false
	}
	if after != 0 && (end+1 >= len(b) || b[end+1] != after) {
		return false
	}
	if n <= 8 && room >= 8 && len(b)-i > 8 {
		w := binary.LittleEndian.Uint64(b[i+1:]) ^ binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
		return w<<(64-8*n) == 0
	}
	return string(b[i+1:end]) == s
}

// stringMember is quoted of a member whose value is a string, the most
// common member, in one step: the length of "key":"value" when b[i:]
// begins with it, both lying in the text the value was parsed from, and
// 0 otherwise.
func (m *compactMatcher) stringMember(b []byte, i int, key, value string) int {
	nk, nv := len(key), len(value)
	kq := i + nk + 1  // the name's closing quote
	vq := kq + nv + 3 // the value's closing quote
	if nk == 0 || nv == 0 || vq+1 >= len(b) || b[i] != '"' || b[kq] != '"' || b[kq+1] != ':' || b[kq+2] != '"' || b[vq] != '"' {
		return 0
	}
	t, e := uintptr(unsafe.Pointer(unsafe.SliceData(m.text))), uintptr(len(m.text))
	pk := uintptr(unsafe.Pointer(unsafe.StringData(key))) - t // beyond e when below the text
	pv := uintptr(unsafe.Pointer(unsafe.StringData(value))) - t
	if pk >= e || e-pk < uintptr(nk) || pv >= e || e-pv < uintptr(nv) {
		return 0
	}
	if nk <= 8 && e-pk >= 8 && len(b)-i > 8 {
		w := binary.LittleEndian.Uint64(b[i+1:]) ^ binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(key), 8))
		if w<<(64-8*nk) != 0 {
			return 0
		}
	} else if string(b[i+1:kq]) != key {
		return 0
	}
	if string(b[kq+3:vq]) != value {
		return 0
	}
	return vq + 1 - i
}

// strOther matches a string literal in any form, its escapes checked as
// a JSON reader checks them. One in another form than the compact one
// (other escapes: a server that writes '<' as \u003c, as Go's
// encoding/json does, or every character beyond ASCII as an escape) is
// noted in fixes, for the answer writes it anew: one with an escape of a
// character that compact form writes as it is, or whose escapes are not
// those AppendString writes.
func (m *compactMatcher) strOther(s string) bool {
	b, i, j := m.b, m.i, 0
	if i >= len(b) || b[i] != '"' {
		return false
	}
	escaped, other := false, false
	for i++; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			if j != len(s) {
				return false
			}
			if escaped && !other {
				// Only escapes of characters compact form escapes: are
				// they spelled as it spells them?
				m.escaped = jsontext.AppendString(m.escaped[:0], s)
				other = !bytes.Equal(b[m.i:i+1], m.escaped)
			}
			if other {
				m.fixes = append(m.fixes, stringAt{m.base + m.i, m.base + i + 1, s})
			}
			m.i = i + 1
			return true
		case c == '\\':
			r, next, ok := jsontext.DecodeEscape(b, i)
			if !ok {
				return false
			}
			var char [utf8.UTFMax]byte
			n := utf8.EncodeRune(char[:], r)
			if len(s)-j < n || s[j:j+n] != string(char[:n]) {
				return false
			}
			escaped = true
			other = other || !jsontext.NeedsEscape(s[j:j+n])
			i, j = next, j+n
		case c < 0x20:
			return false
		default:
			// The run of bytes up to the next quote, backslash or
			// control, compared whole.
			n := jsontext.UnescapedRun(b[i:])
			if n > len(s)-j || string(b[i:i+n]) != s[j:j+n] {
				return false
			}
			i, j = i+n, j+n
		}
	}
	return false
}

func (m *compactMatcher) value(v *jsonmap.Value, depth int) bool {
	switch v.Kind {
	case jsonmap.Null:
		return m.lit("null")
	case jsonmap.False:
		return m.lit("false")
	case jsonmap.True:
		return m.lit("true")
	case jsonmap.Number:
		return m.lit(v.Text)
	case jsonmap.String:
		return m.str(v.Text)
	}
	depth++
	m.depth = max(m.depth, depth)
	if v.Kind == jsonmap.Array {
		if !m.char('[') {
			return false
		}
		for i := range v.Elems {
			if i > 0 && !m.char(',') || !m.value(&v.Elems[i], depth) {
				return false
			}
		}
		return m.char(']')
	}
	if m.slow {
		if !m.char('{') {
			return false
		}
		for i := range v.Members {
			if i > 0 && !m.char(',') || !m.name(v.Members[i].Key) || !m.value(&v.Members[i].Value, depth) {
				return false
			}
		}
		return m.char('}')
	}
	// The members in one loop over b, its offset held here: a name, and a
	// string value, that lie in the text the value was parsed from are
	// compared in line (quoted); any other is name's and value's.
	b, i := m.b, m.i
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for k := range v.Members {
		mem := &v.Members[k]
		if k > 0 {
			if i >= len(b) || b[i] != ',' {
				return false
			}
			i++
		}
		if mem.Value.Kind == jsonmap.String {
			if n := m.stringMember(b, i, mem.Key, mem.Value.Text); n > 0 {
				i += n
				continue
			}
		}
		if m.quoted(b, i, mem.Key, ':') {
			i += len(mem.Key) + 3
		} else {
			m.i = i
			if !m.str(mem.Key) || !m.char(':') {
				return false
			}
			i = m.i
		}
		if mem.Value.Kind == jsonmap.String && m.quoted(b, i, mem.Value.Text, 0) {
			i += len(mem.Value.Text) + 2
			continue
		}
		m.i = i
		if !m.value(&mem.Value, depth) {
			return false
		}
		i = m.i
	}
	if i >= len(b) || b[i] != '}' {
		return false
	}
	m.i = i + 1
	return true
}
