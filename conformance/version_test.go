package conformance

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/codec/codectest"
	"github.com/gcxwire/gcx/spec"
	wireview "github.com/gcxwire/gcx/wire"
)

// draftTag is the tag the template draft is checked under here: GCX1
// under a tag 9 bytes longer, so every respelled position moves.
const draftTag = "GCX2-draft.90"

func vectorsFor(t *testing.T, tag string) []Vector {
	t.Helper()
	vs, err := VectorsFor(tag)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// GCX1's vectors are the untagged ones and those tagged GCX1; the version
// vectors, which are about tags other than GCX1, and the MCP binding's,
// whose results name GCX1, are GCX1's only. Vectors gives those of the
// format, BindingVectors the binding's.
func TestVectorsForGCX1(t *testing.T) {
	suite, err := EmbeddedSuite()
	if err != nil {
		t.Fatal(err)
	}
	gcx1, binding := loadVectors(t), loadBindingVectors(t)
	n, nBinding := 0, 0
	for _, v := range suite.Vectors {
		if len(v.Tags) == 0 || slices.Contains(v.Tags, spec.Version) {
			n++
			if v.Category == CategoryMCP {
				nBinding++
			}
		}
		if (v.Category == CategoryVersion || v.Category == CategoryMCP) && !slices.Equal(v.Tags, []string{spec.Version}) {
			t.Errorf("%s: a %s vector is GCX1's only, but its tags are %v", v.Name(), v.Category, v.Tags)
		}
	}
	if len(gcx1)+len(binding) != n || len(binding) != nBinding || len(gcx1) < 700 || len(binding) < 50 {
		t.Errorf("%d vectors of GCX1's format and %d of its binding, want the %d untagged or tagged GCX1, %d of them in category mcp",
			len(gcx1), len(binding), n, nBinding)
	}
	for _, v := range gcx1 {
		if v.Category == CategoryMCP {
			t.Errorf("%s: Vectors holds a vector of the binding", v.Name())
		}
	}
	for _, v := range binding {
		if v.Category != CategoryMCP || v.Tag != spec.Version {
			t.Errorf("%s: BindingVectors holds it, for %q", v.Name(), v.Tag)
		}
	}
	for _, v := range gcx1 {
		if v.Tag != spec.Version || v.Inherited {
			t.Fatalf("%s: Tag %q, Inherited %v", v.Name(), v.Tag, v.Inherited)
		}
	}
}

// A draft without a version file inherits every vector of GCX1 it can,
// respelled with its tag: header lines of inputs and outputs carry the
// tag, and an error after the tag moves by its extra length. It inherits
// no version vector, no auto-mode encoding and no line limit.
func TestVectorsForADraft(t *testing.T) {
	byID := map[string]Vector{}
	for _, v := range vectorsFor(t, draftTag) {
		if !v.Inherited || v.Tag != draftTag {
			t.Fatalf("%s: Tag %q, Inherited %v", v.Name(), v.Tag, v.Inherited)
		}
		if bytes.Contains(v.Input, []byte("\n"+spec.Version+" ")) || bytes.HasPrefix(v.Input, []byte(spec.Version+" ")) {
			t.Errorf("%s: a header line still carries GCX1: %q", v.Name(), v.Input)
		}
		byID[v.ID] = v
	}
	for _, v := range loadVectors(t) {
		_, inherited := byID[v.ID]
		_, lineLimit := v.Limits["max-line-bytes"]
		notInherited := v.Category == CategoryVersion || v.Op == OpJSONEncode && v.Mode == "auto" || lineLimit
		if inherited == notInherited {
			t.Errorf("%s: inherited %v", v.Name(), inherited)
		}
	}
	moved := byID["line-3-double-space-in-header"] // GCX1 tool=t  fields=a: HDR-1 at 1:13
	if e := moved.Expected.Error; moved.ID == "" || e.Line != 1 || e.Column != 13+len(draftTag)-len(spec.Version) {
		t.Errorf("line-3-double-space-in-header for %s: %+v", draftTag, moved.Expected.Error)
	}
	kept := byID["val-2-unknown-escape-q"] // an error in a row stays where it is
	if e := kept.Expected.Error; kept.ID == "" || e.Line != 2 || e.Column != 3 || !bytes.HasPrefix(kept.Input, []byte(draftTag+" ")) {
		t.Errorf("val-2-unknown-escape-q for %s: %q %+v", draftTag, kept.Input, kept.Expected.Error)
	}
	// GCX2's own tag is no other version to GCX2: vectors whose input
	// carries it are not inherited, even outside the version category.
	gcx2 := map[string]bool{}
	for _, v := range vectorsFor(t, "GCX2") {
		gcx2[v.ID] = true
	}
	carriers := 0
	for _, v := range loadVectors(t) {
		if _, theirs := codec.Retag(v.Input, "GCX2", "GCX2"); theirs != nil && v.Category != CategoryVersion {
			carriers++
			if gcx2[v.ID] {
				t.Errorf("%s: inherited by GCX2, whose tag it already carries", v.Name())
			}
		}
	}
	if carriers == 0 {
		t.Error("no vector outside the version category carries GCX2: the check above checks nothing")
	}
}

// Registering a codec is all it takes for the runner to check it: the
// template draft — GCX1 under another tag — passes every vector it
// inherits, wire level included.
func TestDraftPassesInheritedVectors(t *testing.T) {
	vs := vectorsFor(t, draftTag)
	r := Check(vs, CodecImplementation(codec.NewTemplate(draftTag)), Options{})
	requireAllPass(t, r)
	if r.Diagnostic.Passed < 700 {
		t.Errorf("%d inherited vectors passed, want more than 700", r.Diagnostic.Passed)
	}
}

// A flawed draft fails exactly the inherited vectors that state the law
// it breaks: one that loses a trailing space fails the vector with such a
// string; one that writes GCX1's tag fails every json-encode vector, and
// nothing else.
func TestRunnerCatchesFlawedDrafts(t *testing.T) {
	vs := vectorsFor(t, draftTag)
	var encodes []string
	for _, v := range vs {
		// The impostor takes no limits (it is no codec.Limited), so the
		// vectors under limits are skipped, not failed; a vector nested
		// beyond the bound passes on the impostor's limit error [MAP-4].
		if v.Op == OpJSONEncode && v.Accepts() && v.Limits == nil && v.Expected.OrError == nil {
			encodes = append(encodes, v.Name())
		}
	}
	for _, c := range []struct {
		codec codec.Codec
		want  []string
	}{
		{codectest.Lossy(draftTag), []string{"json/spelled-values/map-5-texts-that-are-not-compact-forms-stay-bare"}},
		{codectest.Impostor(draftTag), encodes},
	} {
		r := Check(vs, CodecImplementation(c.codec), Options{})
		var failed []string
		for _, res := range r.Failures() {
			failed = append(failed, res.Vector.Name())
		}
		if diff := cmp.Diff(c.want, failed); diff != "" {
			t.Errorf("%T: failed vectors (-want +got):\n%s", c.codec, diff)
		}
	}
}

// codecProgram speaks the protocol of the gcx command for the template
// draft of tag, as gcx does for a registered draft: every op needs the
// version flag (--tag to encode, --accept to decode) naming the tag, and
// exits 2 without it.
func codecProgram(tag string, args []string) int {
	impl := CodecImplementation(codec.NewTemplate(tag))
	in, _ := io.ReadAll(os.Stdin)
	if len(args) == 0 {
		return 2
	}
	op, args := args[0], args[1:]
	fl := flag.NewFlagSet("codec", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	wire := fl.Bool("wire", false, "")
	tool := fl.String("tool", "result", "")
	mode := fl.String("mode", "auto", "")
	version := fl.String(map[string]string{"encode": "tag", "decode": "accept"}[op], "", "")
	limits := Limits{}
	for name := range limitNames {
		fl.Func(name, "", func(s string) (err error) {
			limits[name], err = strconv.Atoi(s)
			return err
		})
	}
	if err := fl.Parse(args); err != nil || fl.NArg() > 0 || *version != tag {
		return 2
	}
	var out []byte
	var err error
	switch {
	case op == "decode" && *wire:
		var p *spec.Payload
		if p, err = impl.Decode(in, limits); err == nil {
			out = wireview.Marshal(p)
		}
	case op == "encode" && *wire:
		out, err = impl.Encode(in)
	case op == "encode":
		if out, err = impl.EncodeJSON(in, *tool, *mode, limits); err == nil && !bytes.HasPrefix(out, []byte("GCX")) {
			out = append(out, '\n')
		}
	default:
		if out, err = impl.DecodeJSON(in, limits); err == nil {
			out = append(out, '\n')
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, spec.ErrUnsupportedVersion) {
			return 3
		}
		return 1
	}
	os.Stdout.Write(out)
	return 0
}

// A program checked for a draft is given the version flags: one that
// speaks them passes a sample of the draft's vectors in every category.
func TestCommandForADraft(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeEnv, "codec "+draftTag)
	var sample []Vector
	for i, v := range vectorsFor(t, draftTag) {
		if i%12 == 0 {
			sample = append(sample, v)
		}
	}
	r := Check(sample, CommandFor(draftTag, 0, self), Options{})
	requireAllPass(t, r)
	cats := map[string]bool{}
	for _, res := range r.Results {
		cats[res.Vector.Category] = true
	}
	// The version and mcp categories are GCX1's alone.
	if len(cats) != len(Categories)-2 || cats[CategoryVersion] || cats[CategoryMCP] {
		t.Errorf("the sample covers the categories %v", cats)
	}
}

// versionFile is a version file that changes one vector and excludes a
// group, for the tree of versionTree.
const versionFile = `{"tag":"GCX2-draft.7","description":"d",` +
	`"changes":[{"id":"val-2-x","rule":"D7-DICT-1","by":"d7-dict-1-x"}],` +
	`"excludes":[{"match":"^reject/h/","rule":"DICT-2"}]}`

// versionTree returns a vectors tree with two GCX1 groups, a group of
// the draft GCX2-draft.7 and the draft's version file, edited by edit.
func versionTree(edit func(string) string) fstest.MapFS {
	g := brokenFiles()["unknown key"]
	g = strings.Replace(g, `,"note":"x"`, "", 1)
	h := strings.NewReplacer(`"group":"g"`, `"group":"h"`, `"id":"val-2-x"`, `"id":"val-2-y"`).Replace(g)
	own := strings.NewReplacer(`"group":"g"`, `"group":"draft"`, `"description":"d","vectors"`, `"description":"d","tags":["GCX2-draft.7"],"vectors"`,
		`"id":"val-2-x"`, `"id":"d7-dict-1-x"`, `"rules":["VAL-2"]`, `"rules":["D7-DICT-1","VAL-2"]`, "GCX1 tool", "GCX2-draft.7 tool").Replace(g)
	return fstest.MapFS{
		"reject/g.json":              {Data: []byte(g)},
		"reject/h.json":              {Data: []byte(h)},
		"reject/draft.json":          {Data: []byte(own)},
		"versions/GCX2-draft.7.json": {Data: []byte(edit(versionFile))},
	}
}

// A version file changes and excludes GCX1's vectors; its own vectors
// apply to it alone, and cite rules of its namespace (D7-DICT-1), which
// the schema accepts too.
func TestVersionFile(t *testing.T) {
	tree := versionTree(func(s string) string { return s })
	s, err := LoadSuite(tree)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := jsonschema.NewCompiler().Compile("vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tree["reject/draft.json"].Data)); err != nil || schema.Validate(doc) != nil {
		t.Errorf("the schema refuses the draft's vectors file: %v %v", err, schema.Validate(doc))
	}
	for id, rule := range map[string]string{"val-2-x": "VAL-2", "d7-dict-1-x": "D7-DICT-1", "lim-2-line-of-1-mib": "LIM-2", "x-y": ""} {
		if got := (&Vector{ID: id}).RuleOfID(); got != rule {
			t.Errorf("RuleOfID(%s) = %q, want %q", id, got, rule)
		}
	}
	names := func(tag string) []string {
		vs, err := s.For(tag)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range vs {
			out = append(out, v.ID)
		}
		return out
	}
	for tag, want := range map[string][]string{
		"GCX1":         {"val-2-x", "val-2-y"},
		"GCX2-draft.7": {"d7-dict-1-x"},
		"GCX2-draft.8": {"val-2-x", "val-2-y"},
	} {
		if diff := cmp.Diff(want, names(tag)); diff != "" {
			t.Errorf("For(%s) (-want +got):\n%s", tag, diff)
		}
	}
}

// LoadSuite and the schema refuse a version file that names what is not
// there, or says what it changes in a way the format does not allow.
func TestVersionFileRefusals(t *testing.T) {
	schema, err := jsonschema.NewCompiler().Compile("version.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(string) string{
		"unknown vector":     func(s string) string { return strings.Replace(s, `"id":"val-2-x"`, `"id":"val-2-z"`, 1) },
		"by not the draft's": func(s string) string { return strings.Replace(s, `"by":"d7-dict-1-x"`, `"by":"val-2-y"`, 1) },
		"change without by":  func(s string) string { return strings.Replace(s, `,"by":"d7-dict-1-x"`, ``, 1) },
		"match selects none": func(s string) string { return strings.Replace(s, `^reject/h/`, `^json/`, 1) },
		"rule not an ID":     func(s string) string { return strings.Replace(s, `"rule":"DICT-2"`, `"rule":"dict-2"`, 1) },
		"id and match":       func(s string) string { return strings.Replace(s, `{"match"`, `{"id":"val-2-y","match"`, 1) },
		"tag not the name":   func(s string) string { return strings.Replace(s, `"tag":"GCX2-draft.7"`, `"tag":"GCX2-draft.6"`, 1) },
		"unknown key": func(s string) string {
			return strings.Replace(s, `"description":"d"`, `"description":"d","note":"x"`, 1)
		},
	} {
		tree := versionTree(edit)
		if _, err := LoadSuite(tree); err == nil {
			t.Errorf("%s: LoadSuite accepts it", name)
		}
		if name == "unknown vector" || name == "by not the draft's" || name == "match selects none" || name == "tag not the name" {
			continue // only the suite knows
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tree["versions/GCX2-draft.7.json"].Data))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(versionFile))
	if err := schema.Validate(doc); err != nil {
		t.Errorf("the good file: %v", err)
	}
}

