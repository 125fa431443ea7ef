// Package codec is the registry of GCX versions. Each version is a Codec:
// a way to write a JSON value as a payload that begins with its tag, and to
// read such a payload back. GCX1 is one entry; a draft of a later version
// (a tag of the form GCX2-draft.N [VER-1]) is another, registered by its
// own file in this package, and is never written unless asked for by tag.
//
// Registering a codec is all it takes for the module's version-generic
// tests, the conformance runner and the scorecard to cover it: the
// properties of this package's tests (TestProperty...) run on every
// registered codec, `gcx conformance --tag TAG` runs the vectors that
// apply to its tag, and `gcx bench --codec TAG` gives it a scorecard
// column.
//
// A codec may implement optional interfaces that give those tools more to
// check: Limited (reading and writing under limits [LIM-1], which `gcx
// encode` and `gcx decode` need to take the limit flags for it), WireCodec
// (the wire view, for the decode, reject and encode vectors), Goaler (the scorecard's goals for it) and Ablatable (the ideas
// it combines, each of which the scorecard can switch off). CONTRIBUTING.md
// ("How to trial a change") walks through writing a draft; NewTemplate is
// the draft to copy.
package codec

import (
	"bytes"
	"slices"

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

// A Limited codec reads and writes under limits [LIM-1]: a decoder's
// bounds on lines, fields, sections and rows, and an encoder that keeps to
// the same bounds, so that what it writes under limits L its decoder reads
// under L [LIM-4]. Its Encode and Decode are EncodeLimits and DecodeLimits
// under spec.DefaultLimits. `gcx encode --tag` and `gcx decode --accept`
// refuse the limit flags, as a usage error, for a codec that is not
// Limited, rather than ignore them; TestPropertyLimits checks the law on
// every Limited codec. A draft that keeps GCX1's lines gets it from
// ReadWire and WriteWireLimits, as the template does.
type Limited interface {
	Codec
	// EncodeLimits is Encode under limits: it writes the bytes Encode
	// would, or refuses with an *spec.Error of class spec.ErrLimit naming
	// [LIM-4] a value whose payload DecodeLimits under the same limits
	// would refuse.
	EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error)
	// DecodeLimits is Decode under limits: a payload beyond them is
	// refused with an *spec.Error of class spec.ErrLimit [LIM-3].
	DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error)
}

var registry []Codec

// Register adds c to the registry. Drafts call it from an init function of
// their own file. A test of this package checks that every registered tag
// is well formed, has a place in the order of versions (Ranked) and is
// registered once.
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

// IsDraft reports whether tag names a draft, GCX<major>-draft.<n>, which
// is written only when asked for by name.
func IsDraft(tag string) bool { r := rankOf(tag); return r.ranked && r.stage == 0 }

// A WireCodec is a codec whose payloads have a wire view [WIRE-1]: the
// sections, fields, meta pairs, rows and comments of chapters 4 to 9, as a
// draft that keeps GCX1's lines has (ReadWire and WriteWire implement
// both methods for such a draft). The conformance runner runs the decode,
// reject and encode vectors through it; a codec without it is checked on
// the JSON vectors only.
type WireCodec interface {
	Codec
	// DecodeWire reads a payload under the limits [LIM-1] and returns its
	// sections, or an *spec.Error and no payload [ERR-4].
	DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error)
	// EncodeWire writes the canonical payload of p [CAN-2], or refuses it
	// with an error of class spec.ErrModel [CAN-3].
	EncodeWire(p *spec.Payload) ([]byte, error)
}

// Goals are what a version sets out to reach on the token scorecard of
// bench/wire-format, which reports each goal of each selected codec as met
// or missed. Every codec is also held to the laws no goal can waive: auto
// mode never costs more than compact JSON, and every value comes back.
type Goals struct {
	// MedianSaving is the median saving, in percent, against compact JSON
	// on the tabular cases, to be reached in every tokenizer of
	// Tokenizers; 0 sets no such goal.
	MedianSaving float64 `json:"median_saving,omitempty"`
	// Tokenizers names the tokenizers MedianSaving is counted in,
	// "cl100k_base" and "o200k_base"; empty means cl100k_base.
	Tokenizers []string `json:"tokenizers,omitempty"`
	// TOONTab is the goal against TOON with the tab delimiter on every
	// tabular case, counted in cl100k_base: TieTOON, BeatTOON or "" for
	// none.
	TOONTab TOONGoal `json:"toon_tab,omitempty"`
}

// A TOONGoal is how a version means to compare with TOON on every tabular
// case.
type TOONGoal string

const (
	TieTOON  TOONGoal = "tie"  // no more tokens than TOON-tab
	BeatTOON TOONGoal = "beat" // fewer tokens than TOON-tab
)

// A Goaler is a codec that states its goals. A codec that does not is
// reported against no goal but the laws.
type Goaler interface {
	Codec
	Goals() Goals
}

