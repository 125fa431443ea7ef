package explore_test

// The planted-bug study of issue 29: realistic single-point bugs planted,
// one at a time, in the repository's two independent implementations (the
// Python example and the JavaScript adapter), and for each, whether the
// committed vectors catch it and, if not, whether gcx explore's default run
// finds it. The list was written from docs/wire-format.md and the examples'
// code before the explore generators were read or any bug was measured, so
// that it is not tuned to the judge.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/conformance/explore"
	"github.com/gcxwire/gcx/internal/deep"
)

// A plantedBug is one single-point change to one file of an example.
type plantedBug struct {
	name string // unique, short
	lang string // "python" or "javascript": the directory under conformance/examples
	file string // the file changed
	area string // the part of the specification the bug is in, for the counts by area
	rule string // the rule it breaks
	old  string // text that occurs exactly once in file
	new  string // what replaces it
	// A witness: one run on which the planted copy behaves differently
	// from the committed one — the program run (a file of the example),
	// its arguments and its stdin.
	program string
	args    []string
	input   string
}

// Areas of the specification, for the counts.
const (
	areaDecode  = "GCX1 decode"
	areaEncode  = "GCX1 encode"
	areaLimits  = "GCX1 limits"
	areaJSONEnc = "JSON mapping, encode"
	areaJSONDec = "JSON mapping, decode"
	areaServer  = "MCP server"
	areaClient  = "MCP client"
)

var (
	wireDecode = []string{"decode", "--wire"}
	wireEncode = []string{"encode", "--wire"}
	jsonEncode = []string{"encode", "--mode", "gcx", "--tool", "t"}
	jsonDecode = []string{"decode"}
	mcpServer  = []string{"mcp-server"}
	mcpClient  = []string{"mcp-client"}
)

// Python's gcx1.py, run through adapter.py (and, for encode and decode of
// the mapping, through mcp_adapter.py, which uses it).
func py(name, area, rule, old, new string, args []string, input string) plantedBug {
	return plantedBug{name: name, lang: "python", file: "gcx1.py", area: area, rule: rule, old: old, new: new,
		program: "adapter.py", args: args, input: input}
}

// Python's jsonmap.py, its witness run through mcp_adapter.py; the judge
// reaches the mapping through adapter.py's json ops and through the binding.
func pyMap(name, area, rule, old, new string, args []string, input string) plantedBug {
	return plantedBug{name: name, lang: "python", file: "jsonmap.py", area: area, rule: rule, old: old, new: new,
		program: "mcp_adapter.py", args: args, input: input}
}

func pyMCP(name, area, rule, old, new string, args []string, input string) plantedBug {
	return plantedBug{name: name, lang: "python", file: "mcp_adapter.py", area: area, rule: rule, old: old, new: new,
		program: "mcp_adapter.py", args: args, input: input}
}

func js(name, area, rule, old, new string, args []string, input string) plantedBug {
	return plantedBug{name: name, lang: "javascript", file: "adapter.js", area: area, rule: rule, old: old, new: new,
		program: "adapter.js", args: args, input: input}
}

// serverInput is an mcp-server input in mode gcx whose client opts in per
// call and whose tool returned value (a JSON text) in its one text block.
func serverInput(value string) string {
	return serverInputWith(`"mode":"gcx"`, `"io.github.gcxwire/accept":["GCX1"]`, value, "")
}

// serverInputWith is serverInput with the settings' members, the request's
// _meta members and more members of the result (after content) given.
func serverInputWith(settings, requestMeta, value, result string) string {
	text, _ := json.Marshal(value)
	if result != "" {
		result = "," + result
	}
	return `{"settings":{` + settings + `},"request":{"name":"t","_meta":{` + requestMeta + `}},` +
		`"result":{"content":[{"type":"text","text":` + string(text) + `}]` + result + `}}`
}

// clientInput is an mcp-client input whose one answer names GCX1 in its
// _meta (plus the members given) and holds payload in its one text block.
func clientInput(payload, meta string) string {
	text, _ := json.Marshal(payload)
	if meta != "" {
		meta = "," + meta
	}
	return `{"answers":[{"content":[{"type":"text","text":` + string(text) + `}],` +
		`"_meta":{"io.github.gcxwire/format":"GCX1"` + meta + `}}]}`
}

const (
	accept   = `"io.github.gcxwire/accept":["GCX1"]`
	gcxMode  = `"mode":"gcx"`
	oneTable = `[{"a":1}]`
)

