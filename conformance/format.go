package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/jsonmap"
)

// Format returns the canonical text of a vectors file: two-space indents,
// one line per key of a vector, and the expected outcome — a wire view can
// hold a million rows — on one line. The input and the outcome of a
// binding op, JSON objects written by hand, are laid out by layoutJSON
// instead. Every committed file is in this form (a test checks it), so
// that a diff of the vectors shows only what changed; gcx-vectors -fmt
// rewrites files into it.
func Format(f *File) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	field(&b, "  ", "category", f.Category)
	field(&b, "  ", "group", f.Group)
	field(&b, "  ", "description", f.Description)
	if len(f.Tags) > 0 {
		field(&b, "  ", "tags", f.Tags)
	}
	b.WriteString("  \"vectors\": [\n")
	for i := range f.Vectors {
		v := &f.Vectors[i]
		b.WriteString("    {\n")
		const in = "      "
		field(&b, in, "id", v.ID)
		field(&b, in, "description", v.Description)
		field(&b, in, "rules", v.Rules)
		field(&b, in, "op", v.Op)
		if v.InputText != nil {
			field(&b, in, "input", *v.InputText)
		}
		if v.InputParts != nil {
			field(&b, in, "input", v.InputParts)
		}
		if v.InputJSON != nil {
			if err := layoutJSON(&b, in, "input", v.InputJSON, ","); err != nil {
				return nil, fmt.Errorf("%s: input: %v", v.ID, err)
			}
		}
		if v.InputBase64 != nil {
			field(&b, in, "input_base64", *v.InputBase64)
		}
		if v.Limits != nil {
			field(&b, in, "limits", v.Limits)
		}
		if v.Tool != "" {
			field(&b, in, "tool", v.Tool)
		}
		if v.Mode != "" {
			field(&b, in, "mode", v.Mode)
		}
		if v.Canonical != nil {
			field(&b, in, "canonical", *v.Canonical)
		}
		if v.Op.Binding() {
			if err := layoutJSON(&b, in, "expected", v.Expected.Outcome, ""); err != nil {
				return nil, fmt.Errorf("%s: expected: %v", v.ID, err)
			}
		} else {
			exp, err := compactExpected(&v.Expected)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", v.ID, err)
			}
			b.WriteString(in + `"expected": `)
			b.Write(exp)
			b.WriteString("\n")
		}
		b.WriteString("    }")
		if i < len(f.Vectors)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}

// field writes one line `"key": value,` (the expected outcome, always
// last, is written apart). Values are marshalled without HTML escaping, so
// <, > and & stay readable.
func field(b *bytes.Buffer, indent, key string, value any) {
	b.WriteString(indent)
	b.Write(marshal(key))
	b.WriteString(": ")
	b.Write(marshal(value))
	b.WriteString(",\n")
}

func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only strings, string slices, booleans, Limits and Parts reach
		// here, and they always marshal.
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// compactExpected writes the expected outcome on one line, keeping the
// view's own spelling (its escapes, its omitted keys, its parts) but not
// its whitespace.
func compactExpected(e *Expected) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	sep := ""
	put := func(key string, raw []byte) {
		b.WriteString(sep)
		b.Write(marshal(key))
		b.WriteString(": ")
		b.Write(raw)
		sep = ", "
	}
	if e.ViewParts != nil {
		put("view", marshal(e.ViewParts))
	} else if e.View != nil {
		var view bytes.Buffer
		if err := json.Compact(&view, e.View); err != nil {
			return nil, err
		}
		put("view", view.Bytes())
	}
	if e.OrError != nil {
		put("or_error", marshal(e.OrError))
	}
	if e.OutputText != nil {
		put("output", marshal(*e.OutputText))
	}
	if e.OutputParts != nil {
		put("output", marshal(e.OutputParts))
	}
	if e.OutputBase64 != nil {
		put("output_base64", marshal(*e.OutputBase64))
	}
	if e.Value != nil {
		put("value", marshal(*e.Value))
	}
	if e.Error != nil {
		put("error", marshal(e.Error))
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// lineWidth is the width layoutJSON fits a line of a binding vector in.
const lineWidth = 120

// layoutJSON writes the member key of a binding vector, whose value is
// the JSON text raw, then suffix: an array or object on one line when the
// line fits in lineWidth columns, and otherwise one member or element per
// line, indented two spaces more, each laid out the same way. Members
// keep their order and numbers their spelling; strings are spelled in
// the compact form [MAP-3], and ", " and ": " separate what shares a line.
func layoutJSON(b *bytes.Buffer, indent, key string, raw []byte, suffix string) error {
	v, err := jsonmap.Parse(raw)
	if err != nil {
		return err
	}
	layoutValue(b, indent, string(marshal(key))+": ", v, suffix)
	return nil
}

func layoutValue(b *bytes.Buffer, indent, prefix string, v jsonmap.Value, suffix string) {
	room := lineWidth - len(indent) - len(prefix) - len(suffix)
	if flat, ok := flatJSON(v, room); ok || (len(v.Elems) == 0 && len(v.Members) == 0) {
		b.WriteString(indent + prefix + flat + suffix + "\n")
		return
	}
	inner := indent + "  "
	if v.Kind == jsonmap.Array {
		b.WriteString(indent + prefix + "[\n")
		for i, e := range v.Elems {
			layoutValue(b, inner, "", e, separator(i, len(v.Elems)))
		}
		b.WriteString(indent + "]" + suffix + "\n")
		return
	}
	b.WriteString(indent + prefix + "{\n")
	for i, m := range v.Members {
		layoutValue(b, inner, string(jsontext.AppendString(nil, m.Key))+": ", m.Value, separator(i, len(v.Members)))
	}
	b.WriteString(indent + "}" + suffix + "\n")
}

// separator returns what follows item i of n on its line: a comma but
// after the last.
func separator(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// flatJSON returns v on one line, and whether that line has at most room
// bytes; it stops writing once it has more, so that laying out a value
// costs no more than a line per container. A scalar is always written.
func flatJSON(v jsonmap.Value, room int) (string, bool) {
	var b []byte
	var write func(v jsonmap.Value) bool
	write = func(v jsonmap.Value) bool {
		switch v.Kind {
		case jsonmap.Array:
			b = append(b, '[')
			for i, e := range v.Elems {
				if i > 0 {
					b = append(b, ", "...)
				}
				if !write(e) {
					return false
				}
			}
			b = append(b, ']')
		case jsonmap.Object:
			b = append(b, '{')
			for i, m := range v.Members {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = append(jsontext.AppendString(b, m.Key), ": "...)
				if len(b) > room || !write(m.Value) {
					return false
				}
			}
			b = append(b, '}')
		default:
			if v.Kind == jsonmap.String && len(v.Text) > room && len(b) > 0 {
				return false
			}
			b = v.AppendCompact(b)
		}
		return len(b) <= room
	}
	ok := write(v)
	return string(b), ok
}
