package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Format returns the canonical text of a vectors file: two-space indents,
// one line per key of a vector, and the expected outcome — a wire view can
// hold a million rows — on one line. Every committed file is in this form
// (a test checks it), so that a diff of the vectors shows only what
// changed; gcx-vectors -fmt rewrites files into it.
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
		exp, err := compactExpected(&v.Expected)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", v.ID, err)
		}
		b.WriteString(in + `"expected": `)
		b.Write(exp)
		b.WriteString("\n    }")
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
