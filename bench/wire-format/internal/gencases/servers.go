package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// The fixtures of other common MCP servers: git, an issue tracker, a SQL
// database, chat, Kubernetes, metrics, a calendar and document search.

type person struct{ name, email, login string }

var people = []person{
	{"Zoë Åkesson", "zoe.akesson@example.se", "zoeak"},
	{"José Núñez", "jose@nunez.dev", "jnunez"},
	{"Łukasz Wójcik", "lukasz.wojcik@example.pl", "lwojcik"},
	{"Тимофей Смирнов", "t.smirnov@example.ru", "tsmirnov"},
	{"王芳", "wang.fang@example.cn", "wangfang"},
	{"Priya Raghunathan", "priya@example.in", "priyar"},
	{"Ngozi Okonkwo", "ngozi.okonkwo@example.ng", "nokonkwo"},
	{"Björn Þórsson", "bjorn@example.is", "bthorsson"},
	{"Alex Kim", "alex.kim@example.com", "alexkim"},
	{"Marie-Claire Dubois", "mc.dubois@example.fr", "mcdubois"},
	{"田中 太郎", "taro.tanaka@example.jp", "ttanaka"},
	{"dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", "dependabot[bot]"},
}

var commitSubjects = []string{
	"graph: batch edge inserts, drop per-row locks (#{n})",
	"indexer/typescript: resolve paths mappings with a trailing \"/*\"",
	"mcp: return truncated=true when a search hits its cap",
	"store/sqlite: use WAL mode; busy_timeout=5000",
	"planner: don't expand callers past depth 3 (was unbounded)",
	"fix(sdk): retry 429s with jitter, respect Retry-After",
	"dashboard: virtualise the results list (10k rows → 60 fps)",
	"build(deps): bump golang.org/x/tools from 0.{n}.0 to 0.{m}.1",
	"build(deps-dev): bump vite from 7.1.{n} to 7.2.0 in /web/dashboard",
	"watch: debounce fsnotify bursts, 50ms window",
	"docs: explain how find_usages ranks test files",
	"Revert \"graph: cache callee sets per session\"",
	"lsp: map UTF-16 columns correctly for astral characters (😀, 𝔘)",
	"wire: escape CR in values instead of dropping it",
	"chore: gofmt, go vet ./... clean",
}

var commitBodies = []string{
	"The old path took the store lock once per edge, so indexing a 40k-file\nrepo spent most of its time in sync.(*RWMutex).Lock. Insert in batches of\n512 under one lock instead.\n\nBefore: 48.2s, after: 11.9s on the kubernetes checkout.",
	"Fixes #{issue}.\n\nSigned-off-by: {name} <{email}>",
	"A search that returned exactly the cap looked complete to clients.\n\nCo-authored-by: {coname} <{coemail}>",
	"Bumps the minor version; see the changelog for details.\n\n---\nupdated-dependencies:\n- dependency-name: golang.org/x/tools\n  dependency-type: direct:production\n...",
}

func gitLog100(r *rand.Rand) fixture {
	t := time.Date(2026, 10, 30, 18, 4, 12, 0, time.FixedZone("", 2*3600))
	var rows []obj
	for range 100 {
		p := pick(r, people)
		n := 20 + r.IntN(80)
		co := pick(r, people[:11])
		fill := strings.NewReplacer(
			"{n}", fmt.Sprint(n), "{m}", fmt.Sprint(n+1), "{issue}", fmt.Sprint(100+r.IntN(400)),
			"{name}", p.name, "{email}", p.email, "{coname}", co.name, "{coemail}", co.email)
		msg := fill.Replace(pick(r, commitSubjects))
		if r.IntN(3) == 0 {
			msg += "\n\n" + fill.Replace(pick(r, commitBodies))
		}
		rows = append(rows, o(
			"hash", fmt.Sprintf("%016x%016x%08x", r.Uint64(), r.Uint64(), r.Uint32()),
			"author", p.name, "email", p.email,
			"date", t.Format(time.RFC3339), "message", msg))
		t = t.Add(-time.Duration(10+r.IntN(60*60*20)) * time.Second)
	}
	return fixture{
		Tool:        "git_log",
		Description: "git_log, 100 commits: 40-hex hashes, non-ASCII author names, RFC 3339 dates, messages with multi-line bodies",
		Response:    rows,
	}
}

