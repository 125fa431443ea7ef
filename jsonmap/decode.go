package jsonmap

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// Format names what an encoder wrote: a GCX1 payload or a JSON text
// [AUTO-1].
type Format string

// The two formats of a tool result.
const (
	FormatGCX  Format = "gcx"
	FormatJSON Format = "json"
)

// Decode returns the compact form [MAP-3] of the JSON value a GCX1 payload
// holds [MAP-7]. Errors are *spec.Error values: the payload's own GCX1
// errors as reference.Decode reports them, and mapping errors of class
// spec.ErrConstraint pointing at the header or cell at fault.
func Decode(payload []byte) ([]byte, error) {
	v, err := DecodeValue(payload)
	if err != nil {
		return nil, err
	}
	return v.AppendCompact(nil), nil
}

// DecodeValue is Decode returning the value itself.
func DecodeValue(payload []byte) (Value, error) {
	p, err := reference.Decode(payload)
	if err != nil {
		return Value{}, err
	}
	return DecodePayload(p)
}

// DecodePayload returns the JSON value a decoded payload holds. Positions
// in its errors are those of the payload's canonical bytes, which are the
// bytes it was decoded from [CAN-1].
func DecodePayload(p *spec.Payload) (Value, error) {
	if len(p.Sections) == 0 {
		return Value{}, &spec.Error{Class: spec.ErrConstraint, Rule: "PAY-1", Msg: "a payload needs at least one section"}
	}
	d := &decoder{p: p}
	v, used, err := d.root()
	if err != nil {
		return Value{}, err
	}
	if used < len(p.Sections) {
		return Value{}, d.errAtHeader(used, "MAP-7", fmt.Sprintf("section %d (tool=%s) is not part of the value the first section begins; a payload holds one JSON value", used+1, p.Sections[used].Tool))
	}
	return v, nil
}

// DecodeResponse returns the compact JSON value of a tool result that is
// either a GCX1 payload or a JSON text, as an auto-mode encoder writes it,
// and says which it was [AUTO-3]. A result that begins with "GCX" is read
// as GCX1 (and a GCX2 result is an unsupported-version error); any other
// is read as JSON.
func DecodeResponse(result []byte) ([]byte, Format, error) {
	if bytes.HasPrefix(result, []byte(spec.TagPrefix)) {
		out, err := Decode(result)
		return out, FormatGCX, err
	}
	out, err := Compact(result)
	if err != nil {
		var e *spec.Error
		if errors.As(err, &e) {
			e.Msg = "the input does not begin with GCX, so it was read as JSON: " + e.Msg
		}
		return nil, FormatJSON, err
	}
	return out, FormatJSON, nil
}

type decoder struct {
	p *spec.Payload
}

// root decodes the value the first section begins and returns how many
// sections it took [MAP-7].
func (d *decoder) root() (Value, int, error) {
	s := &d.p.Sections[0]
	form, explicit := s.Lookup(KeyJSON)
	if !explicit {
		if at, ok := partIndex[s.Tool]; ok {
			return d.layout(registry[at[0]], at[1])
		}
		if l, ok := Lookup(s.Tool); ok {
			return Value{}, 0, d.errAtHeader(0, "LAY-4", fmt.Sprintf("tool=%s is declared, and its payload begins with tool=%s; a section with another shape must carry json=", s.Tool, l.Parts[0].Tool))
		}
		v, err := d.table(0)
		return v, 1, err
	}
	switch form {
	case FormRows:
		v, err := d.table(0)
		return v, 1, err
	case FormObject:
		return d.object()
	case FormRow:
		return d.rowObject()
	case FormArray:
		v, err := d.list(0)
		return v, 1, err
	case FormValue:
		v, err := d.single(0)
		return v, 1, err
	}
	return Value{}, 0, d.errAtMeta(0, KeyJSON, "MAP-7", fmt.Sprintf("json=%s names no form; the forms are rows, object, row, array and value", form))
}

