package main

import (
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strings"
)

// A codebase is the imaginary repository the code-intelligence fixtures
// describe: a Go server with a TypeScript SDK, dashboard and editor
// extension, in the layout such projects have. It is built from a random
// source, so each fixture gets the same kind of repository but its own
// details.
type codebase struct {
	symbols []symbol
	byFile  map[string][]int
	files   []string
}

type symbol struct {
	id, kind, name, file, lang, sig, recv string
	line, endLine                         int
}

var goDirs = []string{
	"internal/graph", "internal/graph/store", "internal/graph/store/sqlite",
	"internal/indexer", "internal/indexer/golang", "internal/indexer/typescript",
	"internal/indexer/typescript/resolver", "internal/mcp", "internal/mcp/tools",
	"internal/query", "internal/query/planner", "internal/lsp/protocol",
	"internal/watch", "pkg/wire", "cmd/codegraphd",
}

var goFileNames = []string{
	"store.go", "node.go", "edge.go", "resolver.go", "walker.go", "server.go",
	"session.go", "planner.go", "cache.go", "encode.go", "handlers.go",
	"tools_search.go", "tools_graph.go", "options.go", "errors.go", "index.go",
	"batch.go", "schema.go", "module_resolution.go", "symbol_table.go",
	"store_test.go", "walker_test.go",
}

var tsDirs = []string{
	"web/dashboard/src/features/call-graph/components",
	"web/dashboard/src/features/search/hooks",
	"web/dashboard/src/lib",
	"packages/sdk/src/client",
	"packages/sdk/src/client/transport",
	"packages/sdk/src/types",
	"extensions/vscode/src/providers",
}

var tsFileNames = []string{
	"CallGraphCanvas.tsx", "SearchResultList.tsx", "useSymbolSearch.ts",
	"client.ts", "streamableHttp.ts", "graph.ts", "hoverProvider.ts",
	"definitionProvider.ts", "retry.ts", "schema.ts", "index.ts", "format.ts",
}

var verbs = []string{
	"Find", "Resolve", "Index", "Parse", "Walk", "Load", "Store", "Encode",
	"Decode", "Flush", "Open", "Lookup", "Register", "Expand", "Merge",
	"Prune", "Collect", "Rank", "Build", "Invalidate",
}

var nouns = []string{
	"Symbol", "Node", "Edge", "Graph", "Module", "Package", "File", "Span",
	"Import", "Reference", "Callers", "Callees", "Cycle", "Finding",
	"Session", "Query", "Plan", "Snapshot", "Tool", "Batch",
}

var suffixes = []string{"", "", "", "s", "ByKind", "ByPath", "Range", "Locked", "Tx", "Recursive"}

var receivers = []string{
	"Store", "Graph", "Indexer", "Resolver", "Server", "Session", "Planner",
	"Walker", "Cache", "Encoder", "Registry", "Watcher",
}

var goParams = []string{
	"ctx context.Context", "id NodeID", "ids []NodeID", "kind NodeKind",
	"path string", "limit int", "offset int", "fn func(n *Node) bool",
	"filter map[string]string", "w io.Writer", "r io.Reader", "depth int",
	"edges []Edge", "since time.Time", "pattern *regexp.Regexp", "cfg *Config",
	"tx *sql.Tx", "buf []byte", "fset *token.FileSet", "pos token.Pos",
	"kinds ...NodeKind", "opts ...QueryOption",
}

var goResults = []string{
	"", "error", "(*Node, error)", "([]Edge, error)", "(int, bool)", "bool",
	"iter.Seq2[NodeID, *Node]", "(map[NodeID][]Edge, error)", "string",
	"([]*Symbol, int, error)", "*Plan", "(Span, error)",
}

var tsParams = []string{
	"uri: string", "position: Position", "options?: ResolveOptions",
	"signal?: AbortSignal", "nodes: readonly GraphNode[]",
	"filter: (n: GraphNode) => boolean", "limit = 50", "ctx: RequestContext",
	"edges: Map<string, Edge[]>", "query: SearchQuery",
	"init: Partial<ClientOptions> = {}", "token: CancellationToken",
}

var tsResults = []string{
	"Promise<SymbolHit[]>", "void", "boolean", "GraphNode | undefined",
	"Promise<Result<Index, IndexError>>", "string[]", "AsyncIterable<Chunk>",
	"Promise<void>", "JSX.Element", "Record<string, number>",
}

