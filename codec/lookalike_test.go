package codec_test

import (
	"errors"
	"strings"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// repeating is a draft as a draft author writes one, with a new mark and
// no codec.Needs: in a table section a cell whose text is the text of the
// cell above is written as the repeat mark 〃 (U+3003), and a text that
// begins with the mark is written with one more in front. With flawed
// set, its encoder makes the mistake the properties must catch without
// being told about the mark: it compares a text with the cell above as
// written — a mark, or a text with one more mark in front — instead of
// the text that cell stands for. A text that looks like a cell the draft
// wrote then becomes a mark and reads back as another text: ["x","x","〃"]
// is written x, 〃, 〃 and reads back ["x","x","x"]. Values drawn by the
// generic generators almost never hold the mark; values made of the
// draft's own output hold it wherever the draft wrote it.
type repeating struct {
	tag    string
	flawed bool
}

// repeatMark is the mark, a character nothing in the generators' fixed
// lists holds, as a new draft's mark would be.
const repeatMark = "〃"

func (r repeating) Tag() string { return r.tag }

func (r repeating) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return r.EncodeLimits(tool, v, spec.DefaultLimits)
}

func (r repeating) Decode(payload []byte) (jsonmap.Value, error) {
	return r.DecodeLimits(payload, spec.DefaultLimits)
}

func (r repeating) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	for _, si := range repeatSections(p) {
		rows := p.Sections[si].Rows
		for c := range p.Sections[si].Fields {
			var text, written string // of the cell above
			for i, row := range rows {
				cell := row[c]
				same := cell == text
				if r.flawed {
					same = cell == written
				}
				text = cell
				switch {
				case i > 0 && same:
					row[c] = repeatMark
				case strings.HasPrefix(cell, repeatMark):
					row[c] = repeatMark + cell
				}
				written = row[c]
			}
		}
	}
	return codec.WriteWireLimits(r.tag, p, limits)
}

func (r repeating) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	draft, err := codec.ReadWire(r.tag, payload, limits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	plain, err := codec.ReadWire(r.tag, payload, limits) // the copy the marks are resolved in
	if err != nil {
		return jsonmap.Value{}, err
	}
	for _, si := range repeatSections(plain) {
		rows := plain.Sections[si].Rows
		for c := range plain.Sections[si].Fields {
			for i, row := range rows {
				switch cell := row[c]; {
				case cell == repeatMark && i > 0:
					row[c] = rows[i-1][c]
				case strings.HasPrefix(cell, repeatMark+repeatMark) || cell == repeatMark+repeatMark:
					row[c] = cell[len(repeatMark):]
				case strings.HasPrefix(cell, repeatMark):
					return jsonmap.Value{}, errors.New("a cell begins with one repeat mark and is not one, or is one in the first row")
				}
			}
		}
	}
	v, err := jsonmap.DecodePayload(plain)
	if err != nil {
		return jsonmap.Value{}, codec.RemapError(err, payload, r.tag, draft, plain)
	}
	return v, nil
}

// repeatSections are the sections whose rows are rows of a table of
// objects, the only ones that may carry marks (CONTRIBUTING.md, step 4).
func repeatSections(p *spec.Payload) []int {
	first := 0
	for _, m := range p.Sections[0].Meta {
		if m.Key != jsonmap.KeyJSON {
			continue
		}
		switch m.Value {
		case jsonmap.FormRows:
		case jsonmap.FormObject, jsonmap.FormRow:
			first = 1
		default:
			return nil
		}
	}
	var out []int
	for i := first; i < len(p.Sections); i++ {
		out = append(out, i)
	}
	return out
}

// abbreviating is a draft with a prefix mark, as the draft author of
// issue 29 wrote one: in a table section a text that begins with the
// directory of the text above (all of it up to its last /) is written as
// the mark ⋯ (U+22EF) and the rest, when the rest is not empty and does
// not begin with the mark; any other text that begins with the mark is
// written with one more in front. With flawed set, its encoder takes the
// directory from the cell above as written — ⋯y/w, say — instead of the
// text it stands for, so a text that looks like that written cell is
// abbreviated against a directory the decoder never sees.
type abbreviating struct {
	tag    string
	flawed bool
}

const prefixMark = "⋯"

func (a abbreviating) Tag() string { return a.tag }

// Needs is what its author declares, as CONTRIBUTING.md asks, so that
// its idea fires: the mark, and path parts to abbreviate. It names no
// look-alike of a written cell.
func (abbreviating) Needs() codec.Needs {
	return codec.Needs{MarkPrefixes: []string{prefixMark}, Fragments: []string{"internal/", "graph/", "a/", "b/", "store.go", "x"}}
}

func (a abbreviating) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	for _, si := range repeatSections(p) {
		rows := p.Sections[si].Rows
		for c := range p.Sections[si].Fields {
			var text, written string // of the cell above
			for i, row := range rows {
				cell := row[c]
				above := text
				if a.flawed {
					above = written
				}
				text = cell
				dir := above[:strings.LastIndexByte(above, '/')+1]
				rest, ok := strings.CutPrefix(cell, dir)
				switch {
				case i > 0 && dir != "" && ok && rest != "" && !strings.HasPrefix(rest, prefixMark):
					row[c] = prefixMark + rest
				case strings.HasPrefix(cell, prefixMark):
					row[c] = prefixMark + cell
				}
				written = row[c]
			}
		}
	}
	return codec.WriteWire(a.tag, p)
}

func (a abbreviating) Decode(payload []byte) (jsonmap.Value, error) {
	draft, err := codec.ReadWire(a.tag, payload, spec.DefaultLimits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	plain, _ := codec.ReadWire(a.tag, payload, spec.DefaultLimits)
	for _, si := range repeatSections(plain) {
		rows := plain.Sections[si].Rows
		for c := range plain.Sections[si].Fields {
			for i, row := range rows {
				cell := row[c]
				rest, marked := strings.CutPrefix(cell, prefixMark)
				switch {
				case !marked:
				case strings.HasPrefix(rest, prefixMark):
					row[c] = rest
				default:
					var above string
					if i > 0 {
						above = rows[i-1][c]
					}
					dir := above[:strings.LastIndexByte(above, '/')+1]
					if dir == "" || rest == "" {
						return jsonmap.Value{}, errors.New("a prefix mark with no directory above it, or nothing after it")
					}
					row[c] = dir + rest
				}
			}
		}
	}
	v, err := jsonmap.DecodePayload(plain)
	if err != nil {
		return jsonmap.Value{}, codec.RemapError(err, payload, a.tag, draft, plain)
	}
	return v, nil
}
