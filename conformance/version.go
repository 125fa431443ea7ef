package conformance

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/spec"
)

// VersionsDir is the directory of a vectors tree that holds one file per
// version other than GCX1, TAG.json (versions/GCX2-draft.1.json), saying
// which of GCX1's vectors the version changes or excludes, and by which of
// its rules. A version without a file inherits every vector it can.
const VersionsDir = "versions"

// A Version is the file of one version in VersionsDir: how the vectors
// that apply to it differ from GCX1's.
type Version struct {
	// Tag is the version's tag, and the file's base name.
	Tag         string `json:"tag"`
	Description string `json:"description"`
	// Changes are GCX1 vectors to which the version gives another
	// outcome; each names the version's own vector that replaces it.
	Changes []Change `json:"changes,omitempty"`
	// Excludes are GCX1 vectors that say nothing about the version, by id
	// or by a regular expression over CATEGORY/GROUP/ID.
	Excludes []Change `json:"excludes,omitempty"`
}

// A Change is one vector, or set of vectors, of GCX1 that a version does
// not inherit, and the rule of the version's own document that is why.
type Change struct {
	ID    string `json:"id,omitempty"`
	Match string `json:"match,omitempty"` // Excludes only
	Rule  string `json:"rule"`
	By    string `json:"by,omitempty"` // Changes only: the version's vector in its place
}

// A Suite is a vectors tree: the vectors of every version and the files of
// VersionsDir.
type Suite struct {
	Vectors  []Vector
	Versions map[string]*Version
}

// LoadSuite reads a vectors tree: every vectors file (as Load does) and
// every version file, checking that what a version file names exists.
func LoadSuite(fsys fs.FS) (*Suite, error) {
	vectors, err := readVectors(fsys)
	if err != nil {
		return nil, err
	}
	s := &Suite{Vectors: vectors, Versions: map[string]*Version{}}
	files, err := fs.ReadDir(fsys, VersionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		name := path.Join(VersionsDir, f.Name())
		if f.IsDir() || path.Ext(f.Name()) != ".json" {
			return nil, fmt.Errorf("%s: not a version file (want TAG.json)", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var v Version
		if err := strictJSON(b, &v); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if v.Tag+".json" != f.Name() {
			return nil, fmt.Errorf("%s: says tag %q; a version file is named after its tag", name, v.Tag)
		}
		if err := s.checkVersion(&v); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		s.Versions[v.Tag] = &v
	}
	return s, nil
}

// checkTag checks that tag is a well-formed version tag [VER-1].
func checkTag(tag string) error {
	if got, kind, n := spec.ReadTag([]byte(tag)); got != tag || n != len(tag) || kind == spec.TagMalformed {
		return fmt.Errorf("%q is not a version tag [VER-1]", tag)
	}
	return nil
}

// checkVersion checks a version file against the suite: every vector it
// names exists and is one of GCX1's inheritable vectors, every vector that
// replaces one is the version's own, and every pattern selects one.
func (s *Suite) checkVersion(v *Version) error {
	if err := checkTag(v.Tag); err != nil {
		return err
	}
	if v.Tag == spec.Version {
		return errors.New("GCX1's vectors are the untagged ones; GCX1 has no version file")
	}
	if !isLine(v.Description) {
		return errors.New("a version file needs a one-line description")
	}
	byID := map[string]*Vector{}
	for i := range s.Vectors {
		byID[s.Vectors[i].ID] = &s.Vectors[i]
	}
	inheritable := func(id string) error {
		w := byID[id]
		switch {
		case w == nil:
			return fmt.Errorf("there is no vector %q", id)
		case len(w.Tags) > 0:
			return fmt.Errorf("%s is a vector of %s, which no version inherits", id, strings.Join(w.Tags, ", "))
		}
		return nil
	}
	seen := map[string]bool{}
	for _, c := range v.Changes {
		switch {
		case !rulePattern.MatchString(c.Rule):
			return fmt.Errorf("change of %q: rule %q is not a rule ID", c.ID, c.Rule)
		case c.Match != "":
			return fmt.Errorf("change of %q: a change names one vector by id, not by match", c.ID)
		case c.By == "":
			return fmt.Errorf("change of %q: by names the vector of %s in its place", c.ID, v.Tag)
		case byID[c.By] == nil || !slices.Contains(byID[c.By].Tags, v.Tag):
			return fmt.Errorf("change of %q: %q is not a vector of %s", c.ID, c.By, v.Tag)
		}
		if err := inheritable(c.ID); err != nil {
			return err
		}
		if seen[c.ID] {
			return fmt.Errorf("%s is changed or excluded twice", c.ID)
		}
		seen[c.ID] = true
	}
	for _, c := range v.Excludes {
		switch {
		case !rulePattern.MatchString(c.Rule):
			return fmt.Errorf("exclusion: rule %q is not a rule ID", c.Rule)
		case c.By != "":
			return fmt.Errorf("exclusion of %q: by belongs to changes", c.ID+c.Match)
		case (c.ID == "") == (c.Match == ""):
			return errors.New("an exclusion gives id or match, not both")
		case c.ID != "":
			if err := inheritable(c.ID); err != nil {
				return err
			}
			if seen[c.ID] {
				return fmt.Errorf("%s is changed or excluded twice", c.ID)
			}
			seen[c.ID] = true
			continue
		}
		re, err := regexp.Compile(c.Match)
		if err != nil {
			return fmt.Errorf("exclusion %q: %v", c.Match, err)
		}
		if !slices.ContainsFunc(s.Vectors, func(w Vector) bool { return len(w.Tags) == 0 && re.MatchString(w.Name()) }) {
			return fmt.Errorf("exclusion %q selects none of GCX1's vectors", c.Match)
		}
	}
	return nil
}

// For returns the vectors that apply to the version tag, in suite order,
// each with Tag set:
//
//   - for GCX1, the untagged vectors and those tagged GCX1;
//   - for another version, the vectors tagged with it, and GCX1's untagged
//     vectors it inherits: all but those its version file changes or
//     excludes and those no version can inherit (below), each respelled
//     with its tag.
//
// Respelling replaces GCX1 by the tag at the start of every header line of
// the input and of the expected output (codec.Retag), and moves the column
// of an expected error on such a line past the tag by the difference in
// length. No version inherits a vector whose outcome depends on the tag's
// length or cost: an auto-mode json-encode vector (auto mode counts the
// tag's tokens [AUTO-1]) and a vector with a max-line-bytes limit (the tag
// is part of a header line's length [LIM-1]); nor a vector whose input
// already carries the version's tag, or whose expected error names it: it
// is about another version, which this one is not.
func (s *Suite) For(tag string) ([]Vector, error) {
	if err := checkTag(tag); err != nil {
		return nil, err
	}
	var out []Vector
	if tag == spec.Version {
		for _, v := range s.Vectors {
			if len(v.Tags) == 0 || slices.Contains(v.Tags, tag) {
				v.Tag = tag
				out = append(out, v)
			}
		}
		return out, nil
	}
	dropped, err := s.dropped(tag)
	if err != nil {
		return nil, err
	}
	for _, v := range s.Vectors {
		switch {
		case slices.Contains(v.Tags, tag):
			v.Tag = tag
			out = append(out, v)
		case len(v.Tags) == 0 && !dropped(&v):
			if w, ok := inherit(v, tag); ok {
				out = append(out, w)
			}
		}
	}
	return out, nil
}

// dropped returns the test of whether the version file of tag changes or
// excludes a vector; a version without a file drops none.
func (s *Suite) dropped(tag string) (func(*Vector) bool, error) {
	ver := s.Versions[tag]
	if ver == nil {
		return func(*Vector) bool { return false }, nil
	}
	ids := map[string]bool{}
	var patterns []*regexp.Regexp
	for _, c := range slices.Concat(ver.Changes, ver.Excludes) {
		if c.ID != "" {
			ids[c.ID] = true
			continue
		}
		re, err := regexp.Compile(c.Match)
		if err != nil {
			return nil, err
		}
		patterns = append(patterns, re)
	}
	return func(v *Vector) bool {
		return ids[v.ID] || slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(v.Name()) })
	}, nil
}

