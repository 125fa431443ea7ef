package scorecard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/bench/realservers"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/gcxmcp/proxy"
	"github.com/gcxwire/gcx/tokens"
)

// The real servers' corpus (bench/realservers) is what MCP servers people
// run returned to the stock TypeScript SDK client. The scorecard measures,
// per call, the cl100k_base tokens of the result's text blocks — what the
// model reads — four ways:
//
//   - as sent: the text blocks as the server wrote them;
//   - compact JSON: each text block that holds a JSON object or array
//     re-spelled as JSON.stringify(v) writes it, every other block as sent;
//   - gcx proxy: the text blocks of what gcx proxy hands the host, found by
//     replaying the recorded result through the proxy itself (package
//     gcxmcp/proxy, default options: auto mode, a host that did not opt
//     in), so that the column follows whatever rule the binding has;
//   - TOON: each JSON block encoded by the official TOON encoder with the
//     tab delimiter, every other block as sent.
//
// An error result (isError) counts as sent in the compact and TOON columns:
// errors pass untouched. Non-text blocks (images, resource links) are not
// counted in any column. A call the server answered with a JSON-RPC error
// has no result and is not measured.

// RealCorpus is the measurement of the real servers' corpus.
type RealCorpus struct {
	RecordedAt string       `json:"recorded_at"`
	Client     string       `json:"client"`
	Servers    []RealServer `json:"servers"`
	// Drafts are the drafts measured beside GCX1, in the order of each
	// call's Drafts (realdrafts.go); none in the main scorecard.
	Drafts []string `json:"drafts,omitempty"`
}

// A RealServer is one server's calls.
type RealServer struct {
	Server  string     `json:"server"`
	Package string     `json:"package"`
	Version string     `json:"version"`
	License string     `json:"license"`
	Calls   []RealCall `json:"calls"`
	// RPCErrors counts the calls answered with a JSON-RPC error, which
	// have no result to measure.
	RPCErrors int `json:"rpc_errors,omitempty"`
}

// A RealCall is what one recorded result costs, in cl100k_base tokens of
// its text blocks.
type RealCall struct {
	Tool string `json:"tool"`
	// Kind is "json" when a text block holds a JSON object or array,
	// "text" when none does, "error" for an error result.
	Kind string `json:"kind"`
	// Shape is the shape of the first JSON block's value, for a json call.
	Shape   Shape `json:"shape,omitempty"`
	Sent    int   `json:"sent"`
	Compact int   `json:"compact"`
	// Proxy is what the model reads after gcx proxy; ProxyFormat is the
	// format the proxy named in the result's _meta, "" when it passed the
	// result untouched.
	Proxy       int    `json:"proxy"`
	ProxyFormat string `json:"proxy_format,omitempty"`
	// ProxyCompact: the proxy handed the model the compact JSON of the
	// server's text (_meta marks it compact) [MCP-6].
	ProxyCompact bool `json:"proxy_compact,omitempty"`
	// TOON is nil when TOON was not measured. JSONSHA256 holds the SHA-256
	// of each JSON block's compact JSON, the bytes TOON encoded, so that a
	// run without node can tell whether earlier figures still apply.
	TOON       *int     `json:"toon_tab,omitempty"`
	JSONSHA256 []string `json:"json_sha256,omitempty"`
	// Drafts holds, for each of RealCorpus.Drafts, the tokens with each
	// JSON block the cheapest of as sent, compact JSON and the draft's
	// payload (realdrafts.go).
	Drafts []int `json:"drafts,omitempty"`
}

// realBlock is one text block of a recorded result, ready to measure.
type realBlock struct {
	text    string
	compact []byte // the compact JSON of a JSON block; nil for text, or in an error result
	shape   Shape
}

// realPlan is a loaded corpus with each call's blocks, before TOON.
type realPlan struct {
	corpus *RealCorpus
	blocks [][][]realBlock // server, call, block
}

// LoadRealServers reads and measures the real servers' corpus in dir,
// except TOON (see measureRealTOON).
func loadRealServers(dir string) (*realPlan, error) {
	c, err := realservers.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("scorecard: real servers: %w", err)
	}
	rc := &RealCorpus{
		RecordedAt: c.Manifest.RecordedAt,
		Client:     c.Manifest.Client.Package + " " + c.Manifest.Client.Version,
	}
	plan := &realPlan{corpus: rc}
	for _, s := range c.Servers {
		rs := RealServer{Server: s.Server, Package: s.Package, Version: s.Version, License: s.License}
		calls, blocks, err := measureServer(s)
		if err != nil {
			return nil, fmt.Errorf("scorecard: real servers: %s: %w", s.Server, err)
		}
		rs.Calls = calls
		rs.RPCErrors = len(s.Calls) - len(calls)
		rc.Servers = append(rc.Servers, rs)
		plan.blocks = append(plan.blocks, blocks)
	}
	return plan, nil
}

