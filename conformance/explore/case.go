package explore

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gcxwire/gcx/conformance"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/wire"
)

// A Case is a generated input and the op to run on it: what a vector
// holds before its expected outcome is written down. The outcome comes
// from the reference (Reference.Expect), never from the generator, so a
// generator only has to make interesting inputs, valid or not.
type Case struct {
	Op     conformance.Op
	Input  []byte
	Limits conformance.Limits // decode, json-decode and json-encode in mode gcx; nil for the defaults
	Tool   string             // json-encode only
	Mode   string             // json-encode only: gcx or auto
}

// A Reference computes the outcome a conforming implementation must give
// for a case: for GCX1 the in-process streaming implementation, the
// product's engine, and package gcxmcp/binding for the MCP ops.
type Reference struct {
	Tag  string
	Impl conformance.Implementation
}

// GCX1 is the reference of GCX1: conformance.Streaming().
func GCX1() Reference {
	return Reference{Tag: spec.Version, Impl: conformance.Streaming()}
}

// errNoCase marks a generated input the reference cannot judge (a binding
// input that is not of the op's shape, say): the generator draws again.
var errNoCase = errors.New("explore: the reference cannot judge this input")

// Expect returns the case as a vector whose expected outcome is the
// reference's, read back through conformance.ParseFile so that it obeys
// every rule of the vectors format; its File is ready to be written out.
func (r Reference) Expect(c Case) (*conformance.File, error) {
	v := vectorJSON{Op: c.Op, Limits: c.Limits, Tool: c.Tool, Mode: c.Mode}
	if c.Op.Binding() {
		v.Input = json.RawMessage(c.Input)
	} else {
		text, b64 := spellBytes(c.Input)
		if text != nil {
			v.Input = *text
		}
		v.InputBase64 = b64
	}
	category := ""
	var rules []string
	// past the least nesting bound [MAP-4], a limit error is as good as
	// the reference's value, and its refusal is not the only one
	deep, deepLine, judged := beyondMinimums(c)
	if !judged {
		return nil, errNoCase
	}
	orError := func(err error) error {
		if !deep {
			return nil
		}
		var e *spec.Error
		if err != nil && (!errors.As(err, &e) || e.Line == 0 || e.Line >= deepLine) {
			return errNoCase
		}
		if err == nil {
			v.Expected.(map[string]any)["or_error"] = &conformance.ExpectedError{Class: "limit", Rule: "MAP-4", Line: deepLine}
		}
		return nil
	}
	switch c.Op {
	case conformance.OpDecode:
		if r.Impl.Decode == nil {
			return nil, errNoCase
		}
		p, err := r.Impl.Decode(c.Input, c.Limits)
		if err != nil {
			e, ok := v.expectError(err, true)
			if !ok {
				return nil, errNoCase
			}
			category, rules = conformance.CategoryReject, append([]string{e.Rule}, r.refusalRules(c, err)...)
			if e.Class == "unsupported-version" {
				category = conformance.CategoryVersion
			}
			break
		}
		view := wire.Marshal(p)
		canonical := false
		if r.Impl.Encode != nil {
			out, err := r.Impl.Encode(view)
			canonical = err == nil && bytes.Equal(out, c.Input)
		}
		v.Canonical = &canonical
		v.Expected = map[string]any{"view": json.RawMessage(view)}
		category = conformance.CategoryDecode
		rules = payloadRules(c.Input, canonical)
		if r.Tag == spec.Version {
			rules = append(rules, modelRules(c.Input, p, c.Limits, true)...)
		}
	case conformance.OpEncode:
		if r.Impl.Encode == nil {
			return nil, errNoCase
		}
		out, err := r.Impl.Encode(c.Input)
		category = conformance.CategoryEncode
		if err != nil {
			e, ok := v.expectError(err, true)
			if !ok {
				return nil, errNoCase
			}
			rules = append([]string{e.Rule}, r.refusalRules(c, err)...)
			break
		}
		v.Expected = outputOf(out)
		rules = append([]string{"CAN-2"}, payloadRules(out, true)...)
		if p, err := r.Impl.Decode(out, nil); err == nil && r.Tag == spec.Version {
			rules = append(rules, modelRules(out, p, nil, false)...)
		}
	case conformance.OpJSONEncode:
		if r.Impl.EncodeJSON == nil {
			return nil, errNoCase
		}
		out, err := r.Impl.EncodeJSON(c.Input, c.Tool, c.Mode, c.Limits)
		category = conformance.CategoryJSON
		if deep && err != nil {
			return nil, errNoCase
		}
		if err != nil {
			e, ok := v.expectError(err, true)
			if !ok {
				return nil, errNoCase
			}
			rules = append([]string{e.Rule}, r.refusalRules(c, err)...)
			break
		}
		value, err := jsonmap.Parse(c.Input)
		if err != nil {
			return nil, errNoCase
		}
		v.Expected = outputOf(out)
		v.Expected.(map[string]any)["value"] = string(value.AppendCompact(nil))
		if err := orError(nil); err != nil {
			return nil, err
		}
		rules = []string{"MAP-4", "MAP-12"}
		if c.Mode == "auto" {
			// auto mode's choice is bound by the cost of the JSON [AUTO-2]
			rules = []string{"AUTO-1", "MAP-4", "AUTO-2"}
		}
		if r.Tag == spec.Version {
			// the value however spelled is the same value [MAP-2]
			if !bytes.Equal(value.AppendCompact(nil), c.Input) {
				rules = append(rules, "MAP-2")
			}
			var p *spec.Payload
			if bytes.HasPrefix(out, []byte(spec.TagPrefix)) {
				p, _ = r.Impl.Decode(out, nil)
			}
			rules = append(rules, mappingRules(p, value, true, c.Tool)...)
			// written up to a bound exactly: under limits the encoder
			// refuses only what its decoder would [LIM-4]
			if p != nil && atLimit(p, longestLine(out), c.Limits) {
				rules = append(rules, "LIM-4")
			}
		}
	case conformance.OpJSONDecode:
		if r.Impl.DecodeJSON == nil {
			return nil, errNoCase
		}
		out, err := r.Impl.DecodeJSON(c.Input, c.Limits)
		category = conformance.CategoryJSON
		if !bytes.HasPrefix(c.Input, []byte(spec.TagPrefix)) {
			category = conformance.CategoryVersion
		}
		if err != nil && orError(err) != nil {
			return nil, errNoCase
		}
		if err != nil {
			e, ok := v.expectError(err, true)
			if !ok {
				return nil, errNoCase
			}
			rules = append([]string{e.Rule}, r.refusalRules(c, err)...)
			if e.Class == "unsupported-version" {
				category = conformance.CategoryVersion
			}
			break
		}
		if !utf8.Valid(out) {
			return nil, errNoCase
		}
		v.Expected = map[string]any{"value": string(out)}
		_ = orError(nil)
		rules = []string{"MAP-4", "MAP-14"}
		if category == conformance.CategoryVersion {
			rules = []string{"AUTO-3", "MAP-3"}
		} else if r.Tag == spec.Version {
			p, perr := r.Impl.Decode(c.Input, nil)
			value, verr := jsonmap.Parse(out)
			if perr == nil && verr == nil {
				rules = append(rules, mappingRules(p, value, false, "")...)
				// read at a bound exactly: the limit admits what reaches
				// it [LIM-1]
				if atLimit(p, longestLine(c.Input), c.Limits) {
					rules = append(rules, "LIM-1")
				}
			}
		}
	case conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy:
		out, cited, err := r.expectBinding(c) // gen_mcp.go
		if err != nil {
			return nil, err
		}
		v.Expected = json.RawMessage(out)
		category, rules = conformance.CategoryMCP, cited
	default:
		return nil, fmt.Errorf("explore: unknown op %q", c.Op)
	}
	v.Rules = dedupe(rules)
	v.ID = fmt.Sprintf("%s-explore-%08x", strings.ToLower(v.Rules[0]), hash(c))
	v.Description = fmt.Sprintf("Found by gcx explore: %s", describeOutcome(c, v.Expected))
	f := fileJSON{
		Category:    category,
		Group:       "explore",
		Description: "Cases gcx explore found and shrank; the expected outcomes are the reference's, to be checked against the spec before they are added.",
		Vectors:     []vectorJSON{v},
	}
	if category == conformance.CategoryVersion || category == conformance.CategoryMCP {
		f.Tags = []string{spec.Version}
	}
	if r.Tag != spec.Version {
		f.Tags = []string{r.Tag}
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	file, err := conformance.ParseFile(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoCase, err)
	}
	file.Vectors[0].Tag = r.Tag
	return file, nil
}

