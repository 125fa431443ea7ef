package conformance

import (
	"bytes"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// embedded holds the committed vectors, so the runner works from any
// directory and a Go test needs no path to them.
//
//go:embed vectors
var embedded embed.FS

// Embedded returns the committed vectors as a file system rooted at the
// vectors directory, ready for Load.
func Embedded() fs.FS {
	sub, err := fs.Sub(embedded, "vectors")
	if err != nil {
		// fs.Sub fails only for an invalid path name, and "vectors" is valid.
		panic(err)
	}
	return sub
}

var embeddedSuite struct {
	once    sync.Once
	suite   *Suite
	gcx1    []Vector // of the format
	binding []Vector // of the MCP binding
	err     error
}

// EmbeddedSuite returns the committed vectors and versions, read once per
// process: the million-row vector makes a load take a moment, and every
// run of a test binary would otherwise repeat it. Callers must not modify
// it.
func EmbeddedSuite() (*Suite, error) {
	e := &embeddedSuite
	e.once.Do(func() {
		var all []Vector
		if e.suite, e.err = LoadSuite(Embedded()); e.err == nil {
			all, e.err = e.suite.For(spec.Version)
		}
		e.gcx1, e.binding = splitBinding(all)
	})
	return e.suite, e.err
}

// splitBinding parts vectors into those of the format and those of the
// MCP binding, keeping their order.
func splitBinding(all []Vector) (format, binding []Vector) {
	for _, v := range all {
		if v.Op.Binding() {
			binding = append(binding, v)
		} else {
			format = append(format, v)
		}
	}
	return format, binding
}

// Vectors returns the committed vectors of GCX1 that an implementation of
// the format runs: those of every category but CategoryMCP, whose ops an
// MCP binding offers (BindingVectors). Callers must not modify them.
func Vectors() ([]Vector, error) {
	if _, err := EmbeddedSuite(); err != nil {
		return nil, err
	}
	return embeddedSuite.gcx1, nil
}

// BindingVectors returns the committed vectors of the MCP binding of
// GCX1, category CategoryMCP: what a server sends and what a client makes
// of the answers to its calls (chapter 15). Callers must not modify them.
func BindingVectors() ([]Vector, error) {
	if _, err := EmbeddedSuite(); err != nil {
		return nil, err
	}
	return embeddedSuite.binding, nil
}

// VectorsFor returns the committed vectors of the format that apply to
// the version tag (Suite.For, without the binding's, as Vectors).
func VectorsFor(tag string) ([]Vector, error) {
	s, err := EmbeddedSuite()
	if err != nil {
		return nil, err
	}
	if tag == spec.Version {
		return embeddedSuite.gcx1, nil
	}
	all, err := s.For(tag)
	format, _ := splitBinding(all)
	return format, err
}

// Categories of vectors, each a directory of the vectors tree.
const (
	// CategoryDecode: a valid payload and its wire view [WIRE-1]; canonical
	// ones also give the payload back when the view is encoded [CAN-1].
	CategoryDecode = "decode"
	// CategoryReject: a payload every decoder must reject, and the error.
	CategoryReject = "reject"
	// CategoryEncode: a wire view and its canonical bytes [CAN-2], or the
	// error of an encoder that must refuse it [CAN-3].
	CategoryEncode = "encode"
	// CategoryJSON: a JSON value written as GCX1 and read back [MAP-4], and
	// the errors of the mapping [MAP-14].
	CategoryJSON = "json"
	// CategoryVersion: tags other than GCX1 and the fall-back to JSON
	// [VER-2] [VER-5] [AUTO-3].
	CategoryVersion = "version"
	// CategoryMCP: the MCP binding of chapter 15: the result a server
	// sends for a tool's result, and what a client makes of the answers
	// to its calls [MCP-1] to [MCP-9].
	CategoryMCP = "mcp"
)

// Categories lists every category in the order Load returns them.
var Categories = []string{CategoryDecode, CategoryReject, CategoryEncode, CategoryJSON, CategoryVersion, CategoryMCP}

// Op is what a vector asks an implementation to do.
type Op string

const (
	// OpDecode: GCX1 payload to wire view, as gcx decode --wire.
	OpDecode Op = "decode"
	// OpEncode: wire view to GCX1 payload, as gcx encode --wire.
	OpEncode Op = "encode"
	// OpJSONEncode: JSON text to a tool result, as gcx encode --mode MODE
	// --tool TOOL, or without --tool when the vector names no tool
	// (jsonmap.DefaultTool [MAP-12]).
	OpJSONEncode Op = "json-encode"
	// OpJSONDecode: tool result (GCX1 or JSON) to the compact form of its
	// JSON value, as gcx decode.
	OpJSONDecode Op = "json-decode"
	// OpMCPServer: a tool's result, the server's settings and the
	// client's opt-in to the result the server sends [MCP-2] to [MCP-7].
	OpMCPServer Op = "mcp-server"
	// OpMCPClient: the answers to a client's calls to the calls it makes
	// and what it ends with [MCP-7] to [MCP-9].
	OpMCPClient Op = "mcp-client"
	// OpMCPProxy: an intermediary's settings, the host's call and the
	// upstream's result to the request the upstream receives and the
	// result the host receives [PRX-1] to [PRX-6].
	OpMCPProxy Op = "mcp-proxy"
)

// opsOf lists the ops each category may hold.
var opsOf = map[string][]Op{
	CategoryDecode:  {OpDecode},
	CategoryReject:  {OpDecode},
	CategoryEncode:  {OpEncode},
	CategoryJSON:    {OpJSONEncode, OpJSONDecode},
	CategoryVersion: {OpDecode, OpJSONDecode},
	CategoryMCP:     {OpMCPServer, OpMCPClient, OpMCPProxy},
}

// File is one vectors file, CATEGORY/GROUP.json.
type File struct {
	Category    string `json:"category"`
	Group       string `json:"group"`
	Description string `json:"description"`
	// Tags are the versions the file's vectors are written for, their
	// payloads spelled with the tag. Empty means GCX1 and every version
	// that inherits GCX1's vectors (Suite.For says how); a file that lists
	// tags holds vectors for exactly those versions, never inherited.
	Tags    []string `json:"tags,omitempty"`
	Vectors []Vector `json:"vectors"`
}

// Vector is one conformance case. The exported fields with JSON names are
// the file's; Category, Group and Input are filled in by Load. A vector
// is read with its UnmarshalJSON, which takes the input and the expected
// outcome in each form the format allows.
type Vector struct {
	// ID is unique in the whole suite and begins with the rule the vector
	// exercises most, in lower case: "val-2-unknown-escape-q".
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Rules       []string `json:"rules"`
	Op          Op       `json:"op"`
	// InputText, InputParts and InputBase64 hold the input bytes: as
	// UTF-8 text, as a list of parts for a long text, or in base64 for
	// input that is not valid UTF-8. InputJSON holds the input of a
	// binding op (Op.Binding), a JSON object, as the file gives it.
	// Exactly one is set.
	InputText   *string         `json:"-"`
	InputParts  Parts           `json:"-"`
	InputBase64 *string         `json:"input_base64,omitempty"`
	InputJSON   json.RawMessage `json:"-"`
	// Limits are the limits an OpDecode or OpJSONDecode vector's decoder,
	// or an OpJSONEncode vector's encoder in mode gcx, runs under [LIM-1]
	// [LIM-4]; nil means the implementation's defaults.
	Limits Limits `json:"limits,omitempty"`
	// Tool and Mode are the arguments of an OpJSONEncode vector; a Tool
	// of "" leaves the tool name to the implementation's default [MAP-12].
	Tool string `json:"tool,omitempty"`
	Mode string `json:"mode,omitempty"`
	// Canonical, on an OpDecode vector with a view, asks that encoding the
	// view give the input bytes back [CAN-1].
	Canonical *bool    `json:"canonical,omitempty"`
	Expected  Expected `json:"-"`

	Category string `json:"-"`
	Group    string `json:"-"`
	// Tags are the tags of the vector's file: the versions it is written
	// for, none for GCX1's inheritable vectors.
	Tags []string `json:"-"`
	// Input is the decoded input bytes; for a binding op, the compact
	// form of InputJSON.
	Input []byte `json:"-"`
	// Tag is the version the vector is run for, set by Suite.For (and so
	// by Vectors and VectorsFor); Inherited says that it is one of GCX1's,
	// its payloads respelled with Tag.
	Tag       string `json:"-"`
	Inherited bool   `json:"-"`
}

// UnmarshalJSON reads a vector of a file, refusing keys the format does
// not have: "input" is a string, a list of parts or a JSON object, and
// "expected" is read as the outcome of the vector's op.
func (v *Vector) UnmarshalJSON(b []byte) error {
	type fields Vector // the fields without this method
	var raw struct {
		fields
		Input    json.RawMessage `json:"input"`
		Expected json.RawMessage `json:"expected"`
	}
	if err := strictJSON(b, &raw); err != nil {
		return err
	}
	*v = Vector(raw.fields)
	if in := bytes.TrimLeft(raw.Input, " \t\r\n"); len(in) > 0 && in[0] == '{' {
		v.InputJSON = in
	} else if raw.Input != nil {
		var err error
		if v.InputText, v.InputParts, err = readText("input", raw.Input); err != nil {
			return err
		}
	}
	switch {
	case raw.Expected == nil:
		return errors.New(`"expected" is missing`)
	case v.Op.Binding():
		v.Expected.Outcome = raw.Expected
		return nil
	}
	return strictJSON(raw.Expected, &v.Expected)
}

// readText reads a key of the format that holds a text: a JSON string,
// or a list of Parts.
func readText(key string, raw json.RawMessage) (*string, Parts, error) {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return &s, nil, err
	case len(raw) > 0 && raw[0] == '[':
		var ps Parts
		if err := strictJSON(raw, &ps); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", key, err)
		}
		if ps == nil {
			ps = Parts{}
		}
		return nil, ps, nil
	}
	return nil, nil, fmt.Errorf("%s is neither a string nor a list of parts", key)
}