// measureServer measures every call of one server that has a result,
// replaying the server's session through gcx proxy.
func measureServer(s realservers.Server) ([]RealCall, [][]realBlock, error) {
	p, err := proxy.New(proxy.Options{})
	if err != nil {
		return nil, nil, err
	}
	// The session a host opens: initialize, answered with the recorded
	// server's identity and a tools capability.
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"scorecard","version":"1"}}}`))
	info := s.ServerInfo
	if len(info) == 0 {
		info = json.RawMessage(`{"name":"server","version":"0"}`)
	}
	p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":` + string(info) + `}}`))

	var calls []RealCall
	var blocks [][]realBlock
	for i, call := range s.Calls {
		if call.Result == nil {
			continue
		}
		r, err := call.ParseResult()
		if err != nil {
			return nil, nil, fmt.Errorf("call %d: %w", i, err)
		}
		rc := RealCall{Tool: call.Tool, Kind: "text"}
		var bs []realBlock
		for _, text := range r.Texts() {
			b := realBlock{text: text}
			if compact, shape, ok := jsonText(text); ok {
				if rc.Kind == "text" {
					rc.Kind, rc.Shape = "json", shape
				}
				if !r.IsError {
					b.compact, b.shape = compact, shape
				}
			}
			bs = append(bs, b)
		}
		if r.IsError {
			rc.Kind, rc.Shape = "error", ""
		}
		for _, b := range bs {
			sent, err := countCL100K(b.text)
			if err != nil {
				return nil, nil, err
			}
			rc.Sent += sent
			if b.compact == nil {
				rc.Compact += sent
				continue
			}
			n, err := countCL100K(string(b.compact))
			if err != nil {
				return nil, nil, err
			}
			rc.Compact += n
			sum := sha256.Sum256(b.compact)
			rc.JSONSHA256 = append(rc.JSONSHA256, hex.EncodeToString(sum[:]))
		}
		rc.Proxy, rc.ProxyFormat, rc.ProxyCompact, err = throughProxy(p, i+1, call)
		if err != nil {
			return nil, nil, fmt.Errorf("call %d (%s): %w", i, call.Tool, err)
		}
		calls = append(calls, rc)
		blocks = append(blocks, bs)
	}
	return calls, blocks, nil
}

// throughProxy sends the call through p as a host would and the recorded
// result back as the server did, and counts the text blocks of what the
// host receives, the format its _meta names and whether it marks the text
// compact.
func throughProxy(p *proxy.Proxy, id int, call realservers.Call) (int, string, bool, error) {
	name, err := json.Marshal(call.Tool)
	if err != nil {
		return 0, "", false, err
	}
	rid := strconv.Itoa(id)
	p.FromHost([]byte(`{"jsonrpc":"2.0","id":` + rid + `,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + string(call.Arguments) + `}}`))
	out := p.FromUpstream([]byte(`{"jsonrpc":"2.0","id":` + rid + `,"result":` + string(call.Result) + `}`))
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			Content []realservers.Block `json:"content"`
			Meta    map[string]any      `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return 0, "", false, fmt.Errorf("the proxy's answer: %v", err)
	}
	if resp.Result == nil || string(resp.ID) != rid {
		return 0, "", false, errors.New("the proxy's answer is not the call's result")
	}
	n := 0
	for _, b := range resp.Result.Content {
		if b.Type == "text" && b.Text != nil {
			c, err := countCL100K(*b.Text)
			if err != nil {
				return 0, "", false, err
			}
			n += c
		}
	}
	format, _ := resp.Result.Meta[binding.MetaFormat].(string)
	return n, format, resp.Result.Meta[binding.MetaCompact] == true, nil
}

// jsonText reports whether text is a JSON object or array, and returns its
// compact JSON and shape.
func jsonText(text string) ([]byte, Shape, bool) {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, "", false
	}
	compact, _, err := Canonical([]byte(t))
	if err != nil {
		return nil, "", false
	}
	shape, err := ShapeOf(compact)
	if err != nil {
		return nil, "", false
	}
	return compact, shape, true
}

func countCL100K(text string) (int, error) { return tokens.Count(tokens.CL100K, text) }

// toonCases returns the JSON blocks of the plan as cases for RunTOON, in
// order.
func (p *realPlan) toonCases() []Case {
	var cases []Case
	for si, calls := range p.blocks {
		for ci, bs := range calls {
			for bi, b := range bs {
				if b.compact != nil {
					cases = append(cases, Case{Name: fmt.Sprintf("%s/%d/%d", p.corpus.Servers[si].Server, ci, bi), Response: b.compact})
				}
			}
		}
	}
	return cases
}

