package explore

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/gcxmcp/binding"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// The cases of the MCP binding (chapter 15 of docs/wire-format.md) for the
// ops mcp-server, mcp-client and mcp-proxy. They are built from parts
// rather than only varied from committed vectors, so that every choice the
// binding makes is drawn: where a client's capabilities travel and what
// they hold, a per-call opt-in of every type, per-tool modes and names
// (empty ones, declared tools' names, names GCX1 cannot carry), results
// with and without structuredContent, error results, content blocks of
// several kinds around the JSON block, tables large enough for auto mode
// to choose GCX1 and small enough for it to keep JSON, the counts of
// [MCP-7] of every type, answers a client must refuse, hosts and upstreams
// that do or do not speak the binding, and members an intermediary must
// pass on as they came. The rules a case cites are computed from the
// reference's verdict on it (bindingRules), never from the generator's
// intent.

// bindingCase draws a case of the binding: mostly built from parts, now
// and then a committed vector mutated (mcpCase).
func (g *gen) bindingCase(ref Reference) Case {
	switch g.n(10) {
	case 0:
		return g.mcpCase(ref)
	case 1, 2, 3, 4:
		return g.serverCase()
	case 5, 6, 7:
		return g.proxyCase()
	}
	return g.clientCase()
}

// JSON values built in place.

func jstr(s string) jsonmap.Value { return jsonmap.Value{Kind: jsonmap.String, Text: s} }
func jnum(n int) jsonmap.Value    { return jsonmap.Value{Kind: jsonmap.Number, Text: strconv.Itoa(n)} }
func jbool(b bool) jsonmap.Value {
	if b {
		return jsonmap.Value{Kind: jsonmap.True}
	}
	return jsonmap.Value{Kind: jsonmap.False}
}
func jarr(elems ...jsonmap.Value) jsonmap.Value {
	return jsonmap.Value{Kind: jsonmap.Array, Elems: elems}
}
func jstrs(ss ...string) jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{}}
	for _, s := range ss {
		v.Elems = append(v.Elems, jstr(s))
	}
	return v
}

// jobj is an object of key/value pairs: jobj("a", x, "b", y).
func jobj(pairs ...any) jsonmap.Value {
	v := jsonmap.Value{Kind: jsonmap.Object, Members: []jsonmap.Member{}}
	for i := 0; i+1 < len(pairs); i += 2 {
		v.Members = append(v.Members, jsonmap.Member{Key: pairs[i].(string), Value: pairs[i+1].(jsonmap.Value)})
	}
	return v
}

// set gives the object v the member key, in place of one it has.
func set(v *jsonmap.Value, key string, value jsonmap.Value) {
	v.Members = slices.Clone(v.Members)
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members[i].Value = value
			return
		}
	}
	v.Members = append(v.Members, jsonmap.Member{Key: key, Value: value})
}

// unset takes the member key out of the object v.
func unset(v *jsonmap.Value, key string) {
	v.Members = slices.DeleteFunc(slices.Clone(v.Members), func(m jsonmap.Member) bool { return m.Key == key })
}

// Tools, values and results.

// mcpTools are the MCP tool names a case calls: declared tools of [LAY-6],
// other names GCX1 carries, and names it cannot carry [HDR-3], for which
// the mapping keeps JSON [MCP-6].
var mcpTools = []string{"search_symbols", "get_callers", "find_usages", "read_graph", "list_files", "t", "a-b_c.d",
	"search symbols", "é", "x=y"}

// toolNames are the names a per-tool setting gives a payload: none, the
// empty name (none as well [MCP-6]), declared tools whose layouts a result
// may follow, and other names.
var toolNames = []string{"", "search_symbols", "get_callers", "find_usages", "analyze", "results", "a.b"}

// symbol is row i of a search_symbols result, the shape of its layout,
// with the signature now and then missing.
func (g *gen) symbol(i int) jsonmap.Value {
	kind := pick(g, []string{"function", "method", "type"})
	name := fmt.Sprintf("F%d", i)
	file := fmt.Sprintf("internal/pkg%d/file.go", i%3)
	row := jobj("id", jstr(file+"::"+name), "kind", jstr(kind), "name", jstr(name), "file_path", jstr(file),
		"start_line", jnum(10+7*i))
	if !g.one(4) {
		set(&row, "signature", jstr(fmt.Sprintf("func %s(ctx context.Context, q string) ([]Symbol, error)", name)))
	}
	return row
}

// rowsOf draws a table of n symbols, or, now and then, of generated
// records.
func (g *gen) rowsOf(n int) jsonmap.Value {
	v := jarr()
	generic := g.one(3)
	for i := range n {
		if generic {
			v.Elems = append(v.Elems, jobj("path", jstr(fmt.Sprintf("src/%d.go", i)), "line", jnum(i), "text", jstr(g.text())))
			continue
		}
		v.Elems = append(v.Elems, g.symbol(i))
	}
	return v
}

