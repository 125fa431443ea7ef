package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The code-intelligence fixtures: what a code-graph MCP server returns for
// symbol search, usages, call graphs, findings and contracts.

func symbolRow(s symbol) obj {
	return o("id", s.id, "kind", s.kind, "name", s.name, "file_path", s.file, "start_line", s.line, "signature", s.sig)
}

// searchSymbols returns the generator of a search_symbols result: hits
// ranked hits drawn from a codebase of files files.
func searchSymbols(files, hits int, description string) func(r *rand.Rand) fixture {
	return func(r *rand.Rand) fixture {
		cb := newCodebase(r, files)
		var rows []obj
		for _, s := range cb.sample(r, hits, nil) {
			rows = append(rows, symbolRow(s))
		}
		return fixture{Tool: "search_symbols", Description: description, Response: rows}
	}
}

func usageKind(line string, target symbol) string {
	switch {
	case strings.HasPrefix(strings.TrimSpace(line), "import"):
		return "import"
	case !strings.Contains(line, target.name+"("):
		return "reference"
	default:
		return "call"
	}
}

// usageRows returns n sites that use target: the line alone, or with the
// line before and after it (context). Lines and snippets repeat at the
// rates measured on the Go tree (see rates.go), no more.
func usageRows(r *rand.Rand, cb *codebase, target symbol, n int, context bool) []obj {
	var rows []obj
	used := map[string]bool{}
	files := cb.visibleFrom(target)
	repeat := callLineRepeat
	if context {
		repeat = callSnippetRepeat
	}
	// A line repeats within its language.
	snippetsOf := map[bool]*texts{true: newTexts(repeat), false: newTexts(repeat)}
	for len(rows) < n {
		f := pick(r, files)
		syms := cb.byFile[f]
		if len(syms) == 0 {
			continue
		}
		encl := cb.symbols[pick(r, syms)]
		line := encl.line + 1 + r.IntN(encl.endLine-encl.line+1)
		key := fmt.Sprint(f, line)
		if used[key] {
			continue
		}
		used[key] = true
		snippet := snippetsOf[strings.HasSuffix(f, ".go")].next(r, func() string {
			text := usageLine(r, f, target)
			if !context {
				return text
			}
			depth := len(text) - len(strings.TrimLeft(text, "\t "))
			if !strings.HasSuffix(f, ".go") {
				depth /= 2
			}
			return lines(contextLine(r, cb, f, depth), text, contextLine(r, cb, f, depth))
		})
		text := snippet
		if context {
			text = strings.Split(snippet, "\n")[1]
		}
		col := strings.Index(text, target.name) + 1
		rows = append(rows, o(
			"file_path", f, "line", line, "column", col, "kind", usageKind(text, target),
			"caller", encl.id, "snippet", snippet))
	}
	return rows
}

func findUsages25(r *rand.Rand) fixture {
	cb := newCodebase(r, 40)
	target := cb.sample(r, 1, func(s symbol) bool { return s.kind == "method" && exported(s) })[0]
	return fixture{
		Tool:        "find_usages",
		Description: "find_usages of one method: 25 sites, each with a three-line snippet keeping its tabs and newlines",
		Response:    usageRows(r, cb, target, 25, true),
	}
}

func findUsages300(r *rand.Rand) fixture {
	cb := newCodebase(r, 90)
	target := cb.sample(r, 1, func(s symbol) bool { return s.kind == "function" && s.lang == "go" && exported(s) })[0]
	return fixture{
		Tool:        "find_usages",
		Description: "find_usages of a widely used function: 300 sites with the one source line each (file_path, line, column, kind, caller, snippet)",
		Response:    usageRows(r, cb, target, 300, false),
	}
}