type fileJSON struct {
	Category    string       `json:"category"`
	Group       string       `json:"group"`
	Description string       `json:"description"`
	Tags        []string     `json:"tags,omitempty"`
	Vectors     []vectorJSON `json:"vectors"`
}

type vectorJSON struct {
	ID          string             `json:"id"`
	Description string             `json:"description"`
	Rules       []string           `json:"rules"`
	Op          conformance.Op     `json:"op"`
	Input       any                `json:"input,omitempty"`
	InputBase64 *string            `json:"input_base64,omitempty"`
	Limits      conformance.Limits `json:"limits,omitempty"`
	Tool        string             `json:"tool,omitempty"`
	Mode        string             `json:"mode,omitempty"`
	Canonical   *bool              `json:"canonical,omitempty"`
	Expected    any                `json:"expected"`
}

// spellBytes returns b as the vectors format holds bytes: a string when
// it is UTF-8, base64 otherwise. Exactly one result is non-nil.
func spellBytes(b []byte) (text, b64 *string) {
	if utf8.Valid(b) {
		s := string(b)
		return &s, nil
	}
	s := base64.StdEncoding.EncodeToString(b)
	return nil, &s
}

// outputOf returns an expected outcome of bytes, as text or in base64.
func outputOf(b []byte) map[string]any {
	text, b64 := spellBytes(b)
	if text != nil {
		return map[string]any{"output": *text}
	}
	return map[string]any{"output_base64": *b64}
}