// The committed version files match their schema, and every rule a
// draft's vectors or version file cites is defined by the draft's
// document, docs/drafts/TAG.md, or by GCX1's.
func TestDraftVectorsCiteTheirDocument(t *testing.T) {
	schema, err := jsonschema.NewCompiler().Compile("version.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := fs.Glob(Embedded(), VersionsDir+"/*.json")
	for _, name := range files {
		b, _ := fs.ReadFile(Embedded(), name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err == nil {
			err = schema.Validate(doc)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	suite, err := EmbeddedSuite()
	if err != nil {
		t.Fatal(err)
	}
	gcx1 := specRules(t)
	defined := func(tag, rule string) bool {
		doc, _ := os.ReadFile(filepath.Join("..", "docs", "drafts", tag+".md"))
		return gcx1[rule] || bytes.Contains(doc, []byte("**["+rule+"]**"))
	}
	for _, v := range suite.Vectors {
		for _, tag := range v.Tags {
			if tag == spec.Version {
				continue
			}
			for _, r := range slices.Concat(v.Rules, errorRule(v.Expected.Error)) {
				if !defined(tag, r) {
					t.Errorf("%s cites %s, which neither docs/drafts/%s.md nor docs/wire-format.md defines", v.Name(), r, tag)
				}
			}
		}
	}
	for tag, ver := range suite.Versions {
		for _, c := range slices.Concat(ver.Changes, ver.Excludes) {
			if !defined(tag, c.Rule) {
				t.Errorf("versions/%s.json cites %s, which docs/drafts/%s.md does not define", tag, c.Rule, tag)
			}
		}
	}
}

func errorRule(e *ExpectedError) []string {
	if e == nil {
		return nil
	}
	return []string{e.Rule}
}

// templatePlaceholders are the parts of docs/drafts/TEMPLATE.md a draft's
// document replaces.
var templatePlaceholders = []string{"GCX2-draft.N", "— TITLE", "ONE PARAGRAPH", "THE RULE", "ONE LINE", "ONE SENTENCE", "+X.X pts", "[DN-TAB-1]"}

// A draft's document is named after a draft tag, and its rules are of its
// own namespace: it never defines an ID of GCX1's. The documents about
// versions cite only rules that exist, and the files CONTRIBUTING.md tells
// a draft's author to copy exist.
func TestDraftDocuments(t *testing.T) {
	gcx1 := specRules(t)
	defines := regexp.MustCompile(`\*\*\[([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-[0-9]+)\]\*\*`)
	docs, err := filepath.Glob(filepath.Join("..", "docs", "drafts", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		name := strings.TrimSuffix(filepath.Base(doc), ".md")
		if name == "TEMPLATE" {
			continue
		}
		if !codec.IsDraft(name) {
			t.Errorf("docs/drafts/%s.md: %s is not a draft tag (GCX<major>-draft.<n>)", name, name)
		}
		b, _ := os.ReadFile(doc)
		// A copy of the template that is not filled in yet.
		for _, placeholder := range templatePlaceholders {
			if bytes.Contains(b, []byte(placeholder)) {
				t.Errorf("docs/drafts/%s.md still holds the template's %q: fill it in (CONTRIBUTING.md, \"How to trial a change\")", name, placeholder)
			}
		}
		for _, m := range defines.FindAllSubmatch(b, -1) {
			if gcx1[string(m[1])] {
				t.Errorf("docs/drafts/%s.md defines [%s], an ID of GCX1; a draft's rules take IDs of its own", name, m[1])
			}
		}
	}
	template, err := os.ReadFile(filepath.Join("..", "docs", "drafts", "TEMPLATE.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, placeholder := range templatePlaceholders {
		if !bytes.Contains(template, []byte(placeholder)) {
			t.Errorf("docs/drafts/TEMPLATE.md no longer holds %q: update templatePlaceholders", placeholder)
		}
	}
	cites := regexp.MustCompile(`\[([A-Z]+-[0-9]+)\]`)
	for _, doc := range []string{"VERSIONING.md", filepath.Join("docs", "drafts", "TEMPLATE.md")} {
		b, err := os.ReadFile(filepath.Join("..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cites.FindAllSubmatch(b, -1) {
			if r := string(m[1]); !gcx1[r] {
				t.Errorf("%s cites [%s], which docs/wire-format.md does not define", doc, r)
			}
		}
	}
	guide, _ := os.ReadFile(filepath.Join("..", "CONTRIBUTING.md"))
	for _, file := range []string{"docs/drafts/TEMPLATE.md", "codec/template.go", "VERSIONING.md"} {
		if !bytes.Contains(guide, []byte("("+file+")")) {
			t.Errorf("CONTRIBUTING.md does not link %s", file)
		}
		if _, err := os.Stat(filepath.Join("..", file)); err != nil {
			t.Error(err)
		}
	}
}
