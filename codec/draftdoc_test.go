package codec_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// A draft's document cannot drift from its codec: TestDraftDocuments reads
// every example and every reading of each docs/drafts/GCX2-draft.N.md,
// checks it against the codec registered under that tag, and checks that
// the draft's vectors file (conformance/vectors/json/gcx2-draft-n.json)
// holds exactly them (-update rewrites the files from the documents).

var updateDraftVectors = flag.Bool("update", false, "rewrite each draft's vectors file, conformance/vectors/json/gcx2-draft-n.json, from its document in docs/drafts")

// draftDocs returns the documents of drafts, docs/drafts/GCX2-draft.N.md,
// with their tags.
func draftDocs(t *testing.T) map[string]string {
	paths, err := filepath.Glob(filepath.Join("..", "docs", "drafts", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range paths {
		if tag := strings.TrimSuffix(filepath.Base(p), ".md"); codec.IsDraft(tag) {
			out[tag] = p
		}
	}
	return out
}

// vectorsFile is where a draft's vectors are extracted to.
func vectorsFile(tag string) string {
	return filepath.Join("..", "conformance", "vectors", "json", strings.ToLower(strings.ReplaceAll(tag, ".", "-"))+".json")
}

// docExample is a JSON value and the payload the document says the codec
// writes for it.
type docExample struct {
	id, tool, description string
	value, payload        string
}

// docReading is a payload and what the document says a decoder makes of
// it: a value, or an error.
type docReading struct {
	id, description, payload string
	value                    string // the compact value, when there is no error
	class, rule, tag         string
	line, column             int
}

var (
	ruleRef = regexp.MustCompile(`\[([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]+)\]`)
	outcome = regexp.MustCompile("^(?:value `(.*)`|([a-z-]+) \\[([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]+)\\] at ([0-9]+):([0-9]+)(?:, tag `([^`]+)`)?)$")
)

// readDraftDoc returns the examples of the document at path, its
// readings and its reader note, if it has one.
func readDraftDoc(t *testing.T, path string) ([]docExample, []docReading, string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var examples []docExample
	var readings []docReading
	var note string
	block := func(i int) (string, int) { // the fenced block opening at line i
		var body []string
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == "```" {
				return strings.Join(body, "\n"), j
			}
			body = append(body, lines[j])
		}
		t.Fatalf("%s:%d: a fenced block that never ends", path, i+1)
		return "", 0
	}
	inReadings := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "## "):
			inReadings = line == "## Readings and refusals"
		case line == "```text reader-note":
			note, i = block(i)
		case strings.HasPrefix(line, "```json example="):
			ex := docExample{description: paragraphBefore(lines, i)}
			for _, attr := range strings.Fields(strings.TrimPrefix(line, "```json")) {
				k, v, _ := strings.Cut(attr, "=")
				switch k {
				case "example":
					ex.id = v
				case "tool":
					ex.tool = v
				}
			}
			ex.value, i = block(i)
			if i+1 >= len(lines) || lines[i+1] != "```gcx" {
				t.Fatalf("%s:%d: example %s is not followed by its ```gcx payload", path, i+2, ex.id)
			}
			ex.payload, i = block(i + 1)
			ex.payload += "\n"
			examples = append(examples, ex)
		case inReadings && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| vector") && !strings.HasPrefix(line, "| ---"):
			readings = append(readings, parseReading(t, path, i+1, line))
		}
	}
	return examples, readings, note
}

// paragraphBefore joins the lines of the paragraph that ends before line
// i.
func paragraphBefore(lines []string, i int) string {
	for i > 0 && strings.TrimSpace(lines[i-1]) == "" {
		i--
	}
	start := i
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	return strings.Join(lines[start:i], " ")
}

