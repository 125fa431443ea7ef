package binding

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"unsafe"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
)

// Mode says when a server writes a payload for a call that opted in.
type Mode string

const (
	// ModeAuto hands the model the cheapest of the JSON block's text as
	// the tool wrote it, its compact JSON and the payload, in cl100k_base
	// tokens, decided per call [MCP-6].
	ModeAuto Mode = "auto"
	// ModeGCX always writes the payload [MAP-12].
	ModeGCX Mode = "gcx"
	// ModeOff leaves the tool's results alone.
	ModeOff Mode = "off"
)

// ServerOptions configures a server. The zero value is auto mode,
// offering GCX1, every tool under its own name.
type ServerOptions struct {
	// Mode applies to every tool without its own; "" is ModeAuto.
	Mode Mode
	// Offer lists the tags the server writes, most preferred first
	// [MCP-4]: GCX1 or a tag registered in package codec, such as a draft
	// on trial (VERSIONING.md), which is written only to a client that
	// lists it. Empty means GCX1.
	Offer []string
	// Tools configures single tools by their MCP name.
	Tools map[string]ToolOptions
	// MaxLineBytes is the line limit the server encodes payloads under
	// [LIM-4]: no line of a payload is longer, and the total= and
	// truncated= pairs stay out of a root header they would make longer
	// [MCP-7]. 0 means spec.DefaultLimits' (16 MiB).
	MaxLineBytes int
}

// ToolOptions configures one tool.
type ToolOptions struct {
	// Mode overrides ServerOptions.Mode for this tool.
	Mode Mode
	// Name is the tool name the payload carries in tool= [MCP-6]: the name
	// of a declared tool whose layout the result follows [LAY-6], when the
	// MCP tool is called something else. "" means the MCP name.
	Name string
}

// Server makes a server's decisions: which results it answers in GCX1 and
// with what.
type Server struct {
	mode   Mode
	offer  []string
	tools  map[string]ToolOptions
	limits spec.Limits // what payloads are encoded under
}

// NewServer returns the server opts describe. It refuses options it
// cannot follow: an unknown mode, a tag it does not write, a tool name
// GCX1 cannot carry [HDR-3], a negative line limit.
func NewServer(opts ServerOptions) (*Server, error) {
	s := &Server{mode: cmp.Or(opts.Mode, ModeAuto), offer: opts.Offer, tools: maps.Clone(opts.Tools), limits: spec.DefaultLimits}
	if opts.MaxLineBytes < 0 {
		return nil, fmt.Errorf("gcxmcp: line limit %d is negative", opts.MaxLineBytes)
	}
	if opts.MaxLineBytes > 0 {
		s.limits.MaxLineBytes = opts.MaxLineBytes
	}
	if err := checkMode(s.mode); err != nil {
		return nil, err
	}
	if len(s.offer) == 0 {
		s.offer = []string{spec.Version}
	}
	for _, tag := range s.offer {
		if _, ok := codec.Lookup(tag); !ok {
			return nil, fmt.Errorf("gcxmcp: cannot offer %q: no codec is registered for it (package codec)", tag)
		}
	}
	for name, t := range s.tools {
		if t.Mode != "" {
			if err := checkMode(t.Mode); err != nil {
				return nil, fmt.Errorf("gcxmcp: tool %q: %w", name, err)
			}
		}
		if t.Name != "" && !spec.IsName(t.Name) {
			return nil, fmt.Errorf("gcxmcp: tool %q: %q cannot be a GCX1 tool name [HDR-3]", name, t.Name)
		}
	}
	return s, nil
}

func checkMode(m Mode) error {
	switch m {
	case ModeAuto, ModeGCX, ModeOff:
		return nil
	}
	return fmt.Errorf("gcxmcp: unknown mode %q (want %q, %q or %q)", m, ModeAuto, ModeGCX, ModeOff)
}

// Block is a content block of a tool result as the binding sees it: a
// text block by its text, any other kind only by its place.
type Block struct {
	IsText bool
	Text   string
}

// Result is a tool result as the binding sees it.
type Result struct {
	Content []Block
	// Structured is structuredContent, nil when the result has none: its
	// own JSON text (json.RawMessage, or a pointer to one), the values a
	// JSON library decoded it into, or any value encoding/json marshals.
	Structured any
	IsError    bool
	// Meta is the result's _meta, as a JSON library decodes it.
	Meta map[string]any

	// known is the JSON block when the reader of the result found it
	// already (ReadResponse), nil when Decide looks for it.
	known *block
	// undecoded is a text block whose Text is not set yet.
	undecoded literalText
}

