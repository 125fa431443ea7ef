package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
	"github.com/gcxwire/gcx/wire"
)

// These tests keep the specification honest: the refusals the vectors
// expect are the ones the text makes, and every example in the text does
// what the text says.

// specDoc is docs/wire-format.md read into its rules and sections.
type specDoc struct {
	text string
	// rules holds each rule's paragraph, from its **[ID]** to the next
	// rule or heading, and section the section it stands in ("11",
	// "14.5").
	rules   map[string]string
	section map[string]string
}

var (
	headingRE = regexp.MustCompile(`^#{2,3} (?:Appendix ([A-Z])\.|([0-9]+(?:\.[0-9]+)?)[. ])`)
	ruleDefRE = regexp.MustCompile(`^\*\*\[([A-Z]+-[0-9]+)\]\*\*`)
	ruleRefRE = regexp.MustCompile(`\[([A-Z]+-[0-9]+)\]`)
)

func readSpec(t *testing.T) *specDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := &specDoc{text: string(b), rules: map[string]string{}, section: map[string]string{}}
	var current, section string
	for _, line := range strings.Split(d.text, "\n") {
		if m := headingRE.FindStringSubmatch(line); m != nil {
			section, current = m[1]+m[2], ""
			continue
		}
		if strings.HasPrefix(line, "#") {
			current = ""
			continue
		}
		if m := ruleDefRE.FindStringSubmatch(line); m != nil {
			current = m[1]
			d.section[current] = section
		}
		if current != "" {
			d.rules[current] += line + "\n"
		}
	}
	return d
}