// A Part is one piece of a text written as Parts: Text, Repeat times, or
// once when Repeat is 0 (absent in the file).
type Part struct {
	Text   string `json:"text"`
	Repeat int    `json:"repeat,omitempty"`
}

// Parts is a text written as a list of parts, so that an input or an
// expected outcome of megabytes — a line of 4 MiB, the view of a million
// rows — takes a line of the file. The text is each part's text written
// its repeat count of times, in order: [{"text":"GCX1 tool=t
// fields=a\n"},{"text":"x","repeat":3},{"text":"\n"}] is "GCX1 tool=t
// fields=a\nxxx\n".
type Parts []Part

// MaxExpanded bounds the bytes a list of Parts may denote: far above the
// largest vector (the 6 MiB view of a million rows), and far below what a
// slip in a repeat count could ask of a reader's memory.
const MaxExpanded = 64 << 20

// Expand returns the text the parts denote. It refuses what would make
// two spellings of one text, or a slip: an empty list, a part without
// text, a repeat count of 1 or less (leave it out for once), a list in
// which no part repeats (write the text as a string), and more than
// MaxExpanded bytes in all.
func (ps Parts) Expand() ([]byte, error) {
	if len(ps) == 0 {
		return nil, errors.New("an empty list of parts")
	}
	total, repeats := 0, false
	for i, p := range ps {
		switch {
		case p.Text == "":
			return nil, fmt.Errorf("part %d has no text", i+1)
		case p.Repeat < 0 || p.Repeat == 1:
			return nil, fmt.Errorf("part %d repeats %d times: give 2 or more, or leave repeat out for once", i+1, p.Repeat)
		}
		n := max(p.Repeat, 1)
		if n > (MaxExpanded-total)/len(p.Text) {
			return nil, fmt.Errorf("the parts make more than %d bytes", MaxExpanded)
		}
		total += n * len(p.Text)
		repeats = repeats || p.Repeat > 1
	}
	if !repeats {
		return nil, errors.New("no part repeats: write the text as a string")
	}
	out := make([]byte, 0, total)
	for _, p := range ps {
		start := len(out)
		size := max(p.Repeat, 1) * len(p.Text)
		out = append(out, p.Text...)
		// Double what is written until it is all there: linear in size.
		for len(out)-start < size {
			out = append(out, out[start:start+min(len(out)-start, size-(len(out)-start))]...)
		}
	}
	return out, nil
}