// setTOON fills in the TOON column from the encoder's outputs for
// toonCases, in the same order.
func (p *realPlan) setTOON(out []TOONOutput) error {
	k := 0
	for si, calls := range p.blocks {
		for ci, bs := range calls {
			total := 0
			for _, b := range bs {
				text := b.text
				if b.compact != nil {
					if k >= len(out) {
						return errors.New("scorecard: real servers: fewer TOON outputs than JSON blocks")
					}
					text = out[k].Tab
					k++
				}
				n, err := countCL100K(text)
				if err != nil {
					return err
				}
				total += n
			}
			p.corpus.Servers[si].Calls[ci].TOON = &total
		}
	}
	if k != len(out) {
		return errors.New("scorecard: real servers: more TOON outputs than JSON blocks")
	}
	return nil
}

// carryRealTOON gives rc, measured without TOON, the TOON figures of prev
// when every call is the same call on the same bytes (the same tool, the
// same tokens as sent, the same JSON blocks by SHA-256); the error says
// why not, and rc is then left as it was.
func carryRealTOON(rc, prev *RealCorpus) error {
	if rc == nil {
		return nil
	}
	if prev == nil || len(prev.Servers) != len(rc.Servers) {
		return errors.New("the real servers' corpus has changed since it was measured")
	}
	for si := range rc.Servers {
		a, b := rc.Servers[si], prev.Servers[si]
		if a.Server != b.Server || a.Version != b.Version || len(a.Calls) != len(b.Calls) {
			return fmt.Errorf("real server %s has changed since it was measured", a.Server)
		}
		for ci := range a.Calls {
			x, y := a.Calls[ci], b.Calls[ci]
			if x.Tool != y.Tool || x.Sent != y.Sent || y.TOON == nil || strings.Join(x.JSONSHA256, ",") != strings.Join(y.JSONSHA256, ",") {
				return fmt.Errorf("real server %s, call %d (%s), has changed since it was measured or has no TOON figure", a.Server, ci, x.Tool)
			}
		}
	}
	for si := range rc.Servers {
		for ci := range rc.Servers[si].Calls {
			n := *prev.Servers[si].Calls[ci].TOON
			rc.Servers[si].Calls[ci].TOON = &n
		}
	}
	return nil
}

// A RealTotal sums a set of calls.
type RealTotal struct {
	Calls, JSONCalls           int
	Sent, Compact, Proxy, TOON int
	Drafts                     []int // per RealCorpus.Drafts
	TOONMeasured               bool
	ProxyRewrote, ProxyCompact int
	ProxyCostlierCompact       int
}

// Total sums the server's calls.
func (s RealServer) Total() RealTotal {
	t := RealTotal{TOONMeasured: true}
	for _, c := range s.Calls {
		t.add(c)
	}
	return t
}

func (t *RealTotal) add(c RealCall) {
	t.Calls++
	if c.Kind == "json" {
		t.JSONCalls++
	}
	t.Sent += c.Sent
	t.Compact += c.Compact
	t.Proxy += c.Proxy
	for k, n := range c.Drafts {
		if k == len(t.Drafts) {
			t.Drafts = append(t.Drafts, 0)
		}
		t.Drafts[k] += n
	}
	if c.TOON == nil {
		t.TOONMeasured = false
	} else {
		t.TOON += *c.TOON
	}
	if c.ProxyFormat != "" && c.ProxyFormat != binding.FormatJSON {
		t.ProxyRewrote++
	}
	if c.ProxyCompact {
		t.ProxyCompact++
	}
	if c.Proxy > c.Compact {
		t.ProxyCostlierCompact++
	}
}

// Total sums every call of the corpus.
func (rc *RealCorpus) Total() RealTotal {
	t := RealTotal{TOONMeasured: true}
	for _, s := range rc.Servers {
		for _, c := range s.Calls {
			t.add(c)
		}
	}
	return t
}

// realTable writes the per-server table: tokens and the saving against
// the text as sent.
func (rc *RealCorpus) realTable(b *strings.Builder, link func(s RealServer) string) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("| server | calls (JSON) | as sent | compact JSON | gcx proxy (auto) | TOON (tab) |")
	for _, tag := range rc.Drafts {
		p(" %s or cheapest |", tag)
	}
	p("\n| --- | ---: | ---: | ---: | ---: | ---: |%s\n", strings.Repeat(" ---: |", len(rc.Drafts)))
	row := func(name string, t RealTotal) {
		p("| %s | %d (%d) | %d | %s | %s | %s |", name, t.Calls, t.JSONCalls, t.Sent,
			tokensSaved(t.Sent, t.Compact), tokensSaved(t.Sent, t.Proxy), toonSaved(t))
		for _, n := range t.Drafts {
			p(" %s |", tokensSaved(t.Sent, n))
		}
		p("\n")
	}
	for _, s := range rc.Servers {
		row(link(s), s.Total())
	}
	row("**all**", rc.Total())
}

