package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Prose about the imaginary code-graph project, for commit messages,
// issues, chat and documentation. Sentences are put together from parts,
// so that every message is its own, as in a real project, while the
// vocabulary stays that of one project (which repeats words and names, not
// whole messages).

var components = []string{
	"the indexer", "the TypeScript resolver", "the Go walker", "the SQLite store", "the query planner",
	"the MCP server", "the session cache", "the file watcher", "the dashboard", "the SDK client",
	"the VS Code extension", "the call-graph view", "the edge writer", "the symbol table", "the ranking step",
	"the HTTP transport", "the stdio transport", "the snapshot loader", "the import graph", "the config loader",
	"the LSP bridge", "the batch writer", "the retry middleware", "the schema migrator",
}

var tools = []string{
	"find_usages", "search_symbols", "get_callers", "analyze", "find_cycles", "graph_stats",
	"get_symbol_source", "contracts", "dependencies",
}

var things = []string{
	"edges of generic methods", "paths aliases with wildcards", "stale snapshots", "UTF-16 columns",
	"symlinked directories", "vendored modules", "test helpers", "calls through interface values",
	"embedded structs", "re-exported symbols", "files over 1 MB", "empty packages", "build-tagged files",
	"cgo files", "anonymous functions", "method values", "type aliases", "default exports", "barrel files",
	"JSX components", "long signatures", "Windows paths", "non-ASCII identifiers", "deleted files",
	"renamed packages", "duplicate edges", "cyclic imports", "429 responses", "cancelled requests",
	"half-written WAL files", "generated protobuf code", "range-over-func iterators", "overloaded functions",
	"declaration merging", "workspace folders", "nested go.mod files", "init functions", "goroutine leaks",
	"unused parameters", "dangling references",
}

// verbForms are base form, third person and past tense.
var verbForms = [][3]string{
	{"skip", "skips", "skipped"}, {"drop", "drops", "dropped"}, {"resolve", "resolves", "resolved"},
	{"miss", "misses", "missed"}, {"count", "counts", "counted"}, {"cache", "caches", "cached"},
	{"rank", "ranks", "ranked"}, {"index", "indexes", "indexed"}, {"return", "returns", "returned"},
	{"retry", "retries", "retried"}, {"ignore", "ignores", "ignored"}, {"report", "reports", "reported"},
	{"merge", "merges", "merged"}, {"split", "splits", "split"}, {"load", "loads", "loaded"},
	{"reopen", "reopens", "reopened"}, {"lock", "locks", "locked"}, {"flush", "flushes", "flushed"},
	{"sort", "sorts", "sorted"}, {"truncate", "truncates", "truncated"}, {"walk", "walks", "walked"},
	{"dedupe", "dedupes", "deduped"}, {"follow", "follows", "followed"}, {"batch", "batches", "batched"},
}

var conditions = []string{
	"when two workspaces share one cache", "on Windows", "after a rename", "under -race",
	"when the index is cold", "if the client cancels mid-stream", "for monorepos over 2 GB",
	"with more than 10k files open", "when GOFLAGS sets -mod=vendor", "on the first request after start-up",
	"while a rebuild is running", "behind a corporate proxy", "when tsconfig extends another config",
	"in files with CRLF line endings", "at depth 3 and beyond", "when the disk is nearly full",
	"on macOS with case-insensitive paths", "after the watcher drops an event", "with a read-only cache directory",
	"when a module is replaced by a local path", "for repositories with submodules", "in a devcontainer",
}

var effects = []string{
	"the results list freezes", "callers show up twice", "the server holds the store lock for seconds",
	"memory grows without bound", "search ranks the test helper first", "the hover shows a stale signature",
	"the client retries forever", "the graph misses half its edges", "the tool reports truncated=false",
	"indexing takes minutes instead of seconds", "the dashboard shows an empty graph", "the process exits with SIGKILL",
	"get_callers returns nodes without edges", "the cache is rebuilt on every start", "CI times out after 10 minutes",
}

var repos = []string{"the kubernetes checkout", "our monorepo", "the Go tree", "a 40k-file TypeScript app", "the grafana repo", "the test corpus"}

