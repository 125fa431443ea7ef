package conformance

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// vectorFiles writes one vector in the file format of the README, so the
// property below goes through Load as a committed vector would.
func vectorFiles(v *Vector) fstest.MapFS {
	fsys := fstest.MapFS{"valid": {Mode: fs.ModeDir | 0o755}, "invalid": {Mode: fs.ModeDir | 0o755}, "invalid-encoder": {Mode: fs.ModeDir | 0o755}}
	base := v.Name
	if v.Payload != nil {
		fsys[base+extPayload] = &fstest.MapFile{Data: v.Payload}
	}
	if v.Wire != nil {
		fsys[base+extWire] = &fstest.MapFile{Data: v.Wire}
	}
	if v.Want != nil {
		b, _ := json.Marshal(v.Want)
		fsys[base+extError] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// expectedFrom turns a decoder error into the expectation a vector would
// record for it.
func expectedFrom(err error) *ExpectedError {
	e := err.(*spec.Error)
	return &ExpectedError{Class: spec.ClassName(err), Rule: e.Rule, Line: e.Line, Column: e.Column, Tag: e.Tag}
}

// Any payload the generators reach, and any mutation of it, makes a vector
// that survives the file format and that the reference and streaming
// implementations pass, positions included: the runner raises no false
// failure whatever bytes a vector holds [WIRE-1] [WIRE-2] [ERR-2].
func TestPropertyGeneratedVectorsPass(t *testing.T) {
	impls := map[string]Implementation{
		"reference": Reference(),
		"streaming": {Decode: streamingDecoder(false), Encode: streamingEncoder},
	}
	gen.Check(t, 1000, func(t *rapid.T) {
		p := gen.Payload().Draw(t, "payload")
		payload, err := reference.Encode(p)
		if err != nil {
			t.Fatalf("generated model has no spelling: %v", err)
		}
		wire, err := spec.MarshalWire(p)
		if err != nil {
			t.Fatal(err)
		}
		vectors := []Vector{{Name: "valid/gen-1-payload", Kind: Valid, Payload: payload, Wire: wire}}
		mutated := gen.Mutate(t, payload)
		if _, err := reference.Decode(mutated); err != nil {
			vectors = append(vectors, Vector{Name: "invalid/gen-1-mutated", Kind: Invalid, Payload: mutated, Want: expectedFrom(err)})
		}
		for i := range vectors {
			loaded, err := Load(vectorFiles(&vectors[i]))
			if err != nil || len(loaded) != 1 {
				t.Fatalf("%s does not load: %v", vectors[i].Name, err)
			}
			for name, impl := range impls {
				r := Run(loaded, impl, Options{Positions: true, Parallel: 1})
				if r.Failed > 0 || r.Passed == 0 {
					var b strings.Builder
					r.WriteSummary(&b, false)
					t.Fatalf("%s against %s, payload %s:\n%s", vectors[i].Name, name, gen.Describe(loaded[0].Payload), b.String())
				}
			}
		}
	})
}
