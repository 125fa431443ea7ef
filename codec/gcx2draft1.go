package codec

import (
	"bytes"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// Draft1Tag is the tag of GCX2-draft.1, the worked draft of
// docs/drafts/GCX2-draft.1.md.
const Draft1Tag = "GCX2-draft.1"

// Draft1 is the codec of GCX2-draft.1. A payload of the draft is a GCX1
// payload in all but its tag: the same lines, headers, rows, escapes and
// JSON mapping [D1-VER-1]. What changes is what the cells of a table
// section say [D1-TAB-1]: a header pair named after a column declares the
// column once — a constant, a template of other columns and literal text,
// or a key it repeats for — and a cell may stand for an earlier one: ^ for
// the cell above, … and a tail for an earlier text of the column.
//
// The zero value is the draft as registered, every idea on. Off switches
// ideas off in the encoder, for the ablation table; the decoder reads
// every idea whatever Off says, since switching an idea off never makes
// another format.
type Draft1 struct {
	Off Draft1Idea

	// abbreviateCode makes the encoder abbreviate texts that hold TAB,
	// LF or CR too, as a measurement of what this encoder leaves out
	// (export_test.go).
	abbreviateCode bool
}

func init() { Register(Draft1{}) }

// Tag returns "GCX2-draft.1".
func (Draft1) Tag() string { return Draft1Tag }

// Goals returns the draft's goals: a median saving of 40% against compact
// JSON on the tabular cases in cl100k_base and o200k_base, and fewer
// tokens than TOON-tab on every tabular case.
func (Draft1) Goals() Goals {
	return Goals{MedianSaving: 40, Tokenizers: []string{tokens.CL100K, tokens.O200K}, TOONTab: BeatTOON}
}

// Needs returns what the draft's ideas need in a generated table: its two
// marks, the texts that would read as marks and the template syntax, and
// the path parts, separators and timestamps its templates, affixes and
// abbreviations work on.
func (Draft1) Needs() Needs {
	return Needs{
		Marks:        []string{dittoMark},
		MarkPrefixes: []string{abbrevMark},
		LookAlikes:   []string{"^^", "^…", "…/x", "*", "{", "}", "{path}", "^{a}", "…", "^", "^.go"},
		Fragments: []string{"internal/", "graph/", "store/", "a/b/", "cmd/", "mcp/", "server", "store", "Open", "Close",
			".go", ".ts", "::", ":", ".", " ", "-", "2026-10-31T", "23:58:41", ".000Z"},
	}
}

// Ideas lists the draft's ideas in the order of its document.
func (Draft1) Ideas() []Idea {
	out := make([]Idea, len(draft1Ideas))
	for i, d := range draft1Ideas {
		out[i] = d.Idea
	}
	return out
}

// EncodeWithout is Encode with the named ideas switched off as well.
func (d Draft1) EncodeWithout(tool string, v jsonmap.Value, off []string) ([]byte, error) {
	set, err := ParseDraft1Ideas(off...)
	if err != nil {
		return nil, err
	}
	d.Off |= set
	return d.Encode(tool, v)
}

// Encode writes v as a GCX2-draft.1 payload: the GCX1 model of v
// [MAP-12], each of whose table sections is rewritten with the ideas that
// save bytes, in GCX1's lines under the draft's tag, under
// spec.DefaultLimits.
func (d Draft1) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return d.EncodeLimits(tool, v, spec.DefaultLimits)
}

// EncodeLimits is Encode under limits: it refuses with GCX1's limit error
// [LIM-4] a payload that DecodeLimits under the same limits would refuse.
// The limits bound the draft's lines as written, declarations and marks
// included, which are the lines its decoder reads; a header line counts as
// GCX1 would spell it, its tag four bytes long, as ReadWire counts it.
func (d Draft1) EncodeLimits(tool string, v jsonmap.Value, limits spec.Limits) ([]byte, error) {
	p, err := jsonmap.Model(tool, v)
	if err != nil {
		return nil, err
	}
	for _, i := range tableSections(p) {
		compressTable(&p.Sections[i], policy{ideas: Draft1AllIdeas &^ d.Off, abbreviateCode: d.abbreviateCode})
	}
	return WriteWireLimits(Draft1Tag, p, limits)
}

// Decode reads a GCX2-draft.1 payload. A payload with another tag, GCX1
// included, is refused with an *spec.Error of class
// spec.ErrUnsupportedVersion naming the tag [D1-VER-1]. The other errors
// are GCX1's — of its lines (chapters 2 to 13) and of its JSON mapping
// (chapter 14) — at their places in the draft payload, and the draft's
// own, which name the rules of its document [D1-ERR-1]. It reads under
// spec.DefaultLimits.
func (d Draft1) Decode(payload []byte) (jsonmap.Value, error) {
	return d.DecodeLimits(payload, spec.DefaultLimits)
}

// DecodeLimits is Decode under limits [LIM-3], which bound the draft's
// lines as written.
func (Draft1) DecodeLimits(payload []byte, limits spec.Limits) (jsonmap.Value, error) {
	p, err := ReadWire(Draft1Tag, payload, limits)
	if err != nil {
		return jsonmap.Value{}, err
	}
	loc := newLocator(payload, p, Draft1Tag)
	plain, err := expand(p, loc)
	if err != nil {
		return jsonmap.Value{}, err
	}
	v, err := jsonmap.DecodePayload(plain)
	if err != nil {
		return jsonmap.Value{}, loc.remap(err, plain)
	}
	return v, nil
}

// DecodeWire reads the draft's lines, which are GCX1's.
func (Draft1) DecodeWire(payload []byte, limits spec.Limits) (*spec.Payload, error) {
	return ReadWire(Draft1Tag, payload, limits)
}

// EncodeWire writes the draft's lines, which are GCX1's.
func (Draft1) EncodeWire(p *spec.Payload) ([]byte, error) { return WriteWire(Draft1Tag, p) }

// lineStart returns the offset of the first byte of line number line.
func lineStart(payload []byte, line int) int {
	at := 0
	for l := 1; l < line; l++ {
		n := bytes.IndexByte(payload[at:], '\n')
		if n < 0 {
			return len(payload)
		}
		at += n + 1
	}
	return at
}