// plantedBugs is the study's list. Each bug breaks one rule in one place,
// as an implementer reading the text could: an off-by-one, a wrong
// comparison, a forgotten escape or guard, characters for bytes, a check in
// the wrong order, a case-insensitive compare, a binding step that touches
// what it must leave alone. A few make the same mistake in both languages
// (their names say "(both)").
var plantedBugs = []plantedBug{
	// ---- Python, gcx1.py: the GCX1 layer
	py("py: tag bound off by one", areaDecode, "VER-3",
		`if n == 3 or n > 32 or line[n:n + 1] not in ("", " "):`,
		`if n == 3 or n > 33 or line[n:n + 1] not in ("", " "):`,
		wireDecode, "GCX123456789012345678901234567890 x\n"),
	py("py: byte-order mark named as PAY-1", areaDecode, "ENC-2",
		`self.fail("not-gcx", "ENC-2", 0, "payload begins with a byte-order mark")`,
		`self.fail("not-gcx", "PAY-1", 0, "payload begins with a byte-order mark")`,
		wireDecode, "\ufeffGCX1 tool=t fields=a\n"),
	py("py: reserved meta keys compared case-insensitively", areaDecode, "HDR-8",
		`if key in ("tool", "fields") or key in seen:  # [HDR-8]`,
		`if key.lower() in ("tool", "fields") or key in seen:  # [HDR-8]`,
		wireDecode, "GCX1 tool=t fields=a TOOL=y\n"),
	py("py: count bound admits 2^63", areaDecode, "META-1",
		`not (COUNT.fullmatch(value) and int(value) < 2**63)`,
		`not (COUNT.fullmatch(value) and int(value) <= 2**63)`,
		wireDecode, "GCX1 tool=t fields=a total=9223372036854775808\n"),
	py("py: truncated= compared case-insensitively", areaDecode, "META-3",
		`if key == "truncated" and value not in ("true", "false"):`,
		`if key == "truncated" and value.lower() not in ("true", "false"):`,
		wireDecode, "GCX1 tool=t fields=a truncated=True\n"),
	py("py: meta values take the field escape \\,", areaDecode, "HDR-7",
		`META_ESCAPES = dict(VALUE_ESCAPES, s=" ")`,
		`META_ESCAPES = dict(VALUE_ESCAPES, s=" ", **{",": ","})`,
		wireDecode, "GCX1 tool=t fields=a k=a\\,b\n"),
	py("py: guard \\G checks C but not X", areaDecode, "ROW-4",
		`for k, c in ((2, "C"), (3, "X")):`,
		`for k, c in ((2, "C"),):`,
		wireDecode, "GCX1 tool=t fields=a\n\\GCy\n"),
	py("py: encoder guards GCX1 but not GCX (both)", areaEncode, "ROW-4",
		`return "\\" + line if line.startswith(("#", "GCX")) else line`,
		`return "\\" + line if line.startswith(("#", "GCX1")) else line`,
		wireEncode, `{"sections":[{"tool":"t","fields":["a"],"rows":[["GCXa"]]}]}`),
	py("py: comment lines escape the line limit", areaLimits, "LIM-3",
		"\"\"\"[CMT-1]: '#', any text but CR, then LF; kept with its place [CMT-3].\"\"\"\n        self.check_length()\n",
		"\"\"\"[CMT-1]: '#', any text but CR, then LF; kept with its place [CMT-3].\"\"\"\n",
		[]string{"decode", "--wire", "--max-line-bytes", "21"}, "GCX1 tool=t fields=a\n#"+strings.Repeat("x", 40)+"\n"),
	py("py: section limit one too lax", areaLimits, "LIM-3",
		`if len(self.sections) == self.max_sections:`,
		`if self.max_sections and len(self.sections) > self.max_sections:`,
		[]string{"decode", "--wire", "--max-sections", "1"}, "GCX1 tool=t fields=a\nGCX1 tool=u fields=b\n"),
	py("py: line limit checked before the row limit", areaLimits, "ERR-3",
		"        if len(section.rows) == self.max_rows:  # [ERR-3] step 3 [LIM-3]\n            self.fail(\"limit\", \"LIM-3\", 0, f\"more than the limit of {self.max_rows} rows\")\n        self.check_length()\n",
		"        self.check_length()\n        if len(section.rows) == self.max_rows:  # [ERR-3] step 3 [LIM-3]\n            self.fail(\"limit\", \"LIM-3\", 0, f\"more than the limit of {self.max_rows} rows\")\n",
		[]string{"decode", "--wire", "--max-rows", "1", "--max-line-bytes", "25"}, "GCX1 tool=t fields=a\nx\n"+strings.Repeat("y", 30)+"\n"),
	py("py: field limit one too lax", areaLimits, "LIM-3",
		`if count == self.max_fields:`,
		`if self.max_fields and count > self.max_fields:`,
		[]string{"decode", "--wire", "--max-fields", "1"}, "GCX1 tool=t fields=a,b\n"),
	py("py: repeated field checked before the field limit", areaLimits, "ERR-3",
		"            if count == self.max_fields:\n                self.fail(\"limit\", \"LIM-3\", at, f\"more than the limit of {count} fields\")\n            if name in seen:\n                self.fail(\"constraint\", \"HDR-6\", at, f\"field name {name!r} appears twice\")\n",
		"            if name in seen:\n                self.fail(\"constraint\", \"HDR-6\", at, f\"field name {name!r} appears twice\")\n            if count == self.max_fields:\n                self.fail(\"limit\", \"LIM-3\", at, f\"more than the limit of {count} fields\")\n",
		[]string{"decode", "--wire", "--max-fields", "1"}, "GCX1 tool=t fields=a,a\n"),
	py("py: rows= counts comment lines", areaDecode, "META-4",
		`held = len(self.sections[-1].rows)`,
		`held = len(self.sections[-1].rows) + len(self.sections[-1].comments)`,
		wireDecode, "GCX1 tool=t fields=a rows=1\n#c\nx\n"),
	py("py: field names lack the escape \\s", areaDecode, "HDR-5",
		`FIELD_ESCAPES = dict(META_ESCAPES, **{",": ","})`,
		`FIELD_ESCAPES = dict(VALUE_ESCAPES, **{",": ","})`,
		wireDecode, "GCX1 tool=t fields=a\\sb\n"),
	py("py: encoder checks comment places against 0, not the one before", areaEncode, "CMT-3",
		`if not previous <= row <= len(s.rows):`,
		`if not 0 <= row <= len(s.rows):`,
		wireEncode, `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]],"comments":[[1,"a"],[0,"b"]]}]}`),
	py("py: wire view takes true for a comment's place", areaEncode, "WIRE-2",
		"        if node[1] != \"number\":\n",
		"        if node[2] == \"true\":\n            return (node[0], \"number\", \"1\")  # as Python's True is 1\n        if node[1] != \"number\":\n",
		wireEncode, `{"sections":[{"tool":"t","fields":["a"],"rows":[["x"]],"comments":[[true,"c"]]}]}`),
	py("py: names match Unicode word characters", areaDecode, "HDR-3",
		`NAME = re.compile(r"[A-Za-z0-9_.-]*")`,
		`NAME = re.compile(r"[\w.-]*")`,
		wireDecode, "GCX1 tool=é fields=a\n"),
	py("py: a later header's version named VER-2", areaDecode, "VER-4",
		`self.fail("unsupported-version", "VER-4" if self.sections else "VER-2", 0,`,
		`self.fail("unsupported-version", "VER-2", 0,`,
		wireDecode, "GCX1 tool=t fields=a\nGCX2 x\n"),

	// ---- Python, jsonmap.py: the JSON mapping (through the MCP binding)
	pyMap("py: @ written bare in the object forms", areaJSONEnc, "MAP-6",
		`if v == "" or (object_form and v == "@"):`,
		`if v == "":`,
		mcpServer, serverInput(`{"a":"@","b":1}`)),
	pyMap("py: strings beginning with - never quoted (both)", areaJSONEnc, "MAP-6",
		`FIRST = set('"[{-0123456789tfn')`,
		`FIRST = set('"[{0123456789tfn')`,
		mcpServer, serverInput(`["-1"]`)),
	pyMap("py: header form admits a backslash (both)", areaJSONEnc, "MAP-12",
		`HEADER_ESCAPED = re.compile("[ \t\n\r\\\\]")`,
		`HEADER_ESCAPED = re.compile("[ \t\n\r]")`,
		mcpServer, serverInput(`{"a":"x\\y"}`)),
	pyMap("py: header form's total= without the count bound", areaJSONEnc, "MAP-12",
		`(k == "total" and not (COUNT.fullmatch(text) and int(text) < 2**63))`,
		`(k == "total" and not COUNT.fullmatch(text))`,
		mcpServer, serverInput(`{"total":9223372036854775808}`)),
	pyMap("py: header form takes a member named str", areaJSONEnc, "MAP-12",
		`HEADER_EXCLUDED = {"json", "rows", "nest", "str", "tool", "fields"}`,
		`HEADER_EXCLUDED = {"json", "rows", "nest", "tool", "fields"}`,
		mcpServer, serverInput(`{"str":1}`)),
	pyMap("py: spread only when fewer cells are empty than full (both)", areaJSONEnc, "MAP-17",
		`return sub if empty <= filled else None`,
		`return sub if empty < filled else None`,
		mcpServer, serverInput(`[{"p":{"a":1}},{"p":{"b":2}}]`)),
	pyMap("py: the empty member name spread (both)", areaJSONEnc, "MAP-17",
		`if not p or "," in p or any(n != p and n.startswith(p + ".") for n in names):`,
		`if "," in p or any(n != p and n.startswith(p + ".") for n in names):`,
		mcpServer, serverInput(`[{"":{"a":1}}]`)),
	pyMap("py: bare column from one quoted cell (both)", areaJSONEnc, "MAP-18",
		`sum(1 for s in present if needs_quotes(s)) >= 2:`,
		`sum(1 for s in present if needs_quotes(s)) >= 1:`,
		mcpServer, serverInput(`[{"a":"1"},{"a":"x"}]`)),
	pyMap("py: @ under the empty name in the row form", areaJSONEnc, "MAP-12",
		`return not row_form or (name and NAME.fullmatch(name))`,
		`return not row_form or NAME.fullmatch(name)`,
		mcpServer, serverInput(`{"":[{"a":1}],"x":"a b"}`)),
	pyMap("py: an empty cell read as the empty string", areaJSONDec, "MAP-8",
		"            elif cell != \"\":\n                obj.append((f, cell if f in bare else unspell(cell, False, _cell_at(section, r, k))))",
		"            else:\n                obj.append((f, cell if f in bare else unspell(cell, False, _cell_at(section, r, k))))",
		mcpClient, clientInput("GCX1 tool=t fields=a,b rows=1\n1\t\n", "")),
	pyMap("py: nest= may name a field (both)", areaJSONDec, "MAP-15",
		`if not p or nest.count(p) > 1 or p in fields or not any(`,
		`if not p or nest.count(p) > 1 or not any(`,
		mcpClient, clientInput("GCX1 tool=t fields=p,p.a nest=p rows=1\n1\t2\n", "")),
	pyMap("py: str= may list a field twice", areaJSONDec, "MAP-16",
		`if name not in fields or listed.count(name) > 1:`,
		`if name not in fields:`,
		mcpClient, clientInput("GCX1 tool=t fields=a str=a,a rows=1\nx\n", "")),
	pyMap("py: value form's empty cell not refused", areaJSONDec, "MAP-9",
		`if row[0] == "":`,
		`if form == "array" and row[0] == "":`,
		mcpClient, clientInput("GCX1 tool=t fields= json=value rows=1\n\n", "")),
	pyMap("py: header form without a table may hold one row", areaJSONDec, "MAP-10",
		`if tables == 0 and root.rows:`,
		`if tables == 0 and len(root.rows) > 1:`,
		mcpClient, clientInput("GCX1 tool=t fields= json=object a=1 rows=1\n\n", "")),
	pyMap("py: layout int admits exponents", areaJSONEnc, "LAY-3",
		`return type(v) is Number and INTEGER.fullmatch(v) is not None`,
		`return type(v) is Number and "." not in v`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"name":"search_symbols"}}`, accept, `[{"id":"a","kind":"k","name":"n","file_path":"p","start_line":1e5}]`, "")),
	pyMap("py: layout members in any order", areaJSONEnc, "LAY-2",
		`if k not in names[position:]:`,
		`if k not in names:`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"name":"search_symbols"}}`, accept, `[{"kind":"k","id":"a","name":"n","file_path":"p","start_line":1}]`, "")),
	pyMap("py: multi-part layout's members in any order", areaJSONEnc, "LAY-2",
		`return (type(v) is Object and [k for k, _ in v] == [p.member for p in parts]`,
		`return (type(v) is Object and sorted(k for k, _ in v) == sorted(p.member for p in parts)`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"name":"get_callers"}}`, accept, `{"edges":[],"nodes":[]}`, "")),
	pyMap("py: layout sections may carry nest= and str=", areaJSONDec, "LAY-4",
		"if key in (\"json\", \"nest\", \"str\"):\n                raise _constraint(\"LAY-4\"",
		"if key == \"json\":\n                raise _constraint(\"LAY-4\"",
		mcpClient, clientInput("GCX1 tool=search_symbols fields=id,kind,name,path,line,sig str=id rows=0\n", "")),
	pyMap("py: object layout part with no row", areaJSONDec, "LAY-2",
		`if part.shape == "object" and len(section.rows) != 1:`,
		`if part.shape == "object" and len(section.rows) > 1:`,
		mcpClient, clientInput("GCX1 tool=graph_stats fields=nodes,edges,files,symbols,packages,indexed rows=0\n", "")),
	pyMap("py: a json=rows root not taken for a table", areaClient, "MCP-7",
		"    if form == \"rows\":\n        return True\n    if form is None:",
		"    if form is None:",
		mcpClient, clientInput("GCX1 tool=t fields=a json=rows rows=1 total=5\n1\n", "")),
	pyMap("py: nested member names keep the dot", areaJSONDec, "MAP-15",
		`nested[p].append((f[len(p) + 1:], cell if f in bare else`,
		`nested[p].append((f[len(p):], cell if f in bare else`,
		mcpClient, clientInput("GCX1 tool=t fields=p.a nest=p rows=1\n1\n", "")),

	// ---- Python, mcp_adapter.py: the MCP binding
	pyMCP("py: per-call accept with a non-string reads its strings", areaServer, "MCP-11",
		"        if type(accept) is not list or not all(type(x) is str for x in accept):\n            return []  # a value of the wrong type asks for JSON [MCP-11]",
		"        if type(accept) is not list:\n            return []  # a value of the wrong type asks for JSON [MCP-11]",
		mcpServer, serverInputWith(gcxMode, `"io.github.gcxwire/accept":["x",7,"GCX1"]`, oneTable, "")),
	pyMCP("py: request capabilities only after 2026-07-28", areaServer, "MCP-10",
		`if protocol >= PER_REQUEST_CAPABILITIES_FROM:`,
		`if protocol > PER_REQUEST_CAPABILITIES_FROM:`,
		mcpServer, `{"settings":{"mode":"gcx"},"protocol":"2026-07-28","request":{"name":"t","_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.github.gcxwire/gcx":{"accept":["GCX1"]}}}}},"result":{"content":[{"type":"text","text":"[{\"a\":1}]"}]}}`),
	pyMCP("py: a tag the client did not list", areaServer, "MCP-4",
		`tag = next((t for t in offer if t in WRITABLE and t in listed), None)`,
		`tag = next((t for t in offer if t in WRITABLE), None)`,
		mcpServer, serverInputWith(gcxMode, `"io.github.gcxwire/accept":["GCX2"]`, oneTable, "")),
	pyMCP("py: error results encoded", areaServer, "MCP-5",
		`if tag is None or obj_get(result, "isError") is True:`,
		`if tag is None:`,
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"isError":true`)),
	pyMCP("py: a GCX block before the JSON block ignored", areaServer, "MCP-5",
		"        if text.startswith(\"GCX\"):\n            if not structured:\n                break  # a client would take this block for the payload [MCP-5]\n            gcx = True  # a block of structuredContent's value after it would leave none\n            continue\n",
		"",
		mcpServer, `{"settings":{"mode":"gcx"},"request":{"name":"t","_meta":{"io.github.gcxwire/accept":["GCX1"]}},"result":{"content":[{"type":"text","text":"GCX hi"},{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}}`),
	pyMCP("py: without structuredContent a prose block before the JSON block hides it", areaServer, "MCP-5",
		"            continue  # not a JSON text [MAP-1]\n",
		"            if not structured:\n                return None\n            continue\n",
		mcpServer, `{"settings":{"mode":"gcx"},"request":{"name":"t","_meta":{"io.github.gcxwire/accept":["GCX1"]}},"result":{"content":[{"type":"text","text":"note"},{"type":"text","text":"[{\"a\":1}]"}]}}`),
	pyMCP("py: the server's mode overrides the tool's", areaServer, "MCP-5",
		`mode = obj_get(tool_settings, "mode") or obj_get(settings, "mode") or "auto"`,
		`mode = obj_get(settings, "mode") or obj_get(tool_settings, "mode") or "auto"`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"mode":"off"}}`, accept, oneTable, "")),
	pyMCP("py: an empty configured name taken as the name", areaServer, "MCP-6",
		`tool = obj_get(tool_settings, "name") or name`,
		`tool = obj_get(tool_settings, "name", name)`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"name":""}}`, accept, oneTable, "")),
	pyMCP("py: a value the mapping cannot write goes out unnamed", areaServer, "MCP-6",
		`return Object([("result", set_member(result, "_meta", set_member(meta, FORMAT, "json")))])`,
		`return untouched`,
		mcpServer, serverInputWith(`"mode":"gcx","tools":{"t":{"name":"a/b"}}`, accept, oneTable, "")),
	pyMCP("py: total bound excludes 2^53", areaServer, "MCP-1",
		`return v == v.to_integral_value() and 0 <= v <= 2**53`,
		`return v == v.to_integral_value() and 0 <= v < 2**53`,
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"_meta":{"io.github.gcxwire/total":9007199254740992}`)),
	pyMCP("py: truncated= before total=", areaServer, "MCP-7",
		"            if has_member(meta, TOTAL) and is_total(total):\n                pairs.append((\"total\", str(total_value(total))))\n            if has_member(meta, TRUNCATED) and type(truncated) is bool:\n                pairs.append((\"truncated\", \"true\" if truncated else \"false\"))\n",
		"            if has_member(meta, TRUNCATED) and type(truncated) is bool:\n                pairs.append((\"truncated\", \"true\" if truncated else \"false\"))\n            if has_member(meta, TOTAL) and is_total(total):\n                pairs.append((\"total\", str(total_value(total))))\n",
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"_meta":{"io.github.gcxwire/total":3,"io.github.gcxwire/truncated":true}`)),
	pyMCP("py: truncated of the wrong type copied", areaServer, "MCP-7",
		`if has_member(meta, TRUNCATED) and type(truncated) is bool:`,
		`if has_member(meta, TRUNCATED):`,
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"_meta":{"io.github.gcxwire/truncated":"no"}`)),
	pyMCP("py: the JSON block rebuilt, losing its members", areaServer, "MCP-6",
		`new_content[index] = set_member(content[index], "text", payload)`,
		`new_content[index] = Object([("type", "text"), ("text", payload)])`,
		mcpServer, `{"settings":{"mode":"gcx"},"request":{"name":"t","_meta":{"io.github.gcxwire/accept":["GCX1"]}},"result":{"content":[{"type":"text","text":"[1]","annotations":{"audience":["user"]}}]}}`),
	pyMCP("py: the result's other _meta keys dropped", areaServer, "MCP-6",
		`meta = set_member(meta, FORMAT, tag)`,
		`meta = Object([(FORMAT, tag)])`,
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"_meta":{"x":1}`)),
	pyMCP("py: total written as its literal, not in digits", areaServer, "MCP-7",
		`pairs.append(("total", str(total_value(total))))`,
		`pairs.append(("total", str(total)))`,
		mcpServer, serverInputWith(gcxMode, accept, oneTable, `"_meta":{"io.github.gcxwire/total":41.0}`)),
	pyMCP("py: the client repeats when destructiveHint is false", areaClient, "MCP-9",
		`obj_get(annotations, "idempotentHint") is True`,
		`obj_get(annotations, "destructiveHint") is False`,
		mcpClient, `{"annotations":{"idempotentHint":true},"answers":[{"content":[{"type":"text","text":"GCX2 tool=t fields=a\n"}],"_meta":{"io.github.gcxwire/format":"GCX1"}},{"content":[{"type":"text","text":"[1]"}]}]}`),
	pyMCP("py: the client repeats after a syntax error", areaClient, "MCP-9",
		`if e.cls != "unsupported-version" or not repeatable:`,
		`if e.cls not in ("unsupported-version", "syntax") or not repeatable:`,
		mcpClient, `{"annotations":{"readOnlyHint":true},"answers":[{"content":[{"type":"text","text":"GCX1 tool=t\n"}],"_meta":{"io.github.gcxwire/format":"GCX1"}},{"content":[{"type":"text","text":"[1]"}]}]}`),
	pyMCP("py: the client reports truncated false", areaClient, "MCP-8",
		"    if truncated:\n        out.append((\"truncated\", True))",
		"    if truncated is not None:\n        out.append((\"truncated\", truncated))",
		mcpClient, `{"answers":[{"content":[{"type":"text","text":"[1]"}],"_meta":{"io.github.gcxwire/truncated":false}}]}`),
	pyMCP("py: the client stops at the first text block that is no JSON", areaClient, "MCP-8",
		"                return compact(parse_json(text))\n            except (JSONError, RecursionError):\n                continue",
		"                return compact(parse_json(text))\n            except (JSONError, RecursionError):\n                return None",
		mcpClient, `{"answers":[{"content":[{"type":"text","text":"hello"},{"type":"text","text":"[1]"}]}]}`),
	pyMCP("py: the client reads total= of a header-form root", areaClient, "MCP-7",
		`if root_is_table(sections):`,
		`if meta_value(sections[0], "json") != "row":`,
		mcpClient, clientInput("GCX1 tool=t fields= json=object total=5\n", "")),

	// ---- JavaScript, adapter.js
	js("js: overlong lead bytes C0 and C1 accepted", areaDecode, "ENC-1",
		`if (c < 0xC2) return 0;`,
		`if (c < 0xC0) return 0;`,
		wireDecode, "GCX1 tool=t fields=a\n\xc1\xbf\n"),
	js("js: encoded surrogates accepted", areaDecode, "ENC-1",
		"    if (c === 0xE0) lo = 0xA0;\n    else if (c === 0xED) hi = 0x9F;\n",
		"    if (c === 0xE0) lo = 0xA0;\n",
		wireDecode, "GCX1 tool=t fields=a\n\xed\xa0\x80\n"),
	js("js: code points above U+10FFFF accepted", areaDecode, "ENC-1",
		"    if (c === 0xF0) lo = 0x90;\n    else if (c === 0xF4) hi = 0x8F;\n",
		"    if (c === 0xF0) lo = 0x90;\n",
		wireDecode, "GCX1 tool=t fields=a\n\xf4\x90\x80\x80\n"),
	js("js: the line limit counts the LF", areaLimits, "LIM-3",
		`if (lineEnd - lineStart > maxLineBytes)`,
		`if (lineEnd - lineStart >= maxLineBytes)`,
		[]string{"decode", "--wire", "--max-line-bytes", "20"}, "GCX1 tool=t fields=a\n"),
	js("js: row limit one too lax", areaLimits, "LIM-3",
		`if (section.rows.length + 1 > maxRows)`,
		`if (section.rows.length > maxRows)`,
		[]string{"decode", "--wire", "--max-rows", "1"}, "GCX1 tool=t fields=a\nx\ny\n"),
	js("js: extra value's column one to the right", areaDecode, "ROW-2",
		`lineStart + cols[width] - 2`,
		`lineStart + cols[width] - 1`,
		wireDecode, "GCX1 tool=t fields=a\nx\ty\n"),
	js("js: reserved meta keys compared case-insensitively", areaDecode, "HDR-8",
		`if (key === 'tool' || key === 'fields' || keysSeen.has(key)) {`,
		`if (/^(tool|fields)$/i.test(key) || keysSeen.has(key)) {`,
		wireDecode, "GCX1 tool=t fields=a Fields=y\n"),
	js("js: meta values take the field escape \\,", areaDecode, "HDR-7",
		`const TEXT_ESCAPES = { 0x5C: '\\', 0x74: '\t', 0x6E: '\n', 0x72: '\r', 0x73: ' ' }; // [HDR-7]`,
		`const TEXT_ESCAPES = { 0x5C: '\\', 0x74: '\t', 0x6E: '\n', 0x72: '\r', 0x73: ' ', 0x2C: ',' }; // [HDR-7]`,
		wireDecode, "GCX1 tool=t fields=a k=a\\,b\n"),
	js("js: encoder guards GCX1 but not GCX (both)", areaEncode, "ROW-4",
		`const guard = row[0].startsWith('#') || row[0].startsWith('GCX') ? '\\' : '';`,
		`const guard = row[0].startsWith('#') || row[0].startsWith('GCX1') ? '\\' : '';`,
		wireEncode, `{"sections":[{"tool":"t","fields":["a"],"rows":[["GCXa"]]}]}`),
	js("js: encoder lets CR into a comment", areaEncode, "CMT-4",
		`if (/[\n\r]/.test(text)) throw refuse('CMT-4'`,
		`if (/\n/.test(text)) throw refuse('CMT-4'`,
		wireEncode, `{"sections":[{"tool":"t","fields":["a"],"comments":[[0,"a\rb"]]}]}`),
	js("js: JSON strings admit U+001F raw", areaJSONEnc, "MAP-1",
		"} else if (c < 0x20) {\n        throw new JsonError(p, 'control character in string');",
		"} else if (c < 0x1F) {\n        throw new JsonError(p, 'control character in string');",
		jsonEncode, "[\"a\x1fb\"]"),
	js("js: a lone low surrogate escape accepted", areaJSONEnc, "MAP-1",
		"    if (unit >= 0xDC00 && unit <= 0xDFFF) throw new JsonError(backslash, 'unpaired surrogate escape');\n",
		"",
		jsonEncode, `["\udc00"]`),
	js("js: compact form escapes DEL", areaJSONDec, "MAP-3",
		`return '"' + s.replace(/["\\\u0000-\u001f]/g,`,
		`return '"' + s.replace(/["\\\u0000-\u001f\u007f]/g,`,
		jsonDecode, "[\"\x7f\"]"),
	js("js: strings beginning with - never quoted (both)", areaJSONEnc, "MAP-6",
		`const COMPACT_FORM_FIRST_CHARS = new Set('{["-0123456789tfn');`,
		`const COMPACT_FORM_FIRST_CHARS = new Set('{["0123456789tfn');`,
		jsonEncode, `["-1"]`),
	js("js: @ quoted in a table too", areaJSONEnc, "MAP-6",
		`if (s === '' || (inObjectForm && s === '@')) return true;`,
		`if (s === '' || s === '@') return true;`,
		jsonEncode, `[{"a":"@"}]`),
	js("js: bare column from one quoted cell (both)", areaJSONEnc, "MAP-18",
		`return quoted >= 2;`,
		`return quoted >= 1;`,
		jsonEncode, `[{"a":"1"},{"a":"x"}]`),
	js("js: spread only when fewer cells are empty than full (both)", areaJSONEnc, "MAP-17",
		`if (objects.length * subNames.length - full > full) return null;`,
		`if (objects.length * subNames.length - full >= full) return null;`,
		jsonEncode, `[{"p":{"a":1}},{"p":{"b":2}}]`),
	js("js: the empty member name spread (both)", areaJSONEnc, "MAP-17",
		`if (name === '' || name.includes(',') || names.some(`,
		`if (name.includes(',') || names.some(`,
		jsonEncode, `[{"":{"a":1}}]`),
	js("js: header form admits a backslash (both)", areaJSONEnc, "MAP-12",
		`return isTable[i] || !/[ \t\n\r\\]/.test(spelled);`,
		`return isTable[i] || !/[ \t\n\r]/.test(spelled);`,
		jsonEncode, `{"a":"x\\y"}`),
	js("js: header form takes a member named nest", areaJSONEnc, "MAP-12",
		`const NOT_HEADER_MEMBERS = new Set(['json', 'rows', 'nest', 'str', 'tool', 'fields']);`,
		`const NOT_HEADER_MEMBERS = new Set(['json', 'rows', 'str', 'tool', 'fields']);`,
		jsonEncode, `{"nest":1}`),
	js("js: json=rows only under a declared tool's own name", areaJSONEnc, "LAY-4",
		`LAYOUT_NAMES.has(tool) ? [['json', 'rows']] : []`,
		`LAYOUTS[tool] ? [['json', 'rows']] : []`,
		[]string{"encode", "--mode", "gcx", "--tool", "get_callers.nodes"}, oneTable),
	js("js: a layout's second part's name not checked", areaJSONDec, "LAY-4",
		`if (k > 0 && s.tool !== part.section)`,
		`if (k > 1 && s.tool !== part.section)`,
		jsonDecode, "GCX1 tool=get_callers.nodes fields=id,kind,name,path,line,depth rows=0\nGCX1 tool=x fields=from,to,kind,line rows=0\n"),
	js("js: nest= may name a field (both)", areaJSONDec, "MAP-15",
		`if (name === '' || seen.has(name) || s.fields.includes(name) || !s.fields.some(`,
		`if (name === '' || seen.has(name) || !s.fields.some(`,
		jsonDecode, "GCX1 tool=t fields=p,p.a nest=p rows=1\n1\t2\n"),
	js("js: an empty header-form member read as the empty string", areaJSONDec, "MAP-10",
		"      if (text === '') throw violation('MAP-10', 'empty member value', root.line, col);\n",
		"",
		jsonDecode, "GCX1 tool=t fields= json=object a=\n"),
	js("js: a byte-order mark before GCX read as JSON", areaJSONDec, "ENC-2",
		"const bomThenGCX = input.length >= 3 && input[0] === 0xEF && input[1] === 0xBB && input[2] === 0xBF &&\n    beginsWithGCX(input, 3, input.length);",
		"const bomThenGCX = false;",
		jsonDecode, "\ufeffGCX1 tool=t fields=a\n"),
	js("js: json= compared case-insensitively", areaJSONDec, "MAP-7",
		`const form = root.meta[jsonIndex][1];`,
		`const form = root.meta[jsonIndex][1].toLowerCase();`,
		jsonDecode, "GCX1 tool=t fields=a json=ROWS rows=0\n"),
}