var issueTitles = []string{
	"find_usages misses calls through an interface value",
	"Crash on startup: \"database is locked\" with two workspaces open",
	"TypeScript: `paths` aliases with wildcards resolve to the wrong file",
	"Dashboard freezes on graphs over 5k nodes",
	"Support Windows paths (C:\\Users\\…) in get_symbol_source",
	"search_symbols ranks test helpers above the real definition",
	"Feature request: filter analyze findings by severity",
	"get_callers returns duplicate edges for generic methods",
	"Index größer als 2 GB: Speicherverbrauch explodiert",
	"VS Code extension: hover shows stale signature after rename",
	"Docs: example for the MCP config in Claude Desktop is out of date",
	"Go 1.26: range-over-func iterators not recognised as callers",
}

var labelSets = [][]string{
	{"bug"}, {"bug", "indexer/typescript"}, {"enhancement"}, {"bug", "p1", "regression"},
	{"documentation"}, {}, {"performance", "dashboard"}, {"good first issue", "help wanted"},
	{"question"}, {"windows", "bug"},
}

var issueBodies = []string{
	"### What happened\n\nCalling `find_usages` on `Store.FindByKind` returns 3 sites; grep finds 11.\n\n### Version\n\nv0.14.2, macOS 15.1",
	"Steps:\n1. open two workspaces\n2. run `codegraphd index`\n3. see `database is locked (5) (SQLITE_BUSY)`",
	"```json\n{\"compilerOptions\": {\"paths\": {\"@app/*\": [\"src/*\"]}}}\n```\nresolves `@app/x` to `src/x/index.ts` instead of `src/x.ts`.",
	"Seit dem Update auf 0.15 braucht der Indexer für unser Monorepo über 9 GB RAM.",
	"",
	"Would be nice to have `severity>=warning` as a filter.\n\nThanks!",
}

func listIssues30(r *rand.Rand) fixture {
	t := time.Date(2026, 10, 29, 9, 15, 0, 0, time.UTC)
	var rows []obj
	for i := range 30 {
		p := pick(r, people[:11])
		var assignee any
		if r.IntN(2) == 0 {
			assignee = pick(r, people[:11]).login
		}
		state := "open"
		if r.IntN(4) == 0 {
			state = "closed"
		}
		created := t.Add(-time.Duration(r.IntN(90*24)) * time.Hour)
		updated := created.Add(time.Duration(r.IntN(72*60)) * time.Minute)
		rows = append(rows, o(
			"number", 512-i*3-r.IntN(3), "title", pick(r, issueTitles), "state", state,
			"user", p.login, "labels", append([]string{}, pick(r, labelSets)...),
			"assignee", assignee, "comments", r.IntN(25),
			"created_at", created.Format(time.RFC3339), "updated_at", updated.Format(time.RFC3339),
			"body", pick(r, issueBodies)))
	}
	return fixture{
		Tool:        "list_issues",
		Description: "list_issues from an issue tracker: 30 issues with a labels array per row, null assignees and markdown bodies",
		Response:    rows,
	}
}

var customers = []string{
	"Zoë Åkesson", "José Núñez", "Łukasz Wójcik", "Тимофей Смирнов", "王芳",
	"Priya Raghunathan", "Ngozi Okonkwo", "Björn Þórsson", "Alex Kim",
	"Marie-Claire Dubois", "田中 太郎", "Søren Kierkegaard-Møller", "Ayşe Yılmaz",
	"O'Brien & Sons Ltd.", "Müller, Hans", "Nguyễn Văn An",
}

var countries = []string{"SE", "ES", "PL", "RU", "CN", "IN", "NG", "IS", "US", "FR", "JP", "DK", "TR", "IE", "DE", "VN"}

