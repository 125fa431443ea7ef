// Command mcpserver is an MCP server whose two tools answer from the Go
// source tree it indexes at start-up, and which speaks GCX1 to the clients
// that ask for it, by one middleware of package gcxmcp. It serves stdio, or
// Streamable HTTP with -http.
//
//	go run ./examples/mcpserver -root .            # index this repository
//	go run ./examples/mcpserver -root "$(go env GOROOT)/src/net/http"
//	go run ./examples/mcpserver -http 127.0.0.1:8080   # POST http://127.0.0.1:8080/mcp
//
// Tools, both read-only:
//
//	search_symbols {"query": "Decode", "limit": 20}  declarations whose name holds query
//	find_usages    {"name": "Decode", "limit": 20}   uses of an identifier
//
// Both return at most limit results (default 50), as an object that holds
// the list and says how many there were and whether the list was cut:
// {"symbols": [...], "total": N, "truncated": B} and {"usages": [...],
// "total": N, "truncated": B}. MCP up to 2025-11-25 types structuredContent
// as an object and outputSchema as type "object"; stock clients (the
// TypeScript SDK, the Inspector) reject a bare array. The same counts are in
// the result's _meta [MCP-7]. The rows follow the frozen layouts of
// search_symbols and find_usages [LAY-6]. Logs go to stderr; on stdio,
// stdout is the protocol.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/gcxmcp"
	"github.com/gcxwire/gcx/spec"
)

// defaultLimit is how many results a tool returns when the call says not.
const defaultLimit = 50

// httpPath is where -http serves the MCP endpoint.
const httpPath = "/mcp"

type searchArgs struct {
	Query string `json:"query" jsonschema:"a part of the declared name, any case"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 50)"`
}

type usagesArgs struct {
	Name  string `json:"name" jsonschema:"the identifier, exactly"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 50)"`
}

// symbolsResult is search_symbols' answer. The members are in the order a
// reader wants them, and the wire keeps it (see addTool).
type symbolsResult struct {
	Symbols   []Symbol `json:"symbols" jsonschema:"the declarations found, exact names first, at most limit"`
	Total     int      `json:"total" jsonschema:"how many declarations match"`
	Truncated bool     `json:"truncated" jsonschema:"whether symbols holds fewer than total"`
}

// usagesResult is find_usages' answer.
type usagesResult struct {
	Usages    []Usage `json:"usages" jsonschema:"the uses found, in file order, at most limit"`
	Total     int     `json:"total" jsonschema:"how many uses there are"`
	Truncated bool    `json:"truncated" jsonschema:"whether usages holds fewer than total"`
}

func main() {
	root := flag.String("root", ".", "the directory of Go source to index")
	mode := flag.String("mode", string(gcxmcp.ModeAuto), "when to answer in GCX1: auto, gcx or off")
	addr := flag.String("http", "", "serve Streamable HTTP at `ADDR` (host:port; port 0 picks one) on path "+httpPath+", instead of stdio")
	offer := flag.String("offer", spec.Version, "the version `TAGS` the server writes, most preferred first, comma-separated: GCX1 and drafts on trial such as "+codec.Draft2Tag+", each written only to a client that accepts it")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mcpserver: ")
	if err := run(context.Background(), *root, gcxmcp.Mode(*mode), *addr, strings.Split(*offer, ",")); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, root string, mode gcxmcp.Mode, addr string, offer []string) error {
	idx, err := buildIndex(root)
	if err != nil {
		return err
	}
	log.Printf("indexed %s: %s", root, idx)
	server, err := newServer(idx, mode, offer...)
	if err != nil {
		return err
	}
	if addr == "" {
		return server.Run(ctx, &mcp.StdioTransport{})
	}
	return serveHTTP(addr, server)
}