// plantedMisses are the bugs of plantedBugs that neither the vectors nor
// the default explore run catch, each with the reason: what the judge
// would need. TestPlantedBugs fails when a bug not listed here is missed,
// and says so when a listed one is caught (remove it then).
var plantedMisses = map[string]string{}

// plantedEquivalent are bugs of plantedBugs that change no behaviour, with
// the reason; they are listed, not counted.
var plantedEquivalent = map[string]string{}

// TestPlantedBugs is the planted-bug study, a long proof (GCX_DEEP=1;
// .ci/run sets it). Its subtest "witnesses" checks, for each bug of
// plantedBugs, that it still plants (its text occurs once in its file)
// and that its witness tells the planted copy from the committed one:
// -run TestPlantedBugs/witnesses checks only that, in a minute. Then each
// bug, a subtest of its own name, is planted alone in a copy of its
// example, and the committed vectors run against it and, if none fails,
// gcx explore's default run (seed 1, explore.DefaultTime, persistent
// mode). With GCX_PLANTED_ALONE=1 both judges run on every bug, each
// alone: the vectors, and explore with the vectors switched off; the
// counts then give each judge's catch apart. The counts, by language and
// by area, end the log.
func TestPlantedBugs(t *testing.T) {
	alone := os.Getenv(plantedAloneEnv) == "1"
	deep.Skip(t, "the planted-bug study of the examples (minutes)")
	// The vectors gcx conformance runs: the format's and the MCP binding's.
	vectors, err := conformance.Vectors()
	if err != nil {
		t.Fatal(err)
	}
	binding, err := conformance.BindingVectors()
	if err != nil {
		t.Fatal(err)
	}
	vectors = slices.Concat(vectors, binding)
	for name := range plantedMisses {
		if !slices.ContainsFunc(plantedBugs, func(b plantedBug) bool { return b.name == name }) {
			t.Errorf("plantedMisses names no bug of the list: %s", name)
		}
	}
	top := t
	witnessed := map[string]bool{} // the bugs whose witness the first subtest checked
	t.Run("witnesses", func(t *testing.T) {
		langs := map[string]*plantedBaseline{}
		for _, bug := range plantedBugs {
			t.Run(bug.name, func(t *testing.T) {
				base := langs[bug.lang]
				if base == nil {
					base = newPlantedBaseline(top, t, bug.lang, vectors, true)
					langs[bug.lang] = base
				}
				base.checkWitness(t, plantExample(t, bug.lang, patch{bug.file, bug.old, bug.new}), bug)
				witnessed[bug.name] = true
			})
		}
	})
	langs := map[string]*plantedBaseline{}
	var outcomes []plantedOutcome
	for _, bug := range plantedBugs {
		t.Run(bug.name, func(t *testing.T) {
			base := langs[bug.lang]
			if base == nil {
				base = newPlantedBaseline(top, t, bug.lang, vectors, false)
				langs[bug.lang] = base
			}
			dir := plantExample(t, bug.lang, patch{bug.file, bug.old, bug.new})
			if !witnessed[bug.name] {
				base.checkWitness(t, dir, bug)
			}
			o := plantedOutcome{bug: bug}
			impl := base.implementation(t, dir)
			defer impl.Close()
			start := time.Now()
			o.vector = base.firstNewFailure(impl)
			o.elapsed = time.Since(start)
			if o.vector == "" || alone {
				start := time.Now()
				o.explore, o.cases = base.exploreNew(t, impl)
				o.exploreElapsed = time.Since(start)
			}
			outcomes = append(outcomes, o)
			switch why, expected := plantedMisses[bug.name]; {
			case o.caught() && expected:
				t.Logf("%s: %s; listed as a miss (%s): remove it from plantedMisses", bug.name, o, why)
			case o.caught():
				t.Logf("%s: %s", bug.name, o)
			case expected:
				t.Logf("%s: missed, as expected: %s", bug.name, why)
			default:
				t.Errorf("%s: missed by the vectors and the default explore run, and not in plantedMisses", bug.name)
			}
		})
	}
	if len(outcomes) > 0 {
		t.Log("\n" + plantedSummary(outcomes, alone))
	}
}

