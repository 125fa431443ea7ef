package conformance

import (
	"bytes"
	"fmt"
	"testing/iotest"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/reference"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
	"github.com/gcxwire/gcx/wire"
)

// Reference returns this repository's reference implementation, run
// in-process: the literal parser and canonical encoder of package
// reference, and the JSON mapping of package jsonmap on top of them.
func Reference() Implementation {
	return Implementation{
		Name: "reference",
		Decode: func(payload []byte, limits Limits) (*spec.Payload, error) {
			return reference.DecodeLimits(payload, limits.Apply(spec.DefaultLimits))
		},
		Encode: func(view []byte) ([]byte, error) {
			p, err := wire.Unmarshal(view)
			if err != nil {
				return nil, err
			}
			return reference.Encode(p)
		},
		EncodeJSON: encodeJSON(func(p *spec.Payload) ([]byte, error) { return reference.Encode(p) }),
		DecodeJSON: func(result []byte) ([]byte, error) {
			out, _, err := jsonmap.DecodeResponse(result)
			return out, err
		},
	}
}

// Streaming returns the streaming implementation, run in-process: the
// pull decoder fed one byte per read, so every line is reassembled from
// pieces, and streaming.Encode, one Encoder call per header, row and
// comment. The JSON mapping reads and writes its payloads through them.
func Streaming() Implementation {
	decode := func(payload []byte, limits Limits) (*spec.Payload, error) {
		r := iotest.OneByteReader(bytes.NewReader(payload))
		return streaming.Decode(r, limits.Apply(spec.DefaultLimits))
	}
	return Implementation{
		Name:   "streaming",
		Decode: decode,
		Encode: func(view []byte) ([]byte, error) {
			p, err := wire.Unmarshal(view)
			if err != nil {
				return nil, err
			}
			return streamEncode(p)
		},
		EncodeJSON: encodeJSON(streamEncode),
		DecodeJSON: func(result []byte) ([]byte, error) {
			if !bytes.HasPrefix(result, []byte(spec.TagPrefix)) {
				out, _, err := jsonmap.DecodeResponse(result) // JSON text [AUTO-3]
				return out, err
			}
			p, err := decode(result, nil)
			if err != nil {
				return nil, err
			}
			v, err := jsonmap.DecodePayload(p)
			if err != nil {
				return nil, err
			}
			return v.AppendCompact(nil), nil
		},
	}
}

// encodeJSON returns an EncodeJSON that builds the mapping's model and
// writes it with write. In auto mode it writes the compact JSON when
// auto.ChooseValue picks it, and the model otherwise [AUTO-1].
func encodeJSON(write func(*spec.Payload) ([]byte, error)) func(text []byte, tool, mode string) ([]byte, error) {
	return func(text []byte, tool, mode string) ([]byte, error) {
		v, err := jsonmap.Parse(text)
		if err != nil {
			return nil, err
		}
		switch mode {
		case "auto":
			c, err := auto.ChooseValue(tool, v)
			if err != nil || c.Format == jsonmap.FormatJSON {
				return c.Output, err
			}
		case "gcx":
		default:
			return nil, fmt.Errorf("%w: mode %q", ErrSkip, mode)
		}
		p, err := jsonmap.Model(tool, v)
		if err != nil {
			return nil, err
		}
		return write(p)
	}
}

// streamEncode writes a model with streaming.Encode and returns no bytes
// on error: a stream may have handed part of the payload over, which a
// caller that returns the whole payload discards [ERR-4].
func streamEncode(p *spec.Payload) ([]byte, error) {
	var out bytes.Buffer
	if err := streaming.Encode(&out, p); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