// newCodebase builds a repository of about files*10 symbols.
func newCodebase(r *rand.Rand, files int) *codebase {
	cb := &codebase{byFile: map[string][]int{}}
	seen := map[string]bool{}
	for len(cb.files) < files {
		var f string
		if r.IntN(3) == 0 {
			f = pick(r, tsDirs) + "/" + pick(r, tsFileNames)
		} else {
			f = pick(r, goDirs) + "/" + pick(r, goFileNames)
		}
		if seen[f] {
			continue
		}
		seen[f] = true
		cb.files = append(cb.files, f)
	}
	sort.Strings(cb.files)
	for _, f := range cb.files {
		line := 1 + r.IntN(30)
		for range 4 + r.IntN(13) {
			s := newSymbol(r, f, line)
			if seen[s.id] {
				continue
			}
			seen[s.id] = true
			cb.byFile[f] = append(cb.byFile[f], len(cb.symbols))
			cb.symbols = append(cb.symbols, s)
			line = s.endLine + 2 + r.IntN(12)
		}
	}
	return cb
}

func newSymbol(r *rand.Rand, file string, line int) symbol {
	s := symbol{file: file, line: line, lang: "go"}
	if strings.HasSuffix(file, ".ts") || strings.HasSuffix(file, ".tsx") {
		s.lang = "typescript"
	}
	noun := pick(r, nouns)
	switch s.lang {
	case "go":
		switch k := r.IntN(20); {
		case k < 9:
			s.kind = "method"
			s.recv = pick(r, receivers)
			s.name = pick(r, verbs) + noun + pick(r, suffixes)
			if r.IntN(4) == 0 {
				s.name = lowerFirst(s.name)
			}
			s.sig = fmt.Sprintf("func (%c *%s) %s(%s) %s", lowerByte(s.recv), s.recv, s.name, goParamList(r), pick(r, goResults))
		case k < 14:
			s.kind = "function"
			s.name = pick(r, verbs) + noun + pick(r, suffixes)
			if r.IntN(3) == 0 {
				s.name = lowerFirst(s.name)
			}
			if strings.HasSuffix(file, "_test.go") {
				s.name = "Test" + s.name
				s.sig = fmt.Sprintf("func %s(t *testing.T)", s.name)
			} else {
				s.sig = fmt.Sprintf("func %s(%s) %s", s.name, goParamList(r), pick(r, goResults))
			}
		case k < 16:
			s.kind = "struct"
			s.name = noun + pick(r, []string{"", "Options", "Index", "Set", "Builder", "Result"})
			s.sig = "type " + s.name + " struct"
		case k < 18:
			s.kind = "interface"
			s.name = noun + pick(r, []string{"er", "Source", "Sink", "Visitor", "Store"})
			s.sig = "type " + s.name + " interface"
		case k < 19:
			s.kind = "const"
			s.name = "Default" + noun + pick(r, []string{"Limit", "Depth", "TTL", "BatchSize"})
			s.sig = fmt.Sprintf("const %s = %d", s.name, 1<<(3+r.IntN(10)))
		default:
			s.kind = "var"
			s.name = "Err" + noun + pick(r, []string{"NotFound", "Closed", "TooLarge", "Conflict"})
			s.sig = fmt.Sprintf("var %s = errors.New(%q)", s.name, strings.ToLower(path.Base(path.Dir(file)))+": "+strings.ToLower(noun)+" "+splitCamel(strings.TrimPrefix(s.name, "Err"+noun)))
		}
	default:
		switch k := r.IntN(20); {
		case k < 8:
			s.kind = "function"
			s.name = lowerFirst(pick(r, verbs)) + noun + pick(r, suffixes)
			if strings.HasPrefix(path.Base(file), "use") {
				s.name = "use" + noun + pick(r, []string{"", "Search", "Query", "Graph"})
			}
			async := ""
			if r.IntN(2) == 0 {
				async = "async "
			}
			s.sig = fmt.Sprintf("export %sfunction %s(%s): %s", async, s.name, tsParamList(r), pick(r, tsResults))
		case k < 13:
			s.kind = "method"
			s.recv = noun + pick(r, []string{"Client", "Provider", "Store", "Transport"})
			s.name = lowerFirst(pick(r, verbs)) + pick(r, nouns) + pick(r, suffixes)
			s.sig = fmt.Sprintf("%s.%s(%s): %s", s.recv, s.name, tsParamList(r), pick(r, tsResults))
		case k < 15:
			s.kind = "class"
			s.name = noun + pick(r, []string{"Client", "Provider", "Store", "Transport", "Canvas"})
			s.sig = fmt.Sprintf("export class %s extends %s", s.name, pick(r, []string{"EventEmitter<ClientEvents>", "BaseProvider", "React.Component<Props, State>", "Disposable"}))
		case k < 17:
			s.kind = "interface"
			s.name = noun + pick(r, []string{"Options", "Hit", "Event", "Props", "State"})
			s.sig = "export interface " + s.name
		case k < 19:
			s.kind = "type"
			s.name = noun + pick(r, []string{"Kind", "Id", "Result", "Filter"})
			s.sig = fmt.Sprintf("export type %s = %s", s.name, pick(r, []string{
				`"function" | "method" | "class" | "interface"`,
				"string & { readonly __brand: unique symbol }",
				"{ ok: true; value: T } | { ok: false; error: E }",
				"Pick<GraphNode, \"id\" | \"kind\">",
			}))
		default:
			s.kind = "const"
			s.name = strings.ToUpper(splitCamelSep(noun, "_")) + "_" + pick(r, []string{"LIMIT", "TIMEOUT_MS", "KEYS"})
			s.sig = fmt.Sprintf("export const %s = %d", s.name, 10*(1+r.IntN(300)))
		}
	}
	s.endLine = s.line
	switch s.kind {
	case "function", "method", "struct", "interface", "class":
		s.endLine = s.line + 3 + r.IntN(60)
	}
	if s.recv != "" {
		s.id = s.file + "::" + s.recv + "." + s.name
	} else {
		s.id = s.file + "::" + s.name
	}
	return s
}