// toolValue draws the value a tool returns: tables large enough for the
// payload to be the cheaper and tiny ones for which JSON is, a list
// wrapped in an object with counts, two tables (get_callers' shape), or
// any value of the mapping's generator.
func (g *gen) toolValue() jsonmap.Value {
	switch g.n(8) {
	case 0, 1:
		return g.rowsOf(g.between(8, 40)) // auto mode writes GCX1
	case 2:
		return g.rowsOf(g.between(0, 1)) // auto mode keeps JSON
	case 3:
		return jobj(pick(g, []string{"symbols", "items", "results"}), g.rowsOf(g.between(0, 12)), "total", jnum(g.n(100)))
	case 4:
		nodes := g.rowsOf(g.between(1, 6))
		edges := jarr()
		for i := range g.between(0, 5) {
			edges.Elems = append(edges.Elems, jobj("from", jstr(fmt.Sprintf("F%d", i)), "to", jstr(fmt.Sprintf("F%d", i+1)),
				"kind", jstr("calls"), "line", jnum(i+3)))
		}
		return jobj("nodes", nodes, "edges", edges)
	}
	return g.value(3)
}

// blockText writes v as a tool writes it in its JSON block: compact,
// pretty-printed as the reference servers write it, or with whitespace
// and escapes a reader must resolve.
func (g *gen) blockText(v jsonmap.Value) string {
	compact := v.AppendCompact(nil)
	switch g.n(3) {
	case 0:
		var b bytes.Buffer
		if json.Indent(&b, compact, "", pick(g, []string{"  ", "\t"})) == nil {
			return b.String()
		}
	case 1:
		return string(g.respellJSON(compact))
	}
	return string(compact)
}

// otherBlock is a content block that is not the JSON block: prose, an
// image, a link, or a text that begins with GCX, which leaves the result
// no JSON block when it comes first [MCP-5].
func (g *gen) otherBlock() jsonmap.Value {
	switch g.n(5) {
	case 0:
		return jobj("type", jstr("image"), "data", jstr("iVBORw0KGgo="), "mimeType", jstr("image/png"))
	case 1:
		return jobj("type", jstr("resource_link"), "uri", jstr("file:///src/a.go"), "name", jstr("a.go"))
	case 2:
		return jobj("type", jstr("text"), "text", jstr(pick(g, []string{"GCX1 tool=t fields=a\nx\n", "GCX is a format"})))
	}
	return jobj("type", jstr("text"), "text", jstr(pick(g, []string{"Found these:", "", "3 results", "[1,2]"})))
}

// countsMeta draws the _meta keys of [MCP-7], of the right type in any
// spelling or of a wrong one, and other keys a server leaves alone.
func (g *gen) countsMeta(meta *jsonmap.Value) {
	if g.one(2) {
		switch g.n(6) {
		case 0:
			set(meta, binding.MetaTotal, jsonmap.Value{Kind: jsonmap.Number, Text: pick(g, []string{"41.0", "4.1e1", "0", "9007199254740992"})})
		case 1:
			set(meta, binding.MetaTotal, pick(g, []jsonmap.Value{jstr("41"), jnum(-1), {Kind: jsonmap.Number, Text: "1.5"}, {Kind: jsonmap.Null}}))
		default:
			set(meta, binding.MetaTotal, jnum(g.n(200)))
		}
	}
	if g.one(2) {
		if g.one(6) {
			set(meta, binding.MetaTruncated, pick(g, []jsonmap.Value{jstr("true"), jnum(1), {Kind: jsonmap.Null}}))
		} else {
			set(meta, binding.MetaTruncated, jbool(g.one(2)))
		}
	}
	if g.one(5) {
		set(meta, "com.example/trace", jstr("a1b2"))
	}
}

// toolResult draws the CallToolResult a tool returns for v. objectOnly
// keeps structuredContent an object, as protocol versions before
// 2026-07-28 require.
func (g *gen) toolResult(v jsonmap.Value, objectOnly bool) jsonmap.Value {
	block := jobj("type", jstr("text"), "text", jstr(g.blockText(v)))
	if g.one(8) {
		set(&block, "annotations", jobj("audience", jstrs("assistant")))
	}
	var content []jsonmap.Value
	if g.one(6) {
		content = append(content, g.otherBlock())
	}
	if !g.one(15) {
		content = append(content, block)
	}
	if g.one(8) {
		content = append(content, g.otherBlock())
	}
	r := jobj("content", jarr(content...))
	if r.Members[0].Value.Elems == nil {
		r.Members[0].Value.Elems = []jsonmap.Value{}
	}
	structured, ok := v, true
	switch g.n(12) {
	case 0, 1:
		ok = false
	case 2:
		structured = jsonmap.Value{Kind: jsonmap.Null} // none, as far as the binding goes [MCP-5]
	case 3:
		// not the block's value: the first text block holding a JSON
		// text is the JSON block, marked as differing [MCP-5]
		structured = g.value(2)
	case 4:
		// the text wrapped, as a filesystem server wraps it
		structured = jobj("content", jstr(g.blockText(v)))
	}
	if ok && objectOnly && structured.Kind != jsonmap.Object && structured.Kind != jsonmap.Null {
		ok = false
	}
	if ok {
		set(&r, "structuredContent", structured)
	}
	if g.one(10) {
		set(&r, "isError", jbool(g.n(3) > 0))
	}
	meta := jobj()
	g.countsMeta(&meta)
	if len(meta.Members) > 0 {
		set(&r, "_meta", meta)
	}
	if g.one(10) {
		set(&r, "nextSteps", jobj("hint", jstr("narrow the query"))) // a member MCP may add later
	}
	return r
}