// table returns the rows of the first Markdown table after the paragraph
// of rule id whose header row begins with first, each row split into its
// cells.
func (d *specDoc) table(t *testing.T, id, first string) [][]string {
	t.Helper()
	start := strings.Index(d.text, "**["+id+"]**")
	if start < 0 {
		t.Fatalf("docs/wire-format.md does not define %s", id)
	}
	head := strings.Index(d.text[start:], "\n| "+first+" |")
	if head < 0 {
		t.Fatalf("%s has no table beginning %q", id, first)
	}
	var rows [][]string
	lines := strings.Split(d.text[start+head+1:], "\n")
	for _, line := range lines[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// refusalWords are the words by which a rule's paragraph says it refuses
// input with an error of each class (the preamble of docs/wire-format.md
// promises them).
var refusalWords = map[string]*regexp.Regexp{
	"not-gcx":             regexp.MustCompile(`not\s+GCX`),
	"unsupported-version": regexp.MustCompile("`unsupported-version`"),
	"syntax":              regexp.MustCompile(`syntax\s+error`),
	"constraint":          regexp.MustCompile(`constraint\s+error`),
	"limit":               regexp.MustCompile("`limit`\\s+error"),
	"model":               regexp.MustCompile(`encoder\s+MUST\s+refuse|encoder\s+given\s+[^.]*MUST\s+refuse|MUST\s+refuse`),
	"invalid-json":        regexp.MustCompile(`MUST\s+refuse`),
}

// Every rule a vector's error names says, in its own paragraph, that it
// refuses input with an error of that class, and appears in the table of
// refusals for its kind of error — [ERR-2] for a GCX1 decoder, [MAP-14] for
// the JSON mapping — with that class; every rule a model error names is one
// [CAN-3] lists or [WIRE-2]. So a refusal cannot name a rule that does not
// say it refuses, and the tables stay complete.
func TestVectorErrorsNameRulesThatRefuse(t *testing.T) {
	d := readSpec(t)
	decoderTable := map[string]bool{} // "class rule"
	for _, row := range d.table(t, "ERR-2", "refusal") {
		class := strings.Trim(row[1], "`")
		for _, m := range ruleRefRE.FindAllStringSubmatch(row[2], -1) {
			if m[1] != "ERR-5" { // "the rule [ERR-5] gives": a pointer, not a refusal
				decoderTable[class+" "+m[1]] = true
			}
		}
	}
	mappingTable := map[string]bool{}
	for _, row := range d.table(t, "MAP-14", "error") {
		for _, m := range ruleRefRE.FindAllStringSubmatch(row[1], -1) {
			mappingTable[m[1]] = true
		}
	}
	canRefusals := map[string]bool{"WIRE-2": true}
	for _, m := range ruleRefRE.FindAllStringSubmatch(d.rules["CAN-3"], -1) {
		canRefusals[m[1]] = true
	}
	checked := map[string]bool{}
	for _, v := range loadVectors(t) {
		for _, e := range []*ExpectedError{v.Expected.Error, v.Expected.OrError} {
			if e == nil || checked[e.Class+" "+e.Rule] {
				continue
			}
			checked[e.Class+" "+e.Rule] = true
			para, ok := d.rules[e.Rule]
			if !ok {
				t.Errorf("%s expects rule %s, which docs/wire-format.md does not define", v.Name(), e.Rule)
				continue
			}
			mapping := strings.HasPrefix(d.section[e.Rule], "14") && e.Class == "constraint"
			switch {
			case mapping:
				if !mappingTable[e.Rule] {
					t.Errorf("%s: a mapping error naming %s, which the table of [MAP-14] does not list", v.Name(), e.Rule)
				}
				if !regexp.MustCompile(`\berror\b|refuse|MUST`).MatchString(para) {
					t.Errorf("%s: %s names no error in its paragraph", v.Name(), e.Rule)
				}
				continue
			case e.Class == "model":
				if !canRefusals[e.Rule] {
					t.Errorf("%s: a model error naming %s, which [CAN-3] does not list", v.Name(), e.Rule)
				}
			case e.Class != "invalid-json" && (v.Op == OpDecode || v.Op == OpJSONDecode) && !decoderTable[e.Class+" "+e.Rule]:
				t.Errorf("%s: a %s error naming %s, which the table of [ERR-2] does not list with that class", v.Name(), e.Class, e.Rule)
			}
			if !refusalWords[e.Class].MatchString(para) {
				t.Errorf("%s: a %s error naming %s, whose paragraph does not say it refuses so (%q):\n%s",
					v.Name(), e.Class, e.Rule, refusalWords[e.Class], para)
			}
		}
	}
	if len(checked) < 40 {
		t.Errorf("only %d class and rule pairs checked", len(checked))
	}
}

// The tables of refusals name no rule that no vector expects: each row is
// exercised.
func TestRefusalTablesAreExercised(t *testing.T) {
	d := readSpec(t)
	expected := map[string]bool{}
	for _, v := range loadVectors(t) {
		if e := v.Expected.Error; e != nil {
			expected[e.Rule] = true
		}
	}
	for _, table := range []struct{ rule, first string }{{"ERR-2", "refusal"}, {"MAP-14", "error"}} {
		for _, row := range d.table(t, table.rule, table.first) {
			for _, cell := range row[1:] {
				for _, m := range ruleRefRE.FindAllStringSubmatch(cell, -1) {
					if !expected[m[1]] && m[1] != "VER-1" && m[1] != "ERR-5" && m[1] != "MAP-4" {
						t.Errorf("the table of [%s] lists %s, which no vector's error names", table.rule, m[1])
					}
				}
			}
		}
	}
}

// Appendix D gives the section of every rule, and every rule stands in the
// section it gives.
func TestRuleIndex(t *testing.T) {
	d := readSpec(t)
	start := strings.Index(d.text, "## Appendix D.")
	if start < 0 {
		t.Fatal("no Appendix D")
	}
	indexed := map[string]string{}
	rangeRE := regexp.MustCompile(`([A-Z]+)-([0-9]+)(?: to ([A-Z]+)-([0-9]+))?`)
	for _, line := range strings.Split(d.text[start:], "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) != 2 || cells[0] == "rules" {
			continue
		}
		section := cells[1]
		for _, m := range rangeRE.FindAllStringSubmatch(cells[0], -1) {
			from, _ := strconv.Atoi(m[2])
			to := from
			if m[3] != "" {
				to, _ = strconv.Atoi(m[4])
			}
			for n := from; n <= to; n++ {
				indexed[fmt.Sprintf("%s-%d", m[1], n)] = section
			}
		}
	}
	for id, section := range d.section {
		switch got, ok := indexed[id]; {
		case !ok:
			t.Errorf("Appendix D does not list %s (section %s)", id, section)
		case got != section:
			t.Errorf("Appendix D puts %s in section %s; it stands in %s", id, got, section)
		}
	}
	for id := range indexed {
		if _, ok := d.section[id]; !ok {
			t.Errorf("Appendix D lists %s, which is not defined", id)
		}
	}
}

// The revision the specification states is spec.Revision, and the first
// entry of CHANGELOG.md.
func TestSpecRevision(t *testing.T) {
	d := readSpec(t)
	m := regexp.MustCompile(`Revision ([0-9]+\.[0-9]+) \(\[CHANGELOG\.md\]`).FindStringSubmatch(d.text)
	if m == nil || m[1] != spec.Revision {
		t.Errorf("docs/wire-format.md states revision %v, spec.Revision is %s", m, spec.Revision)
	}
	log, err := os.ReadFile(filepath.Join("..", "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`(?m)^## \[([0-9.]+)\]`).FindSubmatch(log)
	if first == nil || string(first[1]) != spec.Revision {
		t.Errorf("CHANGELOG.md's latest entry is %q, spec.Revision %s", first, spec.Revision)
	}
}

// exampleRE matches a row of an example table — one whose header is
// "| payload | outcome |" — holding a payload as a JSON string in a code
// span, and its outcome.
var exampleRE = regexp.MustCompile("^\\| `(\"(?:[^`])*\")` \\| (.+) \\|$")

// outcomeRE reads an example's outcome: what decodes and the part of the
// view it shows, or the error; then the limits it runs under.
var outcomeRE = regexp.MustCompile("^(?:(rows|fields|meta|comments) `([^`]+)`|([a-z-]+) \\[([A-Z]+-[0-9]+)\\] at ([0-9]+):([0-9]+)(?:, tag `([^`]+)`)?)((?:, max-[a-z-]+ [0-9]+)*)$")

// Every example table of the specification's chapters — a payload and its
// outcome — holds: the reference and streaming decoders both decode the
// payload as the row says, under the limits it names, and the view of a
// valid payload re-encodes to the payload [CAN-1].
func TestSpecExampleTables(t *testing.T) {
	d := readSpec(t)
	examples := 0
	inTable := false
	for n, line := range strings.Split(d.text, "\n") {
		switch {
		case line == "| payload | outcome |":
			inTable = true
			continue
		case !strings.HasPrefix(line, "|"):
			inTable = false
		}
		if !inTable || strings.HasPrefix(line, "|---") {
			continue
		}
		m := exampleRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("docs/wire-format.md:%d: an example row the test cannot read: %s", n+1, line)
			continue
		}
		examples++
		where := fmt.Sprintf("docs/wire-format.md:%d", n+1)
		var payload string
		if err := json.Unmarshal([]byte(m[1]), &payload); err != nil {
			t.Errorf("%s: payload %s is not a JSON string: %v", where, m[1], err)
			continue
		}
		o := outcomeRE.FindStringSubmatch(m[2])
		if o == nil {
			t.Errorf("%s: outcome %q is not one the test reads", where, m[2])
			continue
		}
		limits := spec.DefaultLimits
		for _, l := range regexp.MustCompile(`max-[a-z-]+ [0-9]+`).FindAllString(o[8], -1) {
			name, n, _ := strings.Cut(l, " ")
			v, _ := strconv.Atoi(n)
			limits = Limits{name: v}.Apply(limits)
		}
		ref, refErr := reference.DecodeLimits([]byte(payload), limits)
		str, strErr := streaming.Decode(strings.NewReader(payload), limits)
		if !sameError(refErr, strErr) {
			t.Errorf("%s: the decoders disagree: %v / %v", where, refErr, strErr)
		}
		if o[1] != "" {
			if refErr != nil {
				t.Errorf("%s: %q says it decodes, but: %v", where, payload, refErr)
				continue
			}
			if got := examplePart(ref, o[1]); got != compactJSON(t, o[2]) {
				t.Errorf("%s: %s of %q are %s, the example says %s", where, o[1], payload, got, o[2])
			}
			if out, err := reference.Encode(ref); err != nil || string(out) != payload {
				t.Errorf("%s: %q re-encodes to %q (%v) [CAN-1]", where, payload, out, err)
			}
			if !equalPayloads(ref, str) {
				t.Errorf("%s: the streaming decoder reads %q otherwise", where, payload)
			}
			continue
		}
		var e *spec.Error
		line, _ := strconv.Atoi(o[5])
		column, _ := strconv.Atoi(o[6])
		if !errors.As(refErr, &e) || spec.ClassName(refErr) != o[3] || e.Rule != o[4] || e.Line != line || e.Column != column || e.Tag != o[7] {
			t.Errorf("%s: %q gives %v; the example says %s [%s] at %d:%d, tag %q", where, payload, refErr, o[3], o[4], line, column, o[7])
		}
	}
	if examples < 60 {
		t.Errorf("%d example rows read; the chapters hold more", examples)
	}
}

// sameError reports whether two decoders' errors agree on everything but
// the message: class, rule, tag and position.
func sameError(a, b error) bool {
	var x, y *spec.Error
	switch {
	case a == nil || b == nil:
		return a == nil && b == nil
	case !errors.As(a, &x) || !errors.As(b, &y):
		return false
	}
	return x.Class == y.Class && x.Rule == y.Rule && x.Tag == y.Tag && x.Line == y.Line && x.Column == y.Column && x.Offset == y.Offset
}

// examplePart returns the part of p an example shows, as compact JSON:
// the rows of every section in order, or the first section's fields, meta
// pairs or comments.
func examplePart(p *spec.Payload, part string) string {
	var v any
	switch part {
	case "rows":
		all := [][]string{}
		for _, s := range p.Sections {
			all = append(all, s.Rows...)
		}
		v = all
	case "fields":
		v = p.Sections[0].Fields
	case "meta":
		pairs := [][2]string{}
		for _, m := range p.Sections[0].Meta {
			pairs = append(pairs, [2]string{m.Key, m.Value})
		}
		v = pairs
	case "comments":
		cs := [][2]any{}
		for _, c := range p.Sections[0].Comments {
			cs = append(cs, [2]any{c.Row, c.Text})
		}
		v = cs
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Errorf("%s: %v", s, err)
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// fencedBlock is one fenced code block of the specification, with its
// info string and the prose since the block before it.
type fencedBlock struct {
	info, body, before string
	line               int
}

func fencedBlocks(text string) []fencedBlock {
	var blocks []fencedBlock
	var prose strings.Builder
	var cur *fencedBlock
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &fencedBlock{info: strings.TrimPrefix(line, "```"), before: prose.String(), line: n}
			prose.Reset()
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		default:
			prose.WriteString(line + "\n")
		}
	}
	return blocks
}

// Every fenced example of the specification does what the text says: a
// `gcx` block decodes (reference and streaming alike) and re-encodes to
// itself; a `gcx` block straight after a `json` block is what the JSON
// mapping writes for that value under the block's tool name [MAP-12] and
// decodes back to it [MAP-4]; a `json` block after a `gcx` block and the
// words "decodes to" is the value that payload decodes to; a `json` block
// that is a wire view [WIRE-1] encodes to a payload that decodes back to
// it. No block is left unchecked but the grammar, which the grammar
// package checks against its file, and shell commands.
func TestSpecFencedExamples(t *testing.T) {
	d := readSpec(t)
	blocks := fencedBlocks(d.text)
	checked := 0
	for i, b := range blocks {
		where := fmt.Sprintf("docs/wire-format.md:%d", b.line)
		switch b.info {
		case "ebnf", "sh":
			continue // the grammar package checks the grammar; commands are no examples
		case "gcx":
			checked++
			p, err := reference.Decode([]byte(b.body))
			if err != nil {
				t.Errorf("%s: the example does not decode: %v", where, err)
				continue
			}
			if sp, err := streaming.Decode(strings.NewReader(b.body), spec.DefaultLimits); err != nil || !equalPayloads(p, sp) {
				t.Errorf("%s: the streaming decoder reads the example otherwise: %v", where, err)
			}
			if out, err := reference.Encode(p); err != nil || string(out) != b.body {
				t.Errorf("%s: the example re-encodes to %q (%v) [CAN-1]", where, out, err)
			}
			if i > 0 && blocks[i-1].info == "json" && strings.TrimSpace(b.before) == "" {
				value := blocks[i-1].body
				out, err := jsonmap.Encode(p.Sections[0].Tool, []byte(value))
				if err != nil || string(out) != b.body {
					t.Errorf("%s: the mapping writes %q (%v) for the JSON above, not the example", where, out, err)
				}
				back, err := jsonmap.Decode([]byte(b.body))
				if err != nil || string(back) != strings.TrimSpace(value) {
					t.Errorf("%s: the example decodes to %s (%v), not the JSON above", where, back, err)
				}
			}
		case "json":
			checked++
			if i > 0 && blocks[i-1].info == "gcx" && strings.HasSuffix(strings.TrimSpace(b.before), "decodes to") {
				got, err := jsonmap.Decode([]byte(blocks[i-1].body))
				want, perr := jsonmap.Parse([]byte(b.body))
				if perr != nil {
					t.Errorf("%s: %v", where, perr)
				} else if err != nil || string(got) != string(want.AppendCompact(nil)) {
					t.Errorf("%s: the payload above decodes to %s (%v), not this JSON", where, got, err)
				}
				continue
			}
			if mcpExample(t, where, b.body) {
				continue
			}
			if !bytes.Contains([]byte(b.body), []byte(`"sections"`)) {
				if i+1 < len(blocks) && blocks[i+1].info == "gcx" {
					continue // checked with the payload it is written as
				}
				t.Errorf("%s: a JSON example the test does not know how to check", where)
				continue
			}
			p, err := wire.Unmarshal([]byte(b.body))
			if err != nil {
				t.Errorf("%s: the example is not a wire view: %v", where, err)
				continue
			}
			out, err := reference.Encode(p)
			if err != nil {
				t.Errorf("%s: the wire view does not encode: %v", where, err)
				continue
			}
			if back, err := reference.Decode(out); err != nil || !equalPayloads(p, back) {
				t.Errorf("%s: the wire view's payload %q decodes otherwise (%v)", where, out, err)
			}
		default:
			t.Errorf("%s: a fenced block with info string %q, which the test does not check; mark examples gcx or json", where, b.info)
		}
	}
	if checked < 4 {
		t.Errorf("%d fenced examples checked", checked)
	}
	if !slices.ContainsFunc(blocks, func(b fencedBlock) bool { return b.info == "ebnf" }) {
		t.Error("the grammar block is gone")
	}
}

// mcpExample checks a JSON example of the MCP binding, chapter 15, and
// reports whether the block is one: a tools/call request opts in with a
// list of tags [MCP-3]; a result whose _meta names a tag holds in its text
// block a payload of that version whose value is structuredContent, and
// the total and truncation its header carries are those of its _meta
// [MCP-6] [MCP-7].
func mcpExample(t *testing.T, where, body string) bool {
	var msg struct {
		Method string
		Params struct {
			Meta map[string]any `json:"_meta"`
		}
		Content []struct {
			Type, Text string
		}
		StructuredContent json.RawMessage
		Meta              map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		return false
	}
	switch {
	case msg.Method == "tools/call":
		tags, ok := msg.Params.Meta["io.github.gcxwire/accept"].([]any)
		if !ok || len(tags) == 0 {
			t.Errorf("%s: the request does not opt in with a list of tags [MCP-3]", where)
		}
		return true
	case msg.Meta["io.github.gcxwire/format"] != nil:
		if msg.Meta["io.github.gcxwire/format"] != spec.Version || len(msg.Content) != 1 {
			t.Errorf("%s: the result names %v, with %d content blocks", where, msg.Meta["io.github.gcxwire/format"], len(msg.Content))
			return true
		}
		payload := msg.Content[0].Text
		value, err := jsonmap.Decode([]byte(payload))
		want, perr := jsonmap.Compact(msg.StructuredContent)
		if err != nil || perr != nil || !bytes.Equal(value, want) {
			t.Errorf("%s: the text block decodes to %s (%v), and structuredContent is %s (%v) [MCP-6]", where, value, err, want, perr)
		}
		p, err := reference.Decode([]byte(payload))
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return true
		}
		for key, meta := range map[string]string{"io.github.gcxwire/total": spec.KeyTotal, "io.github.gcxwire/truncated": spec.KeyTruncated} {
			header, _ := p.Sections[0].Lookup(meta)
			if fmt.Sprint(msg.Meta[key]) != header {
				t.Errorf("%s: _meta %s is %v and the header says %s=%s [MCP-7]", where, key, msg.Meta[key], meta, header)
			}
		}
		return true
	}
	return false
}

// The table of [MAP-6] holds: each value, written by the JSON mapping, is
// spelled as the table says, and on the wire as it says where it gives the
// wire form too. <TAB> stands for a TAB.
func TestSpecSpellingTable(t *testing.T) {
	d := readSpec(t)
	span := regexp.MustCompile("`([^`]+)`")
	rows := d.table(t, "MAP-6", "value")
	for _, row := range rows {
		values := span.FindAllStringSubmatch(row[0], -1)
		spelled := span.FindAllStringSubmatch(row[1], -1)
		if len(values) == 0 || len(spelled) < len(values) {
			t.Errorf("row %q: %d values, %d spellings", row, len(values), len(spelled))
			continue
		}
		for i, v := range values {
			text := strings.ReplaceAll(v[1], "<TAB>", `\t`)
			want := strings.ReplaceAll(spelled[i][1], "<TAB>", "\t")
			// [v,0] is never a table, so it takes the array form, one
			// element per row [MAP-9].
			payload, err := jsonmap.Encode("t", []byte("["+text+",0]"))
			if err != nil {
				t.Errorf("%s: %v", text, err)
				continue
			}
			p, err := reference.Decode(payload)
			if err != nil || len(p.Sections[0].Rows) != 2 {
				t.Errorf("%s: the mapping wrote %q (%v), not one array element", text, payload, err)
				continue
			}
			if got := p.Sections[0].Rows[0][0]; got != want {
				t.Errorf("%s is spelled %q, the table says %q", text, got, want)
			}
			if len(spelled) > len(values) && i == len(values)-1 {
				wire := strings.Split(string(payload), "\n")[1]
				if wire != spelled[len(values)][1] {
					t.Errorf("%s is written %q on the wire, the table says %q", text, wire, spelled[len(values)][1])
				}
			}
		}
	}
	if len(rows) < 8 {
		t.Errorf("%d rows in the table of [MAP-6]", len(rows))
	}
}

// docs/conformance.md lists the limit flags of the protocol, exactly those
// of spec.LimitFlags, in their order.
func TestGuideListsLimitFlags(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	var listed, want []string
	for _, m := range regexp.MustCompile("(?m)^\\| `--(max-[a-z-]+) N` \\|").FindAllSubmatch(guide, -1) {
		listed = append(listed, string(m[1]))
	}
	for _, f := range spec.LimitFlags {
		want = append(want, f.Name)
	}
	if !slices.Equal(listed, want) {
		t.Errorf("docs/conformance.md lists the limit flags %v; spec.LimitFlags has %v", listed, want)
	}
}