func goParamList(r *rand.Rand) string {
	n := r.IntN(4)
	ps := make([]string, 0, n)
	if n > 0 && r.IntN(2) == 0 {
		ps = append(ps, "ctx context.Context")
	}
	for len(ps) < n {
		p := pick(r, goParams)
		variadic := strings.Contains(p, " ...")
		if p == "ctx context.Context" || variadic && len(ps) != n-1 || slices.Contains(ps, p) {
			continue
		}
		ps = append(ps, p)
	}
	return strings.Join(ps, ", ")
}

func tsParamList(r *rand.Rand) string {
	n := r.IntN(4)
	ps := make([]string, 0, n)
	for len(ps) < n {
		p := pick(r, tsParams)
		if !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	return strings.Join(ps, ", ")
}

// sample returns n distinct symbols picked at random, in the order a ranked
// search would return them (the order drawn).
func (cb *codebase) sample(r *rand.Rand, n int, keep func(symbol) bool) []symbol {
	idx := r.Perm(len(cb.symbols))
	out := make([]symbol, 0, n)
	for _, i := range idx {
		if len(out) == n {
			break
		}
		if keep == nil || keep(cb.symbols[i]) {
			out = append(out, cb.symbols[i])
		}
	}
	return out
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func lowerByte(s string) byte { return strings.ToLower(s[:1])[0] }

// splitCamel turns "NotFound" into "not found".
func splitCamel(s string) string { return strings.ToLower(splitCamelSep(s, " ")) }

func splitCamelSep(s, sep string) string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 && c >= 'A' && c <= 'Z' {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// exported reports whether code outside the symbol's package or module can
// use it: a Go name with a capital, outside a command, or any TypeScript
// symbol (the generator writes them exported or as class members).
func exported(s symbol) bool {
	if s.lang != "go" {
		return true
	}
	return s.name[:1] == strings.ToUpper(s.name[:1]) && !strings.HasPrefix(s.file, "cmd/")
}

// visibleFrom returns the files that can use s: those of its language, and
// for an unexported Go symbol those of its package.
func (cb *codebase) visibleFrom(s symbol) []string {
	var files []string
	for _, f := range cb.files {
		goFile := strings.HasSuffix(f, ".go")
		switch {
		case goFile != (s.lang == "go"):
		case !exported(s) && path.Dir(f) != path.Dir(s.file):
		default:
			files = append(files, f)
		}
	}
	return files
}