// An Idea is one change a draft makes to GCX1 that its encoder can leave
// out on its own, such as a dictionary of repeated values.
type Idea struct {
	// Name is short and stable, a lower-case word ("dict"): the ablation
	// table of the scorecard and EncodeWithout know the idea by it.
	Name string `json:"name"`
	// Rules are the rule IDs of the draft's document that make up the
	// idea.
	Rules []string `json:"rules,omitempty"`
	// Summary says in one line what the idea does.
	Summary string `json:"summary"`
}

// An Ablatable codec combines several ideas and can write a payload with
// any of them switched off, so that the scorecard shows what each earns:
// every idea alone, every idea left out, none and all. Switching an idea
// off is the encoder's choice and never another format: Decode reads every
// payload EncodeWithout writes back to v, and the scorecard checks that it
// does.
type Ablatable interface {
	Codec
	// Ideas lists the ideas, in the order the scorecard shows them.
	Ideas() []Idea
	// EncodeWithout is Encode with the ideas named in off switched off;
	// with off empty it writes what Encode writes.
	EncodeWithout(tool string, v jsonmap.Value, off []string) ([]byte, error)
}

// Needs says what inputs make a codec's ideas apply, so that the
// registry-wide properties draw them: besides the values every codec gets
// (any JSON value, and look-alikes made of the codec's own output),
// they draw tables whose texts are made of Fragments, among which the
// codec's marks and LookAlikes come up as whole cells and as parts of
// cells. TestPropertyIdeasFire reports how often each idea of an Ablatable
// codec changed a payload and fails when one never did; the mark
// properties change one mark of a payload and expect a refusal or another
// value.
type Needs struct {
	// Marks are the cells that mean something other than their text when
	// they are the whole cell, such as "^" for the cell above.
	Marks []string `json:"marks,omitempty"`
	// MarkPrefixes begin a cell and, followed by more, make it mean
	// something other than its text, such as "…" and a tail.
	MarkPrefixes []string `json:"mark_prefixes,omitempty"`
	// LookAlikes are texts that look like marks or the codec's syntax and
	// must come back as the texts they are, such as "^^" or "{a}". The
	// properties also cut, join and splice them with the pieces of the
	// codec's own output they draw look-alikes from, so a mark the
	// encoder writes only rarely is best named here.
	LookAlikes []string `json:"look_alikes,omitempty"`
	// Fragments are pieces of the texts the ideas work on, such as path
	// parts, separators and timestamps: a generated text joins a few.
	Fragments []string `json:"fragments,omitempty"`
	// Wrappers are member names under which the properties also draw a
	// list that fits a declared tool's layout, wrapped in an object with
	// other members before and after it, as servers of MCP 2025-11-25
	// return lists ({"result":[...],"total":3}).
	Wrappers []string `json:"wrappers,omitempty"`
	// Nested asks the properties to also draw tables nested at any depth
	// inside wrappers, as real servers return rows
	// ({"data":{"statements":[{"sql":...,"rows":[...]}]}}): in members of
	// objects and elements of arrays, beside scalars, strings "@", member
	// names that are no GCX1 name, and tables that hold tables.
	Nested bool `json:"nested,omitempty"`
}

// An Exercised codec says what its ideas need [Needs].
type Exercised interface {
	Codec
	Needs() Needs
}

// GCX1 is the codec of chapters 2 to 14 of docs/wire-format.md: the JSON
// mapping of package jsonmap over the streaming codec.
type GCX1 struct{}

func init() { Register(GCX1{}) }

// Tag returns "GCX1".
func (GCX1) Tag() string { return spec.Version }

// Encode writes v as GCX1 [MAP-12], under spec.DefaultLimits [LIM-4].
func (GCX1) Encode(tool string, v jsonmap.Value) ([]byte, error) { return jsonmap.EncodeValue(tool, v) }

// Decode reads a GCX1 payload [MAP-7], under spec.DefaultLimits.
func (GCX1) Decode(payload []byte) (jsonmap.Value, error) { return jsonmap.DecodeValue(payload) }

// EncodeLimits writes v as GCX1 under limits [LIM-4].
func (GCX1) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	var b bytes.Buffer
	if err := jsonmap.EncodeTo(&b, tool, v, limits); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeLimits reads a GCX1 payload under limits [LIM-3].
func (GCX1) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	var b bytes.Buffer
	if err := jsonmap.DecodeTo(&b, bytes.NewReader(payload), limits); err != nil {
		return jsonmap.Value{}, err
	}
	return jsonmap.Parse(b.Bytes())
}

// DecodeWire reads a GCX1 payload's sections with the streaming decoder.
func (GCX1) DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error) {
	return ReadWire(spec.Version, payload, limits)
}

// EncodeWire writes p's canonical GCX1 bytes with the streaming encoder.
func (GCX1) EncodeWire(p *spec.Payload) ([]byte, error) { return WriteWire(spec.Version, p) }

// Goals returns the goals GCX1 was announced with: a median saving of
// 27.4% against compact JSON on tabular results (cl100k_base), and no
// more tokens than TOON-tab on any tabular case.
func (GCX1) Goals() Goals { return Goals{MedianSaving: 27.4, TOONTab: TieTOON} }