// Settings, capabilities and requests.

// protocols are the session's protocol versions: before and from the
// version whose requests carry the client's capabilities [MCP-10].
var protocols = []string{"2025-06-18", "2025-11-25", binding.PerRequestCapabilities, "2027-01-15"}

// mode draws a mode, or "" for none.
func (g *gen) mode() string {
	return pick(g, []string{"", "auto", "auto", "gcx", "gcx", "off"})
}

// settings draws a server's or an intermediary's settings for a call of
// tool: a mode, and now and then settings of single tools — this one's or
// another's, with a mode, a name, both or neither.
func (g *gen) settings(tool string, offer bool) jsonmap.Value {
	s := jobj()
	if m := g.mode(); m != "" {
		set(&s, "mode", jstr(m))
	}
	if offer && g.one(6) {
		set(&s, "offer", jstrs(spec.Version))
	}
	if g.one(2) {
		tools := jobj()
		for range g.between(1, 2) {
			name := tool
			if g.one(3) {
				name = pick(g, mcpTools)
			}
			t := jobj()
			if m := g.mode(); m != "" {
				set(&t, "mode", jstr(m))
			}
			if g.one(2) {
				set(&t, "name", jstr(pick(g, toolNames)))
			}
			set(&tools, name, t)
		}
		set(&s, "tools", tools)
	}
	return s
}

// acceptValue draws a list of tags a client reads, or, for [MCP-11], a
// value of another type.
func (g *gen) acceptValue() jsonmap.Value {
	switch g.n(16) {
	case 0:
		return jstrs()
	case 1:
		return jstrs("GCX2", spec.Version)
	case 2:
		return jstrs("GCX2")
	case 3:
		return jstrs("x", "json", spec.Version)
	case 4:
		return jstr(spec.Version)
	case 5, 6:
		// a list with a tag among elements that are no strings
		return pick(g, []jsonmap.Value{jarr(jstr("x"), jnum(7), jstr(spec.Version)), jarr(jsonmap.Value{Kind: jsonmap.Null}, jstr(spec.Version)),
			jarr(jstr(spec.Version), jstrs(spec.Version))})
	case 7, 8:
		return pick(g, []jsonmap.Value{{Kind: jsonmap.Null}, jnum(1), jobj(), jbool(true)})
	}
	return jstrs(spec.Version)
}

// capabilities draws a client's (or host's) capabilities: none, others
// only, or the binding's extension with an accept list of any kind, or
// none, or an extension that is no object.
func (g *gen) capabilities() (jsonmap.Value, bool) {
	if g.one(6) {
		return jsonmap.Value{}, false
	}
	caps := jobj()
	if g.one(4) {
		set(&caps, "roots", jobj("listChanged", jbool(true)))
	}
	if g.one(8) {
		return caps, true
	}
	var ext jsonmap.Value
	switch g.n(10) {
	case 0:
		ext = jobj()
	case 1:
		ext = jobj("offer", jstrs(spec.Version))
	case 2:
		ext = pick(g, []jsonmap.Value{jbool(true), jstrs(spec.Version)})
	case 3, 4:
		ext = jobj("accept", g.acceptValue())
	default:
		ext = jobj("accept", jstrs(spec.Version))
	}
	extensions := jobj(binding.Extension, ext)
	if g.one(4) {
		set(&extensions, "io.example/other", jobj())
	}
	set(&caps, "extensions", extensions)
	return caps, true
}

// requestMeta draws the _meta of a tools/call request: none, a per-call
// opt-in of any type [MCP-3] [MCP-11], keys of MCP itself, and client
// capabilities in the place the version reads or the one it does not
// [MCP-10].
func (g *gen) requestMeta() (jsonmap.Value, bool) {
	if g.one(3) {
		return jsonmap.Value{}, false
	}
	meta := jobj()
	if g.one(2) {
		set(&meta, binding.MetaAccept, g.acceptValue())
	}
	if g.one(3) {
		set(&meta, "progressToken", pick(g, []jsonmap.Value{jnum(7), jstr("p-1")}))
	}
	if g.one(3) {
		caps, ok := g.capabilities()
		if !ok {
			caps = jobj()
		}
		set(&meta, binding.MetaClientCapabilities, caps)
	}
	return meta, true
}

// request draws a tools/call request of tool.
func (g *gen) request(tool string) jsonmap.Value {
	r := jobj("name", jstr(tool))
	if meta, ok := g.requestMeta(); ok {
		set(&r, "_meta", meta)
	}
	return r
}