// table decodes a section of the table form: one object per row, a member
// for each non-empty cell [MAP-8], with the columns of nest= gathered into
// objects and those of str= read as bare strings [MAP-15]. Its other meta
// pairs are not part of the value [MAP-13].
func (d *decoder) table(si int) (Value, error) {
	s := &d.p.Sections[si]
	cols, _, err := d.columns(si)
	if err != nil {
		return Value{}, err
	}
	v := Value{Kind: Array, Elems: make([]Value, 0, len(s.Rows))}
	for r, row := range s.Rows {
		obj := Value{Kind: Object}
		for c, cell := range row {
			col := cols[c]
			if col.owner == "" {
				if cell == "" {
					continue
				}
				e, err := d.tableCell(si, r, c, col.bare)
				if err != nil {
					return Value{}, err
				}
				obj.Members = append(obj.Members, Member{Key: s.Fields[c], Value: e})
				continue
			}
			if !col.first {
				continue
			}
			nested := Value{Kind: Object}
			for _, c2 := range col.group {
				if row[c2] == "" {
					continue
				}
				e, err := d.tableCell(si, r, c2, cols[c2].bare)
				if err != nil {
					return Value{}, err
				}
				nested.Members = append(nested.Members, Member{Key: strings.TrimPrefix(s.Fields[c2], col.owner+"."), Value: e})
			}
			obj.Members = append(obj.Members, Member{Key: col.owner, Value: nested})
		}
		v.Elems = append(v.Elems, obj)
	}
	return v, nil
}

// tableCell decodes a non-empty table cell: bare in a str= column, else
// spelled.
func (d *decoder) tableCell(si, r, c int, bare bool) (Value, error) {
	cell := d.p.Sections[si].Rows[r][c]
	if bare {
		return Value{Kind: String, Text: cell}, nil
	}
	e, err := unspell(cell)
	if err != nil {
		return Value{}, d.cellErr(si, r, c, err)
	}
	return e, nil
}

// tableColumn says how to read one field of a table section [MAP-15].
type tableColumn struct {
	bare  bool   // listed in str=
	owner string // the nested member the field belongs to, if any
	first bool   // the owner's first field, where its object is placed
	group []int  // on the first field: every field of the owner, in order
}

// columns reads the nest= and str= pairs of a table section and checks
// them [MAP-15] [MAP-16], in the order the header holds them [MAP-14]; on error it
// also returns the key of the pair at fault.
func (d *decoder) columns(si int) ([]tableColumn, string, error) {
	s := &d.p.Sections[si]
	cols := make([]tableColumn, len(s.Fields))
	index := make(map[string]int, len(s.Fields))
	for i, f := range s.Fields {
		index[f] = i
	}
	for _, m := range s.Meta {
		var err error
		switch m.Key {
		case KeyStr:
			err = d.bareColumns(si, m.Value, cols, index)
		case KeyNest:
			err = d.nestedColumns(si, m.Value, cols, index)
		}
		if err != nil {
			return nil, m.Key, err
		}
	}
	return cols, "", nil
}

// bareColumns marks the fields str= lists as bare [MAP-16].
func (d *decoder) bareColumns(si int, list string, cols []tableColumn, index map[string]int) error {
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		i, ok := index[name]
		if !ok || seen[name] {
			return d.errAtMeta(si, KeyStr, "MAP-16", fmt.Sprintf("str= names %q, which is not a field of the section or is named twice", name))
		}
		seen[name] = true
		cols[i].bare = true
	}
	return nil
}

