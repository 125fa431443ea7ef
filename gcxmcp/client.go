package gcxmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// readable is the list of tags this package reads [MCP-2] [MCP-3].
var readable = []string{spec.Version}

// AdvertiseClient declares the binding in a client's capabilities, with the
// tags it reads [MCP-2]. A server then answers every call in GCX1 without a
// per-call opt-in; set ClientOptions.UseCapability to leave calls bare.
func AdvertiseClient(caps *mcp.ClientCapabilities) {
	caps.AddExtension(Extension, map[string]any{SettingAccept: append([]string(nil), readable...)})
}

// ClientOptions configures CallTool and ClientMiddleware. The zero value
// opts in on every call through its _meta.
type ClientOptions struct {
	// UseCapability leaves the opt-in to the client's capabilities
	// (AdvertiseClient): calls carry no _meta of the binding, except the
	// JSON-only request of a re-issued call [MCP-3] [MCP-9].
	UseCapability bool

	// Annotations returns a tool's annotations, for the fallback rule
	// [MCP-9]. nil means: list the session's tools (only when a fallback
	// needs them). A tool it cannot find is neither read-only nor
	// idempotent.
	Annotations func(ctx context.Context, cs *mcp.ClientSession, tool string) (*mcp.ToolAnnotations, error)
}

