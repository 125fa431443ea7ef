package conformance

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gcxwire/gcx/spec"
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

// Kind says which directory a vector comes from and so what it checks.
type Kind int

const (
	// Valid: a payload and its wire view. A decoder must turn the payload
	// into the view [WIRE-1]; an encoder must turn the view into exactly the
	// payload's bytes [CAN-1].
	Valid Kind = iota
	// Invalid: a payload a decoder must reject with the expected error.
	Invalid
	// InvalidEncoder: a wire view an encoder must refuse [CAN-3] [WIRE-2].
	InvalidEncoder
)

// Dir returns the directory of the vectors of kind k.
func (k Kind) Dir() string {
	switch k {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	case InvalidEncoder:
		return "invalid-encoder"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// File name suffixes of the vector files.
const (
	extPayload = ".gcx"
	extWire    = ".json"
	extError   = ".error.json"
	extLimits  = ".limits.json"
)

// Vector is one conformance case.
type Vector struct {
	// Name is the directory and the base name, as in
	// "invalid/val-2-unknown-escape-q". Base names begin with the rule they
	// exercise, in lower case.
	Name string
	Kind Kind
	// Payload holds the bytes of NAME.gcx (Valid and Invalid vectors).
	Payload []byte
	// Wire holds the bytes of NAME.json: the expected wire view of a Valid
	// vector, the encoder's input for an InvalidEncoder vector.
	Wire []byte
	// Want is the expected error (Invalid and InvalidEncoder vectors).
	Want *ExpectedError
	// Limits, from NAME.limits.json, are the decoder limits the vector is
	// run under; nil means the decoder's defaults.
	Limits Limits
}

// Base returns the vector's name without its directory.
func (v *Vector) Base() string { return path.Base(v.Name) }

// RuleOfName returns the rule ID the vector's name begins with, such as
// "ROW-4" for "row-4-guard-hash", or "" if the name begins with none.
func (v *Vector) RuleOfName() string { return ruleOfName(v.Base()) }

var namePattern = regexp.MustCompile(`^([a-z]+)-([0-9]+)-[a-z0-9]+(-[a-z0-9]+)*$`)

func ruleOfName(base string) string {
	m := namePattern.FindStringSubmatch(base)
	if m == nil {
		return ""
	}
	return strings.ToUpper(m[1]) + "-" + m[2]
}

// ExpectedError is the content of NAME.error.json.
type ExpectedError struct {
	// Class is the error class [ERR-1]: "not-gcx", "unsupported-version",
	// "syntax", "constraint" or "limit" for decoders, "model" for encoders.
	Class string `json:"class"`
	// Rule is the rule ID the error names, e.g. "VAL-2".
	Rule string `json:"rule"`
	// Line and Column are the position this repository's decoders report
	// [ERR-2]; encoder errors have none.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Tag is the version tag an unsupported-version error names [VER-2].
	Tag string `json:"tag,omitempty"`
}

// Classes a decoder may report, and the encoder's own [ERR-1].
var decoderClasses = map[string]bool{
	"not-gcx": true, "unsupported-version": true, "syntax": true, "constraint": true, "limit": true,
}

const modelClass = "model"

var rulePattern = regexp.MustCompile(`^[A-Z]+-[0-9]+$`)

// check reports what is wrong with an expectation read for a vector of kind
// k.
func (e *ExpectedError) check(k Kind) error {
	switch {
	case k == Invalid && !decoderClasses[e.Class]:
		return fmt.Errorf("class %q is not a decoder error class", e.Class)
	case k == InvalidEncoder && e.Class != modelClass:
		return fmt.Errorf("class %q: an encoder vector expects class %q", e.Class, modelClass)
	case !rulePattern.MatchString(e.Rule):
		return fmt.Errorf("rule %q is not a rule ID", e.Rule)
	case k == Invalid && (e.Line < 1 || e.Column < 1):
		return fmt.Errorf("line %d, column %d: a decoder error needs a position from 1", e.Line, e.Column)
	case k == InvalidEncoder && (e.Line != 0 || e.Column != 0):
		return errors.New("an encoder error has no position")
	case (e.Class == "unsupported-version") != (e.Tag != ""):
		return errors.New(`"tag" is required for, and only for, class unsupported-version`)
	}
	return nil
}

// Limits are decoder limits by flag name: "max-line-bytes", "max-fields",
// "max-sections" and "max-rows", each a positive number [LIM-1]. A decoder
// command receives them as flags, e.g. "--max-fields 2".
type Limits map[string]int

var limitNames = map[string]func(*spec.Limits) *int{
	"max-line-bytes": func(l *spec.Limits) *int { return &l.MaxLineBytes },
	"max-fields":     func(l *spec.Limits) *int { return &l.MaxFields },
	"max-sections":   func(l *spec.Limits) *int { return &l.MaxSections },
	"max-rows":       func(l *spec.Limits) *int { return &l.MaxRows },
}

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

func (l Limits) check() error {
	if len(l) == 0 {
		return errors.New("no limits given")
	}
	for name, n := range l {
		if limitNames[name] == nil {
			return fmt.Errorf("unknown limit %q", name)
		}
		if n < 1 {
			return fmt.Errorf("limit %s=%d is not positive", name, n)
		}
	}
	return nil
}

// Load reads every vector under fsys, which is rooted at a vectors
// directory, and returns them sorted by name: valid/, then invalid/, then
// invalid-encoder/. It fails on a file it does not expect, a payload or
// view without its expectation, or an expectation it cannot read, so a
// mistyped file name never silently drops a vector.
func Load(fsys fs.FS) ([]Vector, error) {
	var all []Vector
	for _, k := range []Kind{Valid, Invalid, InvalidEncoder} {
		vs, err := loadDir(fsys, k)
		if err != nil {
			return nil, err
		}
		all = append(all, vs...)
	}
	return all, nil
}

func loadDir(fsys fs.FS, k Kind) ([]Vector, error) {
	entries, err := fs.ReadDir(fsys, k.Dir())
	if err != nil {
		return nil, err
	}
	files := make(map[string]bool, len(entries))
	for _, e := range entries {
		files[e.Name()] = true
	}
	main := extPayload // the file that makes a vector
	if k == InvalidEncoder {
		main = extWire
	}
	var vs []Vector
	used := make(map[string]bool, len(files))
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, main) || strings.HasSuffix(name, extError) || strings.HasSuffix(name, extLimits) {
			continue
		}
		base := strings.TrimSuffix(name, main)
		v, err := loadVector(fsys, k, base, files, used)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %v", k.Dir(), base, err)
		}
		vs = append(vs, v)
	}
	for name := range files {
		if !used[name] {
			return nil, fmt.Errorf("%s/%s: file belongs to no vector", k.Dir(), name)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	return vs, nil
}

func loadVector(fsys fs.FS, k Kind, base string, files, used map[string]bool) (Vector, error) {
	v := Vector{Name: k.Dir() + "/" + base, Kind: k}
	read := func(ext string) ([]byte, error) {
		if !files[base+ext] {
			return nil, fmt.Errorf("missing %s%s", base, ext)
		}
		used[base+ext] = true
		return fs.ReadFile(fsys, k.Dir()+"/"+base+ext)
	}
	var err error
	if k != InvalidEncoder {
		if v.Payload, err = read(extPayload); err != nil {
			return v, err
		}
	}
	if k != Invalid {
		if v.Wire, err = read(extWire); err != nil {
			return v, err
		}
	}
	if k != Valid {
		b, err := read(extError)
		if err != nil {
			return v, err
		}
		v.Want = new(ExpectedError)
		if err := strictJSON(b, v.Want); err != nil {
			return v, fmt.Errorf("%s: %v", extError, err)
		}
		if err := v.Want.check(k); err != nil {
			return v, fmt.Errorf("%s: %v", extError, err)
		}
	}
	if files[base+extLimits] {
		if k == InvalidEncoder {
			return v, errors.New("encoders take no limits")
		}
		b, _ := read(extLimits)
		if err := strictJSON(b, &v.Limits); err != nil {
			return v, fmt.Errorf("%s: %v", extLimits, err)
		}
		if err := v.Limits.check(); err != nil {
			return v, fmt.Errorf("%s: %v", extLimits, err)
		}
	}
	return v, nil
}

// strictJSON decodes one JSON value into v, refusing unknown keys and
// trailing data.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}