// session draws the protocol version, or none (the default), and whether
// it carries capabilities in each request.
func (g *gen) session(in *jsonmap.Value) (perRequest bool) {
	version := conformance.DefaultProtocol
	if !g.one(3) {
		version = pick(g, protocols)
		set(in, "protocol", jstr(version))
	}
	return version >= binding.PerRequestCapabilities
}

// The three ops.

// serverCase draws an mcp-server case: a server's settings, a session, a
// client's capabilities and call, and a tool's result.
func (g *gen) serverCase() Case {
	tool := pick(g, mcpTools)
	in := jobj("settings", g.settings(tool, true))
	perRequest := g.session(&in)
	request, meta := jobj("name", jstr(tool)), jobj()
	switch g.n(10) {
	case 0:
		// no opt-in at all
	case 1:
		// the capabilities only in the request's _meta, where the
		// version may or may not read them [MCP-10]
		set(&meta, binding.MetaClientCapabilities, jobj("extensions", jobj(binding.Extension, jobj("accept", jstrs(spec.Version)))))
	case 2, 3:
		set(&meta, binding.MetaAccept, g.acceptValue()) // [MCP-3] [MCP-11]
		if caps, ok := g.capabilities(); ok && g.one(2) {
			set(&in, "capabilities", caps)
		}
	default:
		if caps, ok := g.capabilities(); ok {
			set(&in, "capabilities", caps)
		}
		if g.one(5) {
			caps, _ := g.capabilities()
			set(&meta, binding.MetaClientCapabilities, caps)
		}
	}
	if g.one(3) {
		set(&meta, "progressToken", pick(g, []jsonmap.Value{jnum(7), jstr("p-1")}))
	}
	if len(meta.Members) > 0 || g.one(5) {
		set(&request, "_meta", meta)
	}
	set(&in, "request", request)
	set(&in, "result", g.toolResult(g.toolValue(), !perRequest))
	return Case{Op: conformance.OpMCPServer, Input: in.AppendCompact(nil)}
}

// proxyCase draws an mcp-proxy case: an intermediary's settings, a host
// that did or did not speak the binding, an upstream that does or does
// not offer GCX1, and a result — now and then one the upstream answered in
// the binding itself [PRX-3].
func (g *gen) proxyCase() Case {
	tool := pick(g, mcpTools)
	settings := g.settings(tool, false)
	if g.one(2) {
		unset(&settings, "mode") // auto, gcx proxy's default
	}
	in := jobj("settings", settings)
	perRequest := g.session(&in)
	switch g.n(8) { // most hosts do not speak the binding
	case 0, 1:
		if caps, ok := g.capabilities(); ok {
			set(&in, "capabilities", caps)
		}
	case 2:
		// a host that speaks the binding without an accept list
		// [PRX-2], which is no opt-in [MCP-2]
		set(&in, "capabilities", jobj("extensions", jobj(binding.Extension, pick(g, []jsonmap.Value{jobj(), jobj("accept", jstr(spec.Version))}))))
	}
	offers := false
	if g.one(2) {
		var offer jsonmap.Value
		switch g.n(5) {
		case 0:
			offer = jstrs("GCX2")
		case 1:
			offer = jstr(spec.Version)
		default:
			offer, offers = jstrs(spec.Version), true
		}
		set(&in, "upstream", jobj("extensions", jobj(binding.Extension, jobj("offer", offer))))
	} else if g.one(3) {
		set(&in, "upstream", jobj("tools", jobj("listChanged", jbool(true))))
	}
	request := g.request(tool)
	if meta, ok := request.Lookup("_meta"); ok && g.n(3) > 0 {
		// a host that has not spoken the binding, with keys of its own
		unset(&meta, binding.MetaAccept)
		unset(&meta, binding.MetaClientCapabilities)
		set(&request, "_meta", meta)
	}
	set(&in, "request", request)
	result := g.toolResult(g.toolValue(), !perRequest)
	if offers && g.one(2) {
		// the upstream answered in the binding itself
		if answered, ok := answerJSON(binding.ServerOptions{Mode: binding.Mode(pick(g, []string{"gcx", "auto"}))}, tool, []string{spec.Version}, result); ok {
			result = answered
		}
	}
	set(&in, "result", result)
	return Case{Op: conformance.OpMCPProxy, Input: in.AppendCompact(nil)}
}

// clientCase draws an mcp-client case: a tool's annotations and what a
// server answered to a call that asked for GCX1 — as the reference's
// server answers it, or changed so that the client must fall back
// [MCP-9] or refuse it [MCP-8] — and, when the client may call again, the
// answer to that.
func (g *gen) clientCase() Case {
	in := jobj()
	switch g.n(6) {
	case 0:
		set(&in, "annotations", jobj("readOnlyHint", jbool(true)))
	case 1:
		set(&in, "annotations", jobj("idempotentHint", jbool(true), "destructiveHint", jbool(false)))
	case 2:
		set(&in, "annotations", jobj("readOnlyHint", jbool(false), "title", jstr("Search")))
	}
	tool := pick(g, mcpTools[:7])
	original := g.toolResult(g.toolValue(), false)
	answer := original
	if a, ok := answerJSON(binding.ServerOptions{Mode: binding.Mode(pick(g, []string{"gcx", "gcx", "auto"}))}, tool, []string{spec.Version}, original); ok {
		answer = a
	}
	again := false
	if g.n(3) > 0 {
		again = g.breakAnswer(&answer)
	}
	answers := jarr(answer)
	if again || g.one(8) {
		second := original
		if g.one(3) {
			second = answer // the same version again: the client gives up
		}
		answers.Elems = append(answers.Elems, second)
	}
	set(&in, "answers", answers)
	return Case{Op: conformance.OpMCPClient, Input: in.AppendCompact(nil)}
}

