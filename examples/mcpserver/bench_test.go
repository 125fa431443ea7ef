package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gcxwire/gcx/gcxmcp"
)

// BenchmarkTools sets the binding's cost beside the tools' own, on this
// repository's index: "handler" is what a tool computes (the search and
// the JSON of its answer, the object that wraps the list), "middleware-gcx" and "middleware-auto" the
// server middleware on that answer, and "call-json", "call-gcx" and
// "call-auto" whole calls between an SDK client and this server on
// in-memory transports, without and with the opt-in.
func BenchmarkTools(b *testing.B) {
	idx, err := buildIndex(repoRoot)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tools := []struct {
		name    string
		args    map[string]any
		compute func() any
	}{
		{"search_symbols", map[string]any{"query": "Decode", "limit": 50}, func() any {
			hits, total := idx.searchSymbols("Decode", 50)
			return symbolsResult{Symbols: hits, Total: total, Truncated: total > len(hits)}
		}},
		{"find_usages", map[string]any{"name": "Errorf", "limit": 50}, func() any {
			hits, total := idx.findUsages("Errorf", 50)
			return usagesResult{Usages: hits, Total: total, Truncated: total > len(hits)}
		}},
	}
	sessions := map[gcxmcp.Mode]*mcp.ClientSession{}
	for _, mode := range []gcxmcp.Mode{gcxmcp.ModeGCX, gcxmcp.ModeAuto} {
		server, err := newServer(idx, mode)
		if err != nil {
			b.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		sessions[mode] = cs
	}
	for _, tool := range tools {
		answer, err := encodeResult(tool.compute())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tool.name+"/handler", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := encodeResult(tool.compute()); err != nil {
					b.Fatal(err)
				}
			}
		})
		next := func(context.Context, string, mcp.Request) (mcp.Result, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(answer)}},
				StructuredContent: json.RawMessage(answer),
			}, nil
		}
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool.name, Meta: mcp.Meta{gcxmcp.MetaAccept: []any{"GCX1"}}}}
		for _, mode := range []gcxmcp.Mode{gcxmcp.ModeGCX, gcxmcp.ModeAuto} {
			mw, err := gcxmcp.ServerMiddleware(gcxmcp.ServerOptions{Mode: mode})
			if err != nil {
				b.Fatal(err)
			}
			handler := mw(next)
			b.Run(tool.name+"/middleware-"+string(mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := handler(ctx, "tools/call", req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		params := &mcp.CallToolParams{Name: tool.name, Arguments: tool.args}
		b.Run(tool.name+"/call-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sessions[gcxmcp.ModeGCX].CallTool(ctx, params); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, mode := range []gcxmcp.Mode{gcxmcp.ModeGCX, gcxmcp.ModeAuto} {
			b.Run(tool.name+"/call-"+string(mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := gcxmcp.CallTool(ctx, sessions[mode], params, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