func parseReading(t *testing.T, path string, n int, line string) docReading {
	cells := strings.Split(strings.Trim(line, "|"), " | ")
	if len(cells) != 4 {
		t.Fatalf("%s:%d: a reading has four columns: %q", path, n, line)
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	r := docReading{id: cells[0], description: cells[3]}
	payload, err := strconv.Unquote(strings.Trim(cells[1], "`"))
	if err != nil {
		t.Fatalf("%s:%d: the payload is not a JSON string: %v", path, n, err)
	}
	r.payload = payload
	m := outcome.FindStringSubmatch(cells[2])
	if m == nil {
		t.Fatalf("%s:%d: the outcome %q is neither value `JSON` nor CLASS [RULE] at LINE:COLUMN", path, n, cells[2])
	}
	if m[2] == "" {
		v, err := jsonmap.Parse([]byte(m[1]))
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		r.value = string(v.AppendCompact(nil))
		return r
	}
	r.class, r.rule, r.tag = m[2], m[3], m[6]
	r.line, _ = strconv.Atoi(m[4])
	r.column, _ = strconv.Atoi(m[5])
	return r
}

func TestDraftDocuments(t *testing.T) {
	docs := draftDocs(t)
	if len(docs) == 0 {
		t.Fatal("no draft documents in docs/drafts")
	}
	for tag, path := range docs {
		t.Run(tag, func(t *testing.T) {
			c, ok := codec.Lookup(tag)
			if !ok {
				t.Fatalf("%s documents %s, which no codec registers", path, tag)
			}
			checkDraftDocument(t, c, path)
		})
	}
}

// checkDraftDocument checks the examples and readings of a draft's
// document against its codec, and its vectors file against them. A
// document holds at least one example and one reading: they are the
// draft's own vectors.
func checkDraftDocument(t *testing.T, d codec.Codec, path string) {
	examples, readings, note := readDraftDoc(t, path)
	if len(examples) == 0 || len(readings) == 0 {
		t.Fatalf("%s: found %d examples (```json example=ID tool=T, then ```gcx) and %d readings (under ## Readings and refusals); a draft's document needs both, its vectors are made of them", path, len(examples), len(readings))
	}
	for _, ex := range examples {
		v, err := jsonmap.Parse([]byte(ex.value))
		if err != nil {
			t.Errorf("example %s: %v", ex.id, err)
			continue
		}
		got, err := d.Encode(ex.tool, v)
		if err != nil || string(got) != ex.payload {
			t.Errorf("example %s: the codec writes\n%s(%v), the document says\n%s", ex.id, got, err, ex.payload)
		}
		back, err := d.Decode([]byte(ex.payload))
		if err != nil || !jsonmap.Equal(back, v) {
			t.Errorf("example %s: the payload reads back as %s (%v)", ex.id, back.AppendCompact(nil), err)
		}
	}
	for _, r := range readings {
		v, err := d.Decode([]byte(r.payload))
		if r.class == "" {
			if err != nil || string(v.AppendCompact(nil)) != r.value {
				t.Errorf("reading %s: got %s (%v), the document says %s", r.id, v.AppendCompact(nil), err, r.value)
			}
			continue
		}
		var e *spec.Error
		if !errors.As(err, &e) || spec.ClassName(err) != r.class || e.Rule != r.rule || e.Line != r.line || e.Column != r.column || e.Tag != r.tag {
			t.Errorf("reading %s: got %v, the document says %s [%s] at %d:%d %s", r.id, err, r.class, r.rule, r.line, r.column, r.tag)
		}
	}
	if note != "" {
		// The document gives the reader note's cost in both tokenizers.
		text := strings.Join(strings.Fields(string(mustRead(t, path))), " ")
		claim := fmt.Sprintf("cost %d tokens in cl100k_base and %d in o200k_base", count(t, tokens.CL100K, note), count(t, tokens.O200K, note))
		if !strings.Contains(text, claim) {
			t.Errorf("the document does not say what the reader note costs: %q", claim)
		}
	}
	checkDraftVectors(t, d.Tag(), path, examples, readings)
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rulesOf lists the rule an id begins with, then every other rule the
// description cites.
func rulesOf(id, description string) []string {
	first := strings.ToUpper(regexp.MustCompile(`^[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*-[0-9]+`).FindString(id))
	rules := []string{first}
	for _, m := range ruleRef.FindAllStringSubmatch(description, -1) {
		if !slices.Contains(rules, m[1]) {
			rules = append(rules, m[1])
		}
	}
	return rules
}

func checkDraftVectors(t *testing.T, tag, doc string, examples []docExample, readings []docReading) {
	out := vectorsFile(tag)
	group := strings.TrimSuffix(filepath.Base(out), ".json")
	file := conformance.File{Category: conformance.CategoryJSON, Group: group, Tags: []string{tag},
		Description: fmt.Sprintf("%s: the examples, readings and refusals of docs/drafts/%s, extracted by TestDraftDocuments.", tag, filepath.Base(doc))}
	for _, ex := range examples {
		v, _ := jsonmap.Parse([]byte(ex.value))
		value, payload := string(v.AppendCompact(nil)), ex.payload
		file.Vectors = append(file.Vectors, conformance.Vector{ID: ex.id, Description: ex.description,
			Rules: rulesOf(ex.id, ex.description), Op: conformance.OpJSONEncode, InputText: &value, Tool: ex.tool, Mode: "gcx",
			Expected: conformance.Expected{OutputText: &payload, Value: &value}})
	}
	for _, r := range readings {
		input := r.payload
		w := conformance.Vector{ID: r.id, Description: r.description, Rules: rulesOf(r.id, r.description), Op: conformance.OpJSONDecode, InputText: &input}
		if r.class == "" {
			value := r.value
			w.Expected.Value = &value
		} else {
			w.Expected.Error = &conformance.ExpectedError{Class: r.class, Rule: r.rule, Line: r.line, Column: r.column, Tag: r.tag}
			if !slices.Contains(w.Rules, r.rule) {
				w.Rules = append(w.Rules, r.rule)
			}
		}
		file.Vectors = append(file.Vectors, w)
	}
	b, err := conformance.Format(&file)
	if err != nil {
		t.Fatal(err)
	}
	if *updateDraftVectors {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(got, b) {
		t.Errorf("%s does not hold the document's examples and readings (%v); run go test ./codec -run TestDraftDocuments -update", out, err)
	}
}