// sentence returns one English sentence about the project.
func sentence(r *rand.Rand) string {
	v, v2 := pick(r, verbForms), pick(r, verbForms)
	comp, thing, cond := pick(r, components), pick(r, things), pick(r, conditions)
	var s string
	switch r.IntN(16) {
	case 0:
		s = fmt.Sprintf("%s %s %s %s.", comp, v[2], thing, cond)
	case 1:
		s = fmt.Sprintf("Before this change %s %s %s, so %s.", comp, v[2], thing, pick(r, effects))
	case 2:
		s = fmt.Sprintf("Now %s %s %s only %s.", comp, v[1], thing, cond)
	case 3:
		before := 2 + r.Float64()*60
		s = fmt.Sprintf("Measured on %s: %.1fs before, %.1fs after (%d cores, %s cache).", pick(r, repos), before, before*(0.1+0.6*r.Float64()), 2<<r.IntN(4), pick(r, []string{"warm", "cold"}))
	case 4:
		s = fmt.Sprintf("`%s` %s %s %s; %s.", pick(r, tools), v[2], thing, cond, pick(r, effects))
	case 5:
		s = fmt.Sprintf("See #%d for the report and #%d for the earlier attempt.", 100+r.IntN(1200), 100+r.IntN(1200))
	case 6:
		s = fmt.Sprintf("The fix is to %s %s in %s and %s %s later.", v[0], thing, strings.TrimPrefix(comp, "the "), v2[0], pick(r, things))
	case 7:
		s = fmt.Sprintf("%s, %s.", pick(r, effects), cond)
	case 8:
		s = fmt.Sprintf("We %s %s here because %s already %s them %s.", v[2], thing, comp, v2[1], cond)
	case 9:
		s = fmt.Sprintf("No behaviour change for %s or %s.", thing, pick(r, things))
	case 10:
		s = fmt.Sprintf("A new test covers %s %s.", thing, cond)
	case 11:
		s = fmt.Sprintf("%s now %s %s before it %s %s, which keeps %s from %s.", comp, v[1], thing, v2[1], pick(r, things), pick(r, tools), pick(r, []string{"timing out", "returning duplicates", "blocking the writer", "reading stale data", "losing edges"}))
	case 12:
		s = fmt.Sprintf("%s used to %s %s; it %s them now, %s.", comp, v[0], thing, v2[1], cond)
	case 13:
		s = fmt.Sprintf("This only matters %s, but there %s shows up in %d%% of the traces.", cond, pick(r, effects), 2+r.IntN(60))
	case 14:
		s = fmt.Sprintf("Reported by a user running v0.%d.%d: %s.", 10+r.IntN(8), r.IntN(6), pick(r, effects))
	default:
		s = fmt.Sprintf("Keep `%s` in mind: %s %s %s.", pick(r, tools), comp, v[1], thing)
	}
	return upperFirst(s)
}

// paragraph returns sentences until it is about n bytes long.
func paragraph(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() == 0 || b.Len() < n-20 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentence(r))
	}
	return b.String()
}

// wrap breaks text into lines of at most width bytes, as commit bodies are
// written.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		if col > 0 && col+1+len(w) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

var areas = []string{
	"graph", "indexer/typescript", "indexer/golang", "mcp", "store/sqlite", "planner", "watch", "lsp",
	"wire", "dashboard", "sdk", "extension", "cmd/codegraphd", "ci", "docs", "query", "internal/graph/store",
}

// commitSubject returns the first line of a commit message.
func commitSubject(r *rand.Rand) string {
	v, thing := pick(r, verbForms), pick(r, things)
	var s string
	switch r.IntN(7) {
	case 0, 1, 2:
		s = fmt.Sprintf("%s: %s %s", pick(r, areas), v[0], thing)
	case 3:
		s = fmt.Sprintf("%s: %s %s %s", pick(r, areas), v[0], thing, pick(r, conditions))
	case 4:
		s = fmt.Sprintf("%s: don't %s %s", pick(r, areas), v[0], thing)
	case 5:
		s = fmt.Sprintf("fix(%s): %s %s", pick(r, []string{"sdk", "dashboard", "extension"}), v[0], thing)
	default:
		s = fmt.Sprintf("%s %s in %s", upperFirst(v[0]), thing, pick(r, tools))
	}
	if r.IntN(2) == 0 {
		s += fmt.Sprintf(" (#%d)", 100+r.IntN(1200))
	}
	return s
}

// dependabotSubject is what the dependency bot writes.
func dependabotSubject(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		minor := 20 + r.IntN(20)
		return fmt.Sprintf("build(deps): bump %s from 0.%d.%d to 0.%d.0", pick(r, goModules), minor, r.IntN(4), minor+1)
	}
	minor := r.IntN(12)
	return fmt.Sprintf("build(deps-dev): bump %s from %d.%d.%d to %d.%d.0 in /web/dashboard", pick(r, npmPackages), 1+r.IntN(8), minor, r.IntN(9), 1+r.IntN(8), minor+1)
}

