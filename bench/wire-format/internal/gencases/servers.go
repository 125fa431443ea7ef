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

// commitMessage returns a whole commit message by author: subject and body
// as long as measured (see rates.go), or what the dependency bot writes.
// earlier holds the subjects written so far, for the odd revert.
func commitMessage(r *rand.Rand, author, coauthor person, earlier []string) string {
	if strings.HasPrefix(author.login, "dependabot") {
		subject := dependabotSubject(r)
		name := strings.Fields(subject)[2]
		return fmt.Sprintf("%s\n\nBumps %s from %s to %s.\n\n---\nupdated-dependencies:\n- dependency-name: %s\n  dependency-type: direct:production\n...\n\nSigned-off-by: %s <%s>",
			subject, name, strings.Fields(subject)[4], strings.Fields(subject)[6], name, author.name, author.email)
	}
	if len(earlier) > 0 && r.IntN(40) == 0 {
		return fmt.Sprintf("Revert %q\n\nThis reverts commit %016x%016x%08x.", pick(r, earlier), r.Uint64(), r.Uint64(), r.Uint32())
	}
	msg := closest(6, commitSubjectBytes.draw(r), func() string { return commitSubject(r) })
	if r.Float64() < commitBodyShare {
		msg += "\n\n" + commitBody(r, commitBodyBytes.draw(r), author, coauthor)
	}
	return msg
}

func gitLog100(r *rand.Rand) fixture {
	t := time.Date(2026, 10, 30, 18, 4, 12, 0, time.FixedZone("", 2*3600))
	var rows []obj
	messages := newTexts(0) // a git log repeats no message (rates.go)
	var subjects []string
	for range 100 {
		p := pick(r, people)
		co := pick(r, people[:11])
		msg := messages.next(r, func() string { return commitMessage(r, p, co, subjects) })
		subjects = append(subjects, strings.SplitN(msg, "\n", 2)[0])
		rows = append(rows, o(
			"hash", fmt.Sprintf("%016x%016x%08x", r.Uint64(), r.Uint64(), r.Uint32()),
			"author", p.name, "email", p.email,
			"date", t.Format(time.RFC3339), "message", msg))
		t = t.Add(-time.Duration(10+r.IntN(60*60*20)) * time.Second)
	}
	return fixture{
		Tool:        "git_log",
		Description: "git_log, 100 commits: 40-hex hashes, non-ASCII author names, RFC 3339 dates, distinct messages as long as real ones, most with multi-line bodies",
		Response:    rows,
	}
}

var labelSets = [][]string{
	{"bug"}, {"bug", "indexer/typescript"}, {"enhancement"}, {"bug", "p1", "regression"},
	{"documentation"}, {}, {"performance", "dashboard"}, {"good first issue", "help wanted"},
	{"question"}, {"windows", "bug"},
}

