package scorecard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/spec"
)

// writeRealCorpus writes a corpus of one server with the given calls into
// a new directory, in the form record.mjs writes.
func writeRealCorpus(t *testing.T, calls []map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	errs := 0
	for _, c := range calls {
		if r, ok := c["result"].(map[string]any); ok && r["isError"] == true {
			errs++
		}
	}
	server := map[string]any{
		"server": "shop", "package": "shop-mcp", "version": "1.0.0", "license": "MIT", "license_source": "package.json",
		"server_info": map[string]any{"name": "shop", "version": "1.0.0"}, "data": "test data",
		"tools_list": map[string]any{"tools": []any{map[string]any{"name": "query"}, map[string]any{"name": "note"}}},
		"calls":      calls,
	}
	manifest := map[string]any{
		"recorded_at": "2026-12-06T00:00:00Z", "node": "v20",
		"client":   map[string]any{"package": "@modelcontextprotocol/sdk", "version": "1.32.2", "license": "MIT", "classes": "Client"},
		"services": map[string]any{},
		"servers": []any{map[string]any{"server": "shop", "package": "shop-mcp", "version": "1.0.0", "license": "MIT",
			"file": "shop.json", "calls": len(calls), "errors": errs}},
		"total_calls": len(calls),
	}
	for name, v := range map[string]any{"shop.json": server, "manifest.json": manifest} {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func textResult(text string, isError bool) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError}
}

// rowsJSON is a table of n rows, pretty-printed as servers write it.
func rowsJSON(n int) string {
	rows := make([]map[string]any, n)
	for i := range rows {
		rows[i] = map[string]any{"id": i + 1, "status": "shipped", "total": fmt.Sprintf("%d.50", 10+i)}
	}
	b, _ := json.MarshalIndent(rows, "", "  ")
	return string(b)
}