// breakAnswer changes one thing in a server's answer: its version, its
// format, its counts, its structuredContent or its payload. It reports
// whether the client may call again for it (a version it cannot read).
func (g *gen) breakAnswer(a *jsonmap.Value) (again bool) {
	meta, _ := a.Lookup("_meta")
	if meta.Kind != jsonmap.Object {
		meta = jobj()
	}
	content, _ := a.Lookup("content")
	payload := slices.IndexFunc(content.Elems, func(b jsonmap.Value) bool {
		text, _ := b.Lookup("text")
		return strings.HasPrefix(text.Text, "GCX")
	})
	setPayload := func(text string) {
		if payload < 0 {
			return
		}
		content.Elems = slices.Clone(content.Elems)
		block := content.Elems[payload]
		set(&block, "text", jstr(text))
		content.Elems[payload] = block
		set(a, "content", content)
	}
	text := ""
	if payload >= 0 {
		t, _ := content.Elems[payload].Lookup("text")
		text = t.Text
	}
	switch g.n(12) {
	case 0, 1, 8:
		// a version the client cannot read [VER-2]
		tag := pick(g, []string{"GCX2", "GCX2-draft.9", "GCX9"})
		setPayload(strings.ReplaceAll(text, spec.Version+" ", tag+" "))
		if g.n(3) > 0 {
			set(&meta, binding.MetaFormat, jstr(tag))
		}
		again = true
	case 2:
		set(&meta, binding.MetaFormat, pick(g, []jsonmap.Value{jstr("toon"), jstr(""), jstr("json"), jnum(1), jstr("GCX2")}))
	case 3:
		unset(&meta, binding.MetaFormat) // a server that knows nothing of the binding
	case 4:
		g.countsMeta(&meta)
	case 5:
		set(a, "structuredContent", g.value(2))
	case 6:
		setPayload(string(g.nearMiss([]byte(text))))
	case 7:
		setPayload(strings.Replace(text, " rows=", " total=3 truncated=true rows=", 1))
	case 9:
		// the compact mark: with a tag, or of a wrong type [MCP-8]
		set(&meta, binding.MetaCompact, pick(g, []jsonmap.Value{jbool(true), jstr("yes"), jnum(1), jbool(false)}))
	case 10:
		// the mark of a differing value, right or wrong [MCP-8]
		set(&meta, binding.MetaDiffers, pick(g, []jsonmap.Value{jbool(true), jbool(false), jstr("true")}))
	case 11:
		unset(&meta, binding.MetaDiffers) // a server that forgot the mark
	}
	set(a, "_meta", meta)
	return again
}

// answerJSON returns what a server of opts sends for the result of tool
// to a client that reads accept, or false when it sends it as it is.
func answerJSON(opts binding.ServerOptions, tool string, accept []string, result jsonmap.Value) (jsonmap.Value, bool) {
	s, err := binding.NewServer(opts)
	if err != nil {
		return result, false
	}
	r, err := binding.ResultFromJSON(result, false)
	if err != nil {
		return result, false
	}
	a, ok := s.Answer(tool, accept, r)
	if !ok {
		return result, false
	}
	// ApplyJSON changes the result in place: answer a copy.
	copied, err := jsonmap.Parse(result.AppendCompact(nil))
	if err != nil {
		return result, false
	}
	response := jobj("result", copied)
	a.ApplyJSON(&response)
	out, _ := response.Lookup("result")
	return out, true
}

// The reference's verdict.

// expectBinding runs a case of a binding op on the reference and returns
// its outcome and the rules the case exercises, or errNoCase for an input
// not of the op's shape (mutated vectors break it now and then) or one the
// reference cannot run.
func (r Reference) expectBinding(c Case) ([]byte, []string, error) {
	in, err := jsonmap.Parse(c.Input)
	if r.Impl.MCP == nil || err != nil || !bindingShapeOK(c.Op, in) {
		return nil, nil, errNoCase
	}
	out, err := r.Impl.MCP(c.Op, c.Input)
	if err != nil || !json.Valid(out) {
		return nil, nil, errNoCase
	}
	rules, err := bindingRules(c.Op, c.Input, out)
	if err != nil {
		return nil, nil, errNoCase
	}
	return out, rules, nil
}