// commitBody returns a body of about n bytes, wrapped, in paragraphs, with
// the trailers projects add.
func commitBody(r *rand.Rand, n int, author, coauthor person) string {
	return closest(4, n, func() string { return commitBodyOnce(r, n, author, coauthor) })
}

func commitBodyOnce(r *rand.Rand, n int, author, coauthor person) string {
	if n < 60 {
		// Short bodies are a reference or a trailer.
		switch r.IntN(4) {
		case 0:
			return fmt.Sprintf("Fixes #%d.", 100+r.IntN(1200))
		case 1:
			return fmt.Sprintf("Follow-up to #%d.", 100+r.IntN(1200))
		case 2:
			return fmt.Sprintf("Signed-off-by: %s <%s>", author.name, author.email)
		default:
			return fmt.Sprintf("Co-authored-by: %s <%s>", coauthor.name, coauthor.email)
		}
	}
	var paras []string
	size := 0
	for size == 0 || size < n-30 {
		p := wrap(paragraph(r, min(n-size, 120+r.IntN(300))), 72)
		paras = append(paras, p)
		size += len(p) + 2
	}
	var trailers []string
	if r.IntN(6) == 0 {
		trailers = append(trailers, fmt.Sprintf("Fixes #%d", 100+r.IntN(1200)))
	}
	if r.IntN(8) == 0 {
		trailers = append(trailers, fmt.Sprintf("Co-authored-by: %s <%s>", coauthor.name, coauthor.email))
	}
	if r.IntN(5) == 0 {
		trailers = append(trailers, fmt.Sprintf("Signed-off-by: %s <%s>", author.name, author.email))
	}
	if len(trailers) > 0 {
		paras = append(paras, strings.Join(trailers, "\n"))
	}
	return strings.Join(paras, "\n\n")
}

// issueTitle returns an issue's title.
func issueTitle(r *rand.Rand) string {
	v, thing, tool := pick(r, verbForms), pick(r, things), pick(r, tools)
	switch r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s %s %s", tool, v[1], thing)
	case 1:
		return fmt.Sprintf("%s %s %s %s", tool, v[1], thing, pick(r, conditions))
	case 2:
		return fmt.Sprintf("Crash %s: %q", pick(r, conditions), pick(r, []string{"database is locked", "nil pointer dereference", "too many open files", "context deadline exceeded", "invalid UTF-8"}))
	case 3:
		return fmt.Sprintf("Feature request: %s %s in %s", v[0], thing, tool)
	case 4:
		return upperFirst(fmt.Sprintf("%s: %s %s", strings.TrimPrefix(pick(r, components), "the "), pick(r, effects), pick(r, conditions)))
	case 5:
		return fmt.Sprintf("Support %s in %s", thing, tool)
	case 6:
		return upperFirst(fmt.Sprintf("%s %s", pick(r, effects), pick(r, conditions)))
	case 7:
		return fmt.Sprintf("Docs: explain how %s %s %s", tool, v[1], thing)
	default:
		return fmt.Sprintf("%s: %s bei %s", tool, pick(r, []string{"Absturz", "falsche Ergebnisse", "hoher Speicherverbrauch", "doppelte Kanten"}), pick(r, []string{"Windows-Pfaden", "großen Monorepos", "Symlinks", "generischen Methoden"}))
	}
}

// issueBody returns an issue's Markdown body of about n bytes.
func issueBody(r *rand.Rand, n int) string {
	return closest(4, n, func() string { return issueBodyOnce(r, n) })
}