// Each column is what it says: compact JSON re-spells only JSON blocks,
// the proxy column is what gcx proxy writes, and error results and plain
// text count as sent everywhere.
func TestRealServersColumns(t *testing.T) {
	table := rowsJSON(40)
	dir := writeRealCorpus(t, []map[string]any{
		{"tool": "query", "arguments": map[string]any{"sql": "SELECT 1"}, "result": textResult(table, false)},
		{"tool": "note", "arguments": map[string]any{}, "result": textResult("Saved the note.", false)},
		{"tool": "query", "arguments": map[string]any{"sql": "SELECT x"}, "result": textResult("{\n  \"error\": \"no such column: x\"\n}", true)},
		{"tool": "query", "arguments": map[string]any{"sql": "SELECT y"}, "error": map[string]any{"code": -32603, "message": "boom"}},
	})
	plan, err := loadRealServers(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.corpus.Servers[0]
	if len(s.Calls) != 3 || s.RPCErrors != 1 {
		t.Fatalf("%d calls measured and %d JSON-RPC errors, want 3 and 1", len(s.Calls), s.RPCErrors)
	}
	tbl, note, failed := s.Calls[0], s.Calls[1], s.Calls[2]

	sent, _ := countCL100K(table)
	var v any
	if err := json.Unmarshal([]byte(table), &v); err != nil {
		t.Fatal(err)
	}
	compactText, _ := json.Marshal(v)
	compact, _ := countCL100K(string(compactText))
	if tbl.Kind != "json" || tbl.Shape != ShapeTable || tbl.Sent != sent || tbl.Compact != compact {
		t.Errorf("table: %+v; want kind json, shape table, sent %d, compact %d", tbl, sent, compact)
	}
	if tbl.ProxyFormat != spec.Version || tbl.Proxy >= tbl.Compact {
		t.Errorf("table: the proxy wrote %q at %d tokens; a 40-row table is GCX1, cheaper than compact JSON (%d)", tbl.ProxyFormat, tbl.Proxy, tbl.Compact)
	}
	if len(tbl.JSONSHA256) != 1 {
		t.Errorf("table: %d JSON block digests, want 1", len(tbl.JSONSHA256))
	}
	n, _ := countCL100K("Saved the note.")
	if note.Kind != "text" || note.Sent != n || note.Compact != n || note.Proxy != n || note.ProxyFormat != "" {
		t.Errorf("plain text: %+v; want %d tokens in every column, untouched", note, n)
	}
	if failed.Kind != "error" || failed.Compact != failed.Sent || failed.Proxy != failed.Sent || len(failed.JSONSHA256) != 0 {
		t.Errorf("error result: %+v; want it counted as sent in every column", failed)
	}

	// TOON: the one JSON block is encoded; the rest count as sent.
	cases := plan.toonCases()
	if len(cases) != 1 || string(cases[0].Response) != string(compactText) {
		t.Fatalf("TOON cases %+v, want the table's compact JSON alone", cases)
	}
	if err := plan.setTOON([]TOONOutput{{Tab: "x"}}); err != nil {
		t.Fatal(err)
	}
	x, _ := countCL100K("x")
	if got := *plan.corpus.Servers[0].Calls[0].TOON; got != x {
		t.Errorf("TOON of the table: %d tokens, want the encoder's output's %d", got, x)
	}
	if got := *plan.corpus.Servers[0].Calls[1].TOON; got != n {
		t.Errorf("TOON of plain text: %d tokens, want it as sent (%d)", got, n)
	}
	if err := plan.setTOON(nil); err == nil {
		t.Error("setTOON accepted fewer outputs than JSON blocks")
	}

	total := plan.corpus.Total()
	if total.Calls != 3 || total.JSONCalls != 1 || total.Sent != tbl.Sent+note.Sent+failed.Sent || total.ProxyRewrote != 1 {
		t.Errorf("total %+v", total)
	}
}

// The proxy column is the proxy's: a tool the proxy leaves alone is
// counted untouched, whatever its text.
func TestRealServersProxyColumnFollowsTheProxy(t *testing.T) {
	table := rowsJSON(40)
	// structuredContent that is not the text's value: the binding finds no
	// JSON block it may replace.
	result := textResult(table, false)
	result["structuredContent"] = map[string]any{"content": table}
	dir := writeRealCorpus(t, []map[string]any{{"tool": "query", "arguments": map[string]any{}, "result": result}})
	plan, err := loadRealServers(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.corpus.Servers[0].Calls[0]
	if c.ProxyFormat == spec.Version && c.Proxy == c.Sent {
		t.Errorf("the proxy says it wrote GCX1 but the text is as sent: %+v", c)
	}
	if c.ProxyFormat == "" && c.Proxy != c.Sent {
		t.Errorf("the proxy left the result alone but the count differs from as sent: %+v", c)
	}
}

// A run without node keeps the earlier TOON figures only when every call
// is the same call on the same bytes.
func TestCarryRealTOON(t *testing.T) {
	seven := 7
	prev := &RealCorpus{Servers: []RealServer{{Server: "a", Version: "1", Calls: []RealCall{{Tool: "q", Sent: 10, TOON: &seven, JSONSHA256: []string{"ab"}}}}}}
	same := func() *RealCorpus {
		return &RealCorpus{Servers: []RealServer{{Server: "a", Version: "1", Calls: []RealCall{{Tool: "q", Sent: 10, JSONSHA256: []string{"ab"}}}}}}
	}
	rc := same()
	if err := carryRealTOON(rc, prev); err != nil {
		t.Fatal(err)
	}
	if got := rc.Servers[0].Calls[0].TOON; got == nil || *got != 7 {
		t.Errorf("carried TOON %v, want 7", got)
	}
	for name, change := range map[string]func(*RealCorpus){
		"other bytes":   func(rc *RealCorpus) { rc.Servers[0].Calls[0].JSONSHA256 = []string{"cd"} },
		"other version": func(rc *RealCorpus) { rc.Servers[0].Version = "2" },
		"a call more":   func(rc *RealCorpus) { rc.Servers[0].Calls = append(rc.Servers[0].Calls, RealCall{Tool: "q"}) },
		"other text":    func(rc *RealCorpus) { rc.Servers[0].Calls[0].Sent = 11 },
	} {
		rc := same()
		change(rc)
		if err := carryRealTOON(rc, prev); err == nil {
			t.Errorf("%s: the TOON figures were carried", name)
		} else if rc.Servers[0].Calls[0].TOON != nil {
			t.Errorf("%s: refused, but a figure was set", name)
		}
	}
}

// The real servers come first: in the headline and in the scorecard.
func TestRealServersComeFirst(t *testing.T) {
	sc := sample(true)
	ten := 10
	sc.RealServers = &RealCorpus{RecordedAt: "2026-12-06T00:00:00Z", Client: "@modelcontextprotocol/sdk 1.32.2", Servers: []RealServer{
		{Server: "shop", Package: "shop-mcp", Version: "1.0.0", License: "MIT", Calls: []RealCall{{Tool: "query", Kind: "json", Shape: ShapeTable, Sent: 40, Compact: 20, Proxy: 12, ProxyFormat: "GCX1", TOON: &ten}}},
	}}
	row := "| shop-mcp 1.0.0 | 1 (1) | 40 | 20 (+50.0%) | 12 (+70.0%) | 10 (+75.0%) |"
	h := sc.Headline()
	if i, j := strings.Index(h, row), strings.Index(h, "Synthetic corpus"); i < 0 || j < i {
		t.Errorf("the headline does not begin with the real servers' table (%q), then the synthetic corpus:\n%s", row, h)
	}
	md := sc.Markdown(nil)
	if i, j := strings.Index(md, "## Real servers"), strings.Index(md, "## Headline"); i < 0 || j < i {
		t.Errorf("the scorecard's first section is not the real servers'")
	}
	if !strings.Contains(md, "| shop | 1 | `query` | json (table) | 40 | 20 | 12 GCX1 | 10 |") {
		t.Errorf("the per-call table lacks the call:\n%s", md)
	}
	b, err := sc.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseScorecard(b)
	if err != nil || back.RealServers == nil || *back.RealServers.Servers[0].Calls[0].TOON != 10 {
		t.Errorf("the record does not keep the real servers: %v", err)
	}
}