// bindingShapeOK extends bindingInputOK with what it does not know: a
// server's session version, and the intermediary's input
// (mcp-proxy-input of vectors.schema.json).
func bindingShapeOK(op conformance.Op, in jsonmap.Value) bool {
	if in.Kind != jsonmap.Object {
		return false
	}
	if p, ok := in.Lookup("protocol"); ok {
		if p.Kind != jsonmap.String || !isDate(p.Text) || op == conformance.OpMCPClient {
			return false
		}
		unset(&in, "protocol")
	}
	if op != conformance.OpMCPProxy {
		return bindingInputOK(op, in)
	}
	// The intermediary's input is the server's without offer, with the
	// upstream's capabilities.
	if s, ok := in.Lookup("settings"); ok {
		if _, offer := s.Lookup("offer"); offer {
			return false
		}
	}
	if u, ok := in.Lookup("upstream"); ok {
		if u.Kind != jsonmap.Object {
			return false
		}
		unset(&in, "upstream")
	}
	return bindingInputOK(conformance.OpMCPServer, in)
}

// isDate reports whether s has the form of a protocol version, YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// bindingInput is the input of a binding op, read as the reference reads
// it (conformance/mcp.go, proxy.go).
type bindingInput struct {
	Settings struct {
		Mode  binding.Mode `json:"mode"`
		Offer []string     `json:"offer"`
		Tools map[string]struct {
			Mode binding.Mode `json:"mode"`
			Name string       `json:"name"`
		} `json:"tools"`
		MaxLineBytes int `json:"max-line-bytes"`
	} `json:"settings"`
	Protocol     string         `json:"protocol"`
	Capabilities map[string]any `json:"capabilities"`
	Upstream     map[string]any `json:"upstream"`
	Request      struct {
		Name string         `json:"name"`
		Meta map[string]any `json:"_meta"`
	} `json:"request"`
	Result  json.RawMessage   `json:"result"`
	Answers []json.RawMessage `json:"answers"`
}

// options returns the settings as package binding takes them.
func (in *bindingInput) options() binding.ServerOptions {
	opts := binding.ServerOptions{Mode: in.Settings.Mode, Offer: in.Settings.Offer, MaxLineBytes: in.Settings.MaxLineBytes}
	if len(in.Settings.Tools) > 0 {
		opts.Tools = map[string]binding.ToolOptions{}
		for name, t := range in.Settings.Tools {
			opts.Tools[name] = binding.ToolOptions{Mode: t.Mode, Name: t.Name}
		}
	}
	return opts
}

// toolMode is the mode of the called tool: its own, else the settings',
// else auto.
func (in *bindingInput) toolMode() binding.Mode {
	return cmp.Or(in.Settings.Tools[in.Request.Name].Mode, in.Settings.Mode, binding.ModeAuto)
}

// optIn is how the client (or host) of a call opted in: the request's
// _meta as it travels, with the capabilities put where the version
// carries them, and what the version reads [MCP-10].
type optIn struct {
	version      string
	meta         map[string]any // the request's _meta as sent
	initialize   map[string]any // the extensions of initialize's capabilities, read below PerRequestCapabilities
	perCall      bool           // the _meta holds the per-call key [MCP-3]
	wellTyped    bool           // ... whose value is an array of strings [MCP-11]
	byCapability bool           // the capabilities the version reads hold the binding's member [MCP-2]
	placed       bool           // capabilities were given somewhere a version might read them [MCP-10]
}

func (in *bindingInput) optIn() optIn {
	o := optIn{version: cmp.Or(in.Protocol, conformance.DefaultProtocol), meta: in.Request.Meta}
	if o.version >= binding.PerRequestCapabilities {
		if in.Capabilities != nil {
			o.meta = maps.Clone(o.meta)
			if o.meta == nil {
				o.meta = map[string]any{}
			}
			o.meta[binding.MetaClientCapabilities] = in.Capabilities
		}
	} else {
		o.initialize, _ = in.Capabilities["extensions"].(map[string]any)
	}
	var value any
	value, o.perCall = o.meta[binding.MetaAccept]
	if list, ok := value.([]any); ok {
		o.wellTyped = !slices.ContainsFunc(list, func(e any) bool { _, s := e.(string); return !s })
	}
	extensions := o.initialize
	if o.version >= binding.PerRequestCapabilities {
		caps, _ := o.meta[binding.MetaClientCapabilities].(map[string]any)
		extensions, _ = caps["extensions"].(map[string]any)
	}
	_, o.byCapability = extensions[binding.Extension]
	_, inMeta := in.Request.Meta[binding.MetaClientCapabilities]
	o.placed = in.Capabilities != nil || inMeta
	return o
}

// accepted returns the tags the call reads [MCP-2] [MCP-3] [MCP-10].
func (o optIn) accepted() []string { return binding.Accepted(o.version, o.meta, o.initialize) }