// literalText is the text block at, whose text is the string literal lit,
// as it stands in a message; lit is "" when there is none.
type literalText struct {
	at  int
	lit string
}

// DecodeTexts sets the Text of a text block that ReadResponse left
// unset: it reads the value of the JSON block's text from the text's
// string literal where it lies in the message, and decodes the text only
// when asked, for the mapping needs only the value. A caller of
// ReadResponse that reads the content's texts calls it first; for any
// other result it does nothing.
func (r *Result) DecodeTexts() {
	if u := r.undecoded; u.lit != "" {
		r.Content[u.at].Text, _ = jsontext.Unquote(u.lit)
		r.undecoded = literalText{}
	}
}

// PerRequestCapabilities is the first protocol version whose requests
// carry the client's capabilities in their own _meta, under
// MetaClientCapabilities, instead of the session's initialize [MCP-2].
// Protocol versions are dates, so they compare as strings.
const PerRequestCapabilities = "2026-07-28"

// MetaClientCapabilities is the request _meta key that holds the client's
// capabilities from protocol PerRequestCapabilities on.
const MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"

// Accepted returns the tags a client reads for a call, and nil when it did
// not opt in [MCP-2] [MCP-3]. version is the protocol version negotiated
// for the request, requestMeta the request's _meta, and initialize the
// extensions map of the capabilities the client sent in initialize. The
// capabilities that apply are those the version carries: the request's
// own, under MetaClientCapabilities, from PerRequestCapabilities on, and
// initialize's before; the other place is not read, so a key the
// version does not define neither opts in nor cancels an opt-in [MCP-10].
// The request's MetaAccept overrides the capability; a value of it that
// is not an array of strings makes the call JSON [MCP-3] [MCP-11].
func Accepted(version string, requestMeta, initialize map[string]any) []string {
	if v, ok := requestMeta[MetaAccept]; ok {
		tags, _ := readTags(v)
		return tags
	}
	settings, ok := capabilityExtensions(version, requestMeta, initialize)[Extension].(map[string]any)
	if !ok {
		return nil
	}
	tags, _ := readTags(settings[SettingAccept])
	return tags
}

// capabilityExtensions returns the extensions map of the client's
// capabilities that apply to a request of the protocol version: the
// request's own from PerRequestCapabilities on, initialize's before
// [MCP-10].
func capabilityExtensions(version string, requestMeta, initialize map[string]any) map[string]any {
	if version >= PerRequestCapabilities {
		caps, _ := requestMeta[MetaClientCapabilities].(map[string]any)
		extensions, _ := caps["extensions"].(map[string]any)
		return extensions
	}
	return initialize
}

// Answer is what a server changes in a result it answers: it names Format
// in the result's _meta [MCP-6] and, when Block is not -1, replaces the
// text of that content block, the JSON block, with Text: the payload, or
// the compact JSON text when Compact. Differs says that the block's value
// is not structuredContent's, so that a client does not compare them
// [MCP-5] [MCP-8]. Nothing else changes.
type Answer struct {
	Format  string
	Block   int
	Text    string
	Compact bool
	Differs bool
}

// EachMeta calls set with each _meta key the answer puts in the result and
// its value, in order: MetaFormat, then MetaCompact and MetaDiffers when
// they are true [MCP-1] [MCP-6].
func (a Answer) EachMeta(set func(key string, value any)) {
	set(MetaFormat, a.Format)
	if a.Compact {
		set(MetaCompact, true)
	}
	if a.Differs {
		set(MetaDiffers, true)
	}
}

// Answer decides what the server sends for the result a tool named name
// returned to a call whose client reads the tags accept: ok is false when
// the server sends the result as it is [MCP-4] [MCP-5].
func (s *Server) Answer(name string, accept []string, r *Result) (a Answer, ok bool) {
	d := s.Decide(name, accept, r)
	return d.Answer, d.Answered
}

// Reason says why a result's JSON block does not hold a payload: the
// decision's own ground, for a program that reports what it did, such as
// gcx proxy --stats. The empty Reason is a payload written.
type Reason string

