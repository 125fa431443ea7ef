package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// Readable is the list of tags this package reads [MCP-2] [MCP-3].
// Callers must not modify it.
var Readable = []string{spec.Version}

// Read is a result as a client reads it under the binding.
type Read struct {
	// Format is the result's MetaFormat: a tag such as "GCX1" when a
	// payload was read, "json" when the server kept the JSON, "" when the
	// server did not answer the opt-in (or was not asked) [MCP-6].
	Format string
	// Value is the compact form of the JSON value the text block holds
	// [MAP-3]: the decoded payload, or the JSON text the server sent. nil
	// when no text block holds JSON.
	Value json.RawMessage
	// Total is how many results the tool found, or -1 when it did not
	// say; Truncated whether it cut its list [MCP-7].
	Total     int64
	Truncated bool
	// Reissued reports that the first answer was in a version this client
	// cannot read and the call was repeated asking for JSON [MCP-9].
	Reissued bool
}

// ReadResult reads a result under the binding [MCP-8]. When its _meta
// names a tag, the payload is the first text block that begins with "GCX";
// ReadResult decodes it, checks that it holds structuredContent's value and
// that its total= and truncated= agree with the _meta [MCP-7], and returns
// the value. A payload this client cannot read is a *spec.Error of class
// spec.ErrUnsupportedVersion naming the tag, the cue of the fallback rule
// [VER-5] [MCP-9]. Other errors wrap ErrInvalidResult or ErrMismatch, or
// are the payload's own *spec.Error.
func ReadResult(res *Result) (*Read, error) { return ReadResultAccepting(res, Readable) }

// ReadResultAccepting is ReadResult for a client that reads the tags of
// accept: a payload whose tag it lists and package codec registers is
// decoded by that codec, and a payload of any other version is
// unsupported-version, naming its tag [VER-2] [MCP-8].
func ReadResultAccepting(res *Result, accept []string) (*Read, error) {
	format, err := readFormat(res.Meta)
	if err != nil {
		return nil, err
	}
	cut, err := readTruncation(res.Meta)
	if err != nil {
		return nil, err
	}
	r := &Read{Format: format, Total: cut.total, Truncated: cut.truncated}
	if format == "" {
		r.Value = jsonText(res)
		return r, nil
	}
	marks, err := readMarks(res.Meta, format)
	if err != nil {
		return nil, err
	}
	// The structuredContent check, unless the server said the block holds
	// another value [MCP-8].
	check := hasStructured(res.Structured) && !marks.differs
	if format == FormatJSON {
		if !marks.compact {
			r.Value = jsonText(res)
			return r, nil
		}
		value, err := compactBlock(res, check)
		if err != nil {
			return nil, err
		}
		r.Value = value.AppendCompact(nil)
		return r, nil
	}
	payload, ok := payloadBlock(res)
	if !ok {
		return nil, fmt.Errorf("%w: _meta names %s but no text block begins with %q [MCP-8]", ErrInvalidResult, format, spec.TagPrefix)
	}
	// The payload begins with "GCX", so it is read as GCX1 [AUTO-3],
	// unless its own tag is another version the client reads [VER-2].
	tag := spec.Version
	// A GCX1 payload is read where the text block holds it; another
	// version's codec takes a copy.
	decode := jsonmap.DecodeValueString
	// ReadTag looks at no more than a tag's bytes and the one after.
	if t, kind, _ := spec.ReadTag([]byte(payload[:min(len(payload), spec.MaxTagBytes+1)])); kind == spec.TagOther && slices.Contains(accept, t) {
		if c, ok := codec.Lookup(t); ok {
			tag, decode = t, func(payload string) (jsonmap.Value, error) { return c.Decode([]byte(payload)) }
		}
	}
	value, err := decode(payload)
	if err != nil {
		return nil, err
	}
	if format != tag {
		return nil, fmt.Errorf("%w: _meta names %s but the payload is %s [MCP-8]", ErrInvalidResult, format, tag)
	}
	if check {
		same, err := sameValue(value, res.Structured)
		if err != nil {
			return nil, err
		}
		if !same {
			return nil, fmt.Errorf("%w: the payload decodes to a value other than structuredContent [MCP-8]", ErrMismatch)
		}
	}
	// Only a GCX1 root header carries the pairs of [MCP-7] for this
	// binding; another version's pairs mean what it says.
	head := truncation{total: -1}
	if tag == spec.Version {
		if head, err = headerCounts(streaming.NewDecoderString(payload)); err != nil {
			return nil, err
		}
	}
	if head.total >= 0 {
		if cut.total >= 0 && cut.total != head.total {
			return nil, fmt.Errorf("%w: total=%d in the payload, %d in _meta [MCP-7]", ErrMismatch, head.total, cut.total)
		}
		r.Total = head.total
	}
	if head.hasTruncated {
		if cut.hasTruncated && cut.truncated != head.truncated {
			return nil, fmt.Errorf("%w: truncated=%t in the payload, %t in _meta [MCP-7]", ErrMismatch, head.truncated, cut.truncated)
		}
		r.Truncated = head.truncated
	}
	r.Value = value.AppendCompact(nil)
	return r, nil
}

