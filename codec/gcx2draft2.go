package codec

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// Draft2Tag is the tag of GCX2-draft.2, member layouts
// (docs/drafts/GCX2-draft.2.md).
const Draft2Tag = "GCX2-draft.2"

// Draft2 is the codec of GCX2-draft.2. A payload of the draft is a GCX1
// payload in its lines; what changes is how an object that wraps a list
// is read. A root without json= that holds a pair whose value is "@" is
// the header form of an object [D2-OBJ-1], and when its tool is declared
// with a layout of one rows part, the table that rides in the root's rows
// is read with that layout [D2-LAY-1]: {"symbols":[...],"total":41} for
// search_symbols is written
//
//	GCX2-draft.2 tool=search_symbols fields=id,kind,name,path,line,sig rows=2 symbols=@ total=41
//
// The zero value is the draft as registered, both ideas on; Off switches
// ideas off in the encoder, for the ablation. The decoder reads every
// payload whatever Off says.
type Draft2 struct {
	Off []string
}

func init() { Register(Draft2{}) }

// The draft's ideas, by the names EncodeWithout knows them by.
const (
	draft2Layout = "layout" // a wrapped list under its tool's layout [D2-LAY-1]
	draft2Bare   = "bare"   // no json=object where an "@" pair says it [D2-OBJ-1]
)

// tableMark is the header-form member value that stands for a table
// [MAP-11].
const tableMark = "@"

// Tag returns "GCX2-draft.2".
func (Draft2) Tag() string { return Draft2Tag }

// Goals returns GCX1's figures on the token scorecard, whose cases are
// bare values: the draft means to lose nothing there, a median saving of
// 22.8% against compact JSON in both tokenizers (GCX1's lower one) and no
// more tokens than TOON-tab. Its own aim, on the same values wrapped in
// objects, is measured through the MCP binding by gcxmcp's
// TestDraft2CorpusThroughMiddleware (docs/drafts/GCX2-draft.2.md).
func (Draft2) Goals() Goals {
	return Goals{MedianSaving: 22.8, Tokenizers: []string{tokens.CL100K, tokens.O200K}, TOONTab: TieTOON}
}

// Ideas lists the draft's ideas in the order of its document.
func (Draft2) Ideas() []Idea {
	return []Idea{
		{Name: draft2Layout, Rules: []string{"D2-LAY-1", "D2-LAY-2", "D2-LAY-3"}, Summary: "a declared tool's list wrapped in an object is written under the tool's layout, as the root's table"},
		{Name: draft2Bare, Rules: []string{"D2-OBJ-1"}, Summary: "a header-form root with a table drops json=object: its \"@\" pair says what it is"},
	}
}

// Needs returns what the draft's ideas need in a generated value: lists
// that fit a layout, wrapped in objects under these member names.
func (Draft2) Needs() Needs {
	return Needs{Wrappers: []string{"result", "symbols", "items"}, LookAlikes: []string{"@", `"@"`}}
}

// EncodeWithout is Encode with the named ideas switched off as well.
func (d Draft2) EncodeWithout(tool string, v jsonmap.Value, off []string) ([]byte, error) {
	for _, name := range off {
		if name != draft2Layout && name != draft2Bare {
			return nil, fmt.Errorf("codec: %s has no idea %q (it has %s and %s)", Draft2Tag, name, draft2Layout, draft2Bare)
		}
	}
	d.Off = slices.Concat(d.Off, off)
	return d.Encode(tool, v)
}

// Encode writes v as a GCX2-draft.2 payload under spec.DefaultLimits.
func (d Draft2) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return d.EncodeLimits(tool, v, spec.DefaultLimits)
}

// EncodeLimits writes the GCX1 model of v [MAP-12] with the draft's
// changes to a header-form root [D2-ENC-1], in GCX1's lines under the
// draft's tag, refusing what DecodeLimits under the same limits would
// refuse [LIM-4].
func (d Draft2) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	if err := d.rewriteRoot(p, tool, v); err != nil {
		return nil, err
	}
	return WriteWireLimits(Draft2Tag, p, limits)
}

