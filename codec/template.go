package codec

import (
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// This file is the draft to copy (docs/drafts/TEMPLATE.md says how): a
// codec that is GCX1 under another tag, which therefore passes every
// property and every vector it inherits. A draft changes the model
// between jsonmap.Model and WriteWire, and undoes the change between
// ReadWire and jsonmap.DecodePayload; each marked step is where.

// NewTemplate returns GCX1 written under tag, a draft that changes
// nothing. It is not registered: the workbench's own tests register it
// under a draft tag to check that a draft gets the properties, the vectors
// and the scorecard for free.
func NewTemplate(tag string) Codec { return template{tag} }

type template struct{ tag string }

// Tag returns the draft's tag. It is the only method that reads the tag,
// so a copy renames the type and returns its constant here:
// func (gcx2draftN) Tag() string { return tagN }.
func (t template) Tag() string { return t.tag }

// Encode writes v as the result of tool, under spec.DefaultLimits.
func (t template) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return t.EncodeLimits(tool, v, spec.DefaultLimits)
}

// EncodeLimits writes v as the result of tool, refusing what DecodeLimits
// under the same limits would refuse [LIM-4] (codec.Limited).
func (t template) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	// A draft changes p here: the sections, their fields, meta pairs and
	// cells.
	return WriteWireLimits(t.Tag(), p, limits)
}

// Decode reads a payload of the draft under spec.DefaultLimits.
func (t template) Decode(payload []byte) (jsonmap.Value, error) {
	return t.DecodeLimits(payload, spec.DefaultLimits)
}

// DecodeLimits reads a payload of the draft under limits [LIM-3]; another
// tag is unsupported-version, naming it [VER-2].
func (t template) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	p, err := t.DecodeWire(payload, limits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	// A draft undoes its changes to p here, before the JSON mapping reads
	// it.
	v, err := jsonmap.DecodePayload(p)
	if err != nil {
		// The mapping places its errors in the GCX1 spelling of p [CAN-1];
		// ReadWire's positions are the payload's.
		_, r := asGCX1(t.Tag(), payload)
		return jsonmap.Value{}, r.restore(err)
	}
	return v, nil
}

// DecodeWire reads the draft's lines, which are GCX1's.
func (t template) DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error) {
	return ReadWire(t.Tag(), payload, limits)
}

// EncodeWire writes the draft's lines, which are GCX1's.
func (t template) EncodeWire(p *spec.Payload) ([]byte, error) { return WriteWire(t.Tag(), p) }
