package jsonmap_test

import (
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
)

// Tests written for mutants that survived the package's other tests.

// TestDecodeValueOfOneByte: a payload whose value is one byte of JSON (a
// one-digit number) decodes to that value through each of the functions
// that return a Value; the one-byte text is not taken for an empty one.
func TestDecodeValueOfOneByte(t *testing.T) {
	for _, text := range []string{"0", "7"} {
		want := jsonmap.Value{Kind: jsonmap.Number, Text: text}
		payload, err := jsonmap.Encode("t", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		model, err := jsonmap.Model("t", want)
		if err != nil {
			t.Fatal(err)
		}
		for name, decode := range map[string]func() (jsonmap.Value, error){
			"DecodeValue":       func() (jsonmap.Value, error) { return jsonmap.DecodeValue(payload) },
			"DecodeValueString": func() (jsonmap.Value, error) { return jsonmap.DecodeValueString(string(payload)) },
			"DecodePayload":     func() (jsonmap.Value, error) { return jsonmap.DecodePayload(model) },
		} {
			got, err := decode()
			if err != nil || !jsonmap.Equal(got, want) {
				t.Errorf("%s of %q = %#v, %v; want %s", name, payload, got, err, text)
			}
		}
	}
}
