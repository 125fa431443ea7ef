package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// specRules returns the rule IDs defined in docs/wire-format.md, where a
// definition reads **[HDR-3]**.
func specRules(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, m := range regexp.MustCompile(`\*\*\[([A-Z]+-[0-9]+)\]\*\*`).FindAllSubmatch(doc, -1) {
		rules[string(m[1])] = true
	}
	if len(rules) == 0 {
		t.Fatal("docs/wire-format.md defines no rule IDs")
	}
	return rules
}

// The suite is as large as the issue that asked for it requires.
func TestVectorCount(t *testing.T) {
	if n := len(loadVectors(t)); n < 250 {
		t.Errorf("%d vectors, want at least 250", n)
	}
}

// Every rule a vector cites or expects exists.
func TestVectorRulesExistInSpec(t *testing.T) {
	rules := specRules(t)
	for _, v := range allVectors(t) {
		for _, r := range v.Rules {
			if !rules[r] {
				t.Errorf("%s cites %s, which docs/wire-format.md does not define", v.Name(), r)
			}
		}
		if e := v.Expected.Error; e != nil && !rules[e.Rule] {
			t.Errorf("%s expects rule %s, which docs/wire-format.md does not define", v.Name(), e.Rule)
		}
	}
}

// oneSided lists the rules no vector can exercise both ways, and why.
// Every other rule has an accepting and a rejecting vector.
var oneSided = map[string]struct {
	accept, reject bool
	why            string
}{
	"HDR-9":  {accept: true, why: "it tells decoders to keep unknown meta keys; nothing breaks it"},
	"META-2": {accept: true, why: "total= is informative: decoders check nothing but its syntax (META-1)"},
	"META-5": {accept: true, why: "it makes the reserved keys optional and free in place"},
	"VER-3":  {reject: true, why: "it makes a malformed tag an error"},
	"CAN-2":  {accept: true, why: "it says what the encoder writes; refusals are CAN-3"},
	"CAN-3":  {reject: true, why: "it says what the encoder refuses; what it writes is CAN-2"},
	"LIM-2":  {accept: true, why: "it sets the sizes every decoder must accept"},
	"MAP-20": {reject: true, why: "it says what a decoder may write while it reads, which vectors comparing whole results cannot show (jsonmap's TestPropertyDecodeToStreams), and when it refuses a section's rows, which they can"},
	"MAP-21": {why: "it concerns the partial output of a failed run, which vectors do not see (jsonmap's TestDecodeToHoldsBackTheEnd)"},
	"VER-6":  {reject: true, why: "it reserves GCX1-stream; a decoder can only refuse it"},
	"ERR-1":  {reject: true, why: "it classifies errors"},
	"ERR-2":  {reject: true, why: "it places errors"},
	"ERR-3":  {reject: true, why: "it orders errors"},
	"ERR-4":  {reject: true, why: "it forbids data alongside an error"},
	"WIRE-1": {accept: true, why: "it defines the view a decoder writes; a broken view given to an encoder is WIRE-2"},
	"WIRE-3": {reject: true, why: "it fixes the exit statuses of failures; success is every other vector"},
	"WIRE-4": {why: "it concerns a failing result past a command's hold limit, far beyond a vector; cmd/gcx's process tests check it"},
	"MCP-1":  {accept: true, why: "it names the keys; every vector uses them, and a key of the wrong type breaks MCP-7 or MCP-8"},
	"MCP-2":  {accept: true, why: "it says how a client opts in; a server refuses nothing"},
	"MCP-3":  {accept: true, why: "it says how a call opts in or out; a malformed opt-in is no opt-in"},
	"MCP-4":  {accept: true, why: "it says which tag a server writes; no common tag leaves the result alone"},
	"MCP-5":  {accept: true, why: "it says what a server leaves alone"},
	"MCP-6":  {accept: true, why: "it says what a server writes; it refuses nothing"},
	"MCP-10": {accept: true, why: "it says where a server reads capabilities; a misplaced key opts nothing in and refuses nothing"},
	"MCP-11": {accept: true, why: "it says what a per-call value of the wrong type asks for: JSON, never a refusal"},
	"MCP-12": {accept: true, why: "it says what auto mode weighs; it refuses nothing"},
	"PRX-1":  {accept: true, why: "it says what an intermediary writes for the model; it refuses nothing"},
	"PRX-2":  {accept: true, why: "it says which host an intermediary leaves to chapter 15; it refuses nothing"},
	"PRX-3":  {accept: true, why: "it says when an intermediary asks the upstream and passes its answer on; it refuses nothing"},
	"PRX-4":  {accept: true, why: "it says what auto mode weighs for an intermediary; it refuses nothing"},
	"PRX-5":  {accept: true, why: "it says which messages pass untouched; it refuses nothing"},
	"PRX-6":  {why: "it bounds what an intermediary keeps and says how a message over its limit passes, which a vector of one call cannot show; gcxmcp/proxy's stream tests check it"},
	"PRX-7":  {why: "it concerns the HTTP transport (Host, Origin, paths, listening, credentials), which the conformance protocol does not carry; gcxmcp/proxy's security tests and FuzzHTTPFront check it, and docs/security.md lists probes for any implementation"},
	"PRX-8":  {why: "it concerns sessions of the HTTP transport, which the conformance protocol does not carry; gcxmcp/proxy's security tests check it"},
	"PRX-9":  {why: "it bounds calls, bytes and time across many requests, which a vector of one call cannot show; gcxmcp/proxy's stdio and security tests check it"},
	"WIRE-5": {why: "it concerns a stream that fails (a full disk, a closed pipe), which no vector can cause; cmd/gcx's process tests check it"},
	"MAP-4":  {accept: true, why: "its nesting bound is any number from 1000 up, so no depth must be refused"},
	"MAP-5":  {accept: true, why: "every non-empty text denotes a value: one that is no compact form is a string"},
	"MAP-8":  {accept: true, why: "a table's errors belong to its columns (MAP-15) and layouts (LAY-3 to LAY-5)"},
	"MAP-3":  {accept: true, why: "it defines the compact form a decoder writes"},
	"MAP-6":  {accept: true, why: "it says how an encoder spells a value; it refuses nothing"},
	"MAP-12": {accept: true, why: "it says which form an encoder writes; it refuses nothing"},
	"MAP-17": {accept: true, why: "it says which members an encoder spreads; it refuses nothing"},
	"MAP-18": {accept: true, why: "it says which columns an encoder declares bare; it refuses nothing"},
	"MAP-19": {accept: true, why: "it says which pairs an encoder writes, in which order; it refuses nothing"},
	"ERR-5":  {reject: true, why: "it says which rule a syntax error names"},
	"ERR-6":  {why: "it defines the two levels every vector is judged at; no vector is about it"},
	"MAP-13": {accept: true, why: "it tells decoders to ignore meta outside the value; nothing breaks it"},
	"LAY-6":  {accept: true, why: "it is the registry of layouts"},
	"AUTO-1": {accept: true, why: "auto mode chooses a format; it refuses nothing"},
	"AUTO-2": {accept: true, why: "it bounds auto mode's cost; it refuses nothing"},
}

