// Command mcpserver is an MCP server over stdio whose two tools answer from
// the Go source tree it indexes at start-up, and which speaks GCX1 to the
// clients that ask for it, by one middleware of package gcxmcp.
//
//	go run ./examples/mcpserver -root .            # index this repository
//	go run ./examples/mcpserver -root "$(go env GOROOT)/src/net/http"
//
// Tools, both read-only:
//
//	search_symbols {"query": "Decode", "limit": 20}  declarations whose name holds query
//	find_usages    {"name": "Decode", "limit": 20}   uses of an identifier
//
// Both return at most limit results (default 50) and say in the result's
// _meta how many they found and whether they cut [MCP-7]. Their results
// follow the frozen layouts of search_symbols and find_usages [LAY-6].
// Logs go to stderr; stdout is the protocol.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
)

// defaultLimit is how many results a tool returns when the call says not.
const defaultLimit = 50

type searchArgs struct {
	Query string `json:"query" jsonschema:"a part of the declared name, any case"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 50)"`
}

type usagesArgs struct {
	Name  string `json:"name" jsonschema:"the identifier, exactly"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 50)"`
}

func main() {
	root := flag.String("root", ".", "the directory of Go source to index")
	mode := flag.String("mode", string(gcxmcp.ModeAuto), "when to answer in GCX1: auto, gcx or off")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mcpserver: ")
	if err := run(context.Background(), *root, gcxmcp.Mode(*mode)); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, root string, mode gcxmcp.Mode) error {
	idx, err := buildIndex(root)
	if err != nil {
		return err
	}
	log.Printf("indexed %s: %s", root, idx)
	server, err := newServer(idx, mode)
	if err != nil {
		return err
	}
	return server.Run(ctx, &mcp.StdioTransport{})
}

// newServer builds the MCP server: two tools and the binding's middleware.
func newServer(idx *index, mode gcxmcp.Mode) (*mcp.Server, error) {
	caps := &mcp.ServerCapabilities{}
	gcxmcp.AdvertiseServer(caps)
	server := mcp.NewServer(&mcp.Implementation{Name: "gcx-mcp-example", Version: "v1"},
		&mcp.ServerOptions{Capabilities: caps})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}

	mcp.AddTool(server, &mcp.Tool{
		Name:        "search_symbols",
		Description: "Find Go declarations (functions, methods, types, vars, consts) whose name contains the query.",
		Annotations: readOnly,
	}, func(ctx context.Context, req *mcp.CallToolRequest, args searchArgs) (*mcp.CallToolResult, []Symbol, error) {
		if args.Query == "" {
			return nil, nil, fmt.Errorf("query is empty")
		}
		hits, total := idx.searchSymbols(args.Query, limitOf(args.Limit))
		res := &mcp.CallToolResult{}
		gcxmcp.SetTruncation(res, int64(total), total > len(hits))
		return res, hits, nil
	})

	mcp.AddTool(server, &mcp.Tool{
		Name:        "find_usages",
		Description: "Find the uses of a Go identifier: where it is called or referred to, and from which function.",
		Annotations: readOnly,
	}, func(ctx context.Context, req *mcp.CallToolRequest, args usagesArgs) (*mcp.CallToolResult, []Usage, error) {
		if args.Name == "" {
			return nil, nil, fmt.Errorf("name is empty")
		}
		hits, total := idx.findUsages(args.Name, limitOf(args.Limit))
		res := &mcp.CallToolResult{}
		gcxmcp.SetTruncation(res, int64(total), total > len(hits))
		return res, hits, nil
	})

	mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: mode})
	if err != nil {
		return nil, err
	}
	server.AddReceivingMiddleware(mw)
	return server, nil
}

func limitOf(n int) int {
	if n <= 0 {
		return defaultLimit
	}
	return n
}

func init() {
	// The protocol owns stdout; nothing else may write there.
	log.SetOutput(os.Stderr)
}
