package scorecard

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/gcxwire/gcx/codec"
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// DefaultCodec is the module's own JSON ⇄ GCX1 mapping: jsonmap for the
// forced encoding and the decoder, jsonmap/auto for auto mode, and the
// streaming decoder to check every payload.
func DefaultCodec() Codec {
	return Codec{
		Tag:    spec.Version,
		Encode: jsonmap.Encode,
		Decode: jsonmap.Decode,
		Auto: func(tool string, value []byte) ([]byte, bool, error) {
			out, format, err := auto.Encode(tool, value)
			return out, format == jsonmap.FormatGCX, err
		},
		Sections: func(payload []byte) ([]int, error) {
			p, err := streaming.Decode(bytes.NewReader(payload), spec.DefaultLimits)
			if err != nil {
				return nil, fmt.Errorf("the decoder rejects the payload: %w", err)
			}
			return rowCounts(p), nil
		},
		Goals: goalsOf(codec.GCX1{}),
	}
}

// CodecOf returns the scorecard's view of a registered codec: its own
// Encode and Decode (every payload is checked by decoding it with the
// codec itself, which must give the value back), auto mode through
// auto.ChoosePayload, the row counts of its wire view if it has one, its
// goals and its ideas. GCX1 is DefaultCodec.
func CodecOf(c codec.Codec) Codec {
	if c.Tag() == spec.Version {
		return DefaultCodec()
	}
	encode := func(tool string, value []byte) ([]byte, jsonmap.Value, error) {
		v, err := jsonmap.Parse(value)
		if err != nil {
			return nil, v, err
		}
		payload, err := c.Encode(tool, v)
		return payload, v, err
	}
	sc := Codec{
		Tag: c.Tag(),
		Encode: func(tool string, value []byte) ([]byte, error) {
			payload, _, err := encode(tool, value)
			return payload, err
		},
		Decode: func(payload []byte) ([]byte, error) {
			v, err := c.Decode(payload)
			if err != nil {
				return nil, err
			}
			return v.AppendCompact(nil), nil
		},
		Auto: func(tool string, value []byte) ([]byte, bool, error) {
			payload, v, err := encode(tool, value)
			if err != nil {
				return nil, false, err
			}
			choice, err := auto.ChoosePayload(payload, v)
			return choice.Output, choice.Format == jsonmap.FormatGCX, err
		},
		Goals: goalsOf(c),
	}
	if w, ok := c.(codec.WireCodec); ok {
		sc.Sections = func(payload []byte) ([]int, error) {
			p, err := w.DecodeWire(payload, spec.DefaultLimits)
			if err != nil {
				return nil, fmt.Errorf("its own wire decoder rejects the payload: %w", err)
			}
			return rowCounts(p), nil
		}
	}
	if a, ok := c.(codec.Ablatable); ok {
		sc.Ideas = a.Ideas()
		sc.EncodeWithout = func(tool string, value []byte, off []string) ([]byte, error) {
			v, err := jsonmap.Parse(value)
			if err != nil {
				return nil, err
			}
			return a.EncodeWithout(tool, v, off)
		}
	}
	return sc
}

func goalsOf(c codec.Codec) *codec.Goals {
	if g, ok := c.(codec.Goaler); ok {
		goals := g.Goals()
		return &goals
	}
	return nil
}

func rowCounts(p *spec.Payload) []int {
	rows := make([]int, len(p.Sections))
	for i, s := range p.Sections {
		rows[i] = len(s.Rows)
	}
	return rows
}

// SelectCodecs returns the scorecard codecs of a comma-separated list of
// registered tags, in its order.
func SelectCodecs(list string) ([]Codec, error) {
	var out []Codec
	seen := map[string]bool{}
	for _, tag := range strings.Split(list, ",") {
		c, ok := codec.Lookup(tag)
		if !ok {
			var tags []string
			for _, c := range codec.All() {
				tags = append(tags, c.Tag())
			}
			return nil, fmt.Errorf("no codec %q is registered; the codecs are %s", tag, strings.Join(tags, ", "))
		}
		if seen[tag] {
			return nil, fmt.Errorf("codec %s is selected twice", tag)
		}
		seen[tag] = true
		out = append(out, CodecOf(c))
	}
	return out, nil
}

// RegisterProgram registers the codec of a draft written as a program,
// given as TAG=COMMAND (codec.Program), and returns its tag. A tag that
// is registered already is refused: the program would shadow it.
func RegisterProgram(spec string) (string, error) {
	tag, command, ok := strings.Cut(spec, "=")
	argv := strings.Fields(command)
	if !ok || !strings.HasPrefix(tag, "GCX") || len(argv) == 0 {
		return "", fmt.Errorf("%q is not TAG=COMMAND", spec)
	}
	if _, taken := codec.Lookup(tag); taken {
		return "", fmt.Errorf("a codec of %s is registered already", tag)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return "", fmt.Errorf("cannot run %s: %v", argv[0], err)
	}
	codec.Register(codec.Program(tag, time.Minute, argv...))
	return tag, nil
}
