// Package gcxmcp puts GCX1 between an MCP server and client built with the
// official Go SDK (github.com/modelcontextprotocol/go-sdk), as chapter 15 of
// docs/wire-format.md specifies.
//
// A server adopts it with one receiving middleware:
//
//	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeAuto})
//	...
//	server.AddReceivingMiddleware(mw)
//
// For every tools/call whose client asked for a tag the server writes
// [MCP-2] [MCP-3] [MCP-4], the middleware replaces the text block that holds
// the result's JSON with the GCX1 payload of the same value and names the
// format in the result's _meta [MCP-6]; structuredContent stays JSON.
// Error results, results without JSON and calls that did not opt in pass
// through untouched [MCP-5].
//
// A client adopts it with one call helper, CallTool, or with the sending
// middleware ClientMiddleware. Both ask for GCX1 on each call, read the
// payload back to its JSON value and check it against structuredContent
// [MCP-8], and re-issue a call as JSON when the payload has a version this
// client cannot read — only for tools annotated read-only or idempotent
// [MCP-9]. The GCX1 text stays in the result's content, because the point
// is that the model reads it; ReadResult gives a program the JSON value.
//
// A tool that cut its list says so in the result's _meta (SetTruncation);
// the server repeats it as total= and truncated= in a table payload's
// header, where the model sees it, and the client surfaces it [MCP-7].
//
// Every decision is package gcxmcp/binding's, which knows no SDK type; this
// package carries its decisions to and from the SDK. gcx conformance runs
// the same decisions on the binding's vectors (conformance/vectors/mcp)
// without linking the SDK, and this package's tests hold the middlewares,
// over in-memory sessions too, to the same vectors.
package gcxmcp
