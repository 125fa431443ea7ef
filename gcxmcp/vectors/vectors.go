// Package vectors runs the MCP binding's vectors (conformance/vectors/mcp,
// section 15.8 of docs/wire-format.md) against package gcxmcp, through its
// exported middlewares, as an SDK wrapper in another language runs them
// against its own. Run takes a vector's op and input and returns what the
// implementation did, in the shape of the vector's expected, so a runner
// compares the two as JSON values.
package vectors

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// The ops of the binding's vectors.
const (
	OpServer = "mcp-server"
	OpClient = "mcp-client"
)

// defaultProtocol is the protocol version of a server vector that names
// none (docs/conformance.md).
const defaultProtocol = "2025-11-25"

// protocolMetaPrefix begins the _meta keys MCP itself defines.
const protocolMetaPrefix = "io.modelcontextprotocol/"

// Run runs one vector's input through gcxmcp and returns the outcome as
// JSON: for OpServer {"result": ...}, the result the server sends; for
// OpClient {"requests": [...], ...}, the binding's _meta of each call the
// client made and what it ended with. Its error is for an input it cannot
// read, never for an outcome.
func Run(op string, input []byte) (json.RawMessage, error) {
	switch op {
	case OpServer:
		return runOverSession(input)
	case OpClient:
		return runClient(input)
	}
	return nil, fmt.Errorf("unknown op %q", op)
}

type serverInput struct {
	Settings struct {
		Mode  gcxmcp.Mode `json:"mode"`
		Offer []string    `json:"offer"`
		Tools map[string]struct {
			Mode gcxmcp.Mode `json:"mode"`
			Name string      `json:"name"`
		} `json:"tools"`
		MaxLineBytes int `json:"max-line-bytes"`
	} `json:"settings"`
	Protocol     string          `json:"protocol"`
	Capabilities json.RawMessage `json:"capabilities"`
	Request      struct {
		Name string         `json:"name"`
		Meta map[string]any `json:"_meta"`
	} `json:"request"`
	Result json.RawMessage `json:"result"`
}

// readServerInput reads a server vector's input: the middleware its
// settings give, and the tool's result as a handler returns it, whose
// structuredContent keeps its own bytes, as the SDK's typed handlers keep
// them.
func readServerInput(input []byte) (in serverInput, mw mcp.Middleware, result *mcp.CallToolResult, err error) {
	if err = strict(input, &in); err != nil {
		return
	}
	opts := gcxmcp.ServerOptions{Mode: in.Settings.Mode, Offer: in.Settings.Offer, MaxLineBytes: in.Settings.MaxLineBytes}
	if len(in.Settings.Tools) > 0 {
		opts.Tools = map[string]gcxmcp.ToolOptions{}
		for name, tool := range in.Settings.Tools {
			opts.Tools[name] = gcxmcp.ToolOptions{Mode: tool.Mode, Name: tool.Name}
		}
	}
	if mw, err = gcxmcp.ServerMiddleware(opts); err != nil {
		return
	}
	if result, err = decodeResult(in.Result); err != nil {
		return
	}
	var sc struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err = json.Unmarshal(in.Result, &sc); err != nil {
		return
	}
	if sc.StructuredContent != nil {
		result.StructuredContent = sc.StructuredContent
	}
	return in, mw, result, nil
}

type clientInput struct {
	Annotations json.RawMessage   `json:"annotations"`
	Answers     []json.RawMessage `json:"answers"`
}

// toolAnnotations reads a tool's annotations as the SDK reads tools/list:
// member names compared byte for byte, where encoding/json would take
// readOnlyHinT for readOnlyHint (E-53); a hint holds when it is true
// [MCP-9].
func toolAnnotations(raw json.RawMessage) (*mcp.ToolAnnotations, error) {
	if raw == nil {
		return nil, nil
	}
	v, err := jsonmap.Parse(raw)
	if err != nil || v.Kind != jsonmap.Object {
		return nil, fmt.Errorf("annotations: not a JSON object")
	}
	hint := func(name string) bool {
		h, _ := v.Lookup(name)
		return h.Kind == jsonmap.True
	}
	return &mcp.ToolAnnotations{ReadOnlyHint: hint("readOnlyHint"), IdempotentHint: hint("idempotentHint")}, nil
}