func getCallers150(r *rand.Rand) fixture {
	cb := newCodebase(r, 70)
	callable := func(s symbol) bool { return s.kind == "function" || s.kind == "method" }
	picked := cb.sample(r, 71, callable)
	root, level1, level2 := picked[0], picked[1:21], picked[21:]
	node := func(s symbol, depth int) obj {
		return o("id", s.id, "kind", s.kind, "name", s.name, "file_path", s.file, "start_line", s.line, "depth", depth)
	}
	nodes := []obj{node(root, 0)}
	for _, s := range level1 {
		nodes = append(nodes, node(s, 1))
	}
	for _, s := range level2 {
		nodes = append(nodes, node(s, 2))
	}
	var edges []obj
	seen := map[string]bool{}
	add := func(from, to symbol) {
		line := from.line + 1 + r.IntN(from.endLine-from.line+1)
		key := fmt.Sprint(from.id, to.id, line)
		if seen[key] {
			return
		}
		seen[key] = true
		kind := "calls"
		if r.IntN(8) == 0 {
			kind = "references"
		}
		edges = append(edges, o("from", from.id, "to", to.id, "kind", kind, "line", line))
	}
	for _, s := range level1 {
		add(s, root)
	}
	for _, s := range level2 {
		add(s, pick(r, level1))
	}
	for len(edges) < 150 {
		if r.IntN(3) == 0 {
			add(pick(r, level1), root)
		} else {
			add(pick(r, level2), pick(r, level1))
		}
	}
	return fixture{
		Tool:        "get_callers",
		Description: "get_callers, depth 2: a call graph as 71 nodes and 150 edges (two arrays of objects in one object)",
		Response:    o("nodes", nodes, "edges", edges),
	}
}

type rule struct {
	id, severity, lang, message, suggestion string
}

// rules are lint and analysis findings; %[1]s is the symbol's name, %[2]d a
// number.
var rules = []rule{
	{"errcheck", "warning", "go", "error return value of `%[1]s` is not checked", "handle the error or assign it to _ with a comment saying why"},
	{"gocyclo", "info", "go", "cyclomatic complexity %[2]d of func `%[1]s` is high (> 15)", ""},
	{"nilness", "error", "go", "possible nil pointer dereference of `n.Parent` in `%[1]s` (assigned nil at line %[2]d)", ""},
	{"revive:exported", "info", "go", "exported method `%[1]s` should have a comment or be unexported", "add a doc comment starting with \"%[1]s \""},
	{"unparam", "info", "go", "`%[1]s` - `opts` is unused", ""},
	{"staticcheck:SA4006", "warning", "go", "this value of `err` is never used (in `%[1]s`)", ""},
	{"gosec:G304", "warning", "go", "potential file inclusion via variable: os.ReadFile(path) in `%[1]s`", "clean the path with filepath.Clean and check it stays under the root"},
	{"copylocks", "error", "go", "`%[1]s` passes lock by value: graph.Store contains sync.RWMutex", "take a *Store receiver"},
	{"@typescript-eslint/no-floating-promises", "error", "typescript", "Promises must be awaited, end with a call to .catch, or be returned (in `%[1]s`).", "add `void` or `await` before the call"},
	{"@typescript-eslint/no-explicit-any", "warning", "typescript", "Unexpected any in `%[1]s`. Specify a different type.", ""},
	{"ts(18048)", "error", "typescript", "'res.items' is possibly 'undefined'. (in `%[1]s`, %[2]d references)", ""},
	{"react-hooks/exhaustive-deps", "warning", "typescript", "React Hook useEffect has a missing dependency: 'signal'. Either include it or remove the dependency array. (`%[1]s`)", ""},
}

func analyze40(r *rand.Rand) fixture {
	cb := newCodebase(r, 50)
	var rows []obj
	for _, s := range cb.sample(r, 40, nil) {
		var candidates []rule
		for _, ru := range rules {
			if ru.lang == s.lang {
				candidates = append(candidates, ru)
			}
		}
		ru := pick(r, candidates)
		line := s.line + r.IntN(s.endLine-s.line+1)
		row := o(
			"rule", ru.id, "severity", ru.severity, "file_path", s.file,
			"line", line, "column", 1+r.IntN(40), "symbol", s.id,
			"message", fmt.Sprintf(ru.message, s.name, 16+r.IntN(30)))
		if ru.suggestion != "" {
			// Only some suggestions name the symbol: Sprintf would append
			// the unused argument as "%!(EXTRA ...)" to the others.
			row = append(row, member{"suggestion", strings.ReplaceAll(ru.suggestion, "%[1]s", s.name)})
		}
		rows = append(rows, row)
	}
	return fixture{
		Tool:        "analyze",
		Description: "analyze from a richer analyzer than the frozen layout (adds column, and suggestion on some findings): 40 findings",
		Response:    rows,
	}
}

