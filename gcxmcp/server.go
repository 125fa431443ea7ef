package gcxmcp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
)

// Mode says when a server writes a payload for a call that opted in.
type Mode string

const (
	// ModeAuto writes the payload only when it costs fewer cl100k_base
	// tokens than the value's compact JSON, decided per call [AUTO-1]
	// [MCP-6].
	ModeAuto Mode = "auto"
	// ModeGCX always writes the payload [MAP-12].
	ModeGCX Mode = "gcx"
	// ModeOff leaves the tool's results alone.
	ModeOff Mode = "off"
)

// ServerOptions configures ServerMiddleware. The zero value is auto mode,
// offering GCX1, every tool under its own name.
type ServerOptions struct {
	// Mode applies to every tool without its own; "" is ModeAuto.
	Mode Mode
	// Offer lists the tags the server writes, most preferred first
	// [MCP-4]. Empty means GCX1, the only tag this package writes.
	Offer []string
	// Tools configures single tools by their MCP name.
	Tools map[string]ToolOptions
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

type server struct {
	mode  Mode
	offer []string
	tools map[string]ToolOptions
}

// ServerMiddleware returns the receiving middleware that answers tools/call
// in GCX1 for the clients that ask for it, as ServerOptions says. Add it
// with (*mcp.Server).AddReceivingMiddleware. It refuses options it cannot
// follow: an unknown mode, a tag it does not write, a tool name GCX1
// cannot carry [HDR-3].
func ServerMiddleware(opts ServerOptions) (mcp.Middleware, error) {
	s := &server{mode: opts.Mode, offer: opts.Offer, tools: maps.Clone(opts.Tools)}
	if s.mode == "" {
		s.mode = ModeAuto
	}
	if err := checkMode(s.mode); err != nil {
		return nil, err
	}
	if len(s.offer) == 0 {
		s.offer = []string{spec.Version}
	}
	for _, tag := range s.offer {
		if tag != spec.Version {
			return nil, fmt.Errorf("gcxmcp: cannot offer %q: this package writes %s only", tag, spec.Version)
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
	return s.wrap, nil
}

func checkMode(m Mode) error {
	switch m {
	case ModeAuto, ModeGCX, ModeOff:
		return nil
	}
	return fmt.Errorf("gcxmcp: unknown mode %q (want %q, %q or %q)", m, ModeAuto, ModeGCX, ModeOff)
}

// AdvertiseServer adds the binding to a server's capabilities with the tags
// it offers [MCP-2]. Clients do not need it to opt in; it tells them that
// asking is worth its bytes.
func AdvertiseServer(caps *mcp.ServerCapabilities, offer ...string) {
	if len(offer) == 0 {
		offer = []string{spec.Version}
	}
	caps.AddExtension(Extension, map[string]any{SettingOffer: slices.Clone(offer)})
}

func (s *server) wrap(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		call, ok := req.(*mcp.CallToolRequest)
		r, isResult := res.(*mcp.CallToolResult)
		if !ok || !isResult || r == nil || call.Params == nil {
			return res, err
		}
		tag := codec.Negotiate(accepted(call), s.offer)
		if tag == "" {
			return res, nil
		}
		return s.answer(call.Params.Name, tag, r), nil
	}
}

// accepted returns the tags the client reads for this call, and nil when it
// did not opt in: the call's _meta overrides the capability [MCP-3], which
// req.ClientCapabilities reads from the session's initialize (2025-11-25)
// or from the request's own _meta (2026-07-28) [MCP-2]. A value of the
// wrong type is no opt-in.
func accepted(call *mcp.CallToolRequest) []string {
	if v, ok := call.Params.Meta[MetaAccept]; ok {
		tags, _ := readTags(v)
		return tags
	}
	caps := call.ClientCapabilities()
	if caps == nil {
		return nil
	}
	settings, ok := caps.Extensions[Extension].(map[string]any)
	if !ok {
		return nil
	}
	tags, _ := readTags(settings[SettingAccept])
	return tags
}

// answer returns the result the client receives: r itself when the binding
// leaves it alone [MCP-5], otherwise a copy with the JSON block replaced
// and the format named [MCP-6]. r is never modified: a handler may return
// the same result to several calls. The copy is of the whole struct, so the
// SDK's unexported fields survive.
func (s *server) answer(name, tag string, r *mcp.CallToolResult) *mcp.CallToolResult {
	t := s.tools[name]
	mode := cmp.Or(t.Mode, s.mode)
	if mode == ModeOff {
		return r
	}
	at, value, ok := jsonBlock(r)
	if !ok {
		return r
	}
	payload := s.encode(cmp.Or(t.Name, name), mode, value)
	out := *r
	out.Meta = maps.Clone(r.Meta)
	if out.Meta == nil {
		out.Meta = mcp.Meta{}
	}
	if payload == nil {
		out.Meta[MetaFormat] = FormatJSON
		return &out
	}
	// A key of the wrong type stays out of the header; the client will
	// find it in _meta and report it [MCP-7].
	if cut, _ := readTruncation(r.Meta); cut.any() {
		payload = withCounts(payload, cut)
	}
	out.Meta[MetaFormat] = tag
	block := *r.Content[at].(*mcp.TextContent)
	block.Text = string(payload)
	out.Content = slices.Clone(r.Content)
	out.Content[at] = &block
	return &out
}

// encode returns the payload for the value, or nil when the JSON stays:
// auto mode found it no cheaper [AUTO-1], or the mapping cannot write the
// value under this name [MAP-1] [HDR-3] [MCP-6].
func (s *server) encode(tool string, mode Mode, value jsonmap.Value) []byte {
	if mode == ModeGCX {
		payload, err := jsonmap.EncodeValue(tool, value)
		if err != nil {
			return nil
		}
		return payload
	}
	c, err := auto.ChooseValue(tool, value)
	if err != nil || c.Format != jsonmap.FormatGCX {
		return nil
	}
	return c.Output
}

// jsonBlock finds the content block that holds the result's JSON and
// returns its index and value [MCP-5]. With structuredContent, it is the
// first text block holding a JSON text of the same value [MAP-2]; without,
// it is the only block, when that is text holding a JSON text. A text block
// before it that begins with "GCX" would be taken for the payload by a
// client [MCP-8], so such a result has no JSON block.
func jsonBlock(r *mcp.CallToolResult) (int, jsonmap.Value, bool) {
	if r.IsError || len(r.Content) == 0 {
		return 0, jsonmap.Value{}, false
	}
	if r.StructuredContent == nil {
		t, ok := r.Content[0].(*mcp.TextContent)
		if !ok || len(r.Content) != 1 || !mayBeJSON(t.Text) {
			return 0, jsonmap.Value{}, false
		}
		v, err := jsonmap.Parse([]byte(t.Text))
		return 0, v, err == nil
	}
	raw, err := structuredJSON(r.StructuredContent)
	if err != nil {
		return 0, jsonmap.Value{}, false
	}
	want, err := jsonmap.Parse(raw)
	if err != nil {
		return 0, jsonmap.Value{}, false
	}
	for i, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok {
			continue
		}
		if len(t.Text) >= len(spec.TagPrefix) && t.Text[:len(spec.TagPrefix)] == spec.TagPrefix {
			return 0, jsonmap.Value{}, false
		}
		if t.Text == string(raw) { // the SDK writes structuredContent's own bytes
			return i, want, true
		}
		if !mayBeJSON(t.Text) {
			continue
		}
		if v, err := jsonmap.Parse([]byte(t.Text)); err == nil && jsonmap.Equal(v, want) {
			return i, want, true
		}
	}
	return 0, jsonmap.Value{}, false
}

// structuredJSON returns the JSON text of structuredContent: its own bytes
// when the SDK or the handler kept them, else the marshaled value.
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