func runClient(input []byte) (json.RawMessage, error) {
	var in clientInput
	if err := strict(input, &in); err != nil {
		return nil, err
	}
	annotations, err := toolAnnotations(in.Annotations)
	if err != nil {
		return nil, err
	}
	answers := make([]*mcp.CallToolResult, len(in.Answers))
	for i, raw := range in.Answers {
		r, err := decodeResult(raw)
		if err != nil {
			return nil, err
		}
		answers[i] = r
	}
	var requests [][]string
	next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p := req.GetParams().(*mcp.CallToolParams)
		accept, _ := p.Meta[gcxmcp.MetaAccept].([]string)
		requests = append(requests, accept)
		if len(requests) > len(answers) {
			return nil, fmt.Errorf("call %d has no answer in the vector", len(requests))
		}
		return answers[len(requests)-1], nil
	}
	mw := gcxmcp.ClientMiddleware(gcxmcp.ClientOptions{
		Annotations: func(context.Context, *mcp.ClientSession, string) (*mcp.ToolAnnotations, error) {
			return annotations, nil
		},
	})
	params := &mcp.CallToolParams{Name: "tool", Arguments: map[string]any{}}
	res, err := mw(next)(context.Background(), "tools/call", &mcp.ClientRequest[*mcp.CallToolParams]{Params: params})
	var read *binding.Read
	if err == nil {
		var r *gcxmcp.Result
		if r, err = gcxmcp.ReadResult(res.(*mcp.CallToolResult)); err == nil {
			// The middleware passes on the last result alone: that it
			// was the second says the call was re-issued.
			read = &binding.Read{Format: r.Format, Value: r.Value, Total: r.Total, Truncated: r.Truncated, Reissued: len(requests) == 2}
		}
	}
	if len(requests) > len(answers) {
		return nil, err
	}
	return binding.ClientOutcome(requests, read, err)
}

// decodeResult reads a result as the SDK reads one off the wire.
func decodeResult(raw json.RawMessage) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("result: %v", err)
	}
	return &r, nil
}

func strict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// runOverSession runs a server vector through a real SDK server and client
// connected by in-memory transports at the vector's protocol version
// (2025-11-25 when it names none): the capabilities travel where that
// version carries them — in initialize, or in each request's _meta from
// 2026-07-28 on — the tool's result through the server's middleware and
// JSON-RPC, and the outcome is the result as the client receives it.
func runOverSession(input []byte) (json.RawMessage, error) {
	in, mw, result, err := readServerInput(input)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "vectors", Version: "v0"}, nil)
	server.AddReceivingMiddleware(mw)
	server.AddTool(&mcp.Tool{Name: in.Request.Name, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return result, nil })
	serverTransport, memory := mcp.NewInMemoryTransports()
	clientTransport := &wireResults{Transport: memory}
	ss, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	clientOpts := &mcp.ClientOptions{}
	if in.Capabilities != nil {
		clientOpts.Capabilities = &mcp.ClientCapabilities{}
		if err := json.Unmarshal(in.Capabilities, clientOpts.Capabilities); err != nil {
			return nil, err
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "vectors", Version: "v0"}, clientOpts)
	cs, err := client.Connect(ctx, clientTransport, &mcp.ClientSessionOptions{ProtocolVersion: cmp.Or(in.Protocol, defaultProtocol)})
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	meta := in.Request.Meta
	if version := cmp.Or(in.Protocol, defaultProtocol); version >= binding.PerRequestCapabilities && in.Capabilities != nil {
		// The vector's capabilities are the ones the request carries,
		// replacing any the request's _meta holds (docs/conformance.md);
		// the client adds its own only where the key is absent.
		meta = maps.Clone(meta)
		if meta == nil {
			meta = map[string]any{}
		}
		var caps any
		if err := json.Unmarshal(in.Capabilities, &caps); err != nil {
			return nil, err
		}
		meta[binding.MetaClientCapabilities] = caps
	}
	returned := maps.Clone(result.Meta) // the SDK may add to the handler's own result
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: in.Request.Name, Arguments: map[string]any{}, Meta: meta}); err != nil {
		return nil, err
	}
	// The outcome is the result as the wire carried it: the SDK's types
	// cannot tell a member that is null from one that is absent, which
	// the binding keeps apart [MCP-5].
	sent := clientTransport.last()
	if sent == nil {
		return nil, fmt.Errorf("the call's result never came over the wire")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(sent, &members); err != nil {
		return nil, err
	}
	// From 2026-07-28 the SDK names itself in every result's _meta; that
	// is the protocol's doing, not the binding's, and no vector states it.
	if raw, ok := members["_meta"]; ok {
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, err
		}
		for key := range meta {
			if _, ok := returned[key]; !ok && strings.HasPrefix(key, protocolMetaPrefix) {
				delete(meta, key)
			}
		}
		if len(meta) == 0 && returned == nil {
			delete(members, "_meta")
		} else if members["_meta"], err = json.Marshal(meta); err != nil {
			return nil, err
		}
	}
	// Likewise its resultType, which a 2026-07-28 session adds.
	var tool map[string]json.RawMessage
	if err := json.Unmarshal(in.Result, &tool); err != nil {
		return nil, err
	}
	if _, ok := tool[resultTypeKey]; !ok {
		delete(members, resultTypeKey)
	}
	return json.Marshal(map[string]any{"result": members})
}

// wireResults is a client transport that keeps the result of the last
// response it read as the bytes the wire carried, before the SDK decodes
// it into its own types.
type wireResults struct {
	mcp.Transport
	mu     sync.Mutex
	result json.RawMessage
}

func (w *wireResults) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return wireConn{c, w}, nil
}

func (w *wireResults) last() json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.result
}

type wireConn struct {
	mcp.Connection
	w *wireResults
}

func (c wireConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); ok && r.Result != nil {
		c.w.mu.Lock()
		c.w.result = slices.Clone(r.Result)
		c.w.mu.Unlock()
	}
	return m, err
}

// resultTypeKey is the member of a result that says, from 2026-07-28,
// whether it is complete.
const resultTypeKey = "resultType"