func issueBodyOnce(r *rand.Rand, n int) string {
	switch r.IntN(3) {
	case 0:
		version := fmt.Sprintf("v0.%d.%d, %s", 10+r.IntN(8), r.IntN(6), pick(r, []string{"macOS 15.1", "Ubuntu 24.04", "Windows 11", "Debian 13 (WSL2)", "Fedora 42"}))
		return fmt.Sprintf("### What happened\n\n%s\n\n### Expected\n\n%s\n\n### Version\n\n%s", paragraph(r, max(n-90, 40)), sentence(r), version)
	case 1:
		var steps []string
		for i := range 2 + r.IntN(3) {
			steps = append(steps, fmt.Sprintf("%d. %s", i+1, strings.TrimSuffix(sentence(r), ".")))
		}
		return "Steps:\n" + strings.Join(steps, "\n") + "\n\n" + paragraph(r, max(n-200, 30))
	default:
		return paragraph(r, n)
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Chat: what a team channel holds. The acknowledgements repeat (rates.go);
// everything else is written once.

var chatAcks = []string{"+1", "thanks!", "lgtm", "ty", "on it", "👍", "done", "ack", "merged"}

var services = []string{"codegraphd", "indexer-worker", "api-gateway", "dashboard", "ingest"}

var regions = []string{"eu-west-1", "eu-central-1", "us-east-2", "ap-northeast-1"}

var errorTexts = []string{
	"SQLITE_BUSY", "context deadline exceeded", "too many open files", "connection reset by peer",
	"429 Too Many Requests", "invalid UTF-8 in identifier", "database disk image is malformed",
}

var standupItemsDE = []string{
	"Indexer-Regression gefunden (%s)", "Dashboard-Freeze: Virtualisierung kommt %s", "Review für #%d offen",
	"Benchmarks auf %s laufen", "Release 0.%d verschoben auf %s", "Flaky Test in %s gefixt",
}

var deFillers = []string{"paths mapping", "morgen", "Donnerstag", "dem Go-Tree", "der Staging-Umgebung", "store/sqlite", "watch"}

var jaSubjects = []string{"今日のリリースノート", "昨日のデプロイ", "インデックスの再構築", "新しいダッシュボード", "検索の順位付け"}

var jaResults = []string{"問題ありません", "少し遅いです", "修正が必要です", "完了しました", "明日もう一度確認します"}

// chatMessage returns one message of a team channel.
func chatMessage(r *rand.Rand) string {
	switch r.IntN(12) {
	case 0:
		return fmt.Sprintf("deploy of `%s` v0.%d.%d to %s is done :rocket:", pick(r, services), 13+r.IntN(4), r.IntN(6), pick(r, regions))
	case 1:
		return fmt.Sprintf("<@U0%dQX%dB2C> can you take a look at %s %s? %s", 1+r.IntN(6), r.IntN(10), pick(r, things), pick(r, conditions), upperFirst(pick(r, effects)))
	case 2:
		before := 5 + r.Float64()*60
		return fmt.Sprintf("I measured it: %.1fs → %.1fs on %s, %d cores, %s cache", before, before*(0.1+0.6*r.Float64()), pick(r, repos), 2<<r.IntN(4), pick(r, []string{"warm", "cold"}))
	case 3:
		return fmt.Sprintf("Has anyone seen `%s` %s? @channel", pick(r, errorTexts), pick(r, conditions))
	case 4:
		var items []string
		for range 2 + r.IntN(2) {
			item := pick(r, standupItemsDE)
			switch strings.Count(item, "%") {
			case 1:
				if strings.Contains(item, "%d") {
					item = fmt.Sprintf(item, 100+r.IntN(900))
				} else {
					item = fmt.Sprintf(item, pick(r, deFillers))
				}
			case 2:
				item = fmt.Sprintf(item, 14+r.IntN(4), pick(r, deFillers))
			}
			items = append(items, "• "+item)
		}
		return "Zusammenfassung vom Standup:\n" + strings.Join(items, "\n")
	case 5:
		return strings.TrimSpace(fmt.Sprintf("%sを確認しました。%s %s", pick(r, jaSubjects), pick(r, jaResults), pick(r, []string{"👍", "🙏", "", "🎉"})))
	case 6:
		v := pick(r, verbForms)
		return fmt.Sprintf("```\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x%x pc=0x%x]\n\ngoroutine %d [running]:\ngithub.com/codegraph/codegraph/internal/%s.(*%s).%s%s(...)\n```",
			r.IntN(0x100), 0x1000000+r.IntN(0x1000000), 1+r.IntN(400), pick(r, []string{"graph", "indexer", "query", "mcp"}), pick(r, receivers), upperFirst(v[0]), pick(r, nouns))
	case 7:
		return strings.TrimSpace(fmt.Sprintf("ok, merging #%d after %s %s", 100+r.IntN(1200), pick(r, []string{"lunch", "the standup", "CI is green", "the release"}), pick(r, []string{"🍜", "", "🚀", "✅"})))
	case 8, 9:
		return sentence(r)
	default:
		return sentence(r) + " " + sentence(r)
	}
}

// Documentation chunks, in the four languages the imaginary docs are
// written in.

var envVars = []string{"CODEGRAPH_CACHE_DIR", "CODEGRAPH_WORKERS", "CODEGRAPH_MAX_DEPTH", "CODEGRAPH_LOG", "CODEGRAPH_IGNORE"}

var cliFlags = []string{"--workers", "--max-depth", "--no-watch", "--cache-dir", "--stdio", "--read-only", "--include-tests"}

// docSentence returns one sentence of English documentation.
func docSentence(r *rand.Rand) string {
	v, thing, comp := pick(r, verbForms), pick(r, things), pick(r, components)
	switch r.IntN(8) {
	case 0:
		return upperFirst(fmt.Sprintf("%s %s %s %s.", comp, v[1], thing, pick(r, conditions)))
	case 1:
		return fmt.Sprintf("Set `%s` to `%s` to %s %s.", pick(r, envVars), pick(r, []string{"1", "0", "8", "/var/cache/codegraph", "debug", "off"}), v[0], thing)
	case 2:
		return upperFirst(fmt.Sprintf("by default %s %s %s; pass `%s` to change this.", comp, v[1], thing, pick(r, cliFlags)))
	case 3:
		return fmt.Sprintf("`%s` returns at most %d results; ask for the next page with the `cursor` it returns.", pick(r, tools), 50*(1+r.IntN(10)))
	case 4:
		return fmt.Sprintf("If %s %s, check that %s are not excluded by `.codegraphignore`.", pick(r, effects), pick(r, conditions), thing)
	case 5:
		return fmt.Sprintf("To use the server from an MCP client, add an entry under \"mcpServers\" with the command `codegraphd serve %s`.", pick(r, cliFlags))
	case 6:
		return upperFirst(fmt.Sprintf("%s keeps %s in %s, so that %s can answer without a rebuild.", comp, thing, pick(r, []string{"memory", "the SQLite file", "a per-session cache", "the snapshot"}), pick(r, tools)))
	default:
		return upperFirst(fmt.Sprintf("%s does not %s %s; use `%s` instead.", pick(r, tools), v[0], thing, pick(r, tools)))
	}
}

var deSubjects = []string{"Der Indexer", "Der Planer", "Die SQLite-Variante", "Der Watcher", "Der Server", "Der Resolver"}
var deVerbs = []string{"liest", "schreibt", "prüft", "ignoriert", "sortiert", "zählt"}
var deObjects = []string{"jede Datei", "alle Kanten", "den Cache", "die Symboltabelle", "verwaiste Knoten", "generierte Dateien"}
var deWhen = []string{"genau einmal", "in Stapeln von %d", "beim Start", "nach jeder Änderung", "nur bei Bedarf", "alle %d Sekunden"}

var frSubjects = []string{"Le planificateur", "L'indexeur", "Le serveur", "Le cache", "Le résolveur"}
var frVerbs = []string{"limite", "lit", "trie", "ignore", "regroupe", "invalide"}
var frObjects = []string{"la profondeur des appelants", "chaque fichier", "les arêtes en double", "les fichiers générés", "les symboles exportés"}
var frWhen = []string{"à %d par défaut", "une seule fois", "au démarrage", "après chaque modification", "par lots de %d"}

var jaTopics = []string{"インデックスの再構築", "検索", "呼び出しグラフの計算", "キャッシュの更新", "依存関係の解析"}
var jaPredicates = []string{"は通常 %d 秒以内に完了します", "はファイル数に比例して遅くなります", "は並列に実行されます", "は %d 件ごとに保存されます"}
var jaAdvice = []string{"大規模なリポジトリでは --workers オプションで並列度を上げてください", "Windows ではパスの大文字と小文字に注意してください", "初回起動時は数分かかることがあります", "キャッシュは別のディスクに置くことを勧めます"}

func fill(r *rand.Rand, s string) string {
	if strings.Contains(s, "%d") {
		return fmt.Sprintf(s, 2+r.IntN(500))
	}
	return s
}

// docParagraph returns a paragraph of about n bytes in lang ("en", "de",
// "fr" or "ja").
func docParagraph(r *rand.Rand, lang string, n int) string {
	var b strings.Builder
	for b.Len() == 0 || b.Len() < n-20 {
		if b.Len() > 0 && lang != "ja" {
			b.WriteByte(' ')
		}
		switch lang {
		case "de":
			fmt.Fprintf(&b, "%s %s %s %s.", pick(r, deSubjects), pick(r, deVerbs), pick(r, deObjects), fill(r, pick(r, deWhen)))
		case "fr":
			fmt.Fprintf(&b, "%s %s %s %s.", pick(r, frSubjects), pick(r, frVerbs), pick(r, frObjects), fill(r, pick(r, frWhen)))
		case "ja":
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "%s%s。", pick(r, jaTopics), fill(r, pick(r, jaPredicates)))
			} else {
				fmt.Fprintf(&b, "%s。", pick(r, jaAdvice))
			}
		default:
			b.WriteString(docSentence(r))
		}
	}
	return b.String()
}
