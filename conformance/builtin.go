package conformance

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"

	"github.com/gcxwire/gcx/codec"
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
			out, err := reference.Encode(p)
			return out, placeInView(view, err)
		},
		EncodeJSON: encodeJSON(func(p *spec.Payload) ([]byte, error) { return reference.Encode(p) }, nil),
		DecodeJSON: decodeResponse,
		MCP:        runBinding,
	}
}

// Streaming returns the streaming implementation, run in-process: the
// pull decoder fed one byte per read, so every line is reassembled from
// pieces, and streaming.Encode, one Encoder call per header, row and
// comment. The JSON mapping reads and writes its payloads through them.
func Streaming() Implementation {
	return streamingImplementation("streaming", func(payload []byte, limits spec.Limits) (*spec.Payload, error) {
		return streaming.Decode(&oneByteReader{b: payload}, limits)
	})
}

// StreamingReuse returns the streaming implementation with ReuseRecord
// set: the decoder reads the input in large pieces, takes the fast paths
// that need a whole line in its buffer, and hands out rows and comments
// that share its storage until the next call; the runner copies them as
// they come, as a caller that keeps them must.
func StreamingReuse() Implementation {
	return StreamingDecoder("streaming (ReuseRecord)", func(r io.Reader) *streaming.Decoder {
		d := streaming.NewDecoder(r)
		d.ReuseRecord = true
		return d
	})
}

// StreamingDecoder returns the streaming implementation decoding with the
// decoders newDecoder makes, each given the whole input as one reader; the
// runner sets their Limits, and copies rows and comments when they set
// ReuseRecord. It lets the streaming package's own tests run the vectors
// on decoders configured in ways only it can reach.
func StreamingDecoder(name string, newDecoder func(io.Reader) *streaming.Decoder) Implementation {
	return streamingImplementation(name, func(payload []byte, limits spec.Limits) (*spec.Payload, error) {
		d := newDecoder(bytes.NewReader(payload))
		d.Limits = limits
		return d.ReadAll()
	})
}

// BuiltIn returns this repository's implementations in the order gcx
// conformance checks them.
func BuiltIn() []Implementation {
	return []Implementation{Reference(), Streaming(), StreamingReuse()}
}