// Result is a tool result as the binding reads it.
type Result struct {
	// CallToolResult is the result as received: a GCX1 payload stays in its
	// text block, for the model.
	CallToolResult *mcp.CallToolResult
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
// the value. It repeats no call: a payload this client cannot read is a
// *spec.Error of class spec.ErrUnsupportedVersion naming the tag, the cue
// of the fallback rule [VER-5] [MCP-9]. Other errors wrap ErrInvalidResult
// or ErrMismatch, or are the payload's own *spec.Error.
func ReadResult(res *mcp.CallToolResult) (*Result, error) {
	r := &Result{CallToolResult: res, Total: -1}
	format, err := readFormat(res.Meta)
	if err != nil {
		return nil, err
	}
	cut, err := readTruncation(res.Meta)
	if err != nil {
		return nil, err
	}
	r.Format, r.Total, r.Truncated = format, cut.total, cut.truncated
	if format == "" || format == FormatJSON {
		r.Value = jsonText(res)
		return r, nil
	}
	payload, ok := payloadBlock(res)
	if !ok {
		return nil, fmt.Errorf("%w: _meta names %s but no text block begins with %q [MCP-8]", ErrInvalidResult, format, spec.TagPrefix)
	}
	// The payload begins with "GCX", so it is read as GCX1 [AUTO-3].
	value, err := jsonmap.DecodeValue(payload)
	if err != nil {
		return nil, err
	}
	if format != spec.Version {
		return nil, fmt.Errorf("%w: _meta names %s but the payload is %s [MCP-8]", ErrInvalidResult, format, spec.Version)
	}
	if res.StructuredContent != nil {
		same, err := sameValue(value, res.StructuredContent)
		if err != nil {
			return nil, err
		}
		if !same {
			return nil, fmt.Errorf("%w: the payload decodes to a value other than structuredContent [MCP-8]", ErrMismatch)
		}
	}
	head, err := headerCounts(payload)
	if err != nil {
		return nil, err
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

// payloadBlock returns the first text block that begins with "GCX" [MCP-8].
func payloadBlock(res *mcp.CallToolResult) ([]byte, bool) {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(t.Text, spec.TagPrefix) {
			return []byte(t.Text), true
		}
	}
	return nil, false
}

// jsonText returns the compact form of the first text block that holds a
// JSON text, or nil.
func jsonText(res *mcp.CallToolResult) json.RawMessage {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && mayBeJSON(t.Text) {
			if v, err := jsonmap.Compact([]byte(t.Text)); err == nil {
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

// CanReissue reports whether the fallback rule lets a client repeat a call
// of a tool with these annotations: only a tool annotated read-only or
// idempotent may run twice [MCP-9].
func CanReissue(a *mcp.ToolAnnotations) bool {
	return a != nil && (a.ReadOnlyHint || a.IdempotentHint)
}

// CallTool calls a tool asking for GCX1 and reads the result [MCP-8]. When
// the answer is in a version this client cannot read, it repeats the call
// asking for JSON if the tool is read-only or idempotent, and otherwise
// returns the *spec.Error naming the tag [MCP-9]. params is not modified:
// the session writes into a request's _meta, so CallTool sends a copy.
func CallTool(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams, opts *ClientOptions) (*Result, error) {
	if params == nil {
		params = &mcp.CallToolParams{}
	}
	if opts == nil {
		opts = &ClientOptions{}
	}
	send := func(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, p)
	}
	return call(ctx, cs, params, opts, send)
}

// ClientMiddleware returns a sending middleware that does what CallTool
// does for every tools/call a client sends: it opts in, checks the answer,
// and re-issues under the fallback rule. Calls pass on their result, with
// the payload still in its text block; ReadResult gives the value. Add it
// with (*mcp.Client).AddSendingMiddleware.
func ClientMiddleware(opts ClientOptions) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			// The session sends a *mcp.ClientRequest[mcp.Params]; read
			// through the interface so any request type will do.
			params, ok := req.GetParams().(*mcp.CallToolParams)
			cs, isClient := req.GetSession().(*mcp.ClientSession)
			if method != "tools/call" || !ok || !isClient || params == nil {
				return next(ctx, method, req)
			}
			send := func(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				res, err := next(ctx, method, &mcp.ClientRequest[*mcp.CallToolParams]{Session: cs, Params: p})
				if err != nil {
					return nil, err
				}
				r, ok := res.(*mcp.CallToolResult)
				if !ok {
					return nil, fmt.Errorf("gcxmcp: tools/call gave a %T", res)
				}
				return r, nil
			}
			r, err := call(ctx, cs, params, &opts, send)
			if err != nil {
				return nil, err
			}
			return r.CallToolResult, nil
		}
	}
}

func call(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams, opts *ClientOptions,
	send func(context.Context, *mcp.CallToolParams) (*mcp.CallToolResult, error)) (*Result, error) {
	tags := readable
	if opts.UseCapability {
		tags = nil
	}
	res, err := send(ctx, withAccept(params, tags, false))
	if err != nil {
		return nil, err
	}
	r, err := ReadResult(res)
	if err == nil || !errors.Is(err, spec.ErrUnsupportedVersion) {
		return r, err
	}
	lookup := opts.Annotations
	if lookup == nil {
		lookup = listedAnnotations
	}
	a, lerr := lookup(ctx, cs, params.Name)
	if lerr != nil {
		return nil, fmt.Errorf("gcxmcp: %s answered in a version this client cannot read, and its annotations could not be read to decide on a re-issue: %v [MCP-9]: %w", params.Name, lerr, err)
	}
	if !CanReissue(a) {
		return nil, fmt.Errorf("gcxmcp: %s answered in a version this client cannot read and is neither read-only nor idempotent, so the call was not repeated [MCP-9]: %w", params.Name, err)
	}
	res, err = send(ctx, withAccept(params, []string{}, true))
	if err != nil {
		return nil, err
	}
	r, err = ReadResult(res)
	if err != nil {
		return nil, fmt.Errorf("gcxmcp: %s, re-issued asking for JSON [MCP-9]: %w", params.Name, err)
	}
	r.Reissued = true
	return r, nil
}

// withAccept returns a copy of params whose _meta asks for tags [MCP-3]:
// always when force is set, else only when the caller asked for nothing
// itself. nil tags copy params without asking. The copy has its own _meta
// map, because the session writes into it.
func withAccept(params *mcp.CallToolParams, tags []string, force bool) *mcp.CallToolParams {
	p := *params
	p.Meta = maps.Clone(params.Meta)
	if tags == nil {
		return &p
	}
	if _, asked := p.Meta[MetaAccept]; asked && !force {
		return &p
	}
	if p.Meta == nil {
		p.Meta = mcp.Meta{}
	}
	p.Meta[MetaAccept] = append([]string{}, tags...)
	return &p
}

// listedAnnotations finds a tool's annotations in the session's tool list.
func listedAnnotations(ctx context.Context, cs *mcp.ClientSession, name string) (*mcp.ToolAnnotations, error) {
	if cs == nil {
		return nil, errors.New("no session to list tools with")
	}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if t.Name == name {
			return t.Annotations, nil
		}
	}
	return nil, nil
}
