package auto_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// The rationale of chapter 14 (14.9) costs the ways type information could
// travel, on the realistic results in examples/. This test computes that
// table: run
//
//	go test ./jsonmap/auto -run TestOptionCosts -v
//
// Each option is built from the chosen encoding's model, so only the
// property under comparison differs.

type dataset struct {
	name  string // tool name, from the file name
	value jsonmap.Value
}

func loadExamples(t testing.TB) []dataset {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	sort.Strings(files)
	var out []dataset
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonmap.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, dataset{name: strings.TrimSuffix(filepath.Base(f), ".json"), value: v})
	}
	return out
}

func cl100k(b []byte) int { return tokens.CL100KCount(string(b)) }

func encodeModel(t testing.TB, p *spec.Payload) []byte {
	b, err := reference.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// genericModel is the generic mapping of v, named tool even when tool is
// declared, without the json=rows a declared name would add: the cost of
// the mapping without a layout.
func genericModel(t testing.TB, tool string, v jsonmap.Value) *spec.Payload {
	p, err := jsonmap.Model("undeclared", v)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Sections {
		p.Sections[i].Tool = strings.Replace(p.Sections[i].Tool, "undeclared", tool, 1)
	}
	return p
}

// withColumnTypes adds a types= pair, one letter per field, to every table
// section: the per-column declaration option. Its cells stay as they are,
// which is what a typed column would write for these values (none of the
// examples' strings reads as another type).
func withColumnTypes(p *spec.Payload, v jsonmap.Value) *spec.Payload {
	out := clone(p)
	for i := range out.Sections {
		s := &out.Sections[i]
		if len(s.Rows) == 0 || len(s.Fields) < 2 {
			continue
		}
		letters := make([]byte, len(s.Fields))
		for c := range s.Fields {
			letters[c] = 's'
			for _, row := range s.Rows {
				if row[c] != "" {
					letters[c] = typeLetter(row[c])
					break
				}
			}
		}
		s.Meta = append(s.Meta, spec.Meta{Key: "types", Value: string(letters)})
	}
	return out
}

func typeLetter(cell string) byte {
	v, err := jsonmap.Parse([]byte(cell))
	if err != nil {
		return 's'
	}
	switch v.Kind {
	case jsonmap.Number:
		return 'n'
	case jsonmap.True, jsonmap.False:
		return 'b'
	case jsonmap.String:
		return 's'
	}
	return 'j'
}

// withJSONCells writes every non-empty cell of a table as the JSON text of
// its value, strings in quotes: the option of typing every cell by JSON
// syntax, as TOON's quoting or a JSON-lines body would.
func withJSONCells(p *spec.Payload) *spec.Payload {
	out := clone(p)
	for i := range out.Sections {
		for _, row := range out.Sections[i].Rows {
			for c, cell := range row {
				if cell == "" || cell == "@" {
					continue
				}
				if _, err := jsonmap.Parse([]byte(cell)); err != nil {
					row[c] = string(jsonQuote(cell))
				}
			}
		}
	}
	return out
}

func jsonQuote(s string) []byte {
	return jsonmap.Value{Kind: jsonmap.String, Text: s}.AppendCompact(nil)
}

// withoutRowCounts drops the rows= pairs the mapping writes [MAP-12].
func withoutRowCounts(p *spec.Payload) *spec.Payload {
	out := clone(p)
	for i := range out.Sections {
		var kept []spec.Meta
		for _, m := range out.Sections[i].Meta {
			if m.Key != spec.KeyRows {
				kept = append(kept, m)
			}
		}
		out.Sections[i].Meta = kept
	}
	return out
}

// withoutNestStr rewrites every table section that has nest= or str= as
// the plain table form would write it: nested members back in one cell
// as JSON text, str= columns spelled [MAP-15].
func withoutNestStr(t testing.TB, p *spec.Payload) *spec.Payload {
	out := clone(p)
	for i := range out.Sections {
		s := &out.Sections[i]
		nest, hasNest := s.Lookup(jsonmap.KeyNest)
		_, hasStr := s.Lookup(jsonmap.KeyStr)
		if !hasNest && !hasStr {
			continue
		}
		table := spec.Section{Tool: "undeclared", Fields: s.Fields, Rows: s.Rows}
		for _, m := range s.Meta {
			if m.Key == jsonmap.KeyNest || m.Key == jsonmap.KeyStr {
				table.Meta = append(table.Meta, m)
			}
		}
		v, err := jsonmap.DecodePayload(&spec.Payload{Sections: []spec.Section{table}})
		if err != nil {
			t.Fatal(err)
		}
		var fields []string
		for _, f := range s.Fields {
			name := f
			for _, owner := range strings.Split(nest, ",") {
				if hasNest && strings.HasPrefix(f, owner+".") {
					name = owner
				}
			}
			if len(fields) == 0 || fields[len(fields)-1] != name {
				fields = append(fields, name)
			}
		}
		s.Fields = fields
		s.Rows = make([][]string, len(v.Elems))
		for r, obj := range v.Elems {
			row := make([]string, len(fields))
			for c, f := range fields {
				if m, ok := obj.Lookup(f); ok {
					row[c] = spelled(t, m)
				}
			}
			s.Rows[r] = row
		}
		var meta []spec.Meta
		for _, m := range s.Meta {
			if m.Key != jsonmap.KeyNest && m.Key != jsonmap.KeyStr {
				meta = append(meta, m)
			}
		}
		s.Meta = meta
	}
	return out
}

// spelled returns the cell the table form writes for v [MAP-6], from a
// two-row table that neither nests nor declares a column.
func spelled(t testing.TB, v jsonmap.Value) string {
	probe := jsonmap.Value{Kind: jsonmap.Array, Elems: []jsonmap.Value{
		{Kind: jsonmap.Object, Members: []jsonmap.Member{{Key: "v", Value: v}}},
		{Kind: jsonmap.Object},
	}}
	p, err := jsonmap.Model("undeclared", probe)
	if err != nil {
		t.Fatal(err)
	}
	return p.Sections[0].Rows[0][0]
}

func clone(p *spec.Payload) *spec.Payload {
	out := &spec.Payload{Sections: make([]spec.Section, len(p.Sections))}
	for i, s := range p.Sections {
		c := s
		c.Meta = append([]spec.Meta(nil), s.Meta...)
		c.Rows = make([][]string, len(s.Rows))
		for r, row := range s.Rows {
			c.Rows[r] = append([]string(nil), row...)
		}
		out.Sections[i] = c
	}
	return out
}

// TestOptionCosts prints the tables of chapter 14.9 and checks the claims
// the chapter draws from it: on every example, spelled cells cost no more
// than declaring column types or quoting every string, and a layout costs
// no more than the generic mapping for tables.
func TestOptionCosts(t *testing.T) {
	sets := loadExamples(t)
	// The announcement's five-row search_symbols result, as a second size.
	for _, d := range sets {
		if d.name == "search_symbols" {
			five := d.value
			five.Elems = five.Elems[:5]
			sets = append(sets, dataset{name: "search_symbols", value: five})
		}
	}
	var b strings.Builder
	b.WriteString("| example | rows | compact JSON | generic | generic + types= | generic, JSON cells | layout | chosen, without rows= | chosen, without nest=/str= |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range sets {
		chosen, err := jsonmap.EncodeValue(d.name, d.value)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := reference.Decode(chosen)
		generic := genericModel(t, d.name, d.value)
		rows := 0
		for _, s := range p.Sections {
			rows += len(s.Rows)
		}
		json := cl100k(d.value.AppendCompact(nil))
		gen := cl100k(encodeModel(t, generic))
		types := cl100k(encodeModel(t, withColumnTypes(generic, d.value)))
		cells := cl100k(encodeModel(t, withJSONCells(generic)))
		layout := "–"
		if l, declared := jsonmap.Lookup(d.name); declared {
			n := cl100k(chosen)
			layout = fmt.Sprint(n)
			// An object layout writes one row; the generic header form
			// may be cheaper, and JSON cheaper still (14.9).
			if n > gen && l.Parts[0].Shape == jsonmap.ShapeRows {
				t.Errorf("%s: the layout (%d tokens) costs more than the generic mapping (%d)", d.name, n, gen)
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %s | %d | %d |\n", d.name, rows, json, gen, types, cells, layout,
			cl100k(encodeModel(t, withoutRowCounts(p))), cl100k(encodeModel(t, withoutNestStr(t, p))))
		if gen > types || gen > cells {
			t.Errorf("%s: spelled cells (%d tokens) cost more than column types (%d) or JSON cells (%d)", d.name, gen, types, cells)
		}
	}
	t.Logf("cl100k_base tokens per option:\n%s", b.String())

	var forms strings.Builder
	forms.WriteString("| example | header form (json=object) | row form (json=row) | compact JSON |\n|---|---|---|---|\n")
	for _, d := range sets {
		if d.value.Kind != jsonmap.Object {
			continue
		}
		header, row := objectForms(t, d.name, d.value)
		fmt.Fprintf(&forms, "| %s | %d | %d | %d |\n", d.name, cl100k(header), cl100k(row), cl100k(d.value.AppendCompact(nil)))
	}
	t.Logf("cl100k_base tokens of the two object forms:\n%s", forms.String())

	var cells strings.Builder
	cells.WriteString("| cell | tokens of `a<TAB>cell<TAB>b` |\n|---|---|\n")
	fmt.Fprintf(&cells, "| (no cell: `a<TAB>b`) | %d |\n", cl100k([]byte("a\tb")))
	for _, c := range []string{"", `""`, "null", "-", "62", `"62"`, "internal/mcp/server.go", `"internal/mcp/server.go"`} {
		fmt.Fprintf(&cells, "| `%s` | %d |\n", c, cl100k([]byte("a\t"+c+"\tb")))
	}
	t.Logf("cl100k_base tokens per cell spelling:\n%s", cells.String())
}

// objectForms writes an object in both object forms [MAP-10] [MAP-11],
// whichever the encoder would choose. Tables come from the table form of
// the member, with their nest= and str= pairs.
func objectForms(t testing.TB, tool string, v jsonmap.Value) (header, row []byte) {
	h := spec.Section{Tool: tool, Fields: []string{""}, Meta: []spec.Meta{{Key: jsonmap.KeyJSON, Value: jsonmap.FormObject}}}
	r := spec.Section{Tool: tool, Meta: []spec.Meta{{Key: jsonmap.KeyJSON, Value: jsonmap.FormRow}, {Key: spec.KeyRows, Value: "1"}}, Rows: [][]string{nil}}
	var hMore, rMore []spec.Section
	for _, m := range v.Members {
		r.Fields = append(r.Fields, m.Key)
		if m.Value.Kind == jsonmap.Array && len(m.Value.Elems) > 0 && m.Value.Elems[0].Kind == jsonmap.Object {
			p, err := jsonmap.Model("undeclared", m.Value)
			if err != nil || len(p.Sections) != 1 {
				t.Fatalf("%s.%s is no single table", tool, m.Key)
			}
			tb := p.Sections[0]
			tb.Tool = tool + "." + m.Key
			h.Meta = append(h.Meta, spec.Meta{Key: m.Key, Value: "@"})
			if h.Rows == nil {
				h.Fields, h.Rows = tb.Fields, tb.Rows
				h.Meta = append(append([]spec.Meta{h.Meta[0]}, tb.Meta...), h.Meta[1:]...)
			} else {
				hMore = append(hMore, tb)
			}
			r.Rows[0] = append(r.Rows[0], "@")
			rMore = append(rMore, tb)
			continue
		}
		cell := spelled(t, m.Value)
		h.Meta = append(h.Meta, spec.Meta{Key: m.Key, Value: cell})
		r.Rows[0] = append(r.Rows[0], cell)
	}
	header = encodeModel(t, &spec.Payload{Sections: append([]spec.Section{h}, hMore...)})
	row = encodeModel(t, &spec.Payload{Sections: append([]spec.Section{r}, rMore...)})
	return header, row
}