func tokensSaved(base, x int) string {
	return fmt.Sprintf("%d (%s)", x, pct(Savings(base, x)))
}

func toonSaved(t RealTotal) string {
	if !t.TOONMeasured {
		return "not measured"
	}
	return tokensSaved(t.Sent, t.TOON)
}

// headlineReal is the real servers' part of the README's headline.
func (rc *RealCorpus) headlineReal(b *strings.Builder) {
	t := rc.Total()
	fmt.Fprintf(b, "Measured on %d tool results of %d MCP servers from npm, recorded with the stock TypeScript SDK client (%s; [bench/realservers](bench/realservers/README.md)), in the cl100k_base tokens of the text the model reads; in brackets, the saving against the text as the server sent it:\n\n",
		t.Calls, len(rc.Servers), rc.Client)
	rc.realTable(b, func(s RealServer) string { return fmt.Sprintf("%s %s", s.Package, s.Version) })
	fmt.Fprintf(b, "\ngcx proxy (auto mode; each result replayed through the proxy itself) wrote GCX1 for %d of the %d results and compact JSON for %d; on %d of the %d, what it handed the model cost more tokens than compact JSON would have.\n", t.ProxyRewrote, t.Calls, t.ProxyCompact, t.ProxyCostlierCompact, t.Calls)
}

// realMarkdown writes the real servers' section of the scorecard.
func (rc *RealCorpus) realMarkdown(b *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	t := rc.Total()
	p("## Real servers\n\n")
	p("%d tool results of %d MCP servers from npm, recorded on %s with the stock TypeScript SDK client (%s) by [bench/realservers](../realservers/README.md), which lists the data each ran on. ", t.Calls, len(rc.Servers), rc.RecordedAt, rc.Client)
	p("cl100k_base tokens of the results' text blocks, what the model reads; in brackets, the saving against the text as sent. ")
	p("*compact JSON*: each text block holding a JSON object or array re-spelled compact, the rest as sent; ")
	p("*gcx proxy*: what `gcx proxy` hands the host in auto mode, found by replaying each recorded result through the proxy (package gcxmcp/proxy); ")
	p("*TOON*: each JSON block written by %s with the tab delimiter, the rest as sent. Error results count as sent in every column; images and links are not counted.\n\n", TOONPackage)
	if len(rc.Drafts) > 0 {
		p("*DRAFT or cheapest*: each JSON block of a result that is no error handed on as the cheapest of the text as sent, its compact JSON and the draft's payload, which must give the value back; the rest as sent.\n\n")
	}
	rc.realTable(b, func(s RealServer) string {
		return fmt.Sprintf("%s (%s %s, %s)", s.Server, s.Package, s.Version, s.License)
	})
	p("\ngcx proxy wrote GCX1 for %d of the %d results and compact JSON for %d; on %d of the %d, what it handed the model cost more tokens than compact JSON would have.", t.ProxyRewrote, t.Calls, t.ProxyCompact, t.ProxyCostlierCompact, t.Calls)
	rpc := 0
	for _, s := range rc.Servers {
		rpc += s.RPCErrors
	}
	switch {
	case rpc == 1:
		p(" 1 more call got a JSON-RPC error instead of a result and is not measured.")
	case rpc > 1:
		p(" %d more calls got a JSON-RPC error instead of a result and are not measured.", rpc)
	}
	p("\n\n### Per call\n\n")
	p("| server | # | tool | kind | as sent | compact JSON | gcx proxy | TOON (tab) |\n")
	p("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, s := range rc.Servers {
		for i, c := range s.Calls {
			kind := c.Kind
			if c.Shape != "" {
				kind += " (" + string(c.Shape) + ")"
			}
			toon := "—"
			if c.TOON != nil {
				toon = strconv.Itoa(*c.TOON)
			}
			format := "untouched"
			if c.ProxyFormat != "" {
				format = c.ProxyFormat
			}
			if c.ProxyCompact {
				format += " (compact)"
			}
			p("| %s | %d | `%s` | %s | %d | %d | %d %s | %s |\n", s.Server, i+1, c.Tool, kind, c.Sent, c.Compact, c.Proxy, format, toon)
		}
	}
	p("\n")
}