// optInRules are the rules the opt-in of a call exercises: the per-call
// key, of its type or another, or else the capabilities and where they
// travel.
func (o optIn) optInRules() []string {
	switch {
	case o.perCall && o.wellTyped:
		return []string{"MCP-3", "MCP-4"}
	case o.perCall:
		return []string{"MCP-11", "MCP-3", "MCP-4"}
	}
	// Without the per-call key the capability decides, opting in or
	// not, read where the version carries it.
	rules := []string{"MCP-2"}
	if o.byCapability {
		rules = append(rules, "MCP-4")
	}
	if o.placed {
		rules = append(rules, "MCP-10")
	}
	return rules
}

// bindingRules names the rules a binding case exercises, most telling
// first, from its input and the reference's outcome, by replaying the
// decisions of package binding that the outcome came from: why a server
// or an intermediary left a result alone or what it wrote, what a client
// ended with.
func bindingRules(op conformance.Op, input, outcome []byte) ([]string, error) {
	var in bindingInput
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	switch op {
	case conformance.OpMCPServer:
		return serverRules(&in)
	case conformance.OpMCPProxy:
		return proxyRules(&in)
	case conformance.OpMCPClient:
		return clientRules(&in, outcome)
	}
	return nil, fmt.Errorf("explore: %s is no op of the binding", op)
}

// decisionRules names the rules of a server's decision on a result
// [MCP-4] to [MCP-7], [MCP-12], [AUTO-1].
func decisionRules(d binding.Decision, mode binding.Mode, countsAppended, hasCounts bool) []string {
	var rules []string
	switch d.Why {
	case binding.ReasonNotAccepted:
		return []string{"MCP-4", "MCP-5"}
	case binding.ReasonModeOff, binding.ReasonErrorResult, binding.ReasonNoJSONBlock:
		return []string{"MCP-5"}
	case binding.ReasonNotMapped:
		return []string{"MCP-6", "MCP-1"}
	}
	if d.Why == "" {
		rules = append(rules, "MCP-6", "MCP-1")
	}
	if hasCounts && (d.Why == "" || countsAppended) {
		rules = append(rules, "MCP-7") // the pairs of the payload written or weighed
	}
	if mode == binding.ModeAuto {
		if countsAppended {
			rules = append([]string{"MCP-12"}, rules...)
		}
		rules = append(rules, "AUTO-1")
	}
	switch d.Why {
	case binding.ReasonJSONCheaper:
		rules = append(rules, "MCP-6", "MCP-1")
	case binding.ReasonCompactCheaper:
		rules = append(rules, "MCP-6", "MCP-1", "MAP-3") // the compact form, marked compact
	}
	if d.Answer.Differs {
		rules = append(rules, "MCP-5") // the first JSON text, marked as differing
	}
	return rules
}

// countsAppended reports whether the payload a server writes for the
// result carries the pairs of [MCP-7]: whether it differs from the one
// it writes for the result without those keys. hasCounts says whether
// the result has either key.
func countsAppended(opts binding.ServerOptions, tool string, accept []string, result json.RawMessage) (appended, hasCounts bool) {
	v, err := jsonmap.Parse(result)
	if err != nil {
		return false, false
	}
	meta, _ := v.Lookup("_meta")
	_, total := meta.Lookup(binding.MetaTotal)
	_, truncated := meta.Lookup(binding.MetaTruncated)
	if !total && !truncated {
		return false, false
	}
	opts.Mode, opts.Tools = binding.ModeGCX, maps.Clone(opts.Tools)
	if t, ok := opts.Tools[tool]; ok {
		t.Mode = binding.ModeGCX
		opts.Tools[tool] = t
	}
	with, ok := answerJSON(opts, tool, accept, v)
	bare := v
	unset(&meta, binding.MetaTotal)
	unset(&meta, binding.MetaTruncated)
	set(&bare, "_meta", meta)
	without, ok2 := answerJSON(opts, tool, accept, bare)
	if !ok || !ok2 {
		return false, true
	}
	withText, _ := with.Lookup("content")
	withoutText, _ := without.Lookup("content")
	return !bytes.Equal(withText.AppendCompact(nil), withoutText.AppendCompact(nil)), true
}

func serverRules(in *bindingInput) ([]string, error) {
	s, err := binding.NewServer(in.options())
	if err != nil {
		return nil, err
	}
	v, err := jsonmap.Parse(in.Result)
	if err != nil {
		return nil, err
	}
	r, err := binding.ResultFromJSON(v, false)
	if err != nil {
		return nil, err
	}
	o := in.optIn()
	accept := o.accepted()
	d := s.Decide(in.Request.Name, accept, r)
	appended, hasCounts := false, false
	if d.Why == "" || d.Why == binding.ReasonJSONCheaper {
		appended, hasCounts = countsAppended(in.options(), in.Request.Name, accept, in.Result)
	}
	rules := decisionRules(d, in.toolMode(), appended, hasCounts)
	if d.Why == binding.ReasonNotAccepted && (o.perCall || o.byCapability) {
		// the client listed tags, none of them the server's, or none
		rules = append(o.optInRules(), rules...)
	} else {
		rules = append(rules, o.optInRules()...)
	}
	return dedupe(rules), nil
}

