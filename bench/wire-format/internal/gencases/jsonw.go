package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gcxwire/gcx/bench/scorecard"
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

func (n num) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// MarshalJSON writes the members in order.
func (m obj) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, e := range m {
		if i > 0 {
			b = append(b, ',')
		}
		key, err := json.Marshal(e.key)
		if err != nil {
			return nil, err
		}
		val, err := json.Marshal(e.val)
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", e.key, err)
		}
		b = append(append(append(b, key...), ':'), val...)
	}
	return append(b, '}'), nil
}

// marshal writes the fixture file as the scorecard spells pretty JSON
// (JSON.stringify(v, null, 2): non-ASCII text raw), ending with a newline.
func (f fixture) marshal() ([]byte, error) {
	compact, err := json.Marshal(o("tool", f.Tool, "description", f.Description, "response", f.Response))
	if err != nil {
		return nil, err
	}
	_, pretty, err := scorecard.Canonical(compact)
	if err != nil {
		return nil, err
	}
	return append(pretty, '\n'), nil
}

// lines joins source lines with LF, for snippets and bodies.
func lines(s ...string) string { return strings.Join(s, "\n") }