// nestedColumns gathers the fields of each member nest= lists [MAP-15].
func (d *decoder) nestedColumns(si int, list string, cols []tableColumn, index map[string]int) error {
	s := &d.p.Sections[si]
	first := map[string]int{}
	for _, owner := range strings.Split(list, ",") {
		if _, dup := first[owner]; dup || owner == "" {
			return d.errAtMeta(si, KeyNest, "MAP-15", fmt.Sprintf("nest= names %q twice or names the empty member", owner))
		}
		if _, ok := index[owner]; ok {
			return d.errAtMeta(si, KeyNest, "MAP-15", fmt.Sprintf("nest= names %q, which is also a field, so the member would appear twice", owner))
		}
		first[owner] = -1
		for i, f := range s.Fields {
			if !strings.HasPrefix(f, owner+".") {
				continue
			}
			if cols[i].owner != "" {
				return d.errAtMeta(si, KeyNest, "MAP-15", fmt.Sprintf("field %q belongs to both %q and %q", f, cols[i].owner, owner))
			}
			cols[i].owner = owner
			if first[owner] < 0 {
				first[owner] = i
				cols[i].first = true
			}
			lead := first[owner]
			cols[lead].group = append(cols[lead].group, i)
		}
		if first[owner] < 0 {
			return d.errAtMeta(si, KeyNest, "MAP-15", fmt.Sprintf("nest= names %q, and no field begins with %q", owner, owner+"."))
		}
	}
	return nil
}

// list decodes the array form: one field, one value per row [MAP-9].
func (d *decoder) list(si int) (Value, error) {
	s := &d.p.Sections[si]
	if len(s.Fields) != 1 {
		return Value{}, d.errAtFields(si, "MAP-9", fmt.Sprintf("json=%s needs exactly one field, and the section declares %d", FormArray, len(s.Fields)))
	}
	v := Value{Kind: Array, Elems: make([]Value, 0, len(s.Rows))}
	for r := range s.Rows {
		e, err := d.cell(si, r, 0)
		if err != nil {
			return Value{}, err
		}
		v.Elems = append(v.Elems, e)
	}
	return v, nil
}

// single decodes the value form: one field, one row [MAP-9]. A wrong
// field list is reported at the list, a wrong row count at the header
// [MAP-14].
func (d *decoder) single(si int) (Value, error) {
	s := &d.p.Sections[si]
	if len(s.Fields) != 1 {
		return Value{}, d.errAtFields(si, "MAP-9", fmt.Sprintf("json=%s needs exactly one field, and the section declares %d", FormValue, len(s.Fields)))
	}
	if len(s.Rows) != 1 {
		return Value{}, d.errAtHeader(si, "MAP-9", fmt.Sprintf("json=%s holds one value as one row, and the section has %d rows", FormValue, len(s.Rows)))
	}
	return d.cell(si, 0, 0)
}

// cell decodes a cell that must hold a value: it may not be empty.
func (d *decoder) cell(si, r, c int) (Value, error) {
	text := d.p.Sections[si].Rows[r][c]
	if text == "" {
		return Value{}, d.errAtCell(si, r, c, "MAP-9", "the cell is empty, which marks an absent member, and no member can be absent here; the empty string is written \"\"")
	}
	v, err := unspell(text)
	if err != nil {
		return Value{}, d.cellErr(si, r, c, err)
	}
	return v, nil
}

