package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/gcxwire/gcx/conformance"
)

// A Key says which disagreement a failing case shows, so that many cases
// of one bug count as one finding: the rule the case is about (ruleOf),
// the op, and the aspect of the answer that differs (the first problem
// the runner reports).
type Key struct {
	Rule   string
	Op     conformance.Op
	Aspect string
}

func (k Key) String() string { return fmt.Sprintf("[%s] %s: %s", k.Rule, k.Op, k.Aspect) }

// KeyOf returns the key of a vector's failing result.
func KeyOf(v *conformance.Vector, res conformance.Result) Key {
	return Key{Rule: ruleOf(v), Op: v.Op, Aspect: aspectOf(res.Detail)}
}

// ruleOf returns the rule a case is about: the rule the reference's error
// names, or else the rule of the op's outcome, the vector's first. For a
// payload that decodes, the first rule is the most telling rule the bytes
// exercise, which changes as a case shrinks; the key takes the rule of
// the op instead, the wire view [WIRE-1], or the limits [LIM-1] when the
// case sets some.
func ruleOf(v *conformance.Vector) string {
	if v.Op == conformance.OpDecode && v.Expected.Error == nil {
		if len(v.Limits) > 0 {
			return "LIM-1"
		}
		return "WIRE-1"
	}
	if len(v.Rules) > 0 {
		return v.Rules[0]
	}
	return ""
}

// aspects classify the first problem of a result's detail, in the words
// of conformance.CheckVector; the first pattern that matches names it.
// A column is tested before a line, since "line L, column C" holds both.
var aspects = []struct {
	name string
	re   *regexp.Regexp
}{
	{"timed out", regexp.MustCompile(`timed out after`)},
	{"refuses what the reference accepts", regexp.MustCompile(`^want (a payload|output|bytes|value)\b.*got error`)},
	{"accepts what the reference refuses", regexp.MustCompile(`^want .* error \[.*got (success|exit status 0)`)},
	{"did not answer", regexp.MustCompile(`: exit status -?\d+: `)},
	{"wire view", regexp.MustCompile(`^wire view differs`)},
	{"bytes", regexp.MustCompile(`^(output|bytes) differs`)},
	{"value", regexp.MustCompile(`^value differs`)},
	{"exit status", regexp.MustCompile(`^exit status \d+, want`)},
	{"output with an error", regexp.MustCompile(`along with`)},
	{"error class", regexp.MustCompile(`error class|^class "`)},
	{"version tag", regexp.MustCompile(`the tag|^tag "`)},
	{"error column", regexp.MustCompile(`column|^offset`)},
	{"error line", regexp.MustCompile(`line \d+`)},
	{"rule ID", regexp.MustCompile(`rule`)},
	{"outcome", regexp.MustCompile(`differs|outcome`)},
}

// aspectOf names what differs first in a failing result's detail: its
// first core problem, or its first problem when all are diagnostic.
func aspectOf(detail string) string {
	type line struct {
		text string
		back bool
	}
	var first, firstCore *line
	back := false
	for _, l := range strings.Split(detail, "\n") {
		if strings.HasPrefix(l, "while ") {
			// the second step: the way back from a canonical payload or a JSON result
			back = true
			continue
		}
		if first == nil {
			first = &line{l, back}
		}
		if firstCore == nil && !strings.HasPrefix(l, "(diagnostic) ") {
			firstCore = &line{l, back}
		}
	}
	if firstCore != nil {
		first = firstCore
	}
	if first == nil {
		return "other"
	}
	prefix := ""
	if first.back {
		prefix = "way back: "
	}
	text := strings.TrimPrefix(first.text, "(diagnostic) ")
	for _, a := range aspects {
		if a.re.MatchString(text) {
			return prefix + a.name
		}
	}
	return prefix + "other"
}

// Known lists disagreements already known, which a run reports apart and
// does not count as new: whole rules, or cases (vectors, as explore
// writes them) whose own disagreement marks every case of the same key.
type Known struct {
	Rules []KnownRule
	Cases []conformance.Vector
}

// KnownRule marks every disagreement about Rule as known, or only those
// of Op when it is set.
type KnownRule struct {
	Rule string         `json:"rule"`
	Op   conformance.Op `json:"op,omitempty"`
	Note string         `json:"note,omitempty"`
}

// ReadKnown reads a file of known disagreements: a sequence of JSON
// texts (JSON lines, or whole files concatenated), each either a rule,
// {"rule": "META-4"} with "op" and "note" optional, or a vectors file of
// the conformance format (an object with "vectors"), such as explore
// writes with --out.
func ReadKnown(r io.Reader) (*Known, error) {
	known := &Known{}
	dec := json.NewDecoder(r)
	for n := 1; ; n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			return known, nil
		} else if err != nil {
			return nil, fmt.Errorf("entry %d: %v", n, err)
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(raw, &probe); err != nil {
			return nil, fmt.Errorf("entry %d: not a JSON object", n)
		}
		if _, ok := probe["vectors"]; ok {
			f, err := conformance.ParseFile(raw)
			if err != nil {
				return nil, fmt.Errorf("entry %d: %v", n, err)
			}
			known.Cases = append(known.Cases, f.Vectors...)
			continue
		}
		var k KnownRule
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&k); err != nil || k.Rule == "" {
			return nil, fmt.Errorf("entry %d: neither a vectors file nor {\"rule\": ID} (%s)", n, cutJSON(raw))
		}
		known.Rules = append(known.Rules, k)
	}
}

func cutJSON(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// knownSet matches keys against what a run was told is known.
type knownSet struct {
	rules []KnownRule
	keys  map[Key]int // a known case's key, to its index in Known.Cases
}

func (s *knownSet) match(k Key) bool {
	if s == nil {
		return false
	}
	if _, ok := s.keys[k]; ok {
		return true
	}
	for _, r := range s.rules {
		if r.Rule == k.Rule && (r.Op == "" || r.Op == k.Op) {
			return true
		}
	}
	return false
}

// prepareKnown runs each known case against impl to learn its key; a
// known case that now agrees is reported as such.
func prepareKnown(known *Known, impl conformance.Implementation, level conformance.Level, tag string) (*knownSet, []KnownCase, error) {
	if known == nil {
		return nil, nil, nil
	}
	s := &knownSet{rules: known.Rules, keys: map[Key]int{}}
	var cases []KnownCase
	for i := range known.Cases {
		v := &known.Cases[i]
		if v.Tag == "" {
			v.Tag = tag
		}
		res := conformance.CheckVector(v, impl)
		kc := KnownCase{Vector: v, Status: res.Status(level)}
		if kc.Status == conformance.Fail {
			kc.Key = KeyOf(v, res)
			s.keys[kc.Key] = i
		}
		cases = append(cases, kc)
	}
	if len(known.Rules) == 0 && len(known.Cases) == 0 {
		return nil, nil, errors.New("explore: the known disagreements list nothing")
	}
	return s, cases, nil
}

// KnownCase is a known case as the run found it: still disagreeing
// (Status Fail, with its Key), or not any more.
type KnownCase struct {
	Vector *conformance.Vector
	Status conformance.Status
	Key    Key
}
