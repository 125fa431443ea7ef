package codec_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
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

// The draft's document cannot drift from its codec: TestDraft1Document
// reads every example and every reading of docs/drafts/GCX2-draft.1.md,
// checks it against the codec, and checks that the draft's vectors file
// holds exactly them (-update rewrites the file from the document).

var updateDraft1Vectors = flag.Bool("update", false, "rewrite conformance/vectors/json/gcx2-draft-1.json from docs/drafts/GCX2-draft.1.md")

const (
	draft1Doc     = "../docs/drafts/GCX2-draft.1.md"
	draft1Vectors = "../conformance/vectors/json/gcx2-draft-1.json"
)

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

// readDraft1Doc returns the document's examples, its readings and the
// reader note.
func readDraft1Doc(t *testing.T) ([]docExample, []docReading, string) {
	t.Helper()
	raw, err := os.ReadFile(draft1Doc)
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
		t.Fatalf("%s:%d: a fenced block that never ends", draft1Doc, i+1)
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
				t.Fatalf("%s:%d: example %s is not followed by its ```gcx payload", draft1Doc, i+2, ex.id)
			}
			ex.payload, i = block(i + 1)
			ex.payload += "\n"
			examples = append(examples, ex)
		case inReadings && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| vector") && !strings.HasPrefix(line, "| ---"):
			readings = append(readings, parseReading(t, i+1, line))
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

func parseReading(t *testing.T, n int, line string) docReading {
	cells := strings.Split(strings.Trim(line, "|"), " | ")
	if len(cells) != 4 {
		t.Fatalf("%s:%d: a reading has four columns: %q", draft1Doc, n, line)
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	r := docReading{id: cells[0], description: cells[3]}
	payload, err := strconv.Unquote(strings.Trim(cells[1], "`"))
	if err != nil {
		t.Fatalf("%s:%d: the payload is not a JSON string: %v", draft1Doc, n, err)
	}
	r.payload = payload
	m := outcome.FindStringSubmatch(cells[2])
	if m == nil {
		t.Fatalf("%s:%d: the outcome %q is neither value `JSON` nor CLASS [RULE] at LINE:COLUMN", draft1Doc, n, cells[2])
	}
	if m[2] == "" {
		v, err := jsonmap.Parse([]byte(m[1]))
		if err != nil {
			t.Fatalf("%s:%d: %v", draft1Doc, n, err)
		}
		r.value = string(v.AppendCompact(nil))
		return r
	}
	r.class, r.rule, r.tag = m[2], m[3], m[6]
	r.line, _ = strconv.Atoi(m[4])
	r.column, _ = strconv.Atoi(m[5])
	return r
}

func TestDraft1Document(t *testing.T) {
	examples, readings, note := readDraft1Doc(t)
	if len(examples) == 0 || len(readings) == 0 || note == "" {
		t.Fatalf("found %d examples, %d readings and a reader note of %d bytes", len(examples), len(readings), len(note))
	}
	d := codec.Draft1{}
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
	// The document gives the reader note's cost in both tokenizers.
	text := strings.Join(strings.Fields(string(mustRead(t, draft1Doc))), " ")
	claim := fmt.Sprintf("cost %d tokens in cl100k_base and %d in o200k_base", count(t, tokens.CL100K, note), count(t, tokens.O200K, note))
	if !strings.Contains(text, claim) {
		t.Errorf("the document does not say what the reader note costs: %q", claim)
	}
	checkDraft1Vectors(t, examples, readings)
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

func checkDraft1Vectors(t *testing.T, examples []docExample, readings []docReading) {
	file := conformance.File{Category: conformance.CategoryJSON, Group: "gcx2-draft-1", Tags: []string{codec.Draft1Tag},
		Description: "GCX2-draft.1: the examples, readings and refusals of docs/drafts/GCX2-draft.1.md, extracted by TestDraft1Document."}
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
	if *updateDraft1Vectors {
		if err := os.WriteFile(draft1Vectors, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got, err := os.ReadFile(draft1Vectors); err != nil || !bytes.Equal(got, b) {
		t.Errorf("%s does not hold the document's examples (%v); run go test ./codec -run TestDraft1Document -update", draft1Vectors, err)
	}
}
