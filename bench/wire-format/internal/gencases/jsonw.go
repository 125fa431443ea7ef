package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// obj is a JSON object whose members keep the order they were built in, as a
// server's response does; Go maps would sort them.
type obj []member

type member struct {
	key string
	val any
}

// o builds an obj from alternating keys and values.
func o(kv ...any) obj {
	if len(kv)%2 != 0 {
		panic("o: odd number of arguments")
	}
	m := make(obj, 0, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m = append(m, member{kv[i].(string), kv[i+1]})
	}
	return m
}

// num is a number written exactly as its literal text, for values such as
// 12.50 whose spelling matters.
type num string

// marshal writes the fixture file: the wrapper object, indented by two spaces,
// non-ASCII text raw, ending with a newline.
func (f fixture) marshal() ([]byte, error) {
	var b bytes.Buffer
	err := writeValue(&b, o("tool", f.Tool, "description", f.Description, "response", f.Response), "")
	if err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("generated fixture is not valid JSON")
	}
	return b.Bytes(), nil
}

func writeValue(b *bytes.Buffer, v any, indent string) error {
	inner := indent + "  "
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
	case num:
		b.WriteString(string(v))
	case string:
		writeString(b, v)
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i, m := range v {
			b.WriteString(inner)
			writeString(b, m.key)
			b.WriteString(": ")
			if err := writeValue(b, m.val, inner); err != nil {
				return err
			}
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(inner)
			if err := writeValue(b, e, inner); err != nil {
				return err
			}
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case []obj:
		return writeValue(b, anySlice(v), indent)
	case []string:
		return writeValue(b, anySlice(v), indent)
	default:
		return fmt.Errorf("gencases: cannot write %T", v)
	}
	return nil
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// writeString quotes s the way JSON.stringify does: only the quote, the
// backslash and control characters are escaped; everything else is raw UTF-8.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// lines joins source lines with LF, for snippets and bodies.
func lines(s ...string) string { return strings.Join(s, "\n") }