func readFormat(meta map[string]any) (string, error) {
	v, ok := meta[MetaFormat]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok || s != FormatJSON && !isTag(s) {
		return "", fmt.Errorf("%w: _meta %q is %s, not %q or a version tag [MCP-6]", ErrInvalidResult, MetaFormat, describe(v), FormatJSON)
	}
	return s, nil
}

// marks are the _meta keys that say what a server did to the JSON block
// besides naming its format [MCP-1] [MCP-6].
type marks struct{ compact, differs bool }

// readMarks reads them: each is true or false, compact only with the
// format "json" [MCP-8].
func readMarks(meta map[string]any, format string) (m marks, err error) {
	for _, k := range [...]struct {
		key string
		to  *bool
	}{{MetaCompact, &m.compact}, {MetaDiffers, &m.differs}} {
		v, ok := meta[k.key]
		if !ok {
			continue
		}
		b, ok := v.(bool)
		if !ok {
			return m, fmt.Errorf("%w: _meta %q is %s, not a boolean [MCP-8]", ErrInvalidResult, k.key, describe(v))
		}
		*k.to = b
	}
	if m.compact && format != FormatJSON {
		return m, fmt.Errorf("%w: _meta marks the JSON block compact but names %s, not %q [MCP-8]", ErrInvalidResult, format, FormatJSON)
	}
	return m, nil
}

// compactBlock returns the value of the block a server replaced with its
// compact JSON text [MCP-8]: the first text block holding a JSON text of
// structuredContent's value when check, else the first text block holding
// a JSON text.
func compactBlock(res *Result, check bool) (jsonmap.Value, error) {
	found := false
	for _, b := range res.Content {
		if !b.IsText || !mayBeJSON(b.Text) {
			continue
		}
		v, err := jsonmap.Parse([]byte(b.Text))
		if err != nil {
			continue
		}
		if !check {
			return v, nil
		}
		found = true
		same, err := sameValue(v, res.Structured)
		if err != nil {
			return jsonmap.Value{}, err
		}
		if same {
			return v, nil
		}
	}
	if found {
		return jsonmap.Value{}, fmt.Errorf("%w: no text block holds structuredContent's value, and _meta does not mark it as differing [MCP-8]", ErrMismatch)
	}
	return jsonmap.Value{}, fmt.Errorf("%w: _meta marks the JSON block compact but no text block holds a JSON text [MCP-8]", ErrInvalidResult)
}

// payloadBlock returns the first text block that begins with "GCX" [MCP-8].
func payloadBlock(res *Result) (string, bool) {
	for _, b := range res.Content {
		if b.IsText && strings.HasPrefix(b.Text, spec.TagPrefix) {
			return b.Text, true
		}
	}
	return "", false
}

// jsonText returns the compact form of the first text block that holds a
// JSON text, or nil.
func jsonText(res *Result) json.RawMessage {
	for _, b := range res.Content {
		if b.IsText && mayBeJSON(b.Text) {
			if v, err := jsonmap.Compact([]byte(b.Text)); err == nil {
				return v
			}
		}
	}
	return nil
}