func query200(r *rand.Rand) fixture {
	t := time.Date(2026, 10, 31, 23, 58, 41, 0, time.UTC)
	var rows []obj
	for i := range 200 {
		c := r.IntN(len(customers))
		status := pick(r, []string{"paid", "paid", "paid", "shipped", "shipped", "refunded", "pending"})
		var shipped, coupon any
		if status == "shipped" {
			shipped = t.Add(time.Duration(20+r.IntN(4000)) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		}
		if r.IntN(5) == 0 {
			coupon = pick(r, []string{"SPRING26", "WELCOME10", "BLACKFRIDAY", "VIP-2026"})
		}
		cents := 499 + r.IntN(60000)
		currency, total := "EUR", fmt.Sprintf("%d.%02d", cents/100, cents%100)
		switch countries[c] {
		case "US":
			currency = "USD"
		case "SE":
			currency = "SEK"
		case "JP":
			currency, total = "JPY", fmt.Sprint(cents)
		}
		rows = append(rows, o(
			"order_id", 884213-i*7-r.IntN(6), "customer_id", 10000+c*37,
			"customer_name", customers[c], "country", countries[c],
			"status", status, "items", 1+r.IntN(9),
			"total", total, "currency", currency,
			"coupon", coupon,
			"created_at", t.Format("2006-01-02T15:04:05.000Z"), "shipped_at", shipped))
		t = t.Add(-time.Duration(1+r.IntN(900)) * time.Second)
	}
	return fixture{
		Tool:        "query",
		Description: "SQL query over orders ⋈ customers: 200 rows, numeric totals as strings (as node-postgres returns them), nulls, timestamps, non-ASCII names",
		Response:    rows,
	}
}

func describeTable24(r *rand.Rand) fixture {
	cols := []struct {
		name, typ string
		null      bool
		def       any
		max       any
	}{
		{"id", "bigint", false, "nextval('orders_id_seq'::regclass)", nil},
		{"customer_id", "bigint", false, nil, nil},
		{"status", "USER-DEFINED", false, "'pending'::order_status", nil},
		{"currency", "character", false, "'EUR'::bpchar", 3},
		{"total", "numeric", false, "0.00", nil},
		{"tax", "numeric", true, nil, nil},
		{"items", "integer", false, "1", nil},
		{"coupon", "character varying", true, nil, 32},
		{"note", "text", true, nil, nil},
		{"shipping_address", "jsonb", true, "'{}'::jsonb", nil},
		{"billing_address", "jsonb", true, nil, nil},
		{"tags", "ARRAY", false, "'{}'::text[]", nil},
		{"created_at", "timestamp with time zone", false, "now()", nil},
		{"updated_at", "timestamp with time zone", false, "now()", nil},
		{"shipped_at", "timestamp with time zone", true, nil, nil},
		{"cancelled_at", "timestamp with time zone", true, nil, nil},
		{"refund_reason", "character varying", true, nil, 500},
		{"sales_channel", "character varying", false, "'web'::character varying", 16},
		{"external_ref", "uuid", true, "gen_random_uuid()", nil},
		{"weight_grams", "integer", true, nil, nil},
		{"is_gift", "boolean", false, "false", nil},
		{"gift_message", "text", true, nil, nil},
		{"search_vector", "tsvector", true, nil, nil},
		{"version", "integer", false, "1", nil},
	}
	var rows []obj
	for i, c := range cols {
		nullable := "NO"
		if c.null {
			nullable = "YES"
		}
		rows = append(rows, o(
			"column_name", c.name, "ordinal_position", i+1, "data_type", c.typ,
			"is_nullable", nullable, "column_default", c.def, "character_maximum_length", c.max))
	}
	return fixture{
		Tool:        "describe_table",
		Description: "describe_table (information_schema.columns) of an orders table: 24 columns, defaults with quotes, casts and parentheses",
		Response:    rows,
	}
}

var slackTexts = []string{
	"deploy of `codegraphd` v0.15.1 to eu-west-1 is done :rocket:",
	"<@U04QX1B2C> can you take a look at the flaky `TestWalkRecursive`? it failed 3/20 on CI",
	"Zusammenfassung vom Standup:\n• Indexer-Regression gefunden (paths mapping)\n• Dashboard-Freeze: Virtualisierung kommt morgen",
	"```\npanic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1029f3c]\n\ngoroutine 88 [running]:\ngithub.com/codegraph/codegraph/internal/graph.(*Store).FindByKind(...)\n```",
	"ok, merging after lunch 🍜",
	"今日のリリースノートを確認しました。問題ありません 👍",
	"Reminder: the on-call handover is at 17:00 CET, notes in the doc",
	"+1",
	"I measured it: 48.2s → 11.9s on the kubernetes checkout, 2 cores, warm cache",
	"Has anyone seen `SQLITE_BUSY` since we turned on WAL? @channel",
}

var slackReactions = []string{"+1", "eyes", "rocket", "white_check_mark", "tada", "pray", "joy"}

func slackHistory50(r *rand.Rand) fixture {
	ts := int64(1793519400)
	users := []struct{ id, name string }{
		{"U04QX1B2C", "zoe"}, {"U02AB9K7Q", "jose.nunez"}, {"U05LW8W1P", "łukasz"},
		{"U01T5M8RN", "timofey"}, {"U03WF0F9A", "wang.fang"}, {"U06PR4R2G", "priya"},
	}
	var rows []obj
	for range 50 {
		u := pick(r, users)
		row := o(
			"ts", fmt.Sprintf("%d.%06d", ts, r.IntN(1000000)), "user", u.id,
			"user_name", u.name, "text", pick(r, slackTexts))
		if r.IntN(4) == 0 {
			row = append(row, member{"thread_ts", fmt.Sprintf("%d.%06d", ts-int64(r.IntN(3000)), r.IntN(1000000))},
				member{"reply_count", 1 + r.IntN(12)})
		}
		if r.IntN(3) == 0 {
			var reactions []obj
			for _, name := range r.Perm(len(slackReactions))[:1+r.IntN(3)] {
				reactions = append(reactions, o("name", slackReactions[name], "count", 1+r.IntN(6)))
			}
			row = append(row, member{"reactions", reactions})
		}
		rows = append(rows, row)
		ts -= int64(30 + r.IntN(5400))
	}
	return fixture{
		Tool:        "slack_history",
		Description: "chat channel history: 50 messages with emoji, code blocks and non-ASCII text; thread and reaction keys only on some messages",
		Response:    rows,
	}
}

func listPods80(r *rand.Rand) fixture {
	apps := []string{"api-gateway", "codegraphd", "indexer-worker", "dashboard", "postgres", "redis", "otel-collector", "ingest"}
	nodes := []string{
		"ip-10-0-3-17.eu-west-1.compute.internal", "ip-10-0-7-201.eu-west-1.compute.internal",
		"ip-10-0-12-88.eu-west-1.compute.internal", "ip-10-0-14-5.eu-west-1.compute.internal",
	}
	const alnum = "bcdfghjklmnpqrstvwxz2456789"
	rnd := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
		}
		return string(b)
	}
	var rows []obj
	for range 80 {
		app := pick(r, apps)
		phase, ready, restarts := "Running", "1/1", 0
		if app == "api-gateway" || app == "codegraphd" {
			ready = "2/2"
		}
		switch r.IntN(12) {
		case 0:
			phase, ready, restarts = "CrashLoopBackOff", "0/1", 5+r.IntN(40)
		case 1:
			phase, ready = "Pending", "0/1"
		case 2:
			restarts = 1 + r.IntN(3)
		}
		var ip any = fmt.Sprintf("10.0.%d.%d", r.IntN(16), 2+r.IntN(250))
		if phase == "Pending" {
			ip = nil
		}
		rows = append(rows, o(
			"name", fmt.Sprintf("%s-%s-%s", app, rnd(9+r.IntN(2)), rnd(5)),
			"namespace", pick(r, []string{"prod", "prod", "staging", "observability"}),
			"phase", phase, "ready", ready, "restarts", restarts,
			"age", fmt.Sprintf("%dd%dh", r.IntN(40), r.IntN(24)),
			"node", pick(r, nodes), "ip", ip,
			"labels", o("app", app, "tier", pick(r, []string{"backend", "frontend", "data"}), "version", fmt.Sprintf("v0.%d.%d", 13+r.IntN(3), r.IntN(4)))))
	}
	return fixture{
		Tool:        "list_pods",
		Description: "Kubernetes list_pods: 80 pods with phase, readiness, restarts, node, a null IP while pending and a labels object per row",
		Response:    rows,
	}
}