// Every rule of docs/wire-format.md is exercised by an accepting and a
// rejecting vector — a rule that can only be followed, or only broken, by
// one of them, as oneSided says — and the exceptions stay true: a rule
// listed as one-sided that gains vectors on its other side is reported,
// so the list is pruned.
func TestSpecRulesHaveVectors(t *testing.T) {
	accepting, rejecting := map[string]int{}, map[string]int{}
	for _, v := range allVectors(t) {
		for _, r := range v.Rules {
			if v.Accepts() {
				accepting[r]++
			} else {
				rejecting[r]++
			}
		}
	}
	rules := specRules(t)
	ids := make([]string, 0, len(rules))
	for r := range rules {
		ids = append(ids, r)
	}
	sort.Strings(ids)
	for _, r := range ids {
		needAccept, needReject := true, true
		if o, ok := oneSided[r]; ok {
			needAccept, needReject = o.accept, o.reject
		}
		if needAccept && accepting[r] == 0 {
			t.Errorf("%s: no accepting vector cites it", r)
		}
		if needReject && rejecting[r] == 0 {
			t.Errorf("%s: no rejecting vector cites it", r)
		}
		if o, ok := oneSided[r]; ok && accepting[r] > 0 && rejecting[r] > 0 {
			t.Errorf("%s: listed as one-sided (%s), but has both kinds of vector", r, o.why)
		}
		if o, ok := oneSided[r]; ok && (!o.accept && !o.reject) && accepting[r]+rejecting[r] > 0 {
			t.Errorf("%s: listed as testable neither way (%s), but %d vectors cite it", r, o.why, accepting[r]+rejecting[r])
		}
	}
	for r := range oneSided {
		if !rules[r] {
			t.Errorf("oneSided names %s, which docs/wire-format.md does not define", r)
		}
	}
}