func contracts30(r *rand.Rand) fixture {
	cb := newCodebase(r, 40)
	resources := []string{"repos", "symbols", "graphs", "sessions", "findings", "snapshots"}
	var rows []obj
	for len(rows) < 30 {
		h := cb.sample(r, 1, func(s symbol) bool { return s.kind == "method" && s.lang == "go" })[0]
		res := pick(r, resources)
		singular := strings.TrimSuffix(res, "s")
		typ := strings.ToUpper(singular[:1]) + singular[1:]
		var kind, name string
		var req, resp any
		switch r.IntN(5) {
		case 0, 1:
			kind = "http"
			method := pick(r, []string{"GET", "GET", "POST", "PUT", "DELETE"})
			name = fmt.Sprintf("%s /v1/%s/{owner}/{repo}", method, res)
			if r.IntN(2) == 0 {
				name += "/{" + singular + "_id}"
			}
			resp = "*" + typ + "Response"
			if method != "GET" && method != "DELETE" {
				req = typ + "Request"
			}
		case 2, 3:
			kind = "grpc"
			name = fmt.Sprintf("codegraph.v1.%sService/%s", typ, pick(r, []string{"Get", "List", "Watch", "Create"})+typ+pick(r, []string{"", "s"}))
			req, resp = "*pb."+typ+"Request", "*pb."+typ+"Response"
			if strings.Contains(name, "Watch") {
				resp = "stream *pb." + typ + "Event"
			}
		default:
			kind = "event"
			name = fmt.Sprintf("%s.%s", singular, pick(r, []string{"indexed", "updated", "deleted", "stale"}))
			req = "events.Envelope[" + typ + "Event]"
		}
		rows = append(rows, o(
			"kind", kind, "name", name, "handler", h.id, "request", req,
			"response", resp, "file_path", h.file, "line", h.line))
	}
	return fixture{
		Tool:        "contracts",
		Description: "contracts: 30 HTTP routes, gRPC methods and events with handler, request and response types (null where none)",
		Response:    rows,
	}
}

// goModules and npmPackages are real package names, to make the dependency
// list read like one.
var goModules = []string{
	"github.com/google/go-cmp", "golang.org/x/sync", "golang.org/x/tools",
	"golang.org/x/mod", "golang.org/x/exp", "github.com/mattn/go-sqlite3",
	"modernc.org/sqlite", "github.com/fsnotify/fsnotify", "github.com/spf13/cobra",
	"github.com/spf13/pflag", "github.com/prometheus/client_golang",
	"go.opentelemetry.io/otel", "go.opentelemetry.io/otel/trace",
	"google.golang.org/grpc", "google.golang.org/protobuf",
	"github.com/smacker/go-tree-sitter", "github.com/pkoukk/tiktoken-go",
	"github.com/dlclark/regexp2", "github.com/cespare/xxhash/v2",
	"github.com/klauspost/compress", "pgregory.net/rapid", "github.com/stretchr/testify",
	"github.com/davecgh/go-spew", "gopkg.in/yaml.v3", "github.com/BurntSushi/toml",
	"github.com/modelcontextprotocol/go-sdk", "github.com/google/uuid",
	"github.com/hashicorp/golang-lru/v2", "golang.org/x/sys", "golang.org/x/text",
}

var npmPackages = []string{
	"react", "react-dom", "@types/react", "@types/node", "typescript", "vite",
	"vitest", "@vitejs/plugin-react", "zod", "@tanstack/react-query",
	"d3-force", "@types/d3-force", "eslint", "@typescript-eslint/parser",
	"@typescript-eslint/eslint-plugin", "prettier", "vscode-languageclient",
	"@types/vscode", "@modelcontextprotocol/sdk", "undici", "tsup", "esbuild",
	"clsx", "tailwindcss", "postcss", "autoprefixer", "@playwright/test",
	"msw", "lru-cache", "p-retry", "eventsource-parser", "picocolors",
}

var licenses = []string{"MIT", "MIT", "MIT", "Apache-2.0", "Apache-2.0", "BSD-3-Clause", "ISC", "MPL-2.0", "BSD-2-Clause"}