func queryRange(r *rand.Rand) fixture {
	var series []obj
	for _, code := range []string{"200", "404", "429", "500"} {
		var values []any
		start := int64(1793512800)
		base := map[string]float64{"200": 1850, "404": 42, "429": 9, "500": 1.5}[code]
		for i := range 60 {
			v := base * (0.8 + 0.4*r.Float64())
			values = append(values, []any{start + int64(i*60), fmt.Sprintf("%.4g", v)})
		}
		series = append(series, o(
			"metric", o("__name__", "http_requests_total", "job", "codegraphd", "instance", "10.0.3.41:9090", "code", code),
			"values", values))
	}
	return fixture{
		Tool:        "query_range",
		Description: "Prometheus query_range: a matrix of 4 series × 60 [timestamp, \"value\"] pairs nested under status/data",
		Response:    o("status", "success", "data", o("resultType", "matrix", "result", series)),
	}
}

func listEvents12(r *rand.Rand) fixture {
	titles := []string{
		"Weekly sync – indexer team", "1:1 Zoë / José", "Incident review: SQLITE_BUSY",
		"Planning Q1 (Berlin, Raum „Spree“)", "Lunch & learn: tree-sitter queries",
		"面接: フロントエンド", "Release 0.16 go/no-go", "Dentist",
	}
	t := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	var rows []obj
	for range 12 {
		start := t.Add(time.Duration(r.IntN(5*24*4)) * 15 * time.Minute)
		attendees := []obj{} // [] when nobody is invited; a nil slice would be null
		for _, i := range r.Perm(len(people) - 1)[:r.IntN(5)] {
			attendees = append(attendees, o("email", people[i].email, "response", pick(r, []string{"accepted", "accepted", "tentative", "needsAction", "declined"})))
		}
		var location any
		if r.IntN(2) == 0 {
			location = pick(r, []string{"https://meet.example.com/abc-defg-hij", "Berlin HQ, 3. OG, Raum Spree", "Zoom"})
		}
		rows = append(rows, o(
			"id", fmt.Sprintf("%x", r.Uint64()), "summary", pick(r, titles),
			"start", start.Format(time.RFC3339), "end", start.Add(time.Duration(1+r.IntN(4))*30*time.Minute).Format(time.RFC3339),
			"location", location, "attendees", attendees))
	}
	return fixture{
		Tool:        "list_events",
		Description: "calendar list_events: 12 events, each with a nested attendees array of objects (sometimes empty) and a null location",
		Response:    rows,
	}
}