// checkWitness runs bug's witness against the committed example and the
// planted copy in dir; it skips t for a bug
// listed as equivalent, and fails it when the two do the same.
func (b *plantedBaseline) checkWitness(t *testing.T, dir string, bug plantedBug) {
	t.Helper()
	committed, planted := b.witness(t, b.dir, bug), b.witness(t, dir, bug)
	if committed == planted {
		if why, ok := plantedEquivalent[bug.name]; ok {
			t.Skipf("equivalent: %s", why)
		}
		t.Fatalf("the witness does not tell the planted copy from the committed one:\n%s", committed)
	}
}

// plantedBaseline is what a language's committed example does: the
// witnesses' runs, the vectors it fails and the default run's findings,
// which a planted bug's counts leave out.
type plantedBaseline struct {
	lang     string
	dir      string   // the committed copy
	argv     []string // the interpreter
	failing  map[string]bool
	findings map[explore.Key]bool
	// committed runs the committed copy, to tell a planted run's finding
	// from one the committed example has too (explore's default run is
	// bounded by time, so the baseline's findings may miss one).
	committed conformance.Implementation
	bySize    []*conformance.Vector // the vectors, the smallest input first
}

func newPlantedBaseline(top, t *testing.T, lang string, vectors []conformance.Vector, witnessOnly bool) *plantedBaseline {
	b := &plantedBaseline{lang: lang, failing: map[string]bool{}, findings: map[explore.Key]bool{}}
	for i := range vectors {
		b.bySize = append(b.bySize, &vectors[i])
	}
	slices.SortStableFunc(b.bySize, func(x, y *conformance.Vector) int { return len(x.Input) - len(y.Input) })
	switch lang {
	case "python":
		b.argv = []string{python(t)}
	case "javascript":
		node, err := exec.LookPath("node")
		if err != nil {
			t.Skip("node is not on PATH: the JavaScript example cannot run")
		}
		b.argv = []string{node}
	default:
		t.Fatalf("no example in %q", lang)
	}
	// The committed copy lives as long as the whole test, not the
	// subtest of the first bug of its language.
	b.dir = copyExample(t, lang, top.TempDir())
	if witnessOnly {
		return b
	}
	impl := b.implementation(t, b.dir)
	b.committed = impl
	top.Cleanup(func() { impl.Close() })
	start := time.Now()
	r := conformance.Check(vectors, impl, conformance.Options{})
	for _, res := range r.Failures() {
		b.failing[res.Vector.Name()] = true
	}
	rep, err := explore.Run(impl, explore.Options{Seed: 1, Time: explore.DefaultTime, LaneCases: explore.DefaultLaneCases, Shrink: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		b.findings[f.Key] = true
	}
	t.Logf("the committed %s example: vectors %s; explore %d cases, %d agreed, findings %v (%v, %s)", lang,
		r.Diagnostic, rep.Cases, rep.Agreed, keys(rep.Findings), time.Since(start).Round(time.Second), impl.Mode())
	return b
}

// copyExample copies the committed example of lang into dir.
func copyExample(t *testing.T, lang, dir string) string {
	src := plantExample(t, lang)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// implementation is the example in dir as the runner and explore drive it:
// for Python, adapter.py for the GCX1 ops and mcp_adapter.py for the MCP
// binding's; for JavaScript, adapter.js for every op it offers.
func (b *plantedBaseline) implementation(t *testing.T, dir string) conformance.Implementation {
	t.Helper()
	if b.lang == "javascript" {
		return conformance.Command(time.Minute, append(b.argv, filepath.Join(dir, "adapter.js"))...)
	}
	core := conformance.Command(time.Minute, append(b.argv, filepath.Join(dir, "adapter.py"))...)
	binding := conformance.Command(time.Minute, append(b.argv, filepath.Join(dir, "mcp_adapter.py"))...)
	impl := core
	impl.Name = "the Python example"
	impl.MCP = binding.MCP
	impl.Close = func() error { return errors.Join(core.Close(), binding.Close()) }
	return impl
}

// witness runs the bug's witness against the example in dir and returns
// what the program did, its directory's name taken out.
func (b *plantedBaseline) witness(t *testing.T, dir string, bug plantedBug) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append(append(b.argv[1:len(b.argv):len(b.argv)], filepath.Join(dir, bug.program)), bug.args...)
	cmd := exec.CommandContext(ctx, b.argv[0], args...)
	cmd.Stdin = strings.NewReader(bug.input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%s: %v", bug.program, err)
		}
		status = exit.ExitCode()
	}
	return fmt.Sprintf("status %d, stdout %q, stderr %q", status, stdout.String(),
		strings.ReplaceAll(stderr.String(), dir, "DIR"))
}