// Expected is the outcome a vector asks for: exactly one of View, Output
// (with Value for OpJSONEncode), Value or Error; OrError only beside View
// or, for the JSON ops, beside Value.
type Expected struct {
	// View is the wire view an OpDecode vector's payload decodes to, as
	// a JSON text; ViewParts is set when the file gives that text as a
	// list of parts, of which View is then the expansion.
	View      json.RawMessage `json:"-"`
	ViewParts Parts           `json:"-"`
	// OrError, beside View, is the limit error a decoder may report
	// instead, for input beyond the sizes every decoder must accept
	// [LIM-2]: a decoder bounded below the input's size refuses it, and
	// must do so with a limit error on that line [LIM-1] [LIM-3]. Its
	// column depends on the decoder's own bound and is not given. Beside
	// the Value of a JSON op it is the limit error of a nesting beyond an
	// implementation's bound [MAP-4], which may be any from 1000 up.
	OrError *ExpectedError `json:"or_error,omitempty"`
	// OutputText, OutputParts and OutputBase64 hold the exact bytes an
	// encoder writes, as InputText, InputParts and InputBase64 hold the
	// input.
	OutputText   *string `json:"-"`
	OutputParts  Parts   `json:"-"`
	OutputBase64 *string `json:"output_base64,omitempty"`
	// Value is the compact form [MAP-3] of a decoded JSON value.
	Value *string `json:"value,omitempty"`
	// Error is the error the implementation must report.
	Error *ExpectedError `json:"error,omitempty"`
	// Outcome is what a binding op must give (Op.Binding): a JSON object,
	// as the file gives it, compared as a JSON value. A client's outcome
	// with a member "error" is an error the client ends in.
	Outcome json.RawMessage `json:"-"`

	// Output is the decoded OutputText, OutputParts or OutputBase64.
	Output []byte `json:"-"`
	// payload is View read as a payload; outcome is Outcome read.
	payload *spec.Payload
	outcome jsonmap.Value
}