// serveHTTP serves the server over Streamable HTTP, one session per client
// as the SDK's handler keeps them. It logs the address it listens on, so
// that a caller that asked for port 0 learns the port.
func serveHTTP(addr string, server *mcp.Server) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(httpPath, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	log.Printf("serving Streamable HTTP at http://%s%s", ln.Addr(), httpPath)
	// A client that never finishes its headers must not hold a connection.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}

// newServer builds the MCP server: two tools and the binding's middleware,
// writing the tags of offer (none: GCX1) to the clients that accept them.
// It offers them in its capabilities only when it may write them: in mode
// off it answers every call in JSON, and offers nothing [MCP-2].
func newServer(idx *index, mode gcxmcp.Mode, offer ...string) (*mcp.Server, error) {
	opts := gcxmcp.ServerOptions{Mode: mode, Offer: offer}
	mw, err := gcxmcp.ServerMiddleware(opts)
	if err != nil {
		return nil, err
	}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	if err := gcxmcp.Advertise(caps, opts); err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "gcx-mcp-example", Version: "v1"},
		&mcp.ServerOptions{Capabilities: caps})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}

	err = addTool(server, &mcp.Tool{
		Name: "search_symbols",
		Description: "Find Go declarations (functions, methods, types, vars, consts) whose name contains the query. " +
			`Returns {"symbols": [...], "total": N, "truncated": B}: at most limit declarations, exact names first; ` +
			"total counts every match and truncated says whether the list was cut. " +
			"A client that opts in to GCX1 reads the text block as a GCX1 table.",
		Annotations: readOnly,
	}, func(ctx context.Context, args searchArgs) (*mcp.CallToolResult, symbolsResult, error) {
		if args.Query == "" {
			return nil, symbolsResult{}, fmt.Errorf("query is empty")
		}
		hits, total := idx.searchSymbols(args.Query, limitOf(args.Limit))
		res := &mcp.CallToolResult{}
		gcxmcp.SetTruncation(res, int64(total), total > len(hits))
		return res, symbolsResult{Symbols: hits, Total: total, Truncated: total > len(hits)}, nil
	})
	if err != nil {
		return nil, err
	}

	err = addTool(server, &mcp.Tool{
		Name: "find_usages",
		Description: "Find the uses of a Go identifier: where it is called or referred to, and from which function. " +
			`Returns {"usages": [...], "total": N, "truncated": B}: at most limit uses, in file order; ` +
			"total counts every use and truncated says whether the list was cut. " +
			"A client that opts in to GCX1 reads the text block as a GCX1 table.",
		Annotations: readOnly,
	}, func(ctx context.Context, args usagesArgs) (*mcp.CallToolResult, usagesResult, error) {
		if args.Name == "" {
			return nil, usagesResult{}, fmt.Errorf("name is empty")
		}
		hits, total := idx.findUsages(args.Name, limitOf(args.Limit))
		res := &mcp.CallToolResult{}
		gcxmcp.SetTruncation(res, int64(total), total > len(hits))
		return res, usagesResult{Usages: hits, Total: total, Truncated: total > len(hits)}, nil
	})
	if err != nil {
		return nil, err
	}

	server.AddReceivingMiddleware(mw)
	return server, nil
}

// addTool adds a tool whose arguments are an In and whose answer is an
// Out, both objects, with the schemas inferred from them.
//
// It stands in for mcp.AddTool because of member order. The Go SDK (v1.8.0)
// validates an object output by decoding it into map[string]any and
// encoding that again, which sorts the members by name, at every depth,
// even for a handler that returns json.RawMessage with an explicit
// outputSchema. A reader, a model above all, takes a result's members in
// the order the tool declares them (the list first, the identifier first
// in each row); so this handler encodes Out once, with encoding/json, which
// keeps the struct's order, and sends those same bytes as structuredContent
// and as the text block. The output needs no validation: it is an Out, and
// the schema is Out's.
func addTool[In, Out any](server *mcp.Server, tool *mcp.Tool, handle func(context.Context, In) (*mcp.CallToolResult, Out, error)) error {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		return fmt.Errorf("%s: input schema: %w", tool.Name, err)
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		return fmt.Errorf("%s: output schema: %w", tool.Name, err)
	}
	if in.Type != "object" || out.Type != "object" {
		return fmt.Errorf("%s: arguments and result must be objects, not %q and %q", tool.Name, in.Type, out.Type)
	}
	listsNeverNull(out)
	inResolved, err := in.Resolve(nil)
	if err != nil {
		return fmt.Errorf("%s: input schema: %w", tool.Name, err)
	}
	t := *tool
	t.InputSchema, t.OutputSchema = in, out
	server.AddTool(&t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := decodeArgs[In](inResolved, req.Params.Arguments)
		if err != nil {
			return toolError(err), nil
		}
		res, value, err := handle(ctx, args)
		if err != nil {
			return toolError(err), nil
		}
		b, err := encodeResult(value)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding the result: %w", tool.Name, err)
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		res.StructuredContent = json.RawMessage(b)
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		return res, nil
	})
	return nil
}

// encodeResult returns the compact JSON of a tool's answer, in the order
// of its struct's fields. It leaves <, > and & as they are: a snippet of Go
// source holds them often, and \u0026 costs a model more than & does.
func encodeResult(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeArgs checks a call's arguments against the input schema and
// decodes them; absent arguments are an empty object.
func decodeArgs[In any](schema *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var args In
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	var generic map[string]any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return args, fmt.Errorf("arguments: %w", err)
	}
	if err := schema.Validate(&generic); err != nil {
		return args, fmt.Errorf("arguments: %w", err)
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return args, fmt.Errorf("arguments: %w", err)
	}
	return args, nil
}

// toolError is a tool's failure as MCP reports it: a result with isError,
// which the binding leaves alone [MCP-5].
func toolError(err error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	res.SetError(err)
	return res
}

// listsNeverNull declares the object's list members as arrays: the
// inference allows null for a Go slice, and these tools never send one.
func listsNeverNull(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" && p.Types[1] == "array" {
			p.Types, p.Type = nil, "array"
		}
	}
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
