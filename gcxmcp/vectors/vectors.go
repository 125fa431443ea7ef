// Package vectors runs the MCP binding's vectors (conformance/vectors/mcp,
// section 15.8 of docs/wire-format.md) against package gcxmcp, through its
// exported middlewares, as an SDK wrapper in another language runs them
// against its own. Run takes a vector's op and input and returns what the
// implementation did, in the shape of the vector's expected, so a runner
// compares the two as JSON values.
package vectors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// The ops of the binding's vectors.
const (
	OpServer = "mcp-server"
	OpClient = "mcp-client"
)

// clientCapabilitiesKey is where the SDK reads a request's client
// capabilities from protocol 2026-07-28 on; the server vectors' capabilities
// travel there, which needs no session.
const clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"

// Run runs one vector's input through gcxmcp and returns the outcome as
// JSON: for OpServer {"result": ...}, the result the server sends; for
// OpClient {"requests": [...], ...}, the binding's _meta of each call the
// client made and what it ended with. Its error is for an input it cannot
// read, never for an outcome.
func Run(op string, input []byte) (json.RawMessage, error) {
	switch op {
	case OpServer:
		return runServer(input)
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
	} `json:"settings"`
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
	opts := gcxmcp.ServerOptions{Mode: in.Settings.Mode, Offer: in.Settings.Offer}
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

func runServer(input []byte) (json.RawMessage, error) {
	in, mw, result, err := readServerInput(input)
	if err != nil {
		return nil, err
	}
	meta := in.Request.Meta
	if in.Capabilities != nil {
		if meta == nil {
			meta = map[string]any{}
		}
		var caps any
		if err := json.Unmarshal(in.Capabilities, &caps); err != nil {
			return nil, err
		}
		meta[clientCapabilitiesKey] = caps
	}
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: in.Request.Name, Meta: meta}}
	handler := mw(func(context.Context, string, mcp.Request) (mcp.Result, error) { return result, nil })
	sent, err := handler(context.Background(), "tools/call", req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Result mcp.Result `json:"result"`
	}{sent})
}

type clientInput struct {
	Annotations *mcp.ToolAnnotations `json:"annotations"`
	Answers     []json.RawMessage    `json:"answers"`
}

func runClient(input []byte) (json.RawMessage, error) {
	var in clientInput
	if err := strict(input, &in); err != nil {
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
			return in.Annotations, nil
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

// RunOverSession runs a server vector's input as Run does, but through a
// real SDK server and client connected by in-memory transports at protocol
// 2025-11-25: the capabilities travel in initialize, the tool's result
// through the server's middleware and JSON-RPC, and the outcome is the
// result as the client receives it. Client vectors run as Run runs them,
// since their answers are given.
func RunOverSession(op string, input []byte) (json.RawMessage, error) {
	if op != OpServer {
		return Run(op, input)
	}
	in, mw, result, err := readServerInput(input)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "vectors", Version: "v0"}, nil)
	server.AddReceivingMiddleware(mw)
	server.AddTool(&mcp.Tool{Name: in.Request.Name, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return result, nil })
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
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
	cs, err := client.Connect(ctx, clientTransport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	received, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: in.Request.Name, Arguments: map[string]any{}, Meta: in.Request.Meta})
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Result *mcp.CallToolResult `json:"result"`
	}{received})
}