const (
	// ReasonNotAccepted: the client reads none of the tags the server
	// writes, or opted out [MCP-3] [MCP-4].
	ReasonNotAccepted Reason = "not-accepted"
	// ReasonModeOff: the tool is in mode off, by the server's mode or its
	// own (exempt) [MCP-6].
	ReasonModeOff Reason = "mode-off"
	// ReasonErrorResult: the tool reported an error (isError) [MCP-5].
	ReasonErrorResult Reason = "error-result"
	// ReasonNoJSONBlock: no text block holds a JSON text: prose, images
	// [MCP-5].
	ReasonNoJSONBlock Reason = "no-json-block"
	// ReasonNotMapped: the mapping cannot write the value under the tool's
	// name [MAP-1] [HDR-3], and the text as the tool wrote it is no dearer
	// than its compact JSON; the result is marked JSON.
	ReasonNotMapped Reason = "not-mapped"
	// ReasonJSONCheaper: auto mode found the text as the tool wrote it no
	// dearer than its compact JSON and the payload [MCP-6]; the result is
	// marked JSON and the text stays.
	ReasonJSONCheaper Reason = "json-cheaper"
	// ReasonCompactCheaper: auto mode found the value's compact JSON
	// cheaper than the text as the tool wrote it and no dearer than the
	// payload (or the mapping cannot write the value) [MCP-6]; the text is
	// replaced by its compact JSON, marked JSON and compact.
	ReasonCompactCheaper Reason = "compact-cheaper"
	// ReasonUpstreamAnswered: the result's _meta already names a format:
	// an intermediary's upstream answered in the binding itself [PRX-3].
	ReasonUpstreamAnswered Reason = "upstream-answered"
)

// Decision is what Decide decided and why.
type Decision struct {
	// Answer is what changes in the result, when Answered.
	Answer Answer
	// Answered is false when the result is sent as it is.
	Answered bool
	// Why is "" when Answer.Block holds a payload, and otherwise says why
	// it does not.
	Why Reason
}

// Decide is Answer, saying why.
func (s *Server) Decide(name string, accept []string, r *Result) Decision {
	tag := codec.Negotiate(accept, s.offer)
	if tag == "" {
		return Decision{Why: ReasonNotAccepted}
	}
	t := s.tools[name]
	mode := cmp.Or(t.Mode, s.mode)
	if mode == ModeOff {
		return Decision{Why: ReasonModeOff}
	}
	if r.IsError {
		return Decision{Why: ReasonErrorResult}
	}
	b, ok := block{}, false
	if r.known != nil {
		b, ok = *r.known, true
	} else {
		b, ok = jsonBlock(r)
	}
	if !ok {
		return Decision{Why: ReasonNoJSONBlock}
	}
	// A key of the wrong type stays out of the header; the client will
	// find it in _meta and report it [MCP-7].
	cut, _ := readTruncation(r.Meta)
	payload, ok := b.encode(tag, cmp.Or(t.Name, name), cut, s.limits, mode == ModeAuto)
	if !ok {
		return Decision{Why: ReasonNoJSONBlock} // the block was no JSON text after all [MCP-5]
	}
	keep := Decision{Answer: Answer{Format: FormatJSON, Block: -1}, Answered: true, Why: ReasonJSONCheaper}
	if payload == nil {
		keep.Why = ReasonNotMapped
	}
	if mode == ModeAuto {
		r.DecodeTexts()
		sent := bytesOf(r.Content[b.at].Text)
		c, err := b.cheapest(sent, payload)
		switch {
		case err != nil || c.Form == auto.FormSent:
			return keep
		case c.Form == auto.FormCompact:
			return Decision{Answer: Answer{Format: FormatJSON, Block: b.at, Text: string(c.Output), Compact: true, Differs: b.differs}, Answered: true, Why: ReasonCompactCheaper}
		}
	} else if payload == nil {
		return keep
	}
	// The payload is this call's own buffer, never written again: the
	// answer's text shares it rather than copy a large payload.
	return Decision{Answer: Answer{Format: tag, Block: b.at, Text: unsafe.String(unsafe.SliceData(payload), len(payload)), Differs: b.differs}, Answered: true}
}

// Offers returns the tags the server writes, most preferred first, which
// are those it may declare in its capabilities' offer: none when every
// tool is in mode off, for it answers no call [MCP-2]. Callers must not
// modify it.
func (s *Server) Offers() []string {
	if s.mode != ModeOff {
		return s.offer
	}
	for _, t := range s.tools {
		if t.Mode != "" && t.Mode != ModeOff {
			return s.offer
		}
	}
	return nil
}

