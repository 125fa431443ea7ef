package gcxmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// AdvertiseClient declares the binding in a client's capabilities, with the
// tags it reads [MCP-2]. A server then answers every call in GCX1 without a
// per-call opt-in; set ClientOptions.UseCapability to leave calls bare.
func AdvertiseClient(caps *mcp.ClientCapabilities) {
	caps.AddExtension(Extension, map[string]any{SettingAccept: append([]string(nil), binding.Readable...)})
}

// ClientOptions configures CallTool and ClientMiddleware. The zero value
// opts in on every call through its _meta.
type ClientOptions struct {
	// UseCapability leaves the opt-in to the client's capabilities
	// (AdvertiseClient): calls carry no _meta of the binding, except the
	// JSON-only request of a re-issued call [MCP-3] [MCP-9].
	UseCapability bool

	// Accept lists the tags the client reads on each call, most preferred
	// first: GCX1 and tags registered in package codec, such as a draft on
	// trial, which a server writes only when it offers it too [MCP-4].
	// nil means GCX1.
	Accept []string

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

func newResult(res *mcp.CallToolResult, r *binding.Read) *Result {
	return &Result{CallToolResult: res, Format: r.Format, Value: r.Value, Total: r.Total, Truncated: r.Truncated, Reissued: r.Reissued}
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
	r, err := binding.ReadResult(plain(res))
	if err != nil {
		return nil, err
	}
	return newResult(res, r), nil
}

// CanReissue reports whether the fallback rule lets a client repeat a call
// of a tool with these annotations: only a tool annotated read-only or
// idempotent may run twice [MCP-9].
func CanReissue(a *mcp.ToolAnnotations) bool {
	return hints(a).CanReissue()
}

func hints(a *mcp.ToolAnnotations) binding.Annotations {
	if a == nil {
		return binding.Annotations{}
	}
	return binding.Annotations{ReadOnly: a.ReadOnlyHint, Idempotent: a.IdempotentHint}
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

// call carries binding.Call, which decides what to send and what to make
// of the answers, to the SDK's types.
func call(ctx context.Context, cs *mcp.ClientSession, params *mcp.CallToolParams, opts *ClientOptions,
	send func(context.Context, *mcp.CallToolParams) (*mcp.CallToolResult, error)) (*Result, error) {
	lookup := opts.Annotations
	if lookup == nil {
		lookup = listedAnnotations
	}
	var last *mcp.CallToolResult
	r, err := binding.Call(binding.Caller{
		Tool:          params.Name,
		Accept:        opts.Accept,
		UseCapability: opts.UseCapability,
		Send: func(req binding.Request) (*binding.Result, error) {
			res, err := send(ctx, withAccept(params, req))
			if err != nil {
				return nil, err
			}
			last = res
			return plain(res), nil
		},
		Annotations: func() (binding.Annotations, error) {
			a, err := lookup(ctx, cs, params.Name)
			return hints(a), err
		},
	})
	if err != nil {
		return nil, err
	}
	return newResult(last, r), nil
}

// withAccept returns a copy of params whose _meta asks for what req says
// [MCP-3]: a caller's own list stays unless req replaces it, and nil tags
// copy params without asking. The copy has its own _meta map, because the
// session writes into it.
func withAccept(params *mcp.CallToolParams, req binding.Request) *mcp.CallToolParams {
	p := *params
	p.Meta = maps.Clone(params.Meta)
	if req.Accept == nil {
		return &p
	}
	if _, asked := p.Meta[MetaAccept]; asked && !req.Replace {
		return &p
	}
	if p.Meta == nil {
		p.Meta = mcp.Meta{}
	}
	p.Meta[MetaAccept] = append([]string{}, req.Accept...)
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