func streamingImplementation(name string, decode func([]byte, spec.Limits) (*spec.Payload, error)) Implementation {
	decodeLimits := func(payload []byte, limits Limits) (*spec.Payload, error) {
		return decode(payload, limits.Apply(spec.DefaultLimits))
	}
	return Implementation{
		Name:   name,
		Decode: decodeLimits,
		Encode: func(view []byte) ([]byte, error) {
			// The whole view read first, as the reference reads it, so
			// that a view broken both ways names [WIRE-2] in both; the
			// refusals of the model are placed as gcx encode --wire,
			// which reads the view as a stream, places them [WIRE-3].
			p, err := wire.Unmarshal(view)
			if err != nil {
				return nil, err
			}
			out, err := streamEncode(p)
			return out, placeInView(view, err)
		},
		EncodeJSON: encodeJSON(streamEncode, streamEncodeLimits),
		MCP:        runBinding,
		DecodeJSON: func(result []byte, limits Limits) ([]byte, error) {
			if !bytes.HasPrefix(result, []byte(spec.TagPrefix)) {
				return decodeResponse(result, limits) // JSON text [AUTO-3]
			}
			p, err := decodeLimits(result, limits)
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

// placeInView gives err, the refusal of an encoder that was handed the
// model of view rather than the view, the position in the view of the
// JSON value at fault [WIRE-3]: the position wire.Encode, which reads the
// view as a stream, gives the refusal of the same class and rule. The
// model encoders of the reference, of streaming and of a draft's codec see
// no view, and placing their refusals this way holds their class and rule
// to their own judgement and only borrows the place. A refusal wire.Encode does not
// make alike, or one already placed, passes through unplaced.
func placeInView(view []byte, err error) error {
	var e *spec.Error
	if !errors.As(err, &e) || e.Line > 0 {
		return err
	}
	var placed *spec.Error
	if !errors.As(wire.Encode(io.Discard, bytes.NewReader(view), spec.DefaultLimits), &placed) ||
		placed.Class != e.Class || placed.Rule != e.Rule || placed.Line == 0 {
		return err
	}
	copied := *e
	copied.Line, copied.Column, copied.Offset = placed.Line, placed.Column, placed.Offset
	return &copied
}

// oneByteReader hands out its bytes one per Read, so that a decoder must
// reassemble every line from pieces.
type oneByteReader struct{ b []byte }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], r.b = r.b[0], r.b[1:]
	return 1, nil
}

// decodeResponse is the mapping's decoder, jsonmap.DecodeResponse, under
// the vector's limits when it sets any.
func decodeResponse(result []byte, limits Limits) ([]byte, error) {
	if limits == nil {
		out, _, err := jsonmap.DecodeResponse(result)
		return out, err
	}
	var out bytes.Buffer
	if _, err := jsonmap.DecodeResponseTo(&out, bytes.NewReader(result), limits.Apply(spec.DefaultLimits)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// encodeJSON returns an EncodeJSON that builds the mapping's model and
// writes it with write. In auto mode it writes the compact JSON when
// auto.ChooseValue picks it, and the model otherwise [AUTO-1]. Under
// limits (mode gcx) it writes the model with writeUnder, which refuses what
// a decoder under them would refuse [LIM-4]; a nil writeUnder (the
// reference encoder takes no limits) leaves the value to the mapping's own
// encoder, jsonmap.EncodeTo.
func encodeJSON(write func(*spec.Payload) ([]byte, error), writeUnder func(*spec.Payload, spec.Limits) ([]byte, error)) func(text []byte, tool, mode string, limits Limits) ([]byte, error) {
	return func(text []byte, tool, mode string, limits Limits) ([]byte, error) {
		tool = cmp.Or(tool, jsonmap.DefaultTool) // a vector without a tool [MAP-12]
		v, err := jsonmap.Parse(text)
		if err != nil {
			return nil, err
		}
		if limits != nil {
			if mode != "gcx" {
				return nil, fmt.Errorf("%w: limits in mode %q", ErrSkip, mode)
			}
			if writeUnder != nil {
				p, err := jsonmap.Model(tool, v)
				if err != nil {
					return nil, err
				}
				return writeUnder(p, limits.Apply(spec.DefaultLimits))
			}
			var out bytes.Buffer
			if err := jsonmap.EncodeTo(&out, tool, v, limits.Apply(spec.DefaultLimits)); err != nil {
				return nil, err
			}
			return out.Bytes(), nil
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
	return streamEncodeLimits(p, spec.DefaultLimits)
}

// streamEncodeLimits is streamEncode under limits [LIM-4].
func streamEncodeLimits(p *spec.Payload, limits spec.Limits) ([]byte, error) {
	var out bytes.Buffer
	if err := streaming.EncodeLimits(&out, p, limits); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// CodecImplementation returns the implementation of a version's codec,
// run in-process: the JSON ops through its Encode and Decode, auto mode
// through auto.ChoosePayload [AUTO-1], and the wire ops when it is a
// codec.WireCodec (otherwise the vectors that need them are skipped).
func CodecImplementation(c codec.Codec) Implementation {
	impl := Implementation{
		Name: "codec " + c.Tag(),
		EncodeJSON: func(text []byte, tool, mode string, limits Limits) ([]byte, error) {
			tool = cmp.Or(tool, jsonmap.DefaultTool) // a vector without a tool [MAP-12]
			v, err := jsonmap.Parse(text)
			if err != nil {
				return nil, err
			}
			if mode != "gcx" && mode != "auto" {
				return nil, fmt.Errorf("%w: mode %q", ErrSkip, mode)
			}
			var payload []byte
			if limits != nil {
				lc, ok := c.(codec.Limited)
				if !ok {
					return nil, fmt.Errorf("%w: %s takes no limits", ErrSkip, c.Tag())
				}
				payload, err = lc.EncodeLimits(tool, v, limits.Apply(spec.DefaultLimits))
			} else {
				payload, err = c.Encode(tool, v)
			}
			if err != nil || mode == "gcx" {
				return payload, err
			}
			choice, err := auto.ChoosePayload(payload, v)
			return choice.Output, err
		},
		DecodeJSON: func(result []byte, limits Limits) ([]byte, error) {
			if !bytes.HasPrefix(result, []byte(spec.TagPrefix)) {
				return decodeResponse(result, limits) // JSON text [AUTO-3]
			}
			var v jsonmap.Value
			var err error
			if limits != nil {
				lc, ok := c.(codec.Limited)
				if !ok {
					return nil, fmt.Errorf("%w: %s takes no limits", ErrSkip, c.Tag())
				}
				v, err = lc.DecodeLimits(result, limits.Apply(spec.DefaultLimits))
			} else {
				v, err = c.Decode(result)
			}
			if err != nil {
				return nil, err
			}
			return v.AppendCompact(nil), nil
		},
	}
	if w, ok := c.(codec.WireCodec); ok {
		impl.Decode = func(payload []byte, limits Limits) (*spec.Payload, error) {
			return w.DecodeWire(payload, limits.Apply(spec.DefaultLimits))
		}
		impl.Encode = func(view []byte) ([]byte, error) {
			p, err := wire.Unmarshal(view)
			if err != nil {
				return nil, err
			}
			out, err := w.EncodeWire(p)
			return out, placeInView(view, err)
		}
	}
	return impl
}

// BuiltInFor returns the implementations gcx conformance checks for a
// version: BuiltIn() for GCX1, the registered codec for another tag.
func BuiltInFor(tag string) ([]Implementation, error) {
	if tag == spec.Version {
		return BuiltIn(), nil
	}
	c, ok := codec.Lookup(tag)
	if !ok {
		return nil, fmt.Errorf("no codec of version %s is registered here (package codec)", tag)
	}
	return []Implementation{CodecImplementation(c)}, nil
}
