package main

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
)

// Source lines that use a symbol, for find_usages and search_code. A line
// is a statement form (an assignment, an if, a return, a defer ...) around
// a call of the symbol with arguments drawn from the names such code uses,
// indented as measured (see rates.go), so that lines differ as real call
// sites do.

var goReceivers = []string{"s", "st", "g", "idx", "w", "c", "srv", "p", "h", "m", "sess", "store", "graph", "ix", "cache", "b", "tx", "q"}

var goFieldPaths = []string{"", "", "", "", "s.store.", "h.graph.", "srv.sessions.", "p.idx.", "w.cache.", "c.deps.", "x.store.", "r.planner."}

var goArgs = []string{
	"ctx", "ctx", "ctx", "id", "ids", "n.ID", "req.Path", "path", "limit", "depth-1", "depth+1", "opts...", "q",
	"q.Filter", "nil", "true", "false", "0", "-1", "&buf", "buf[:n]", "time.Second", "5*time.Second", "fset",
	"pos", "kind", "KindMethod", "KindFunction", "tx", "w", "r", "len(nodes)", "cfg.Limit", "s.cfg.MaxDepth",
	"sess.ID()", "edge.From", "e.To", "node", "nodes[i]", "f.Name", "file.Path", "[]NodeID{a, b}", "batch",
	"filepath.Join(root, rel)", "strings.TrimSpace(line)", "hits[:limit]", "uint32(n)", "len(batch)", "mod.Path",
	"span.Start", "ev.Name", "opt", "t.TempDir()", "tc.in", "want", "\"internal/graph\"", "\"main\"", "\"callers\"",
	"\"%s: %w\"", "50", "512", "3", "1 << 20",
}

var goLHS = []string{
	"nodes, err", "n, err", "res, ok", "edges", "got", "v", "hits", "plan, err", "span, err", "_, err", "ok",
	"count", "sym", "out", "rows, err", "next", "ids", "b, err", "idx", "found",
}

var goLoopVars = []string{"n", "e", "id", "sym", "hit", "f", "edge", "node", "ref", "m"}

// goStatement returns one Go statement that uses call; test is true in a
// _test.go file.
func goStatement(r *rand.Rand, call string, test bool) string {
	if test && r.IntN(2) == 0 {
		switch r.IntN(5) {
		case 0:
			return fmt.Sprintf("require.NoError(t, %s)", call)
		case 1:
			return fmt.Sprintf("if got := %s; got != %s {", call, pick(r, []string{"want", "tc.want", "len(tc.ids)", "nil", "true"}))
		case 2:
			return fmt.Sprintf("got, err := %s", call)
		case 3:
			return fmt.Sprintf("if _, err := %s; err == nil {", call)
		default:
			return fmt.Sprintf("t.Cleanup(func() { %s })", call)
		}
	}
	x := pick(r, goLoopVars)
	switch r.IntN(17) {
	case 0, 1, 2:
		return fmt.Sprintf("%s := %s", pick(r, goLHS), call)
	case 3:
		return fmt.Sprintf("%s = %s", pick(r, goLHS), call)
	case 4, 5:
		return fmt.Sprintf("if err := %s; err != nil {", call)
	case 6:
		return fmt.Sprintf("if %s {", call)
	case 7:
		return fmt.Sprintf("if !%s {", call)
	case 8, 9:
		return "return " + call
	case 10:
		return "defer " + call
	case 11:
		return fmt.Sprintf("go func() { errs <- %s }()", call)
	case 12:
		return fmt.Sprintf("for _, %s := range %s {", x, call)
	case 13:
		return fmt.Sprintf("%ss = append(%ss, %s...)", x, x, call)
	case 14:
		return fmt.Sprintf("%s: %s,", pick(r, []string{"Nodes", "Edges", "Total", "Plan", "Span", "Next", "Hits"}), call)
	case 15:
		return fmt.Sprintf("log.Printf(\"%s: %%v\", %s)", pick(r, []string{"planner", "indexer", "store", "watch", "mcp"}), call)
	default:
		return call
	}
}

// goCall returns a call of target from a file of package pkg.
func goCall(r *rand.Rand, target symbol, pkg string) string {
	callee := target.name
	switch {
	case target.recv != "":
		if field := pick(r, goFieldPaths); field != "" {
			callee = field + target.name
		} else {
			callee = pick(r, goReceivers) + "." + target.name
		}
	case pkg != path.Base(path.Dir(target.file)):
		callee = path.Base(path.Dir(target.file)) + "." + target.name
	}
	n := pick(r, []int{0, 1, 1, 2, 2, 3, 4})
	args := make([]string, 0, n)
	if n > 0 && r.IntN(2) == 0 {
		args = append(args, "ctx")
	}
	for len(args) < n {
		a := pick(r, goArgs)
		if strings.HasSuffix(a, "...") && len(args) != n-1 {
			continue
		}
		args = append(args, a)
	}
	return callee + "(" + strings.Join(args, ", ") + ")"
}