// firstNewFailure runs the vectors against impl, the smallest inputs
// first, until one fails that passes against the committed example, and
// returns its name, or "" when none does: a bug the vectors catch costs
// the vectors up to the first that catches it, not all of them.
func (b *plantedBaseline) firstNewFailure(impl conformance.Implementation) string {
	var (
		mu    sync.Mutex
		found string
		next  = make(chan *conformance.Vector)
		wg    sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for v := range next {
				res := conformance.CheckVector(v, impl)
				if res.Diagnostic == conformance.Fail && !b.failing[v.Name()] {
					mu.Lock()
					if found == "" {
						found = v.Name()
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, v := range b.bySize {
		mu.Lock()
		done := found != ""
		mu.Unlock()
		if done {
			break
		}
		next <- v
	}
	close(next)
	wg.Wait()
	return found
}

// plantedAloneEnv asks TestPlantedBugs to run explore on every bug, not
// only on those the vectors miss: explore alone, the vectors switched off.
const plantedAloneEnv = "GCX_PLANTED_ALONE"

// exploreNew runs gcx explore's default run (seed 1, explore.DefaultTime,
// no shrinking) on impl and returns its first finding that the committed
// example does not share, and the cases run: a finding of the baseline's,
// or one whose case the committed copy fails as well, is not the bug's.
// Its bound on findings leaves room for the baseline's, and ends a run at
// the first other: a bug found costs the cases up to it, a bug missed the
// whole run. (A run bounded by its floor of cases runs the baseline's
// cases, so a finding the baseline lacks is the bug's.)
func (b *plantedBaseline) exploreNew(t *testing.T, impl conformance.Implementation) (*explore.Finding, int) {
	t.Helper()
	rep, err := explore.Run(impl, explore.Options{Seed: 1, Time: explore.DefaultTime, LaneCases: explore.DefaultLaneCases, Shrink: -1, Findings: len(b.findings) + 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if b.findings[f.Key] {
			continue
		}
		if res := conformance.CheckVector(f.Vector(), b.committed); res.Diagnostic == conformance.Fail {
			continue
		}
		return f, rep.Cases
	}
	return nil, rep.Cases
}

// plantedOutcome is what the judge made of one bug.
type plantedOutcome struct {
	bug     plantedBug
	vector  string           // the first vector found to fail, new
	explore *explore.Finding // the default run's first new finding, when run (no vector fails, or GCX_PLANTED_ALONE=1)
	cases   int              // the cases that run ran
	elapsed time.Duration    // the vectors'
	// exploreElapsed is the explore run's time.
	exploreElapsed time.Duration
}

func (o plantedOutcome) caught() bool { return o.vector != "" || o.explore != nil }

func (o plantedOutcome) String() string {
	var parts []string
	if o.vector != "" {
		parts = append(parts, fmt.Sprintf("caught by the vector %s (%v)", o.vector, o.elapsed.Round(time.Millisecond)))
	} else {
		parts = append(parts, fmt.Sprintf("passes every vector (%v)", o.elapsed.Round(time.Millisecond)))
	}
	switch {
	case o.explore != nil:
		parts = append(parts, fmt.Sprintf("explore finds %v at case %d (%v)", o.explore.Key, o.explore.Index, o.exploreElapsed.Round(time.Millisecond)))
	case o.cases > 0:
		parts = append(parts, fmt.Sprintf("explore finds nothing in %d cases (%v)", o.cases, o.exploreElapsed.Round(time.Millisecond)))
	}
	if !o.caught() {
		parts = append(parts, "missed")
	}
	return strings.Join(parts, "; ")
}

// plantedSummary counts the outcomes by language, by area and in all:
// caught by the vectors, by explore alone (when it ran on every bug), and
// by the vectors or explore.
func plantedSummary(outcomes []plantedOutcome, alone bool) string {
	type counts struct{ bugs, vectors, explore, either int }
	tally := map[string]*counts{}
	var order []string
	add := func(group string, o plantedOutcome) {
		c := tally[group]
		if c == nil {
			c = &counts{}
			tally[group] = c
			order = append(order, group)
		}
		c.bugs++
		if o.vector != "" {
			c.vectors++
		}
		if o.explore != nil {
			c.explore++
		}
		if o.caught() {
			c.either++
		}
	}
	for _, o := range outcomes {
		add("all", o)
		add(o.bug.lang, o)
	}
	for _, o := range outcomes {
		add(o.bug.lang+" / "+o.bug.area, o)
	}
	var w strings.Builder
	pct := func(n, d int) string { return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(d)) }
	if alone {
		fmt.Fprintf(&w, "%-40s %5s %14s %14s %20s\n", "planted bugs", "bugs", "vectors alone", "explore alone", "vectors or explore")
	} else {
		fmt.Fprintf(&w, "%-40s %5s %14s %20s\n", "planted bugs", "bugs", "vectors", "vectors or explore")
	}
	for _, g := range order {
		c := tally[g]
		if alone {
			fmt.Fprintf(&w, "%-40s %5d %14s %14s %20s\n", g, c.bugs, pct(c.vectors, c.bugs), pct(c.explore, c.bugs), pct(c.either, c.bugs))
		} else {
			fmt.Fprintf(&w, "%-40s %5d %14s %20s\n", g, c.bugs, pct(c.vectors, c.bugs), pct(c.either, c.bugs))
		}
	}
	// the cases explore ran per bug: a run bounded by time runs fewer on
	// a loaded machine, down to its floor (explore.DefaultLaneCases)
	var cases []int
	for _, o := range outcomes {
		if o.cases > 0 {
			cases = append(cases, o.cases)
		}
	}
	if len(cases) > 0 {
		slices.Sort(cases)
		fmt.Fprintf(&w, "explore's cases per run: %d runs, least %d, median %d, most %d\n",
			len(cases), cases[0], cases[len(cases)/2], cases[len(cases)-1])
	}
	for _, o := range outcomes {
		if !o.caught() {
			fmt.Fprintf(&w, "missed: %s [%s] %s\n", o.bug.name, o.bug.rule, plantedMisses[o.bug.name])
		}
	}
	for _, o := range outcomes {
		switch {
		case alone && o.vector != "" && o.explore == nil:
			fmt.Fprintf(&w, "vectors only: %s [%s] (explore ran %d cases)\n", o.bug.name, o.bug.rule, o.cases)
		case alone && o.vector == "" && o.explore != nil:
			fmt.Fprintf(&w, "explore only: %s [%s] (%v)\n", o.bug.name, o.bug.rule, o.explore.Key)
		}
	}
	return w.String()
}