func proxyRules(in *bindingInput) ([]string, error) {
	p, err := binding.NewIntermediary(binding.ServerOptions{Mode: in.Settings.Mode, Tools: in.options().Tools, MaxLineBytes: in.Settings.MaxLineBytes})
	if err != nil {
		return nil, err
	}
	v, err := jsonmap.Parse(in.Result)
	if err != nil {
		return nil, err
	}
	r, err := binding.ResultFromJSON(v, false)
	if err != nil {
		return nil, err
	}
	o := in.optIn()
	upstreamExtensions, _ := in.Upstream["extensions"].(map[string]any)
	session := binding.Session{ProtocolVersion: o.version, UpstreamOffer: binding.Offer(upstreamExtensions)}
	if o.version < binding.PerRequestCapabilities {
		session.Host = p.SaidIn(o.initialize)
	}
	pending := p.Request(session, in.Request.Name, o.meta)
	d := p.Decide(pending, r)
	hostSpoke := o.perCall || o.byCapability

	var rules []string
	switch {
	case d.Why == binding.ReasonUpstreamAnswered:
		rules = []string{"PRX-3"}
	case hostSpoke:
		rules = []string{"PRX-2"}
	default:
		rules = []string{"PRX-1"}
	}
	if _, member := upstreamExtensions[binding.Extension]; member || pending.Ask != nil {
		// whether to ask the upstream was decided by what it offers
		rules = append(rules, "PRX-3")
	}
	if pending.Ask != nil {
		rules = append(rules, "MCP-3") // asked per call
	}
	if d.Why != binding.ReasonUpstreamAnswered {
		accept, opts := o.accepted(), binding.ServerOptions{Mode: in.Settings.Mode, Tools: in.options().Tools, MaxLineBytes: in.Settings.MaxLineBytes}
		if !hostSpoke {
			accept = binding.Readable
		}
		appended, hasCounts := false, false
		if d.Why == "" || d.Why == binding.ReasonJSONCheaper {
			appended, hasCounts = countsAppended(opts, in.Request.Name, accept, in.Result)
		}
		decided := decisionRules(d, in.toolMode(), appended, hasCounts)
		if !hostSpoke && in.toolMode() == binding.ModeAuto && (d.Why == "" || d.Why == binding.ReasonJSONCheaper) {
			rules = append(rules, "PRX-4") // weighed against the text the tool wrote
			decided = slices.DeleteFunc(decided, func(r string) bool { return r == "AUTO-1" })
		}
		rules = append(rules, decided...)
		if hostSpoke {
			rules = append(rules, o.optInRules()...)
		}
	}
	if pending.Ask == nil || !d.Answered {
		rules = append(rules, "PRX-5") // a message of the call passed on as it came
	}
	return dedupe(rules), nil
}

func clientRules(in *bindingInput, outcome []byte) ([]string, error) {
	var out struct {
		Requests []json.RawMessage `json:"requests"`
		Error    *struct {
			Class string `json:"class"`
		} `json:"error"`
		Total     *json.RawMessage `json:"total"`
		Truncated *bool            `json:"truncated"`
	}
	if err := json.Unmarshal(outcome, &out); err != nil {
		return nil, err
	}
	// The client opts in per call [MCP-3]; whether it calls again is
	// decided on every error of a payload [MCP-9].
	rules := []string{"MCP-8", "MCP-3"}
	if len(out.Requests) > 1 || (out.Error != nil && payloadClasses[out.Error.Class]) {
		rules = []string{"MCP-9", "MCP-8", "MCP-3"}
	}
	if out.Total != nil || out.Truncated != nil {
		rules = append(rules, "MCP-7")
	}
	for _, a := range in.Answers {
		var answer struct {
			Meta map[string]any `json:"_meta"`
		}
		if json.Unmarshal(a, &answer) != nil {
			continue
		}
		if _, ok := answer.Meta[binding.MetaFormat]; ok {
			rules = append(rules, "MCP-1")
		}
		_, total := answer.Meta[binding.MetaTotal]
		_, truncated := answer.Meta[binding.MetaTruncated]
		if total || truncated {
			rules = append(rules, "MCP-7")
		}
		_, compact := answer.Meta[binding.MetaCompact]
		_, differs := answer.Meta[binding.MetaDiffers]
		if compact || differs {
			rules = append(rules, "MCP-1") // the marks it names, read by [MCP-8]
		}
	}
	return dedupe(rules), nil
}

// payloadClasses are the classes of a payload's own errors [ERR-1], on
// which a client decides whether to call again [MCP-9].
var payloadClasses = map[string]bool{"not-gcx": true, "unsupported-version": true, "syntax": true, "constraint": true, "limit": true}

// inAutoMode reports whether a case of a server or an intermediary puts
// its tool in auto mode, which a program without a tokenizer declines
// alone (docs/conformance.md, "The MCP binding's ops").
func inAutoMode(c Case) bool {
	if c.Op != conformance.OpMCPServer && c.Op != conformance.OpMCPProxy {
		return false
	}
	var in bindingInput
	if json.Unmarshal(c.Input, &in) != nil {
		return false
	}
	return in.toolMode() == binding.ModeAuto
}
