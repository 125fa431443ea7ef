package conformance

import (
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
)

// Reference returns this repository's reference decoder and encoder as an
// Implementation, run in-process.
//
// The encoder reads the wire view with spec.UnmarshalWire, which reports a
// view that breaks [WIRE-2] (not JSON, unknown keys, lone surrogates, ...)
// as a plain error; Reference names the rule, so those vectors are checked
// like any other model error.
func Reference() Implementation {
	return Implementation{
		Decode: func(payload []byte, limits Limits) (*spec.Payload, error) {
			return reference.DecodeLimits(payload, limits.Apply(spec.DefaultLimits))
		},
		Encode: func(wire []byte) ([]byte, error) {
			p, err := ReadWire(wire)
			if err != nil {
				return nil, err
			}
			return reference.Encode(p)
		},
	}
}

// ReadWire reads a wire view as an encoder must [WIRE-2]: a view that is
// not well-formed is a model error naming [WIRE-2], since it describes no
// payload at all.
func ReadWire(wire []byte) (*spec.Payload, error) {
	p, err := spec.UnmarshalWire(wire)
	if err != nil {
		return nil, &spec.Error{Class: spec.ErrModel, Rule: "WIRE-2", Msg: err.Error()}
	}
	return p, nil
}