var tsArgs = []string{
	"uri", "position", "{ query, limit: 20 }", "{ depth: 2, signal }", "signal", "node", "res.items", "options",
	"ctx", "token", "edges", "nodes.filter(isVisible)", "'callers'", "`${base}/v1/graphs`", "50", "true",
	"undefined", "props.symbolId", "selection.ids", "query.trim()", "{ retries: 3 }", "init", "[...ids]", "hit",
}

var tsReceivers = []string{"client", "this.client", "provider", "store", "transport", "sdk", "this.graph", "api", "ctx.client"}

// tsStatement returns one TypeScript statement that uses target.
func tsStatement(r *rand.Rand, target symbol, test bool) string {
	callee := target.name
	if target.recv != "" {
		callee = pick(r, tsReceivers) + "." + target.name
	}
	n := r.IntN(4)
	args := make([]string, 0, n)
	for len(args) < n {
		args = append(args, pick(r, tsArgs))
	}
	call := callee + "(" + strings.Join(args, ", ") + ")"
	if test && r.IntN(2) == 0 {
		return fmt.Sprintf("expect(await %s).%s;", call, pick(r, []string{"toMatchSnapshot()", "toEqual(expected)", "toHaveLength(3)", "toBeUndefined()"}))
	}
	x := pick(r, []string{"hits", "res", "graph", "nodes", "result", "data", "items", "next"})
	switch r.IntN(11) {
	case 0, 1:
		return fmt.Sprintf("const %s = await %s;", x, call)
	case 2:
		return fmt.Sprintf("return %s;", call)
	case 3:
		return "void " + call + ";"
	case 4:
		return fmt.Sprintf("if (!%s) {", call)
	case 5:
		return fmt.Sprintf("useEffect(() => { void %s; }, [%s]);", call, pick(r, []string{"uri", "uri, position", "query", "selection"}))
	case 6:
		return fmt.Sprintf(".then((%s) => %s)", x, call)
	case 7:
		return fmt.Sprintf("%s.push(...%s);", x, call)
	case 8:
		return fmt.Sprintf("const { data, error } = %s;", call)
	case 9:
		return fmt.Sprintf("import { %s, type %sOptions } from '%s';", target.name, pick(r, nouns), pick(r, []string{"@codegraph/sdk", "../client", "./graph", "@/lib/format"}))
	default:
		return call + ";"
	}
}

// indent returns the leading whitespace of a line at depth: tabs in Go,
// two spaces a level in TypeScript.
func indent(lang string, depth int) string {
	if lang == "go" {
		return strings.Repeat("\t", depth)
	}
	return strings.Repeat("  ", depth)
}

// usageLine returns a line of file that uses target, indented as measured.
func usageLine(r *rand.Rand, file string, target symbol) string {
	test := strings.HasSuffix(file, "_test.go") || strings.Contains(file, ".test.")
	if strings.HasSuffix(file, ".go") {
		pkg := path.Base(path.Dir(file))
		return indent("go", max(1, callIndent.draw(r))) + goStatement(r, goCall(r, target, pkg), test)
	}
	s := tsStatement(r, target, test)
	if strings.HasPrefix(s, "import") {
		return s
	}
	return indent("ts", max(1, callIndent.draw(r))) + s
}

// contextLine returns a line that stands next to a usage at depth: another
// call of something in the codebase, or one of the short lines that fill
// code.
func contextLine(r *rand.Rand, cb *codebase, file string, depth int) string {
	lang := "go"
	if !strings.HasSuffix(file, ".go") {
		lang = "ts"
	}
	if r.IntN(2) == 0 {
		var filler []string
		if lang == "go" {
			filler = []string{"}", "if err != nil {", "return err", "return nil, err", "", "continue", "defer cancel()",
				"mu.Lock()", "mu.Unlock()", "} else {", "default:", "break"}
		} else {
			filler = []string{"}", "});", "", "return;", "} catch (err) {", "try {", "break;", "} else {"}
		}
		return indent(lang, max(0, depth-1+r.IntN(3))) + pick(r, filler)
	}
	for {
		other := pick(r, cb.symbols)
		if (other.lang == "go") != (lang == "go") || (other.kind != "function" && other.kind != "method") {
			continue
		}
		if text := strings.TrimLeft(usageLine(r, file, other), "\t "); !strings.HasPrefix(text, "import") {
			return indent(lang, max(1, depth-1+r.IntN(3))) + text
		}
	}
}