func listIssues30(r *rand.Rand) fixture {
	t := time.Date(2026, 10, 29, 9, 15, 0, 0, time.UTC)
	var rows []obj
	titles, bodies := newTexts(0), newTexts(0) // every issue is its own (rates.go)
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
		body := ""
		if r.Float64() >= issueNoBodyShare {
			body = bodies.next(r, func() string { return issueBody(r, commitBodyBytes.draw(r)) })
		}
		created := t.Add(-time.Duration(r.IntN(90*24)) * time.Hour)
		updated := created.Add(time.Duration(r.IntN(72*60)) * time.Minute)
		rows = append(rows, o(
			"number", 512-i*3-r.IntN(3), "title", titles.next(r, func() string {
				return closest(6, commitSubjectBytes.draw(r), func() string { return issueTitle(r) })
			}), "state", state,
			"user", p.login, "labels", append([]string{}, pick(r, labelSets)...),
			"assignee", assignee, "comments", r.IntN(25),
			"created_at", created.Format(time.RFC3339), "updated_at", updated.Format(time.RFC3339),
			"body", body))
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

var slackReactions = []string{"+1", "eyes", "rocket", "white_check_mark", "tada", "pray", "joy"}

func slackHistory50(r *rand.Rand) fixture {
	ts := int64(1793519400)
	users := []struct{ id, name string }{
		{"U04QX1B2C", "zoe"}, {"U02AB9K7Q", "jose.nunez"}, {"U05LW8W1P", "łukasz"},
		{"U01T5M8RN", "timofey"}, {"U03WF0F9A", "wang.fang"}, {"U06PR4R2G", "priya"},
	}
	var rows []obj
	messages := newTexts(0)
	for range 50 {
		u := pick(r, users)
		// The acknowledgements repeat; every other message is written once
		// (rates.go).
		text := pick(r, chatAcks)
		if r.Float64() >= chatAckShare {
			text = messages.next(r, func() string { return chatMessage(r) })
		}
		row := o(
			"ts", fmt.Sprintf("%d.%06d", ts, r.IntN(1000000)), "user", u.id,
			"user_name", u.name, "text", text)
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
	// A week of a calendar: the daily standup recurs under one title, and
	// the other events are each their own.
	title := func() string {
		a, b := pick(r, people[:11]), pick(r, people[:11])
		switch r.IntN(8) {
		case 0:
			return fmt.Sprintf("1:1 %s / %s", strings.Fields(a.name)[0], strings.Fields(b.name)[0])
		case 1:
			return fmt.Sprintf("Incident review: %s", pick(r, errorTexts))
		case 2:
			return fmt.Sprintf("Planning Q%d (%s)", 1+r.IntN(4), pick(r, []string{"Berlin, Raum „Spree“", "Lisboa", "remote", "Kraków, sala 2"}))
		case 3:
			return fmt.Sprintf("Lunch & learn: %s", pick(r, things))
		case 4:
			return fmt.Sprintf("面接: %s", pick(r, []string{"フロントエンド", "バックエンド", "SRE", "デザイナー"}))
		case 5:
			return fmt.Sprintf("Release 0.%d go/no-go", 14+r.IntN(4))
		case 6:
			return fmt.Sprintf("Design review: %s %s", strings.TrimPrefix(pick(r, components), "the "), pick(r, []string{"rewrite", "v2", "caching", "limits"}))
		default:
			return pick(r, []string{"Dentist", "Focus time", "Offsite prep", "Customer call: " + pick(r, []string{"Acme", "Globex", "Initech"})})
		}
	}
	summaries := newTexts(0)
	t := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	var rows []obj
	for range 12 {
		start := t.Add(time.Duration(r.IntN(5*24*4)) * 15 * time.Minute)
		summary := "Daily standup – indexer team"
		if r.IntN(4) != 0 {
			summary = summaries.next(r, title)
		}
		attendees := []obj{} // [] when nobody is invited; a nil slice would be null
		for _, i := range r.Perm(len(people) - 1)[:r.IntN(5)] {
			attendees = append(attendees, o("email", people[i].email, "response", pick(r, []string{"accepted", "accepted", "tentative", "needsAction", "declined"})))
		}
		var location any
		if r.IntN(2) == 0 {
			location = pick(r, []string{"https://meet.example.com/abc-defg-hij", "Berlin HQ, 3. OG, Raum Spree", "Zoom"})
		}
		rows = append(rows, o(
			"id", fmt.Sprintf("%x", r.Uint64()), "summary", summary,
			"start", start.Format(time.RFC3339), "end", start.Add(time.Duration(1+r.IntN(4))*30*time.Minute).Format(time.RFC3339),
			"location", location, "attendees", attendees))
	}
	return fixture{
		Tool:        "list_events",
		Description: "calendar list_events: 12 events, each with a nested attendees array of objects (sometimes empty) and a null location",
		Response:    rows,
	}
}

func searchDocuments20(r *rand.Rand) fixture {
	sources := []struct{ path, title, lang string }{
		{"docs/architecture/indexer.md", "Indexing", "en"}, {"docs/guides/mcp-clients.md", "MCP clients", "en"},
		{"docs/faq.md", "FAQ", "en"}, {"docs/de/betrieb.md", "Betrieb", "de"},
		{"docs/fr/planificateur.md", "Planificateur", "fr"}, {"docs/ja/indexing.md", "インデックス", "ja"},
		{"https://wiki.example.com/display/ENG/Codegraph+Runbook", "Runbook", "en"},
	}
	var rows []obj
	chunks := newTexts(0) // a search returns each chunk once (rates.go)
	score := 0.92
	for range 20 {
		src := pick(r, sources)
		text := chunks.next(r, func() string {
			// A chunk is one or two paragraphs as long as measured.
			paras := []string{docParagraph(r, src.lang, docParagraphBytes.draw(r))}
			if r.IntN(2) == 0 {
				paras = append(paras, docParagraph(r, src.lang, docParagraphBytes.draw(r)))
			}
			return strings.Join(paras, "\n\n")
		})
		rows = append(rows, o(
			"id", fmt.Sprintf("chunk_%05d", r.IntN(90000)), "score", num(fmt.Sprintf("%.4f", score)),
			"source", src.path, "title", src.title, "text", text))
		score -= 0.005 + 0.02*r.Float64()
	}
	return fixture{
		Tool:        "search_documents",
		Description: "vector search over docs: 20 scored chunks of one or two paragraphs of prose in four languages, text-dominated",
		Response:    rows,
	}
}