// streamAbove is the length from which a JSON text is mapped in two reads
// of it (jsonmap.FilePlan) instead of being parsed whole: a parse tree
// takes several times its text, the plan a few small tables, so that an
// intermediary's rewrite stays within a small multiple of the message
// [PRX-9]. Below it, the parse is the cheaper.
const streamAbove = 1 << 20

// block is the JSON block of a result: its index, a JSON text of its
// value (the block's own text, or structuredContent's compact form), and
// the value when it has been parsed.
type block struct {
	at   int
	json []byte // read-only: it may share a string's bytes; nil when read from its literal
	// shared is what the value's strings without escapes may lie in:
	// json, or the text's string literal it was read from.
	shared []byte
	value  jsonmap.Value
	parsed bool
	// differs: the result has structuredContent and the block's value is
	// not its value [MCP-5].
	differs bool
	// plan is the streamed value's plan when auto mode weighs it: its
	// compact JSON text is counted as the plan writes it, not held
	// (block.cheapest).
	plan *jsonmap.FilePlan
}

// encode returns the payload of the block's value for the tool in the
// version tag, encoded under limits, with total= and truncated= in a GCX1 root header where
// [MCP-7] puts them, or nil when the mapping cannot write the value under
// this name [MAP-1] [HDR-3] [MCP-6]; a streamed value keeps its plan in
// b.plan when keepPlan. ok is false when the block holds no JSON text.
// Another version's header pairs mean what that version says, so its
// payload gets none; _meta carries them.
func (b *block) encode(tag, tool string, cut truncation, limits spec.Limits, keepPlan bool) (payload []byte, ok bool) {
	var counts []spec.Meta
	if tag == spec.Version {
		counts = cut.pairs()
	}
	if !b.parsed && (tag != spec.Version || len(b.json) < streamAbove) {
		v, err := jsonmap.Parse(b.json)
		if err != nil {
			return nil, false
		}
		b.value, b.parsed = v, true
	}
	switch {
	case tag != spec.Version:
		c, _ := codec.Lookup(tag) // NewServer offers registered tags only
		payload, _ = c.Encode(tool, b.value)
	case b.parsed:
		payload, _ = jsonmap.EncodeValuePairs(tool, b.value, limits, counts)
	default:
		plan, err := jsonmap.PlanFile(tool, bytes.NewReader(b.json), int64(len(b.json)))
		if err != nil {
			return nil, false
		}
		var out bytes.Buffer
		if plan.EncodePairs(&out, limits, counts) == nil {
			payload = out.Bytes()
		}
		if keepPlan {
			b.plan = plan
		}
	}
	return payload, true
}

// cheapest weighs, for auto mode, the JSON block's text as sent, its
// compact JSON and the payload (nil when there is none) [MCP-6] [MCP-12].
// The compact text of a parsed value is written to be weighed, and not at
// all when it is the text as sent; a streamed value's is counted as its
// plan writes it and written only when chosen [PRX-9].
func (b *block) cheapest(sent, payload []byte) (auto.Cheapest, error) {
	if b.plan == nil {
		compact := b.value.AppendCompact(nil)
		if bytes.Equal(compact, sent) {
			compact = nil
		}
		return auto.ChooseCheapest(sent, compact, payload)
	}
	c, err := auto.ChooseCheapestPlan(sent, b.plan, payload)
	if err != nil || c.Form != auto.FormCompact {
		return c, err
	}
	var out bytes.Buffer
	out.Grow(len(b.json))
	if err := b.plan.Compact(&out); err != nil {
		return auto.Cheapest{}, err
	}
	c.Output = out.Bytes()
	return c, nil
}

// bytesOf returns the bytes of s without copying them, for reading only:
// a large text is counted, parsed or planned where it lies.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// jsonBlock finds the content block that holds the result's JSON, the
// text the model reads [MCP-5]: the first text block holding a JSON text
// of structuredContent's value [MAP-2] when there is one, and otherwise
// the first text block that holds a JSON text, whose value then differs
// from structuredContent's (or there is none). A text block before it that
// begins with "GCX" would be taken for the payload by a client [MCP-8], so
// such a result has no JSON block. The caller has ruled out errors.
func jsonBlock(r *Result) (block, bool) {
	var same func(string) bool
	var blk block
	structured := hasStructured(r.Structured)
	var raw []byte
	if structured {
		var err error
		if raw, err = structuredJSON(r.Structured); err == nil {
			same, blk = sameValueAs(raw)
		}
	}
	first := -1 // the first text block holding a JSON text, before any "GCX"
	var firstJSON block
	gcx := false // a text block beginning with "GCX" came
	for i, b := range r.Content {
		if !b.IsText {
			continue
		}
		if strings.HasPrefix(b.Text, spec.TagPrefix) {
			if same == nil {
				break
			}
			// A block of structuredContent's value after it would be
			// the JSON block, and leave the result none.
			gcx = true
			continue
		}
		if same != nil && (b.Text == string(raw) || mayBeJSON(b.Text) && same(b.Text)) {
			if gcx {
				return block{}, false
			}
			blk.at = i
			return blk, true
		}
		if first < 0 && !gcx && mayBeJSON(b.Text) {
			if v, ok := jsonTextOf(b.Text); ok {
				first, firstJSON = i, v
				if same == nil {
					break
				}
			}
		}
	}
	if first < 0 {
		return block{}, false
	}
	firstJSON.at, firstJSON.differs = first, structured
	return firstJSON, true
}