// vectorFiles returns the paths of the committed vectors files.
func vectorFiles(t *testing.T) []string {
	t.Helper()
	files, err := fs.Glob(Embedded(), "*/*.json")
	files = slices.DeleteFunc(files, func(name string) bool { return strings.HasPrefix(name, VersionsDir+"/") })
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors files: %v", err)
	}
	return files
}

// Every vectors file satisfies vectors.schema.json, checked by an
// independent JSON Schema validator, so the schema implementers read
// describes the files they run.
func TestVectorFilesMatchSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	schema, err := c.Compile("vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range vectorFiles(t) {
		b, err := fs.ReadFile(Embedded(), name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The schema refuses what Load refuses: a sample of broken files fails
// both, so neither is looser than the other on these points.
func TestSchemaAndLoadRefuseTheSame(t *testing.T) {
	c := jsonschema.NewCompiler()
	schema, err := c.Compile("vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, file := range brokenFiles() {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(file))
		if err != nil {
			t.Errorf("%s: not JSON: %v", name, err)
			continue
		}
		if schema.Validate(doc) == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
		if _, err := ParseFile([]byte(file)); err == nil {
			t.Errorf("%s: ParseFile accepts it", name)
		}
	}
}

// brokenFiles returns vectors files that each break one point of the
// format, starting from a good file.
func brokenFiles() map[string]string {
	good := `{"category":"reject","group":"g","description":"d","vectors":[{"id":"val-2-x","description":"d","rules":["VAL-2"],"op":"decode","input":"GCX1 tool=t fields=a\n\\q\n","expected":{"error":{"class":"syntax","rule":"VAL-2","line":2,"column":2}}}]}`
	broken := map[string][2]string{
		"unknown category":             {`"category":"reject"`, `"category":"rejects"`},
		"op outside its category":      {`"op":"decode"`, `"op":"encode"`},
		"unknown key":                  {`"op":"decode"`, `"op":"decode","note":"x"`},
		"two-line description":         {`"description":"d","rules"`, `"description":"d\ne","rules"`},
		"id without a rule":            {`"id":"val-2-x"`, `"id":"escape-x"`},
		"rule not an ID":               {`"rules":["VAL-2"]`, `"rules":["VAL-2","val"]`},
		"both inputs":                  {`"op":"decode",`, `"op":"decode","input_base64":"/w==",`},
		"no input":                     {`"input":"GCX1 tool=t fields=a\n\\q\n",`, ``},
		"bad base64":                   {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input_base64":"/w="`},
		"unknown class":                {`"class":"syntax"`, `"class":"grammar"`},
		"line without column":          {`"line":2,"column":2`, `"line":2`},
		"tag on a syntax error":        {`"column":2}`, `"column":2,"tag":"GCX2"}`},
		"view and error":               {`"expected":{`, `"expected":{"view":{"sections":[]},`},
		"limits on encode":             {`"op":"decode"`, `"op":"decode","limits":{"max-rows":0}`},
		"tool on decode":               {`"op":"decode"`, `"op":"decode","tool":"t"`},
		"canonical on a rejection":     {`"op":"decode"`, `"op":"decode","canonical":true`},
		"reject expecting no error":    {`"expected":{"error":{"class":"syntax","rule":"VAL-2","line":2,"column":2}}`, `"expected":{"view":{"sections":[]}}`},
		"input neither text nor parts": {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":7`},
		"empty list of parts":          {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[]`},
		"part without text":            {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[{"text":"GCX1 tool=t fields=a\n\\q\n"},{"text":"","repeat":2}]`},
		"part repeated once":           {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[{"text":"GCX1 tool=t fields=a\n\\q"},{"text":"\n","repeat":1}]`},
		"no part repeats":              {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[{"text":"GCX1 tool=t fields=a\n\\q"},{"text":"\n"}]`},
		"unknown key in a part":        {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[{"text":"GCX1 tool=t fields=a\n"},{"text":"\\q\n","times":2}]`},
		"parts and base64":             {`"input":"GCX1 tool=t fields=a\n\\q\n"`, `"input":[{"text":"x","repeat":2}],"input_base64":"/w=="`},
	}
	out := map[string]string{}
	for name, r := range broken {
		out[name] = strings.Replace(good, r[0], r[1], 1)
	}
	return out
}

// Every file is in the canonical form of Format, so hand-written and
// generated files look alike; gcx-vectors -fmt rewrites one that is not.
func TestVectorFilesFormatted(t *testing.T) {
	for _, name := range vectorFiles(t) {
		b, _ := fs.ReadFile(Embedded(), name)
		f, err := ParseFile(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out, err := Format(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s is not formatted: run go run ./conformance/cmd/gcx-vectors -fmt", name)
		}
	}
}

// No file repeats a key in an object: encoding/json would silently keep
// the last, and a JSON reader in another language might keep the first.
// The mapping's strict parser refuses repeated names [MAP-1].
func TestVectorFilesHaveNoRepeatedKeys(t *testing.T) {
	for _, name := range vectorFiles(t) {
		b, _ := fs.ReadFile(Embedded(), name)
		if _, err := jsonmap.Parse(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Vectors are not repeated: no two vectors give one op the same input with
// the same arguments. Vectors without limits stay within what every
// conforming decoder accepts [LIM-2], so the same error comes under the
// minimum limits — except those that allow a limit error instead, which a
// decoder at the minimums must give.
func TestVectorsDistinctAndWithinMinimumLimits(t *testing.T) {
	minimum := spec.MinimumLimits
	seen := map[string]string{}
	for _, v := range loadVectors(t) {
		limits, _ := json.Marshal(v.Limits)
		key := strings.Join([]string{string(v.Op), v.Tool, v.Mode, string(limits), string(v.Input)}, "\x00")
		if other, dup := seen[key]; dup {
			t.Errorf("%s repeats the input of %s", v.Name(), other)
		}
		seen[key] = v.Name()
		if v.Op != OpDecode || v.Limits != nil {
			continue
		}
		_, err := reference.DecodeLimits(v.Input, minimum)
		var e *spec.Error
		if or := v.Expected.OrError; or != nil {
			// Beyond the minimums by design: a decoder at the minimums
			// refuses it, with the limit error the vector allows [LIM-1].
			if !errors.As(err, &e) || !errors.Is(err, spec.ErrLimit) || e.Rule != or.Rule || e.Line != or.Line {
				t.Errorf("%s: under the minimum limits %v, want the limit error on line %d it allows", v.Name(), err, or.Line)
			}
			continue
		}
		switch {
		case v.Accepts() && err != nil:
			t.Errorf("%s: needs more than the minimum limits [LIM-2]: %v", v.Name(), err)
		case !v.Accepts() && errors.Is(err, spec.ErrLimit):
			t.Errorf("%s: meets a minimum limit before its own error [LIM-2]: %v", v.Name(), err)
		}
	}
}

// Every decode-category vector is canonical: in GCX1 every valid payload
// is [CAN-1], so a vector that is not would contradict the spec.
func TestDecodeVectorsCanonical(t *testing.T) {
	for _, v := range loadVectors(t) {
		if v.Op == OpDecode && v.Accepts() && !v.IsCanonical() {
			t.Errorf("%s: a valid GCX1 payload that is not canonical contradicts [CAN-1]", v.Name())
		}
	}
}

// Bytes that other checkouts could mangle reached this one intact.
func TestVectorBytesSurvived(t *testing.T) {
	byID := map[string]*Vector{}
	all := loadVectors(t)
	for i := range all {
		byID[all[i].ID] = &all[i]
	}
	for id, want := range map[string]string{
		"enc-3-crlf-line-ending":         "x\r\n",
		"enc-4-nul-and-controls":         "\x00\t\x01\x7f\n",
		"enc-1-overlong-slash":           "\xc0\xaf\n",
		"enc-2-bom-at-start":             "\ufeffGCX1",
		"row-3-trailing-empty-values":    "a\t\t\n\t\t\n",
		"lim-2-line-of-1-mib":            strings.Repeat("x", 1024),
		"hdr-5-all-field-escapes":        `\s`,
		"enc-1-invalid-byte-ff-in-value": "\xff",
	} {
		v := byID[id]
		if v == nil {
			t.Errorf("%s: missing", id)
			continue
		}
		if !bytes.Contains(v.Input, []byte(want)) {
			t.Errorf("%s: input %q lost %q", id, v.Input, want)
		}
	}
}

// For decoders each rule belongs to one error class, so a command that
// names the rule and exits with the right status has named the class;
// docs/conformance.md's account of how commands are checked relies on it.
func TestRuleDeterminesClass(t *testing.T) {
	classOf := map[string]string{}
	seenIn := map[string]string{}
	for _, v := range loadVectors(t) {
		e := v.Expected.Error
		if e == nil || v.Op != OpDecode {
			continue
		}
		if c, ok := classOf[e.Rule]; ok && c != e.Class {
			t.Errorf("rule %s is %s in %s but %s in %s", e.Rule, c, seenIn[e.Rule], e.Class, v.Name())
		}
		classOf[e.Rule], seenIn[e.Rule] = e.Class, v.Name()
	}
}

// The enumerations of the schema are the Go package's.
func TestSchemaAgreesWithPackage(t *testing.T) {
	b, err := os.ReadFile("vectors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Category struct{ Enum []string } `json:"category"`
		} `json:"properties"`
		Defs struct {
			Vector struct {
				Properties struct {
					Op     struct{ Enum []string }
					Limits struct{ Properties map[string]any }
					Mode   struct{ Enum []string }
				} `json:"properties"`
			} `json:"vector"`
			Error struct {
				Properties struct {
					Class struct{ Enum []string }
				} `json:"properties"`
			} `json:"error"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	keys := func(m map[string]any) []string {
		var s []string
		for k := range m {
			s = append(s, k)
		}
		return sorted(s)
	}
	var ops, limits, classes, modeList []string
	for _, ps := range opsOf {
		for _, o := range ps {
			if !slices.Contains(ops, string(o)) {
				ops = append(ops, string(o))
			}
		}
	}
	for l := range limitNames {
		limits = append(limits, l)
	}
	for c := range classesOf {
		classes = append(classes, c)
	}
	for m := range modes {
		modeList = append(modeList, m)
	}
	for _, c := range []struct {
		what         string
		schema, code []string
	}{
		{"categories", schema.Properties.Category.Enum, Categories},
		{"ops", schema.Defs.Vector.Properties.Op.Enum, ops},
		{"limits", keys(schema.Defs.Vector.Properties.Limits.Properties), limits},
		{"modes", schema.Defs.Vector.Properties.Mode.Enum, modeList},
		{"classes", schema.Defs.Error.Properties.Class.Enum, classes},
	} {
		if !slices.Equal(sorted(c.schema), sorted(c.code)) {
			t.Errorf("%s: schema has %v, the package %v", c.what, sorted(c.schema), sorted(c.code))
		}
	}
}

// Load refuses what would silently drop or weaken a vector.
func TestLoadRefusesBrokenTrees(t *testing.T) {
	good := brokenFiles()["unknown key"]
	good = strings.Replace(good, `,"note":"x"`, "", 1)
	for name, fsys := range map[string]fstest.MapFS{
		"file outside a category":    {"reject/g.json": {Data: []byte(good)}, "notes.txt": {Data: []byte("x")}},
		"unknown category":           {"rejects/g.json": {Data: []byte(good)}},
		"not a .json file":           {"reject/g.json": {Data: []byte(good)}, "reject/g.txt": {Data: []byte(good)}},
		"group not its file name":    {"reject/h.json": {Data: []byte(good)}},
		"file in the wrong category": {"decode/g.json": {Data: []byte(good)}},
		"id used twice": {
			"reject/g.json": {Data: []byte(good)},
			"reject/h.json": {Data: []byte(strings.Replace(good, `"group":"g"`, `"group":"h"`, 1))},
		},
		"no vectors": {},
	} {
		if _, err := Load(fsys); err == nil {
			t.Errorf("%s: Load accepts it", name)
		}
	}
	if vs, err := Load(fstest.MapFS{"reject/g.json": {Data: []byte(good)}}); err != nil || len(vs) != 1 {
		t.Errorf("the good tree: %v", err)
	}
}

// docs/conformance.md maps every entry of Appendix C and every case of the
// published decoder to vectors that exist.
func TestGuideMapsErrataToVectors(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "docs", "conformance.md"))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, v := range allVectors(t) {
		ids[v.ID] = true
	}
	row := regexp.MustCompile("(?m)^\\| (E-[0-9]+|published: [^|]+) \\|(.*)\\|\\s*$")
	vectorRef := regexp.MustCompile("`([a-z]+-[0-9]+(?:-[a-z0-9]+)+)`")
	mapped := map[string]bool{}
	published := 0
	for _, m := range row.FindAllSubmatch(guide, -1) {
		entry := string(m[1])
		refs := vectorRef.FindAllSubmatch(m[2], -1)
		if len(refs) == 0 {
			t.Errorf("docs/conformance.md: %s names no vector", entry)
		}
		for _, r := range refs {
			if !ids[string(r[1])] {
				t.Errorf("docs/conformance.md: %s names %s, which is no vector", entry, r[1])
			}
		}
		if strings.HasPrefix(entry, "published") {
			published++
		}
		mapped[entry] = true
	}
	spec, err := os.ReadFile(filepath.Join("..", "docs", "wire-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	entries := regexp.MustCompile(`(?m)^\*\*(E-[0-9]+)\.`).FindAllSubmatch(spec, -1)
	if len(entries) < 21 {
		t.Fatalf("Appendix C has %d entries", len(entries))
	}
	for _, e := range entries {
		if !mapped[string(e[1])] {
			t.Errorf("docs/conformance.md does not map %s of Appendix C to vectors", e[1])
		}
	}
	if published < 10 {
		t.Errorf("docs/conformance.md maps %d cases of the published decoder, want all 10 with a GCX1 payload", published)
	}
}

// The README states the size of the suite; it stays true.
func TestReadmeCountsVectors(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`conformance suite: ([0-9]+) vectors of the format and ([0-9]+) of the\s+MCP binding`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README does not state the number of conformance vectors")
	}
	if n := strconv.Itoa(len(loadVectors(t))); string(m[1]) != n {
		t.Errorf("README says %s vectors of the format, the suite has %s", m[1], n)
	}
	binding, err := BindingVectors()
	if err != nil {
		t.Fatal(err)
	}
	if n := strconv.Itoa(len(binding)); string(m[2]) != n {
		t.Errorf("README says %s vectors of the MCP binding, the suite has %s", m[2], n)
	}
}

// Every encode refusal carries its position in the view [WIRE-3], the
// view's own faults [WIRE-2] as those of the model (E-58): a vector without
// one cannot be loaded.
func TestEncodeRefusalsNeedPositions(t *testing.T) {
	file := func(rule, place string) string {
		return `{"category":"encode","group":"g","description":"d","vectors":[{"id":"` + strings.ToLower(rule) + `-x","description":"d","rules":["` + rule +
			`"],"op":"encode","input":"{}","expected":{"error":{"class":"model","rule":"` + rule + `"` + place + `}}}]}`
	}
	for _, rule := range []string{"WIRE-2", "HDR-3"} {
		if _, err := Load(fstest.MapFS{"encode/g.json": {Data: []byte(file(rule, ""))}}); err == nil {
			t.Errorf("%s: Load accepts an encode refusal without a position", rule)
		}
		if _, err := Load(fstest.MapFS{"encode/g.json": {Data: []byte(file(rule, `,"line":1,"column":1`))}}); err != nil {
			t.Errorf("%s: Load refuses an encode refusal with its position: %v", rule, err)
		}
	}
}