// expectError makes the reference's error the vector's expected outcome
// and returns it, or false when the error names no rule and so cannot be
// a vector's; withPosition keeps the line and column: a decoder's, the
// JSON mapping's of [MAP-1], and those a wire-view encoder gives every
// refusal, of the view [WIRE-2] as of the model [WIRE-3], but not a
// mapping encoder's model error, which has none [ERR-2].
func (v *vectorJSON) expectError(err error, withPosition bool) (*conformance.ExpectedError, bool) {
	var e *spec.Error
	if !errors.As(err, &e) || e.Rule == "" {
		return nil, false
	}
	out := &conformance.ExpectedError{Class: spec.ClassName(err), Rule: e.Rule, Tag: e.Tag}
	if withPosition && e.Line > 0 && (out.Class != "model" || v.Op == conformance.OpEncode) {
		out.Line, out.Column = e.Line, e.Column
	}
	v.Expected = map[string]any{"error": out}
	return out, true
}

// payloadRules names the rules a valid payload exercises, most telling
// first, so that the vector's id says what the case is about.
func payloadRules(p []byte, canonical bool) []string {
	var rules []string
	add := func(ok bool, rule string) {
		if ok {
			rules = append(rules, rule)
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(p), "\n"), "\n")
	headers, comments, guards, escapes, empties, headerEscapes := 0, false, false, false, false, false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "GCX"):
			headers++
			headerEscapes = headerEscapes || strings.Contains(l, `\`)
		case strings.HasPrefix(l, "#"):
			comments = true
		default:
			if strings.HasPrefix(l, `\#`) || strings.HasPrefix(l, `\G`) {
				guards, l = true, l[1:]
			}
			escapes = escapes || strings.Contains(l, `\`)
			empties = empties || l == "" || strings.Contains(l, "\t\t") || strings.HasPrefix(l, "\t") || strings.HasSuffix(l, "\t")
		}
	}
	add(guards, "ROW-4")
	add(escapes, "VAL-1")
	add(comments, "CMT-3")
	add(headers > 1, "PAY-3")
	add(empties, "ROW-3")
	add(headerEscapes, "HDR-5")
	add(bytes.Contains(p, []byte(" rows=")), "META-4")
	add(!utf8.Valid(p) || bytes.ContainsFunc(p, func(r rune) bool { return r >= 0x80 }), "ENC-4")
	if canonical {
		rules = append(rules, "CAN-1")
	} else {
		rules = append([]string{"CAN-1"}, rules...)
		rules = append([]string{"LINE-3"}, rules...)
	}
	return rules
}

func dedupe(rules []string) []string {
	var out []string
	for _, r := range rules {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func hash(c Case) uint32 {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%v\x00", c.Op, c.Tool, c.Mode, c.Limits)
	h.Write(c.Input)
	return h.Sum32()
}

// describeOutcome says in one line what the reference does with the case.
func describeOutcome(c Case, expected any) string {
	if m, ok := expected.(map[string]any); ok {
		if e, ok := m["error"].(*conformance.ExpectedError); ok {
			s := fmt.Sprintf("the reference refuses it with a %s error [%s]", e.Class, e.Rule)
			if e.Line > 0 {
				s += fmt.Sprintf(" at line %d, column %d", e.Line, e.Column)
			}
			return s + "."
		}
	}
	switch c.Op {
	case conformance.OpDecode:
		return "the reference decodes it to this view."
	case conformance.OpEncode:
		return "the reference encodes the view to these bytes."
	case conformance.OpJSONEncode:
		return fmt.Sprintf("the reference writes the value for tool %s in mode %s, and reads it back.", c.Tool, c.Mode)
	case conformance.OpJSONDecode:
		return "the reference reads the result to this value."
	}
	return "the reference's binding gives this outcome."
}

// ReferenceFor returns the reference of a version: GCX1(), or the
// in-process codec of a draft registered in package codec.
func ReferenceFor(tag string) (Reference, error) {
	impls, err := conformance.BuiltInFor(tag)
	if err != nil {
		return Reference{}, err
	}
	if tag == spec.Version {
		return GCX1(), nil
	}
	return Reference{Tag: tag, Impl: impls[0]}, nil
}

// bindingInputOK reports whether a generated input of a binding op has
// the shape vectors.schema.json gives it (mcp-server-input,
// mcp-client-input), so that a case written out is a valid vector: the
// generator mutates committed inputs freely and drops what breaks it.
func bindingInputOK(op conformance.Op, in jsonmap.Value) bool {
	switch op {
	case conformance.OpMCPServer:
		return objectOK(in, []string{"settings", "request", "result"}, map[string]func(jsonmap.Value) bool{
			"settings": func(s jsonmap.Value) bool {
				return objectOK(s, nil, map[string]func(jsonmap.Value) bool{
					"mode":           modeOK,
					"offer":          tagsOK,
					"max-line-bytes": lineLimitOK,
					"tools": func(t jsonmap.Value) bool {
						if t.Kind != jsonmap.Object {
							return false
						}
						for _, m := range t.Members {
							if !objectOK(m.Value, nil, map[string]func(jsonmap.Value) bool{"mode": modeOK, "name": kindOK(jsonmap.String)}) {
								return false
							}
						}
						return true
					},
				})
			},
			"capabilities": kindOK(jsonmap.Object),
			"request": func(r jsonmap.Value) bool {
				return objectOK(r, []string{"name"}, map[string]func(jsonmap.Value) bool{"name": kindOK(jsonmap.String), "_meta": kindOK(jsonmap.Object)})
			},
			"result": resultOK,
		})
	case conformance.OpMCPClient:
		return objectOK(in, []string{"answers"}, map[string]func(jsonmap.Value) bool{
			"annotations": kindOK(jsonmap.Object),
			"answers": func(a jsonmap.Value) bool {
				return a.Kind == jsonmap.Array && len(a.Elems) >= 1 && len(a.Elems) <= 2 && !slices.ContainsFunc(a.Elems, func(r jsonmap.Value) bool { return !resultOK(r) })
			},
		})
	}
	return false
}

// objectOK checks an object with the required members and no members but
// those of members, each of which passes its check.
func objectOK(v jsonmap.Value, required []string, members map[string]func(jsonmap.Value) bool) bool {
	if v.Kind != jsonmap.Object {
		return false
	}
	for _, key := range required {
		if _, ok := v.Lookup(key); !ok {
			return false
		}
	}
	for _, m := range v.Members {
		check, ok := members[m.Key]
		if !ok || !check(m.Value) {
			return false
		}
	}
	return true
}

// resultOK checks a CallToolResult (mcp-result), which may carry members
// of its own beyond those it names.
func resultOK(r jsonmap.Value) bool {
	if r.Kind != jsonmap.Object {
		return false
	}
	content, ok := r.Lookup("content")
	if !ok || content.Kind != jsonmap.Array {
		return false
	}
	for _, block := range content.Elems {
		if _, ok := block.Lookup("type"); block.Kind != jsonmap.Object || !ok {
			return false
		}
	}
	if e, ok := r.Lookup("isError"); ok && e.Kind != jsonmap.True && e.Kind != jsonmap.False {
		return false
	}
	if m, ok := r.Lookup("_meta"); ok && m.Kind != jsonmap.Object {
		return false
	}
	return true
}

func kindOK(k jsonmap.Kind) func(jsonmap.Value) bool {
	return func(v jsonmap.Value) bool { return v.Kind == k }
}

// lineLimitOK reports whether v is a line limit a binding vector may set:
// a positive integer that fits an int, as the schema says.
func lineLimitOK(v jsonmap.Value) bool {
	if v.Kind != jsonmap.Number {
		return false
	}
	n, err := strconv.Atoi(v.Text)
	return err == nil && n > 0
}

func modeOK(v jsonmap.Value) bool {
	return v.Kind == jsonmap.String && (v.Text == "auto" || v.Text == "gcx" || v.Text == "off")
}

func tagsOK(v jsonmap.Value) bool {
	return v.Kind == jsonmap.Array && !slices.ContainsFunc(v.Elems, func(e jsonmap.Value) bool { return e.Kind != jsonmap.String })
}