// rewriteRoot changes the GCX1 model's root when it is the header form
// with a table [D2-ENC-1]: under a declared tool of one rows part whose
// layout the table's list fits, the root's fields and rows become the
// layout's, without json=, nest= and str= [D2-LAY-1]; under a tool that
// claims no layout it only loses json=object [D2-OBJ-1]. Under any other
// claimed name it stays as GCX1 writes it, json=object and all, which
// claims no layout [D2-LAY-3].
func (d Draft2) rewriteRoot(p *spec.Payload, tool string, v jsonmap.Value) error {
	root := &p.Sections[0]
	form := metaAt(root.Meta, jsonmap.KeyJSON)
	if form < 0 || root.Meta[form].Value != jsonmap.FormObject {
		return nil
	}
	table := firstTable(root.Meta)
	if table < 0 {
		return nil
	}
	layout, single := singleRowsLayout(tool)
	switch {
	case single:
		if slices.Contains(d.Off, draft2Layout) {
			return nil
		}
		list, _ := v.Lookup(root.Meta[table].Key)
		if layout.Fit(list) != nil {
			return nil
		}
		bare, err := jsonmap.Model(tool, list)
		if err != nil {
			return err
		}
		root.Fields, root.Rows = bare.Sections[0].Fields, bare.Sections[0].Rows
		root.Meta = slices.DeleteFunc(root.Meta, func(m spec.Meta) bool {
			return m.Key == jsonmap.KeyJSON || m.Key == jsonmap.KeyNest || m.Key == jsonmap.KeyStr
		})
	case claims(tool):
	default:
		if !slices.Contains(d.Off, draft2Bare) {
			root.Meta = slices.Delete(root.Meta, form, form+1)
		}
	}
	return nil
}

// Decode reads a GCX2-draft.2 payload under spec.DefaultLimits. Another
// tag, GCX1 included, is unsupported-version naming it [D2-VER-1]; the
// other errors are GCX1's and the draft's own, at their places in the
// payload [D2-ERR-1].
func (d Draft2) Decode(payload []byte) (jsonmap.Value, error) {
	return d.DecodeLimits(payload, spec.DefaultLimits)
}

// DecodeLimits is Decode under limits [LIM-3].
func (Draft2) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	p, err := ReadWire(Draft2Tag, payload, limits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	if len(p.Sections) == 0 {
		return decodeAsGCX1(payload, p)
	}
	root := &p.Sections[0]
	table := -1
	if metaAt(root.Meta, jsonmap.KeyJSON) < 0 {
		table = firstTable(root.Meta)
	}
	if table < 0 {
		// Every other root is read as GCX1 reads it.
		return decodeAsGCX1(payload, p)
	}
	_, single := singleRowsLayout(root.Tool)
	if !single && claims(root.Tool) {
		return jsonmap.Value{}, draft2Error(payload, 1, 1, "D2-LAY-3",
			fmt.Sprintf("tool=%s claims a layout that is not one rows part, so a root without json= cannot wrap its list in an object; a wrapped value under this name carries json=object", root.Tool))
	}
	// The object: the root's pairs are its members [MAP-10], read by
	// GCX1's mapping once json=object is added after them, where it moves
	// no position before the end of the header.
	object := &spec.Payload{Sections: slices.Clone(p.Sections)}
	object.Sections[0].Meta = append(slices.Clone(root.Meta), spec.Meta{Key: jsonmap.KeyJSON, Value: jsonmap.FormObject})
	v, objErr := jsonmap.DecodePayload(object)
	if objErr != nil {
		objErr = draft2Restore(payload, objErr)
	}
	if !single {
		if objErr != nil {
			return jsonmap.Value{}, objErr
		}
		return v, nil
	}
	// The list: the root section alone, read as GCX1 reads a layout
	// section, whose other pairs are no part of its value [MAP-13]; so
	// LAY-3, LAY-4 and LAY-5 keep their checks and their places [D2-LAY-2].
	list, listErr := jsonmap.DecodePayload(&spec.Payload{Sections: p.Sections[:1]})
	if listErr != nil {
		listErr = draft2Restore(payload, listErr)
	}
	if err := firstError(objErr, listErr); err != nil {
		return jsonmap.Value{}, err
	}
	key := root.Meta[table].Key
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members[i].Value = list
			break
		}
	}
	return v, nil
}

