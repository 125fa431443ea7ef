package gcxmcp

import (
	"context"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/spec"
)

// Mode says when a server writes a payload for a call that opted in:
// ModeAuto, ModeGCX or ModeOff.
type Mode = binding.Mode

const (
	// ModeAuto writes the payload only when it costs fewer cl100k_base
	// tokens than the value's compact JSON, decided per call [AUTO-1]
	// [MCP-6].
	ModeAuto = binding.ModeAuto
	// ModeGCX always writes the payload [MAP-12].
	ModeGCX = binding.ModeGCX
	// ModeOff leaves the tool's results alone.
	ModeOff = binding.ModeOff
)

// ServerOptions configures ServerMiddleware. The zero value is auto mode,
// offering GCX1, every tool under its own name.
type ServerOptions = binding.ServerOptions

// ToolOptions configures one tool.
type ToolOptions = binding.ToolOptions

// ServerMiddleware returns the receiving middleware that answers tools/call
// in GCX1 for the clients that ask for it, as ServerOptions says. Add it
// with (*mcp.Server).AddReceivingMiddleware. It refuses options it cannot
// follow: an unknown mode, a tag it does not write, a tool name GCX1
// cannot carry [HDR-3].
func ServerMiddleware(opts ServerOptions) (mcp.Middleware, error) {
	s, err := binding.NewServer(opts)
	if err != nil {
		return nil, err
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
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
			return answer(s, call, r), nil
		}
	}, nil
}

// Advertise adds the binding to a server's capabilities with the tags a
// server configured by opts writes, and adds nothing when it writes none
// (every tool in mode off) [MCP-2]. It refuses the options
// ServerMiddleware refuses.
func Advertise(caps *mcp.ServerCapabilities, opts ServerOptions) error {
	s, err := binding.NewServer(opts)
	if err != nil {
		return err
	}
	if offer := s.Offers(); len(offer) > 0 {
		AdvertiseServer(caps, offer...)
	}
	return nil
}

// AdvertiseServer adds the binding to a server's capabilities with the tags
// it offers [MCP-2]. Clients do not need it to opt in; it tells them that
// asking is worth its bytes.
//
// A server offers only what it writes: one whose middleware runs in mode
// off writes nothing, and does not call it [MCP-2].
func AdvertiseServer(caps *mcp.ServerCapabilities, offer ...string) {
	if len(offer) == 0 {
		offer = []string{spec.Version}
	}
	caps.AddExtension(Extension, map[string]any{SettingOffer: slices.Clone(offer)})
}

// answer returns the result the client receives: r itself when the binding
// leaves it alone [MCP-5], otherwise a copy with the JSON block replaced
// and the format named [MCP-6]. r is never modified: a handler may return
// the same result to several calls. The copy is of the whole struct, so the
// SDK's unexported fields survive.
//
// The client's capabilities are read where the request's protocol version
// carries them: in the session's initialize before 2026-07-28, in the
// request's own _meta from then on [MCP-2] [MCP-10]. The SDK's
// ClientCapabilities looks in both, so the binding picks.
func answer(s *binding.Server, call *mcp.CallToolRequest, r *mcp.CallToolResult) *mcp.CallToolResult {
	var initialize map[string]any
	if call.Session != nil {
		if p := call.Session.InitializeParams(); p != nil && p.Capabilities != nil {
			initialize = p.Capabilities.Extensions
		}
	}
	accept := binding.Accepted(call.ProtocolVersion(), call.Params.Meta, initialize)
	if len(accept) == 0 { // no tag in common [MCP-4]; spares plain's copy
		return r
	}
	a, ok := s.Answer(call.Params.Name, accept, plain(r))
	if !ok {
		return r
	}
	out := *r
	out.Meta = maps.Clone(r.Meta)
	if out.Meta == nil {
		out.Meta = mcp.Meta{}
	}
	a.EachMeta(func(key string, value any) { out.Meta[key] = value })
	if a.Block >= 0 {
		block := *r.Content[a.Block].(*mcp.TextContent)
		block.Text = a.Text
		out.Content = slices.Clone(r.Content)
		out.Content[a.Block] = &block
	}
	return &out
}
