package gcxmcp

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp/binding"
)

// The names the binding adds to MCP [MCP-1]. The vendor prefix is the
// reverse-DNS form of the project's home, as MCP asks of extensions and
// _meta keys that are not its own.
const (
	// Extension is the key of the binding in the extensions map of a
	// client's or server's capabilities [MCP-2].
	Extension = binding.Extension

	// MetaAccept is the request _meta key of a per-call opt-in: the list of
	// tags the client reads for this call, [] for JSON [MCP-3].
	MetaAccept = binding.MetaAccept

	// MetaFormat is the result _meta key that names what the JSON block
	// holds: a tag such as "GCX1", or "json" [MCP-6].
	MetaFormat = binding.MetaFormat

	// MetaTotal and MetaTruncated are the result _meta keys of a tool that
	// cut its list: how many results it found, and whether it cut [MCP-7].
	MetaTotal     = binding.MetaTotal
	MetaTruncated = binding.MetaTruncated

	// FormatJSON is the value of MetaFormat when the block stayed JSON.
	FormatJSON = binding.FormatJSON

	// SettingAccept and SettingOffer are the members of the extension's
	// settings object: the tags a client reads, the tags a server writes.
	SettingAccept = binding.SettingAccept
	SettingOffer  = binding.SettingOffer
)

// The errors a client reports about a result that breaks the binding, as
// opposed to the payload's own GCX1 errors, which are *spec.Error values.
var (
	// ErrInvalidResult: the result's _meta names a format but the result
	// does not hold it, or a binding key has a value of the wrong type
	// [MCP-7] [MCP-8].
	ErrInvalidResult = binding.ErrInvalidResult

	// ErrMismatch: the payload decodes to a value other than
	// structuredContent, or its total=/truncated= disagree with the
	// result's _meta [MCP-7] [MCP-8].
	ErrMismatch = binding.ErrMismatch
)

// plain returns the result as package binding sees it, which decides
// everything the binding does; this package only carries its decisions to
// and from the SDK's types.
func plain(r *mcp.CallToolResult) *binding.Result {
	p := &binding.Result{Content: make([]binding.Block, len(r.Content)), Structured: r.StructuredContent, IsError: r.IsError, Meta: r.Meta}
	for i, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			p.Content[i] = binding.Block{IsText: true, Text: t.Text}
		}
	}
	return p
}

// SetTruncation records in a tool result's _meta that the tool cut its
// list: total is how many results it found (a negative total is left out)
// and truncated whether it returned fewer [MCP-7]. A tool handler calls it
// on the result it returns; the server middleware carries it into a table
// payload's header.
func SetTruncation(res *mcp.CallToolResult, total int64, truncated bool) {
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	if total >= 0 {
		res.Meta[MetaTotal] = total
	}
	res.Meta[MetaTruncated] = truncated
}
