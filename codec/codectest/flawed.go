// Package codectest holds draft codecs with one deliberate flaw each, so
// that the workbench's tests can show that they catch a broken draft: the
// properties of package codec, the conformance runner and the scorecard
// must each fail on them, and pass on the template they are made from.
// Nothing here is registered; a test registers what it checks. It is test
// equipment: no command links it.
package codectest

import (
	"bytes"
	"slices"
	"sync/atomic"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// Lossy returns a draft whose decoder drops the last space of every
// string that ends in one: it loses data, so its values do not come back.
func Lossy(tag string) codec.Codec { return lossy{codec.NewTemplate(tag)} }

type lossy struct{ codec.Codec }

func (l lossy) Decode(payload []byte) (jsonmap.Value, error) {
	v, err := l.Codec.Decode(payload)
	if err != nil {
		return v, err
	}
	// In compact JSON a space stands only inside a string, and a space
	// before a quote that is not escaped ends one.
	return jsonmap.Parse(bytes.ReplaceAll(v.AppendCompact(nil), []byte(` "`), []byte(`"`)))
}

// Unstable returns a draft whose encoder adds a comment line to every
// other payload it writes: each payload decodes to its value, but encoding
// the decoded value does not give the same bytes back.
func Unstable(tag string) codec.Codec { return &unstable{Codec: codec.NewTemplate(tag)} }

type unstable struct {
	codec.Codec
	calls atomic.Int64
}

func (u *unstable) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	p, err := u.Codec.Encode(tool, v)
	if err == nil && u.calls.Add(1)%2 == 0 {
		p = append(p, "# again\n"...)
	}
	return p, err
}

// Gullible returns a draft that reads a payload under any well-formed tag
// as its own, so a client takes another version's payload for its own.
func Gullible(tag string) codec.Codec { return gullible{codec.NewTemplate(tag)} }

type gullible struct{ codec.Codec }

func (g gullible) Decode(payload []byte) (jsonmap.Value, error) {
	if other, kind, _ := spec.ReadTag(payload); kind == spec.TagGCX1 || kind == spec.TagOther {
		payload, _ = codec.Retag(payload, other, g.Tag())
	}
	return g.Codec.Decode(payload)
}

// Impostor returns a draft that writes its payloads under GCX1's tag and
// reads both its own and GCX1's: a GCX1 client reads its payloads as GCX1.
func Impostor(tag string) codec.Codec { return impostor{codec.NewTemplate(tag)} }

type impostor struct{ codec.Codec }

func (impostor) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return jsonmap.EncodeValue(tool, v)
}

func (i impostor) Decode(payload []byte) (jsonmap.Value, error) {
	if bytes.HasPrefix(payload, []byte(spec.Version+" ")) {
		return jsonmap.DecodeValue(payload)
	}
	return i.Codec.Decode(payload)
}

// Commented returns a draft that combines two ideas, both lossless and
// both useless: "lead", a comment line after the first header, and
// "tail", a comment line at the end of the payload. It is Ablatable, so
// that the scorecard's ablation can be checked on a draft whose every
// figure is known: each idea costs the tokens of its comment. With broken
// set, switching "tail" off writes GCX1's tag, which the draft's own
// decoder refuses: the scorecard must report those values as not back.
func Commented(tag string, broken bool) codec.Codec {
	return commented{Codec: codec.NewTemplate(tag), broken: broken}
}

type commented struct {
	codec.Codec
	broken bool
}

func (commented) Ideas() []codec.Idea {
	return []codec.Idea{
		{Name: "lead", Summary: "a comment line after the first header"},
		{Name: "tail", Summary: "a comment line at the end"},
	}
}

func (c commented) Goals() codec.Goals {
	return codec.Goals{MedianSaving: 99, Tokenizers: []string{"cl100k_base", "o200k_base"}, TOONTab: codec.BeatTOON}
}

func (c commented) Encode(tool string, v jsonmap.Value) ([]byte, error) {
	return c.EncodeWithout(tool, v, nil)
}

func (c commented) EncodeWithout(tool string, v jsonmap.Value, off []string) ([]byte, error) {
	p, err := c.Codec.Encode(tool, v)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(off, "lead") {
		end := bytes.IndexByte(p, '\n') + 1
		p = slices.Concat(p[:end], []byte("# lead\n"), p[end:])
	}
	if !slices.Contains(off, "tail") {
		p = append(p, "# tail\n"...)
	} else if c.broken {
		p, _ = codec.Retag(p, c.Tag(), spec.Version)
	}
	return p, nil
}

// Careless returns a draft whose encoder ignores the limits it is given:
// under limits it writes payloads its own decoder under them refuses
// [LIM-4]. Without limits it is the template.
func Careless(tag string) codec.Codec { return careless{codec.NewTemplate(tag).(codec.Limited)} }

type careless struct{ codec.Limited }

func (c careless) EncodeLimits(tool string, v jsonmap.Value, _ spec.Limits) ([]byte, error) {
	return c.Limited.EncodeLimits(tool, v, spec.Unlimited)
}
