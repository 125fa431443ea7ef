// Package codec is the registry of GCX versions. Each version is a Codec:
// a way to write a JSON value as a payload that begins with its tag, and to
// read such a payload back. GCX1 is one entry; a draft of a later version
// (a tag of the form GCX2-draft.N [VER-1]) is another, registered by its
// own file in this package, and is never written unless asked for by tag.
//
// Registering a codec is all it takes for the module's version-generic
// tests, the conformance runner and the scorecard to cover it.
package codec

import (
	"slices"
	"strings"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// A Codec is one version of the format.
type Codec interface {
	// Tag is the version tag that begins every payload the codec writes,
	// such as "GCX1" or "GCX2-draft.1" [VER-1].
	Tag() string
	// Encode returns the payload of v as the result of tool.
	Encode(tool string, v jsonmap.Value) ([]byte, error)
	// Decode returns the JSON value a payload holds. A payload that
	// begins with another well-formed tag is refused with an *spec.Error
	// of class spec.ErrUnsupportedVersion naming that tag [VER-2], so a
	// caller knows to ask for another format.
	Decode(payload []byte) (jsonmap.Value, error)
}

var registry []Codec

// Register adds c to the registry. Drafts call it from an init function of
// their own file. Tags are unique, and a test of this package checks that
// every registered tag is well formed and registered once.
func Register(c Codec) { registry = append(registry, c) }

// All returns the registered codecs in the order they were registered,
// GCX1 first.
func All() []Codec { return slices.Clone(registry) }

// Lookup returns the codec registered for tag.
func Lookup(tag string) (Codec, bool) {
	for _, c := range registry {
		if c.Tag() == tag {
			return c, true
		}
	}
	return nil, false
}

// IsDraft reports whether tag names a draft, which is written only when
// asked for by name.
func IsDraft(tag string) bool { return strings.Contains(tag, "-draft.") }

// GCX1 is the codec of chapters 2 to 14 of docs/wire-format.md: the JSON
// mapping of package jsonmap over the streaming codec.
type GCX1 struct{}

func init() { Register(GCX1{}) }

// Tag returns "GCX1".
func (GCX1) Tag() string { return spec.Version }

// Encode writes v as GCX1 [MAP-12].
func (GCX1) Encode(tool string, v jsonmap.Value) ([]byte, error) { return jsonmap.EncodeValue(tool, v) }

// Decode reads a GCX1 payload [MAP-7].
func (GCX1) Decode(payload []byte) (jsonmap.Value, error) { return jsonmap.DecodeValue(payload) }