// sameValue reports whether the decoded value equals structuredContent.
// When the caller kept structuredContent's JSON text, they are compared as
// JSON values [MAP-2]. The SDK hands a client structuredContent already
// decoded by a JSON library into maps, slices, float64, strings, booleans
// and nil; then value is compared in those terms — numbers as the float64
// their literals round to, objects without their order — which is all that
// is left to compare. Other Go values are brought to those terms through
// encoding/json first.
func sameValue(value jsonmap.Value, structured any) (bool, error) {
	switch x := structured.(type) {
	case json.RawMessage:
		want, err := jsonmap.Parse(x)
		if err != nil {
			return false, fmt.Errorf("%w: structuredContent: %v", ErrInvalidResult, err)
		}
		return jsonmap.Equal(value, want), nil
	case map[string]any, []any:
		return sameAsDecoded(value, structured), nil
	}
	b, err := json.Marshal(structured)
	if err != nil {
		return false, fmt.Errorf("%w: structuredContent: %v", ErrInvalidResult, err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		return false, fmt.Errorf("%w: structuredContent: %v", ErrInvalidResult, err)
	}
	return sameAsDecoded(value, decoded), nil
}

// sameAsDecoded compares a value with the result of decoding JSON into an
// any. Its recursion is as deep as the value, which the decoder bounds
// [MAP-4]; each element and member is visited once.
func sameAsDecoded(v jsonmap.Value, d any) bool {
	switch v.Kind {
	case jsonmap.Null:
		return d == nil
	case jsonmap.False, jsonmap.True:
		b, ok := d.(bool)
		return ok && b == (v.Kind == jsonmap.True)
	case jsonmap.String:
		s, ok := d.(string)
		return ok && s == v.Text
	case jsonmap.Number:
		f, ok := d.(float64)
		if !ok {
			return false
		}
		g, err := strconv.ParseFloat(v.Text, 64)
		return err == nil && f == g
	case jsonmap.Array:
		a, ok := d.([]any)
		if !ok || len(a) != len(v.Elems) {
			return false
		}
		for i := range a {
			if !sameAsDecoded(v.Elems[i], a[i]) {
				return false
			}
		}
		return true
	case jsonmap.Object:
		m, ok := d.(map[string]any)
		if !ok || len(m) != len(v.Members) {
			return false
		}
		for _, member := range v.Members {
			e, ok := m[member.Key]
			if !ok || !sameAsDecoded(member.Value, e) {
				return false
			}
		}
		return true
	}
	return false
}

// Annotations are the hints of a tool's annotations that the fallback rule
// reads [MCP-9]; a tool without annotations has the zero value.
type Annotations struct {
	ReadOnly, Idempotent bool
}

// CanReissue reports whether the fallback rule lets a client repeat a call
// of a tool with these annotations: only a tool annotated read-only or
// idempotent may run twice [MCP-9].
func (a Annotations) CanReissue() bool { return a.ReadOnly || a.Idempotent }

// Request is the binding's part of a tools/call request a client sends
// [MCP-3]: Accept is the list of tags for MetaAccept, nil for no key of
// the binding; Replace says that it replaces a list the caller put in the
// request's _meta itself, which otherwise stays.
type Request struct {
	Accept  []string
	Replace bool
}

// Caller is how Call reaches the server and the tool's annotations.
type Caller struct {
	// Tool is the tool's name, for the messages of errors.
	Tool string
	// Accept lists the tags the client reads, most preferred first: GCX1
	// and tags package codec registers. nil means Readable.
	Accept []string
	// UseCapability leaves the opt-in to the client's capabilities: the
	// first call carries no key of the binding [MCP-2].
	UseCapability bool
	// Send makes one call and returns its result.
	Send func(Request) (*Result, error)
	// Annotations returns the tool's annotations, asked only when a
	// fallback needs them.
	Annotations func() (Annotations, error)
}

// Call makes a call as a client of the binding: it asks for the tags it
// reads and reads the answer [MCP-8]. When the answer is in a version this
// client cannot read, it repeats the call once asking for JSON if the tool
// is read-only or idempotent, and otherwise returns the *spec.Error naming
// the tag [MCP-9]. An error of Send is returned as it is.
func Call(c Caller) (*Read, error) {
	accept := c.Accept
	if accept == nil {
		accept = Readable
	}
	first := Request{Accept: accept}
	if c.UseCapability {
		first.Accept = nil
	}
	res, err := c.Send(first)
	if err != nil {
		return nil, err
	}
	r, err := ReadResultAccepting(res, accept)
	if err == nil || !errors.Is(err, spec.ErrUnsupportedVersion) {
		return r, err
	}
	a, lerr := c.Annotations()
	if lerr != nil {
		return nil, fmt.Errorf("gcxmcp: %s answered in a version this client cannot read, and its annotations could not be read to decide on a re-issue: %v [MCP-9]: %w", c.Tool, lerr, err)
	}
	if !a.CanReissue() {
		return nil, fmt.Errorf("gcxmcp: %s answered in a version this client cannot read and is neither read-only nor idempotent, so the call was not repeated [MCP-9]: %w", c.Tool, err)
	}
	res, err = c.Send(Request{Accept: []string{}, Replace: true})
	if err != nil {
		return nil, err
	}
	r, err = ReadResult(res)
	if err != nil {
		return nil, fmt.Errorf("gcxmcp: %s, re-issued asking for JSON [MCP-9]: %w", c.Tool, err)
	}
	r.Reissued = true
	return r, nil
}