// jsonTextOf returns the block of a text that holds a JSON text [MAP-1]:
// a small one parsed, a large one checked token by token and left to be
// planned (block.encode), so that neither is held as a tree.
func jsonTextOf(text string) (block, bool) {
	if len(text) < streamAbove {
		v, err := jsonmap.Parse(bytesOf(text))
		if err != nil {
			return block{}, false
		}
		return block{json: bytesOf(text), value: v, parsed: true}, true
	}
	if jsonmap.CompactTo(io.Discard, strings.NewReader(text)) != nil {
		return block{}, false
	}
	return block{json: bytesOf(text)}, true
}

// sameValueAs returns a test of whether a text holds the same JSON value
// as raw, nil when raw is no JSON text, and the block of raw's value: a
// small value is parsed and compared, a large one compared by its compact
// form as the text's is written [MAP-3], so that neither is held as a
// tree.
func sameValueAs(raw []byte) (func(text string) bool, block) {
	if len(raw) < streamAbove {
		want, err := jsonmap.Parse(raw)
		if err != nil {
			return nil, block{}
		}
		return func(text string) bool {
			v, err := jsonmap.Parse(bytesOf(text))
			return err == nil && jsonmap.Equal(v, want)
		}, block{json: raw, value: want, parsed: true}
	}
	var compact bytes.Buffer
	if jsonmap.CompactTo(&compact, bytes.NewReader(raw)) != nil {
		return nil, block{}
	}
	return func(text string) bool {
		w := &sameBytes{want: compact.Bytes()}
		return jsonmap.CompactTo(w, strings.NewReader(text)) == nil && w.equal()
	}, block{json: compact.Bytes()}
}

// sameBytes is a writer that compares what it is written with want.
type sameBytes struct {
	want    []byte
	n       int
	differs bool
}

var errDiffers = errors.New("the texts differ")

func (s *sameBytes) Write(b []byte) (int, error) {
	if s.differs || len(b) > len(s.want)-s.n || !bytes.Equal(b, s.want[s.n:s.n+len(b)]) {
		s.differs = true
		return 0, errDiffers
	}
	s.n += len(b)
	return len(b), nil
}

func (s *sameBytes) equal() bool { return !s.differs && s.n == len(s.want) }

// structuredJSON returns the JSON text of structuredContent: its own bytes
// when the SDK or the handler kept them, else the marshaled value.
// hasStructured reports whether v, a result's Structured, is a
// structuredContent: nil and JSON null are none [MCP-5], since MCP
// libraries that decode into their own types cannot tell null from an
// absent member, while one that keeps the member's bytes sees null.
func hasStructured(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case json.RawMessage:
		return string(bytes.TrimSpace(x)) != "null"
	case *json.RawMessage:
		return x != nil && hasStructured(*x)
	}
	return true
}

func structuredJSON(v any) ([]byte, error) {
	switch x := v.(type) {
	case json.RawMessage:
		return x, nil
	case *json.RawMessage:
		if x != nil {
			return *x, nil
		}
	}
	return json.Marshal(v)
}

// mayBeJSON is a cheap test that spares parsing prose: a JSON text begins,
// after whitespace, with one of these bytes [AUTO-3].
func mayBeJSON(s string) bool {
	b := strings.TrimLeft(s, " \t\r\n")
	if len(b) == 0 {
		return false
	}
	switch c := b[0]; {
	case c == '{' || c == '[' || c == '"' || c == '-' || c == 't' || c == 'f' || c == 'n':
		return true
	case '0' <= c && c <= '9':
		return true
	}
	return false
}