// firstError returns the error a front-to-back reading meets first
// [MAP-14] [D2-ERR-1], of an error of the object's reading and one of the
// list's, either of which may be nil. The list's reading covers the root
// header's field list and pairs and the root's rows; the object's covers
// the root header's pairs, the later sections, and the sections an "@"
// announces, which are decided at the payload's end [MAP-11]. At the same
// place the list's error wins, its rule being the layout's.
func firstError(object, list error) error {
	if object == nil || list == nil {
		return cmpOr(object, list)
	}
	var o, l *spec.Error
	if !errors.As(object, &o) || !errors.As(list, &l) {
		return list
	}
	if o.Line == 1 && o.Rule != "MAP-11" && (l.Line > 1 || o.Column < l.Column) {
		return object
	}
	return list
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// decodeAsGCX1 reads a payload whose root the draft leaves as GCX1 has
// it, with the positions of the payload.
func decodeAsGCX1(payload []byte, p *spec.Payload) (jsonmap.Value, error) {
	v, err := jsonmap.DecodePayload(p)
	if err != nil {
		return jsonmap.Value{}, draft2Restore(payload, err)
	}
	return v, nil
}

// draft2Restore moves an error that jsonmap.DecodePayload placed in the
// GCX1 spelling of a model of the payload to the payload: a column of a
// header line after the tag moves by the tag's extra length, and the
// offset is counted again from the line and column, since the model may
// have a longer first header (json=object added at its end).
func draft2Restore(payload []byte, err error) error {
	var e *spec.Error
	if !errors.As(err, &e) || e.Line == 0 {
		return err
	}
	fixed := *e
	if isTagged(lineAt(payload, e.Line), Draft2Tag) && e.Column > len(spec.Version) {
		fixed.Column += len(Draft2Tag) - len(spec.Version)
	}
	fixed.Offset = int64(lineStart(payload, fixed.Line) + fixed.Column - 1)
	return &fixed
}

// lineAt returns line number line of payload, without its LF.
func lineAt(payload []byte, line int) []byte {
	start := lineStart(payload, line)
	rest := payload[start:]
	for i, c := range rest {
		if c == '\n' {
			return rest[:i]
		}
	}
	return rest
}

// draft2Error is a constraint error of the draft's own rules at a line
// and column of the payload [D2-ERR-1].
func draft2Error(payload []byte, line, col int, rule, msg string) error {
	return &spec.Error{Class: spec.ErrConstraint, Line: line, Column: col,
		Offset: int64(lineStart(payload, line) + col - 1), Production: draftProduction, Rule: rule, Msg: msg}
}

// metaAt returns the index of the pair with key in meta, or -1.
func metaAt(meta []spec.Meta, key string) int {
	return slices.IndexFunc(meta, func(m spec.Meta) bool { return m.Key == key })
}

// firstTable returns the index of the first pair of a root header whose
// value is "@" and which is a member — not json=, rows=, nest= or str=
// [MAP-10] — or -1.
func firstTable(meta []spec.Meta) int {
	return slices.IndexFunc(meta, func(m spec.Meta) bool {
		switch m.Key {
		case jsonmap.KeyJSON, spec.KeyRows, jsonmap.KeyNest, jsonmap.KeyStr:
			return false
		}
		return m.Value == tableMark
	})
}

// singleRowsLayout returns tool's layout when tool is a declared tool
// whose layout is one part of rows shape [D2-LAY-1].
func singleRowsLayout(tool string) (jsonmap.Layout, bool) {
	l, ok := jsonmap.Lookup(tool)
	if !ok || len(l.Parts) != 1 || l.Parts[0].Shape != jsonmap.ShapeRows {
		return jsonmap.Layout{}, false
	}
	return l, true
}

// claims reports whether a root named tool without json= claims a layout
// in GCX1: tool is a declared tool or the section name of a part [LAY-4].
func claims(tool string) bool {
	for _, l := range jsonmap.Layouts() {
		if l.Tool == tool {
			return true
		}
		for _, p := range l.Parts {
			if p.Tool == tool {
				return true
			}
		}
	}
	return false
}

// DecodeWire reads the draft's lines, which are GCX1's.
func (Draft2) DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error) {
	return ReadWire(Draft2Tag, payload, limits)
}

// EncodeWire writes the draft's lines, which are GCX1's.
func (Draft2) EncodeWire(p *spec.Payload) ([]byte, error) { return WriteWire(Draft2Tag, p) }