// UnmarshalJSON reads the expected outcome of a vector, its view and
// output given as the file gives them.
func (e *Expected) UnmarshalJSON(b []byte) error {
	type fields Expected // the fields without this method
	var raw struct {
		fields
		View   json.RawMessage `json:"view"`
		Output json.RawMessage `json:"output"`
	}
	if err := strictJSON(b, &raw); err != nil {
		return err
	}
	*e = Expected(raw.fields)
	if raw.Output != nil {
		var err error
		if e.OutputText, e.OutputParts, err = readText("output", raw.Output); err != nil {
			return err
		}
	}
	if raw.View == nil {
		return nil
	}
	if trimmed := bytes.TrimLeft(raw.View, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
		if err := strictJSON(trimmed, &e.ViewParts); err != nil {
			return fmt.Errorf("view: %v", err)
		}
		if e.ViewParts == nil {
			e.ViewParts = Parts{}
		}
		return nil
	}
	e.View = raw.View
	return nil
}

// Payload returns the expected wire view as a payload, or nil if the
// vector expects no view.
func (e *Expected) Payload() *spec.Payload { return e.payload }

// ExpectedError is the error a vector expects [ERR-1] [ERR-2]: Class and
// Line (and Tag) at the core level, Column and Rule at the diagnostic level
// [ERR-6]. Message text is never compared.
type ExpectedError struct {
	// Class is a class name of [ERR-1] as spec.ClassName spells it.
	Class string `json:"class"`
	// Rule is the rule ID the error names, e.g. "VAL-2".
	Rule   string `json:"rule"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Tag is the version tag of an unsupported-version error [VER-2].
	Tag string `json:"tag,omitempty"`
}

// Name returns the vector's full name, CATEGORY/GROUP/ID, which the
// runner reports and its filters match.
func (v *Vector) Name() string { return v.Category + "/" + v.Group + "/" + v.ID }

// RuleOfID returns the rule ID the vector's id begins with, such as
// "ROW-4" for "row-4-guard-hash" or "D1-TAB-1" for a draft's
// "d1-tab-1-constant-column": the id up to its first part that is a
// number, in upper case, or "" if it begins with none.
func (v *Vector) RuleOfID() string {
	if !idPattern.MatchString(v.ID) {
		return ""
	}
	parts := strings.Split(v.ID, "-")
	for i, part := range parts {
		if strings.Trim(part, "0123456789") == "" {
			return strings.ToUpper(strings.Join(parts[:i+1], "-"))
		}
	}
	return ""
}

// Accepts reports whether the vector expects success: no error, or for a
// binding op, an outcome that is not an error.
func (v *Vector) Accepts() bool {
	if v.Op.Binding() {
		_, failed := v.Expected.outcome.Lookup("error")
		return !failed
	}
	return v.Expected.Error == nil
}

// IsCanonical reports whether the vector asks that its view encode back
// to its input.
func (v *Vector) IsCanonical() bool { return v.Canonical != nil && *v.Canonical }

var (
	// A rule ID is a namespace of capital words — one for GCX1's chapters
	// (VAL-2), more for a draft's (D1-TAB-1) — and a number; a vector's id
	// is a rule ID in lower case and at least one word more.
	idPattern    = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z][a-z0-9]*)*-[0-9]+(-[a-z0-9]+)+$`)
	slugPattern  = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	rulePattern  = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z][A-Z0-9]*)*-[0-9]+$`)
	classesOf    = map[string]bool{"not-gcx": true, "unsupported-version": true, "syntax": true, "constraint": true, "limit": true, "model": true, "invalid-json": true}
	modes        = map[string]bool{"gcx": true, "auto": true}
	errNoVectors = errors.New("no vectors: found no CATEGORY/GROUP.json file, such as reject/values.json")
)

// Limits are limits by flag name: "max-line-bytes", "max-fields",
// "max-sections" and "max-rows", each a positive number [LIM-1]. A decoder
// command, or a JSON encoder in mode gcx [LIM-4], receives them as flags,
// e.g. "--max-fields 2".
type Limits map[string]int

// limitNames maps each limit's flag name to its field.
var limitNames = func() map[string]func(*spec.Limits) *int {
	m := map[string]func(*spec.Limits) *int{}
	for _, f := range spec.LimitFlags {
		m[f.Name] = f.Field
	}
	return m
}()

// Flags returns the limits as command-line flags in name order.
func (l Limits) Flags() []string {
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, name)
	}
	sort.Strings(names)
	var flags []string
	for _, name := range names {
		flags = append(flags, "--"+name, strconv.Itoa(l[name]))
	}
	return flags
}

// Apply returns base with the vector's limits set.
func (l Limits) Apply(base spec.Limits) spec.Limits {
	for name, n := range l {
		if field, ok := limitNames[name]; ok {
			*field(&base) = n
		}
	}
	return base
}

// Load reads every vectors file under fsys, which is rooted at a vectors
// directory (CATEGORY/GROUP.json), and returns the vectors of every
// version in category order, then by group, then in file order. It fails
// on a file or directory it does not expect, a file that breaks the format
// of vectors.schema.json, and an id used twice, so a slip never silently
// drops or weakens a vector. LoadSuite also reads the versions.
func Load(fsys fs.FS) ([]Vector, error) {
	s, err := LoadSuite(fsys)
	if err != nil {
		return nil, err
	}
	return s.Vectors, nil
}

// readVectors reads the vectors files of a vectors tree, passing over its
// versions directory.
func readVectors(fsys fs.FS) ([]Vector, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if (!slices.Contains(Categories, e.Name()) && e.Name() != VersionsDir) || !e.IsDir() {
			return nil, fmt.Errorf("%s: not a category directory (want one of %s, or %s)", e.Name(), strings.Join(Categories, ", "), VersionsDir)
		}
	}
	var all []Vector
	ids := map[string]string{}
	for _, cat := range Categories {
		files, err := fs.ReadDir(fsys, cat)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			name := path.Join(cat, f.Name())
			if f.IsDir() || path.Ext(f.Name()) != ".json" {
				return nil, fmt.Errorf("%s: not a vectors file (want GROUP.json)", name)
			}
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			file, err := ParseFile(b)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			if file.Category != cat || file.Group+".json" != f.Name() {
				return nil, fmt.Errorf("%s: says category %q, group %q; a file's category is its directory and its group its base name", name, file.Category, file.Group)
			}
			for _, v := range file.Vectors {
				if prev, ok := ids[v.ID]; ok {
					return nil, fmt.Errorf("%s: id %q is used in %s too", name, v.ID, prev)
				}
				ids[v.ID] = name
				all = append(all, v)
			}
		}
	}
	if len(all) == 0 {
		return nil, errNoVectors
	}
	return all, nil
}

// ParseFile reads one vectors file and checks it against the format
// vectors.schema.json describes, including what a schema cannot say: the
// base64 decodes, the id begins with the first rule, the view is a wire
// view.
func ParseFile(b []byte) (*File, error) {
	var f File
	if err := strictJSON(b, &f); err != nil {
		return nil, err
	}
	switch {
	case !slices.Contains(Categories, f.Category):
		return nil, fmt.Errorf("category %q is none of %s", f.Category, strings.Join(Categories, ", "))
	case !slugPattern.MatchString(f.Group):
		return nil, fmt.Errorf("group %q is not lower-case words joined by -", f.Group)
	case !isLine(f.Description):
		return nil, errors.New("the file needs a one-line description")
	case len(f.Vectors) == 0:
		return nil, errNoVectors
	}
	if f.Category == CategoryMCP && len(f.Tags) == 0 {
		// A binding vector's results name versions in their _meta and
		// opt-ins, which respelling payloads would not change.
		return nil, errors.New(`an mcp file lists the versions it negotiates in "tags", such as ["GCX1"]: no other version inherits it`)
	}
	for i, tag := range f.Tags {
		if err := checkTag(tag); err != nil {
			return nil, err
		}
		if slices.Contains(f.Tags[:i], tag) {
			return nil, fmt.Errorf("tag %s is listed twice", tag)
		}
	}
	for i := range f.Vectors {
		v := &f.Vectors[i]
		v.Category, v.Group, v.Tags = f.Category, f.Group, f.Tags
		if err := v.check(); err != nil {
			id := v.ID
			if id == "" {
				id = fmt.Sprintf("vector %d", i+1)
			}
			return nil, fmt.Errorf("%s: %v", id, err)
		}
	}
	return &f, nil
}

func isLine(s string) bool { return s != "" && !strings.ContainsAny(s, "\n\r") }

// check validates the vector and fills in Input, Expected.Output and the
// expected payload.
func (v *Vector) check() error {
	switch {
	case !idPattern.MatchString(v.ID):
		return fmt.Errorf("id %q does not begin with a rule ID, as in val-2-unknown-escape", v.ID)
	case !isLine(v.Description):
		return errors.New("a vector needs a one-line description")
	case len(v.Rules) == 0:
		return errors.New("a vector names at least one rule")
	case v.Rules[0] != v.RuleOfID():
		return fmt.Errorf("the first rule is %s, but the id begins with %s", v.Rules[0], v.RuleOfID())
	case !slices.Contains(opsOf[v.Category], v.Op):
		return fmt.Errorf("op %q does not belong in category %s", v.Op, v.Category)
	}
	for i, r := range v.Rules {
		if !rulePattern.MatchString(r) {
			return fmt.Errorf("rule %q is not a rule ID", r)
		}
		if slices.Contains(v.Rules[:i], r) {
			return fmt.Errorf("rule %s is listed twice", r)
		}
	}
	if v.Op.Binding() {
		return v.checkBinding()
	}
	if v.InputJSON != nil {
		return fmt.Errorf("the input of op %s is bytes: a string, a list of parts or input_base64, not an object", v.Op)
	}
	var err error
	if v.Input, err = readBytes("input", v.InputText, v.InputParts, v.InputBase64); err != nil {
		return err
	}
	e := &v.Expected
	if e.OutputText != nil || e.OutputParts != nil || e.OutputBase64 != nil {
		if e.Output, err = readBytes("output", e.OutputText, e.OutputParts, e.OutputBase64); err != nil {
			return err
		}
	}
	if e.ViewParts != nil {
		if e.View, err = e.ViewParts.Expand(); err != nil {
			return fmt.Errorf("view: %v", err)
		}
	}
	if err := v.checkOpFields(); err != nil {
		return err
	}
	if e.Error != nil {
		return v.checkError(e.Error)
	}
	if e.OrError != nil {
		if err := v.checkOrError(); err != nil {
			return err
		}
	}
	if e.View != nil {
		p, err := wire.Unmarshal(e.View)
		if err != nil {
			return fmt.Errorf("expected view: %v", err)
		}
		e.payload = p
	}
	if e.Value != nil {
		// A value beside or_error is nested beyond the bound of Go's JSON
		// reader too (10000 levels), which cannot check it [MAP-4].
		if !utf8.ValidString(*e.Value) || e.OrError == nil && !json.Valid([]byte(*e.Value)) {
			return errors.New("expected value is not a JSON text")
		}
	}
	return nil
}

// outcomesOf lists, for each op, the sets of expected keys a vector may
// give: exactly one set, and nothing outside it.
var outcomesOf = map[Op][]string{
	OpDecode:     {"view", "or_error+view", "error"},
	OpEncode:     {"output", "error"},
	OpJSONEncode: {"output+value", "or_error+output+value", "error"},
	OpJSONDecode: {"value", "or_error+value", "error"},
}

// checkOpFields checks that the vector carries what its op needs and
// nothing else.
func (v *Vector) checkOpFields() error {
	e := &v.Expected
	var given []string
	for key, set := range map[string]bool{"view": e.View != nil, "output": e.Output != nil, "value": e.Value != nil, "error": e.Error != nil, "or_error": e.OrError != nil} {
		if set {
			given = append(given, key)
		}
	}
	sort.Strings(given)
	if got := strings.Join(given, "+"); !slices.Contains(outcomesOf[v.Op], got) {
		return fmt.Errorf("op %s expects exactly one of %s in \"expected\", not %q", v.Op, strings.Join(outcomesOf[v.Op], ", "), got)
	}
	switch {
	case v.Limits != nil && v.Op != OpDecode && v.Op != OpJSONDecode && (v.Op != OpJSONEncode || v.Mode != "gcx"):
		return errors.New("only decode, json-decode and json-encode vectors in mode gcx carry limits")
	case v.Tool != "" && v.Op != OpJSONEncode:
		return errors.New("tool belongs to json-encode vectors")
	case (v.Mode != "") != (v.Op == OpJSONEncode):
		return errors.New("mode belongs to, and is required by, json-encode vectors")
	case v.Op == OpJSONEncode && !modes[v.Mode]:
		return fmt.Errorf("mode %q is neither gcx nor auto", v.Mode)
	case v.Canonical != nil && (v.Op != OpDecode || e.View == nil):
		return errors.New("canonical belongs to decode vectors that expect a view")
	case v.Category == CategoryDecode && v.Canonical == nil:
		return errors.New("a decode-category vector says whether it is canonical")
	case v.Category == CategoryDecode && e.View == nil, v.Category == CategoryReject && e.Error == nil:
		return fmt.Errorf("a %s-category vector expects %s", v.Category, map[string]string{CategoryDecode: "a view", CategoryReject: "an error"}[v.Category])
	}
	for name, n := range v.Limits {
		if limitNames[name] == nil {
			return fmt.Errorf("unknown limit %q", name)
		}
		if n < 1 {
			return fmt.Errorf("limit %s=%d is not positive", name, n)
		}
	}
	return nil
}

func (v *Vector) checkError(e *ExpectedError) error {
	switch {
	case !classesOf[e.Class]:
		return fmt.Errorf("error class %q is not a class of [ERR-1]", e.Class)
	case !rulePattern.MatchString(e.Rule):
		return fmt.Errorf("error rule %q is not a rule ID", e.Rule)
	case (e.Line == 0) != (e.Column == 0), e.Line < 0, e.Column < 0:
		return fmt.Errorf("line %d, column %d: give both, counted from 1, or neither", e.Line, e.Column)
	case (e.Class == "unsupported-version") != (e.Tag != ""):
		return errors.New(`"tag" is required for, and only for, class unsupported-version`)
	case e.Class == "model" && e.Line != 0 && v.Op != OpEncode:
		return errors.New("a model error of an encoder given no wire view has no position [ERR-2]")
	case v.Op == OpDecode && e.Line == 0:
		return errors.New("a decoder error needs its position [ERR-2]")
	case v.Op == OpEncode && e.Line == 0:
		return errors.New("an encode refusal needs its position in the view [WIRE-3]")
	case v.Op == OpEncode && e.Class != "model":
		return fmt.Errorf("an encoder refuses with class model, not %s", e.Class)
	}
	return nil
}

// checkOrError checks the limit error a decode vector with a view allows
// in its place: class limit, rule LIM-3, a line and no column.
func (v *Vector) checkOrError() error {
	e := v.Expected.OrError
	if v.Op == OpJSONEncode || v.Op == OpJSONDecode {
		// A nesting beyond the implementation's bound [MAP-4]: a limit
		// error on the line that holds it, its column the bound's.
		switch {
		case e.Class != "limit" || e.Rule != "MAP-4":
			return errors.New("or_error beside a value allows only a limit error naming MAP-4 [MAP-4]")
		case e.Line < 1 || e.Column != 0 || e.Tag != "":
			return errors.New("or_error gives the line of the limit error, and no column or tag")
		case v.Limits != nil:
			return errors.New("or_error is for a nesting beyond an implementation's own bound, so the vector sets no limits")
		}
		return nil
	}
	switch {
	case v.Op != OpDecode || v.Expected.View == nil:
		return errors.New("or_error belongs beside the view of a decode vector")
	case e.Class != "limit" || e.Rule != "LIM-3":
		return errors.New("or_error allows only a limit error naming LIM-3 [LIM-1]")
	case e.Line < 1 || e.Column != 0 || e.Tag != "":
		return errors.New("or_error gives the line of the limit error, and no column or tag")
	case v.Limits != nil:
		return errors.New("or_error is for input beyond a decoder's own bounds, so the vector sets no limits")
	}
	return nil
}

// readBytes returns the bytes of a key given as text, as parts or in
// base64, exactly one of which must be set; base64 is only for bytes that
// are not valid UTF-8, so every readable input stays readable.
func readBytes(name string, text *string, parts Parts, b64 *string) ([]byte, error) {
	given := 0
	for _, set := range []bool{text != nil, parts != nil, b64 != nil} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, fmt.Errorf("give %s (a string or a list of parts) or %s_base64, not both", name, name)
	case text != nil:
		return []byte(*text), nil
	case parts != nil:
		b, err := parts.Expand()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return b, nil
	case b64 != nil:
		b, err := base64.StdEncoding.Strict().DecodeString(*b64)
		if err != nil {
			return nil, fmt.Errorf("%s_base64: %v", name, err)
		}
		if utf8.Valid(b) {
			return nil, fmt.Errorf("%s_base64 holds valid UTF-8; write it as %s", name, name)
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s is missing", name)
}

// strictJSON decodes one JSON value into v, refusing unknown keys and
// trailing data.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if rest := bytes.TrimSpace(b[dec.InputOffset():]); len(rest) > 0 {
		return errors.New("data after the JSON value")
	}
	return nil
}
