package binding

import (
	"encoding/json"
	"fmt"

	"github.com/gcxwire/gcx/jsonmap"
)

// A program that handles MCP as JSON-RPC text rather than through an SDK —
// the conformance runner, gcx proxy — reads a CallToolResult as the JSON
// object the wire carries and writes the answer back into that object.
// These two functions are that reading and that writing, for all of them.

// ResultFromJSON reads a CallToolResult, the JSON object of a tools/call
// response's result, for the binding. decodeStructured hands the binding
// structuredContent decoded by encoding/json, as a client's MCP library
// does; otherwise it gets structuredContent's compact JSON text, as a
// server's typed tool handler keeps it. An object that is not a result —
// content not an array, a text block without a string text — is an error:
// the binding then leaves it alone.
func ResultFromJSON(result jsonmap.Value, decodeStructured bool) (*Result, error) {
	if result.Kind != jsonmap.Object {
		return nil, fmt.Errorf("result: a %s, not an object", result.Kind)
	}
	r := &Result{}
	for _, m := range result.Members {
		switch m.Key {
		case "content":
			if m.Value.Kind != jsonmap.Array {
				return nil, fmt.Errorf("result: content is a %s, not an array", m.Value.Kind)
			}
			r.Content = make([]Block, len(m.Value.Elems))
			for i, c := range m.Value.Elems {
				if typ, _ := c.Lookup("type"); typ.Kind != jsonmap.String || typ.Text != "text" {
					continue
				}
				text, ok := c.Lookup("text")
				if !ok || text.Kind != jsonmap.String {
					return nil, fmt.Errorf("result: content block %d of type text has no text", i)
				}
				r.Content[i] = Block{IsText: true, Text: text.Text}
			}
		case "structuredContent":
			if m.Value.Kind == jsonmap.Null {
				// null is no structured result: MCP libraries that
				// decode into their own types cannot tell it from an
				// absent member [MCP-5].
				break
			}
			raw := json.RawMessage(m.Value.AppendCompact(nil))
			if !decodeStructured {
				r.Structured = raw
				break
			}
			if err := json.Unmarshal(raw, &r.Structured); err != nil {
				return nil, fmt.Errorf("result: structuredContent: %v", err)
			}
		case "isError":
			r.IsError = m.Value.Kind == jsonmap.True
		case "_meta":
			if m.Value.Kind != jsonmap.Object {
				return nil, fmt.Errorf("result: _meta is a %s, not an object", m.Value.Kind)
			}
			if err := json.Unmarshal(m.Value.AppendCompact(nil), &r.Meta); err != nil {
				return nil, fmt.Errorf("result: _meta: %v", err)
			}
		}
	}
	return r, nil
}

// ApplyJSON makes the answer in a JSON-RPC response whose result
// ResultFromJSON read: the format named in the result's _meta and, when
// a.Block is not -1, the JSON block's text replaced, and the marks of a
// compact text or of a value other than structuredContent's [MCP-6]. Every other
// member, block and key stays as it is.
func (a Answer) ApplyJSON(response *jsonmap.Value) {
	a.applyResult(member(response, "result"))
}

func (a Answer) applyResult(result *jsonmap.Value) {
	if a.Block >= 0 {
		content := member(result, "content")
		text := member(&content.Elems[a.Block], "text")
		*text = jsonmap.Value{Kind: jsonmap.String, Text: a.Text}
	}
	meta := member(result, "_meta")
	if meta.Kind != jsonmap.Object {
		*meta = jsonmap.Value{Kind: jsonmap.Object}
	}
	a.EachMeta(func(key string, value any) {
		switch v := value.(type) {
		case string:
			*member(meta, key) = jsonmap.Value{Kind: jsonmap.String, Text: v}
		case bool:
			*member(meta, key) = jsonmap.Value{Kind: jsonmap.False}
			if v {
				*member(meta, key) = jsonmap.Value{Kind: jsonmap.True}
			}
		}
	})
}

// AskJSON puts c.Ask under MetaAccept in the _meta of a JSON-RPC
// tools/call request, the per-call opt-in [MCP-3] [PRX-3]; other keys of
// _meta stay. It does nothing when c.Ask is nil.
func (c Pending) AskJSON(request *jsonmap.Value) {
	if c.Ask == nil {
		return
	}
	params := member(request, "params")
	if params.Kind != jsonmap.Object {
		*params = jsonmap.Value{Kind: jsonmap.Object}
	}
	meta := member(params, "_meta")
	if meta.Kind != jsonmap.Object {
		*meta = jsonmap.Value{Kind: jsonmap.Object}
	}
	tags := jsonmap.Value{Kind: jsonmap.Array, Elems: make([]jsonmap.Value, len(c.Ask))}
	for i, t := range c.Ask {
		tags.Elems[i] = jsonmap.Value{Kind: jsonmap.String, Text: t}
	}
	*member(meta, MetaAccept) = tags
}

// member returns the member key of the object v, appending it (as null)
// when v has none.
func member(v *jsonmap.Value, key string) *jsonmap.Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value
		}
	}
	v.Members = append(v.Members, jsonmap.Member{Key: key, Value: jsonmap.Value{Kind: jsonmap.Null}})
	return &v.Members[len(v.Members)-1].Value
}
