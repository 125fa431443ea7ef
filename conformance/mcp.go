package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
)

// runBinding is the MCP op of the built-in implementations: package
// gcxmcp/binding, which makes every decision of package gcxmcp, applied to
// the JSON of a vector's input instead of the MCP SDK's types, so that gcx
// checks the binding without linking the SDK. Results are read as the SDK
// reads them off the wire: _meta and a client's structuredContent decoded
// by encoding/json, a server's structuredContent kept as its JSON text, as
// the SDK's typed tool handlers keep it.
func runBinding(op Op, input []byte) ([]byte, error) {
	switch op {
	case OpMCPServer:
		return runMCPServer(input)
	case OpMCPClient:
		return runMCPClient(input)
	case OpMCPProxy:
		return runMCPProxy(input)
	}
	return nil, fmt.Errorf("%w: %s is no op of the MCP binding", ErrSkip, op)
}

// toolSettings are a binding vector's settings of single tools, by MCP
// name: a mode and the name a payload carries (docs/conformance.md).
type toolSettings map[string]struct {
	Mode binding.Mode `json:"mode"`
	Name string       `json:"name"`
}

// options returns the settings as the binding takes them, nil for none.
func (t toolSettings) options() map[string]binding.ToolOptions {
	if len(t) == 0 {
		return nil
	}
	opts := make(map[string]binding.ToolOptions, len(t))
	for name, tool := range t {
		opts[name] = binding.ToolOptions{Mode: tool.Mode, Name: tool.Name}
	}
	return opts
}

// mcpServerInput is the input of an mcp-server vector (docs/conformance.md).
type mcpServerInput struct {
	Settings struct {
		Mode  binding.Mode `json:"mode"`
		Offer []string     `json:"offer"`
		Tools toolSettings `json:"tools"`
		// MaxLineBytes is the line limit payloads are encoded under
		// [MCP-7] [LIM-4]; 0: the default limits'.
		MaxLineBytes int `json:"max-line-bytes"`
	} `json:"settings"`
	// Protocol is the version negotiated for the session; "" is
	// DefaultProtocol.
	Protocol     string         `json:"protocol"`
	Capabilities map[string]any `json:"capabilities"`
	Request      struct {
		Name string         `json:"name"`
		Meta map[string]any `json:"_meta"`
	} `json:"request"`
	Result json.RawMessage `json:"result"`
}

// DefaultProtocol is the protocol version of an mcp-server vector that
// names none: the last whose capabilities travel in initialize.
const DefaultProtocol = "2025-11-25"

// Accepted returns the tags the client of an mcp-server vector reads for
// its call [MCP-2] [MCP-3]: the vector's capabilities are those the client
// declared, which its protocol version carries in initialize or, from
// binding.PerRequestCapabilities on, in the request's own _meta.
func (in *mcpServerInput) Accepted() []string {
	version := cmp.Or(in.Protocol, DefaultProtocol)
	meta := in.Request.Meta
	if version >= binding.PerRequestCapabilities {
		if in.Capabilities != nil {
			meta = maps.Clone(meta)
			if meta == nil {
				meta = map[string]any{}
			}
			meta[binding.MetaClientCapabilities] = in.Capabilities
		}
		return binding.Accepted(version, meta, nil)
	}
	extensions, _ := in.Capabilities["extensions"].(map[string]any)
	return binding.Accepted(version, meta, extensions)
}

func runMCPServer(input []byte) ([]byte, error) {
	var in mcpServerInput
	if err := strictJSON(input, &in); err != nil {
		return nil, err
	}
	s, err := binding.NewServer(binding.ServerOptions{Mode: in.Settings.Mode, Offer: in.Settings.Offer, Tools: in.Settings.Tools.options(), MaxLineBytes: in.Settings.MaxLineBytes})
	if err != nil {
		return nil, err
	}
	r, err := readMCPResult(in.Result, false)
	if err != nil {
		return nil, err
	}
	sent, err := jsonmap.Parse(in.Result)
	if err != nil {
		return nil, err
	}
	// The result as a JSON-RPC response carries it, for the answer to
	// change in place.
	response := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "result", Value: sent}}}
	if a, ok := s.Answer(in.Request.Name, in.Accepted(), r); ok {
		a.ApplyJSON(&response)
	}
	return response.AppendCompact(nil), nil
}

// readMCPResult reads a result for package binding, as
// binding.ResultFromJSON reads one off the wire. decoded says to hand it
// structuredContent decoded, as a client's MCP library does, rather than
// as its JSON text.
func readMCPResult(raw []byte, decoded bool) (*binding.Result, error) {
	v, err := jsonmap.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("result: %v", err)
	}
	return binding.ResultFromJSON(v, decoded)
}

// mcpClientInput is the input of an mcp-client vector.
type mcpClientInput struct {
	// Annotations are as tools/list gives them; the hints other than
	// the two of [MCP-9] play no part.
	Annotations json.RawMessage   `json:"annotations"`
	Answers     []json.RawMessage `json:"answers"`
}

func runMCPClient(input []byte) ([]byte, error) {
	var in mcpClientInput
	if err := strictJSON(input, &in); err != nil {
		return nil, err
	}
	var requests [][]string
	var inputErr error // the vector's, not the client's
	r, err := binding.Call(binding.Caller{
		Tool: "tool",
		Send: func(req binding.Request) (*binding.Result, error) {
			requests = append(requests, req.Accept)
			if len(requests) > len(in.Answers) {
				inputErr = fmt.Errorf("call %d has no answer in the vector", len(requests))
				return nil, inputErr
			}
			res, err := readMCPResult(in.Answers[len(requests)-1], true)
			inputErr = err
			return res, err
		},
		Annotations: func() (binding.Annotations, error) {
			a, err := readAnnotations(in.Annotations)
			if err != nil {
				inputErr = err
			}
			return a, err
		},
	})
	if inputErr != nil {
		return nil, inputErr
	}
	return binding.ClientOutcome(requests, r, err)
}

// readAnnotations reads a tool's annotations as tools/list gives them: a
// hint holds when the member of exactly its name is true [MCP-9], names
// being compared byte for byte as an MCP library reads them (E-53), so
// readOnlyHinT says nothing. encoding/json would match it regardless of
// case.
func readAnnotations(raw json.RawMessage) (binding.Annotations, error) {
	if raw == nil {
		return binding.Annotations{}, nil
	}
	v, err := jsonmap.Parse(raw)
	if err != nil || v.Kind != jsonmap.Object {
		return binding.Annotations{}, fmt.Errorf("annotations: not a JSON object")
	}
	hint := func(name string) bool {
		h, _ := v.Lookup(name)
		return h.Kind == jsonmap.True
	}
	return binding.Annotations{ReadOnly: hint("readOnlyHint"), Idempotent: hint("idempotentHint")}, nil
}

// usesAuto reports whether an mcp-server or mcp-proxy vector's input puts
// its tool in auto mode [MCP-6] [PRX-1]: its own mode, else the server's
// or intermediary's, auto when neither is given (both inputs share these
// members). An input it cannot read is not in auto mode; the run then
// reports it.
func usesAuto(input []byte) bool {
	var in mcpServerInput
	if err := json.Unmarshal(input, &in); err != nil {
		return false
	}
	mode := cmp.Or(in.Settings.Tools[in.Request.Name].Mode, in.Settings.Mode, binding.ModeAuto)
	return mode == binding.ModeAuto
}