// object decodes the header form of an object: each meta pair but json=
// and rows= is a member, and "@" stands for a table — the root section's
// rows for the first, the next section, named tool.key, for each further
// one [MAP-10] [MAP-11]. The header is checked first, pair by pair, then
// the tables in payload order [MAP-14].
func (d *decoder) object() (Value, int, error) {
	root := &d.p.Sections[0]
	_, badPair, colErr := d.columns(0)
	v := Value{Kind: Object}
	var tables []int // the members that are tables, in order
	for _, m := range root.Meta {
		switch m.Key {
		case KeyJSON, spec.KeyRows:
			continue
		case KeyNest, KeyStr:
			if m.Key == badPair {
				return Value{}, 0, colErr
			}
			continue
		}
		var e Value
		var err error
		switch m.Value {
		case tableMark:
			if n := len(tables); n > 0 {
				err = d.needSection(n, root.Tool, m.Key, func(rule, msg string) *spec.Error { return d.errAtMeta(0, m.Key, rule, msg) })
			}
			tables = append(tables, len(v.Members))
		case "":
			err = d.errAtMeta(0, m.Key, "MAP-10", fmt.Sprintf("member %s= is empty; an object-form member always has a value (the empty string is written \"\")", m.Key))
		default:
			if e, err = unspell(m.Value); err != nil {
				err = d.placed(d.errAtMeta(0, m.Key, "", ""), err)
			}
		}
		if err != nil {
			return Value{}, 0, err
		}
		v.Members = append(v.Members, Member{Key: m.Key, Value: e})
	}
	if len(tables) == 0 && len(root.Rows) > 0 {
		return Value{}, 0, d.errAtHeader(0, "MAP-10", "the section has rows, but no member is \"@\" to hold them")
	}
	for n, member := range tables {
		var err error
		if n == 0 {
			v.Members[member].Value, err = d.table(0)
		} else {
			v.Members[member].Value, err = d.continuation(n, root.Tool, v.Members[member].Key)
		}
		if err != nil {
			return Value{}, 0, err
		}
	}
	return v, max(1, len(tables)), nil
}

// rowObject decodes the row form of an object: the fields are the member
// names and the only row their values; an empty cell is an absent member
// and "@" a table in the next section, named tool.key [MAP-10] [MAP-11].
// The row is checked first, cell by cell, then the tables' sections
// [MAP-14].
func (d *decoder) rowObject() (Value, int, error) {
	root := &d.p.Sections[0]
	if len(root.Rows) != 1 {
		return Value{}, 0, d.errAtHeader(0, "MAP-10", fmt.Sprintf("json=%s holds one object as one row, and the section has %d rows", FormRow, len(root.Rows)))
	}
	v := Value{Kind: Object}
	var tables []int // the members that are tables, in order
	for c, cell := range root.Rows[0] {
		key := root.Fields[c]
		var e Value
		var err error
		switch cell {
		case "":
			continue
		case tableMark:
			tables = append(tables, len(v.Members))
			err = d.needSection(len(tables), root.Tool, key, func(rule, msg string) *spec.Error { return d.errAtCell(0, 0, c, rule, msg) })
		default:
			if e, err = unspell(cell); err != nil {
				err = d.cellErr(0, 0, c, err)
			}
		}
		if err != nil {
			return Value{}, 0, err
		}
		v.Members = append(v.Members, Member{Key: key, Value: e})
	}
	for n, member := range tables {
		var err error
		if v.Members[member].Value, err = d.continuation(n+1, root.Tool, v.Members[member].Key); err != nil {
			return Value{}, 0, err
		}
	}
	return v, 1 + len(tables), nil
}

// needSection checks that the payload has section si to hold the table of
// member key; mark places the error at the member's "@" [MAP-11].
func (d *decoder) needSection(si int, tool, key string, mark func(rule, msg string) *spec.Error) error {
	if si < len(d.p.Sections) {
		return nil
	}
	return mark("MAP-11", fmt.Sprintf("member %q is \"@\" and needs section %d, named %s.%s, and the payload ends after %d sections", key, si+1, tool, key, len(d.p.Sections)))
}

// continuation decodes section si as the table of member key [MAP-11].
func (d *decoder) continuation(si int, tool, key string) (Value, error) {
	s := &d.p.Sections[si]
	if want := tool + "." + key; s.Tool != want {
		return Value{}, d.errAtHeader(si, "MAP-11", fmt.Sprintf("section %d holds member %q and must be named tool=%s, not tool=%s", si+1, key, want, s.Tool))
	}
	if _, ok := s.Lookup(KeyJSON); ok {
		return Value{}, d.errAtMeta(si, KeyJSON, "MAP-11", "a section that holds a member's table carries no json= pair")
	}
	return d.table(si)
}