// inherit returns GCX1's vector v respelled for the version tag, or false
// when no version inherits it (Suite.For says which).
func inherit(v Vector, tag string) (Vector, bool) {
	if v.Op == OpJSONEncode && v.Mode == "auto" {
		return Vector{}, false
	}
	if _, ok := v.Limits["max-line-bytes"]; ok {
		return Vector{}, false
	}
	if _, theirs := codec.Retag(v.Input, tag, tag); theirs != nil {
		return Vector{}, false
	}
	if e := v.Expected.Error; e != nil && e.Tag == tag {
		return Vector{}, false
	}
	v.Tag, v.Inherited = tag, true
	var lines []int
	v.Input, lines = codec.Retag(v.Input, spec.Version, tag)
	v.InputText, v.InputBase64 = spell(v.Input)
	v.InputParts = nil
	e := v.Expected
	if e.Output != nil {
		e.Output, _ = codec.Retag(e.Output, spec.Version, tag)
		e.OutputText, e.OutputBase64 = spell(e.Output)
		e.OutputParts = nil
	}
	if e.Error != nil && slices.Contains(lines, e.Error.Line) && e.Error.Column > len(spec.Version) {
		moved := *e.Error
		moved.Column += len(tag) - len(spec.Version)
		e.Error = &moved
	}
	v.Expected = e
	return v, true
}

// spell returns bytes as a vectors file gives them: as text, or in base64
// when they are not valid UTF-8.
func spell(b []byte) (text, b64 *string) {
	s := string(b)
	if utf8.ValidString(s) {
		return &s, nil
	}
	s = base64.StdEncoding.EncodeToString(b)
	return nil, &s
}