var docChunks = []string{
	"GCX-style formats work best when a response is a list of records of the same shape: the header names each column once and every row is one line.\n\nWhen the records nest, the saving shrinks.",
	"Der Indexer liest jede Datei genau einmal; Änderungen werden über fsnotify erkannt und in Stapeln von 512 Kanten geschrieben. Für Monorepos über 2 GB empfiehlt sich die SQLite-Variante mit WAL.",
	"Le planificateur de requêtes limite la profondeur des appelants à 3 par défaut ; au-delà, le graphe devient trop large pour être utile à un agent.",
	"インデックスの再構築は通常 10 秒以内に完了します。大規模なリポジトリでは --workers オプションで並列度を上げてください。",
	"To configure the server in an MCP client, add an entry under \"mcpServers\" with the command `codegraphd serve --stdio` and, optionally, the env var CODEGRAPH_CACHE_DIR.",
	"Troubleshooting: if `find_usages` returns fewer sites than grep, check that the files are not excluded by .codegraphignore;\ttabs in patterns are literal.",
}

func searchDocuments20(r *rand.Rand) fixture {
	sources := []string{
		"docs/architecture/indexer.md", "docs/guides/mcp-clients.md", "docs/faq.md",
		"docs/de/betrieb.md", "docs/fr/planificateur.md", "docs/ja/indexing.md",
		"https://wiki.example.com/display/ENG/Codegraph+Runbook",
	}
	var rows []obj
	score := 0.92
	for range 20 {
		rows = append(rows, o(
			"id", fmt.Sprintf("chunk_%05d", r.IntN(90000)), "score", num(fmt.Sprintf("%.4f", score)),
			"source", pick(r, sources), "title", pick(r, []string{"Indexing", "MCP clients", "FAQ", "Betrieb", "Planificateur", "インデックス", "Runbook"}),
			"text", pick(r, docChunks)))
		score -= 0.005 + 0.02*r.Float64()
	}
	return fixture{
		Tool:        "search_documents",
		Description: "vector search over docs: 20 scored chunks of prose in four languages, text-dominated",
		Response:    rows,
	}
}