// layout decodes the sections of a declared tool [LAY-4].
func (d *decoder) layout(l Layout, part int) (Value, int, error) {
	if part != 0 {
		return Value{}, 0, d.errAtHeader(0, "LAY-4", fmt.Sprintf("tool=%s is part %d of the layout of %s, whose payload begins with tool=%s", l.Parts[part].Tool, part+1, l.Tool, l.Parts[0].Tool))
	}
	values := make([]Value, len(l.Parts))
	for i, p := range l.Parts {
		if i >= len(d.p.Sections) {
			return Value{}, 0, d.errAtHeader(i-1, "LAY-4", fmt.Sprintf("the layout of %s needs section tool=%s after this one, and the payload ends", l.Tool, p.Tool))
		}
		s := &d.p.Sections[i]
		if s.Tool != p.Tool {
			return Value{}, 0, d.errAtHeader(i, "LAY-4", fmt.Sprintf("the layout of %s needs section %d to be tool=%s, not tool=%s", l.Tool, i+1, p.Tool, s.Tool))
		}
		v, err := d.part(i, p)
		if err != nil {
			return Value{}, 0, err
		}
		values[i] = v
	}
	if len(l.Parts) == 1 {
		return values[0], 1, nil
	}
	obj := Value{Kind: Object, Members: make([]Member, len(l.Parts))}
	for i, p := range l.Parts {
		obj.Members[i] = Member{Key: p.Key, Value: values[i]}
	}
	return obj, len(l.Parts), nil
}

// part decodes one section against its frozen part: the same fields, in
// order [LAY-5], and cells of the declared types [LAY-3].
func (d *decoder) part(si int, p Part) (Value, error) {
	s := &d.p.Sections[si]
	if names := p.FieldNames(); !slices.Equal(s.Fields, names) {
		return Value{}, d.errAtFields(si, "LAY-5", fmt.Sprintf("tool=%s has the frozen fields %s and this section declares %s; a GCX1 layout never changes (a section with other fields must carry json=)",
			p.Tool, strings.Join(names, ","), strings.Join(s.Fields, ",")))
	}
	for _, m := range s.Meta { // after the field list, as the header holds them [MAP-14]
		if m.Key == KeyJSON || m.Key == KeyNest || m.Key == KeyStr {
			return Value{}, d.errAtMeta(si, m.Key, "LAY-4", fmt.Sprintf("section tool=%s is part of a declared layout and carries no %s= pair", p.Tool, m.Key))
		}
	}
	if p.Shape == ShapeObject && len(s.Rows) != 1 {
		return Value{}, d.errAtHeader(si, "LAY-2", fmt.Sprintf("tool=%s holds one object, as one row, and the section has %d rows", p.Tool, len(s.Rows)))
	}
	rows := Value{Kind: Array, Elems: make([]Value, 0, len(s.Rows))}
	for r, row := range s.Rows {
		obj := Value{Kind: Object}
		for c, cell := range row {
			f := p.Fields[c]
			if cell == "" {
				if f.Optional {
					continue
				}
				return Value{}, d.errAtCell(si, r, c, "LAY-3", fmt.Sprintf("field %s (member %q) is required and the cell is empty", f.Name, f.Key))
			}
			v, err := unspell(cell)
			if err != nil {
				return Value{}, d.cellErr(si, r, c, err)
			}
			if !f.Type.holds(v) {
				return Value{}, d.errAtCell(si, r, c, "LAY-3", fmt.Sprintf("field %s (member %q) is typed %s and the cell holds %s", f.Name, f.Key, f.Type, kindPhrase(v.Kind)))
			}
			obj.Members = append(obj.Members, Member{Key: f.Key, Value: v})
		}
		rows.Elems = append(rows.Elems, obj)
	}
	if p.Shape == ShapeObject {
		return rows.Elems[0], nil
	}
	return rows, nil
}