func dependencies120(r *rand.Rand) fixture {
	var rows []obj
	seen := map[string]bool{}
	for len(rows) < 120 {
		eco := "go"
		name := pick(r, goModules)
		if r.IntN(2) == 0 {
			eco = "npm"
			name = pick(r, npmPackages)
		}
		// A workspace pulls the same package at more than one version.
		version := fmt.Sprintf("%d.%d.%d", r.IntN(4), r.IntN(30), r.IntN(12))
		if eco == "go" {
			version = "v" + version
			if r.IntN(6) == 0 {
				version = fmt.Sprintf("v0.0.0-2026%02d%02d%06d-%012x", 1+r.IntN(10), 1+r.IntN(28), r.IntN(240000), r.Uint64()&0xffffffffffff)
			}
		}
		if seen[name+version] {
			continue
		}
		seen[name+version] = true
		usedBy := 1 + r.IntN(40)
		var via any
		direct := r.IntN(3) == 0
		if !direct {
			if eco == "go" {
				via = pick(r, goModules)
			} else {
				via = pick(r, npmPackages)
			}
		}
		rows = append(rows, o(
			"name", name, "version", version, "ecosystem", eco, "direct", direct,
			"license", pick(r, licenses), "required_by", via, "used_by_files", usedBy))
	}
	return fixture{
		Tool:        "dependencies",
		Description: "dependencies of a Go + npm monorepo: 120 resolved modules with version, license, direct flag and who requires them",
		Response:    rows,
	}
}

func searchCode40(r *rand.Rand) fixture {
	cb := newCodebase(r, 50)
	target := cb.sample(r, 1, func(s symbol) bool { return s.kind == "method" && s.lang == "go" && exported(s) })[0]
	var rows []obj
	for _, u := range usageRows(r, cb, target, 40, false) {
		rows = append(rows, o("path", u[0].val, "line_number", u[1].val, "line", u[5].val))
	}
	return fixture{
		Tool:        "search_code",
		Description: "search_code (grep-like): 40 matching lines as path, line_number and the raw line with its indentation",
		Response:    rows,
	}
}

func listDirectory1(r *rand.Rand) fixture {
	return fixture{
		Tool:        "list_directory",
		Description: "list_directory of a folder holding a single file: one entry",
		Response: []obj{o(
			"name", "doc.go", "path", "internal/indexer/typescript/resolver/testdata/paths-mapping/doc.go",
			"type", "file", "size", 412, "modified", "2026-09-30T14:02:11Z")},
	}
}

func listDirectory64(r *rand.Rand) fixture {
	dir := "web/dashboard/src/features/call-graph/components"
	stems := []string{
		"CallGraphCanvas", "CallGraphLegend", "CallGraphToolbar", "EdgeLabel",
		"NodeBadge", "NodeTooltip", "DepthSlider", "KindFilter", "MiniMap",
		"ZoomControls", "SelectionPanel", "PathHighlighter", "ExportMenu",
		"LayoutWorker", "ForceLayout", "HierarchyLayout", "EmptyState",
		"ErrorBoundary", "useGraphData", "useViewport", "useSelection",
	}
	mtime := func() string {
		return fmt.Sprintf("2026-%02d-%02dT%02d:%02d:%02dZ", 6+r.IntN(5), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60))
	}
	names := []string{"index.ts"}
	for _, stem := range stems {
		if strings.HasPrefix(stem, "use") {
			names = append(names, stem+".ts", stem+".test.ts")
		} else {
			names = append(names, stem+".tsx", stem+".test.tsx", stem+".module.css")
		}
	}
	var rows []obj
	for _, name := range names {
		rows = append(rows, o(
			"name", name, "path", dir+"/"+name, "type", "file",
			"size", 300+r.IntN(14000), "modified", mtime()))
	}
	for _, d := range []string{"__snapshots__", "icons", "workers"} {
		rows = append(rows, o("name", d, "path", dir+"/"+d, "type", "directory", "size", 4096, "modified", mtime()))
	}
	return fixture{
		Tool:        "list_directory",
		Description: "list_directory of a deep front-end folder: 64 entries with full path, type, size and mtime",
		Response:    rows,
	}
}
