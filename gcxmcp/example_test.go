package gcxmcp_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
)

// A server adopts GCX1 with one middleware, a client with one call helper.
// README.md shows the body of this function; its test checks the two stay
// the same.
func Example() {
	run := func(ctx context.Context, server *mcp.Server, session *mcp.ClientSession, args map[string]any) error {
		mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: gcxmcp.ModeAuto})
		server.AddReceivingMiddleware(mw)

		r, err := gcxmcp.CallTool(ctx, session, &mcp.CallToolParams{Name: "search_symbols", Arguments: args}, nil)
		// r.Value: the JSON value, checked against structuredContent; r.Total, r.Truncated: what the tool cut

		if err != nil {
			return err
		}
		fmt.Println(r.Format, len(r.Value) > 0)
		return nil
	}
	_ = run
	// Output:
}
