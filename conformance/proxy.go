package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/jsonmap"
)

// mcpProxyInput is the input of an mcp-proxy vector (docs/conformance.md):
// an intermediary's settings, the session's protocol version, the host's
// capabilities, the upstream's, the host's call and the upstream's result
// [PRX-1] to [PRX-6].
type mcpProxyInput struct {
	Settings struct {
		Mode  binding.Mode `json:"mode"`
		Tools toolSettings `json:"tools"`
		// MaxLineBytes is the line limit payloads are encoded under
		// [MCP-7] [LIM-4]; 0: the default limits'.
		MaxLineBytes int `json:"max-line-bytes"`
	} `json:"settings"`
	Protocol     string          `json:"protocol"`
	Capabilities json.RawMessage `json:"capabilities"`
	Upstream     json.RawMessage `json:"upstream"`
	Request      struct {
		Name string          `json:"name"`
		Meta json.RawMessage `json:"_meta"`
	} `json:"request"`
	Result json.RawMessage `json:"result"`
}

// runMCPProxy runs an mcp-proxy vector through gcx proxy's own message
// handling (package gcxmcp/proxy, whose decisions are gcxmcp/binding's),
// as JSON-RPC lines: the host's initialize, the upstream's initialize
// result, the host's tools/call and the upstream's response. The outcome
// is the _meta of the request the upstream received and the result the
// host received.
func runMCPProxy(input []byte) ([]byte, error) {
	var in mcpProxyInput
	if err := strictJSON(input, &in); err != nil {
		return nil, err
	}
	p, err := proxy.New(proxy.Options{Binding: binding.ServerOptions{Mode: in.Settings.Mode, Tools: in.Settings.Tools.options(), MaxLineBytes: in.Settings.MaxLineBytes}})
	if err != nil {
		return nil, err
	}
	version := cmp.Or(in.Protocol, DefaultProtocol)
	hostCaps, upstreamCaps := orEmpty(in.Capabilities), orEmpty(in.Upstream)
	meta := in.Request.Meta
	if version >= binding.PerRequestCapabilities && in.Capabilities != nil {
		// The host's capabilities travel in each request [MCP-10].
		m := map[string]json.RawMessage{}
		if meta != nil {
			if err := json.Unmarshal(meta, &m); err != nil {
				return nil, fmt.Errorf("request _meta: %v", err)
			}
		}
		m[binding.MetaClientCapabilities] = in.Capabilities
		if meta, err = json.Marshal(m); err != nil {
			return nil, err
		}
		hostCaps = json.RawMessage("{}")
	}
	name, _ := json.Marshal(in.Request.Name)
	params := `{"name":` + string(name) + `,"arguments":{}`
	if meta != nil {
		params += `,"_meta":` + string(meta)
	}
	params += "}"
	lines := [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + string(hostCaps) + `,"clientInfo":{"name":"host","version":"1"}}}`),
		[]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"` + version + `","capabilities":` + string(upstreamCaps) + `,"serverInfo":{"name":"upstream","version":"1"}}}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"result":` + string(in.Result) + `}`),
	}
	p.FromHost(lines[0])
	p.FromUpstream(lines[1])
	forwarded, err := jsonmap.Parse(p.FromHost(lines[2]))
	if err != nil {
		return nil, fmt.Errorf("the request passed on: %v", err)
	}
	received, err := jsonmap.Parse(p.FromUpstream(lines[3]))
	if err != nil {
		return nil, fmt.Errorf("the response passed on: %v", err)
	}
	forwardedParams, _ := forwarded.Lookup("params")
	forwardedMeta, ok := forwardedParams.Lookup("_meta")
	if !ok {
		forwardedMeta = jsonmap.Value{Kind: jsonmap.Null}
	}
	result, _ := received.Lookup("result")
	b := []byte(`{"request_meta":`)
	b = forwardedMeta.AppendCompact(b)
	b = append(b, `,"result":`...)
	b = result.AppendCompact(b)
	return append(b, '}'), nil
}

// orEmpty returns the JSON text of an object, {} for none.
func orEmpty(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("{}")
	}
	return raw
}
