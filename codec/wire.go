package codec

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/streaming"
)

// A draft that keeps GCX1's lines — headers, rows, escapes, comments — and
// changes only what the sections mean can read and write them with the
// functions of this file, which run GCX1's streaming codec under another
// tag. A draft that changes the lines themselves needs a reader of its
// own.

// Retag returns payload with the tag from replaced by to at the start of
// every line that begins with from followed by SP, LF or the end of the
// payload, and the numbers, counted from 1, of the lines it rewrote. In a
// payload of a version that keeps GCX1's lines those are exactly the
// header lines tagged from: a row that would begin with "GCX" is guarded
// [ROW-4], a comment begins with "#", and a line that begins with the tag
// followed by another byte is malformed [VER-3] and left as it is. The
// payload is read once, from start to end.
func Retag(payload []byte, from, to string) ([]byte, []int) {
	var out []byte
	var lines []int
	line, start := 1, 0
	for start <= len(payload) {
		end := bytes.IndexByte(payload[start:], '\n')
		if end < 0 {
			end = len(payload)
		} else {
			end += start
		}
		if isTagged(payload[start:end], from) {
			if out == nil {
				out = make([]byte, 0, len(payload)+max(0, 8*(len(to)-len(from))))
				out = append(out, payload[:start]...)
			}
			out = append(out, to...)
			out = append(out, payload[start+len(from):min(end+1, len(payload))]...)
			lines = append(lines, line)
		} else if out != nil {
			out = append(out, payload[start:min(end+1, len(payload))]...)
		}
		line, start = line+1, end+1
	}
	if out == nil {
		return payload, nil
	}
	return out, lines
}

// isTagged reports whether line (without its LF) begins with tag followed
// by SP or its end [VER-1].
func isTagged(line []byte, tag string) bool {
	return bytes.HasPrefix(line, []byte(tag)) && (len(line) == len(tag) || line[len(tag)] == ' ')
}

// WriteWire writes p in GCX1's lines under tag: the canonical GCX1 bytes
// of p [CAN-2] with tag in place of GCX1 in every header. Its errors are
// the GCX1 encoder's [CAN-3]. It is WriteWireLimits under
// spec.DefaultLimits.
func WriteWire(tag string, p *spec.Payload) ([]byte, error) {
	return WriteWireLimits(tag, p, spec.DefaultLimits)
}

// WriteWireLimits is WriteWire under limits: it refuses, with GCX1's limit
// error [LIM-4], a payload that ReadWire under the same limits would
// refuse. Like ReadWire, it counts a header line as GCX1 spells it.
func WriteWireLimits(tag string, p *spec.Payload, limits spec.Limits) ([]byte, error) {
	var b bytes.Buffer
	if err := streaming.EncodeLimits(&b, p, limits); err != nil {
		return nil, err
	}
	if tag == spec.Version {
		return b.Bytes(), nil
	}
	out, _ := Retag(b.Bytes(), spec.Version, tag)
	return out, nil
}

// ReadWire reads a payload written in GCX1's lines under tag, under the
// limits [LIM-1], with GCX1's streaming decoder and every rule of GCX1:
// another tag on the first header is unsupported-version [VER-2], on a
// later one [VER-4], GCX1 included. Positions in its errors are those of
// payload. The line limit counts a header line as GCX1 would spell it.
func ReadWire(tag string, payload []byte, limits spec.Limits) (*spec.Payload, error) {
	if tag == spec.Version {
		return streaming.Decode(bytes.NewReader(payload), limits)
	}
	gcx1, r := asGCX1(tag, payload)
	p, err := streaming.Decode(bytes.NewReader(gcx1), limits)
	if err != nil {
		return nil, r.restore(err)
	}
	return p, nil
}

// stand is what a GCX1 header of a payload under another tag is rewritten
// to while GCX1's decoder reads it: a tag of GCX1's length that is not
// GCX1, so the decoder refuses it as another version, at the same column.
const stand = "GCX_"

// retagged says how the bytes GCX1's decoder read differ from the payload:
// which lines had the payload's own tag, now GCX1, and which had GCX1, now
// stand (or "GCX-" when the payload's own tag is stand).
type retagged struct {
	tag, stand string
	own, gcx1  []int
}

// asGCX1 rewrites a payload under tag as GCX1's decoder must read it.
func asGCX1(tag string, payload []byte) ([]byte, retagged) {
	r := retagged{tag: tag, stand: stand}
	if tag == stand {
		r.stand = "GCX-"
	}
	out, gcx1 := Retag(payload, spec.Version, r.stand)
	out, own := Retag(out, tag, spec.Version)
	r.own, r.gcx1 = own, gcx1
	return out, r
}

// restore gives an error of GCX1's decoder the positions and the tag it has
// in the payload: on a line that had the payload's own tag, a column after
// the tag moves by the difference in length, and every rewritten line
// before the error moves its offset as much; an unsupported version found
// on a line that had GCX1 names GCX1.
func (r retagged) restore(err error) error {
	var e *spec.Error
	if !errors.As(err, &e) || e.Line == 0 {
		return err
	}
	fixed := *e
	delta := len(r.tag) - len(spec.Version)
	before, _ := slices.BinarySearch(r.own, e.Line)
	fixed.Offset += int64(delta * before)
	if _, own := slices.BinarySearch(r.own, e.Line); own && e.Column > len(spec.Version) {
		fixed.Column += delta
		fixed.Offset += int64(delta)
	}
	if errors.Is(err, spec.ErrUnsupportedVersion) {
		if _, was := slices.BinarySearch(r.gcx1, e.Line); was && e.Tag == r.stand {
			fixed.Tag = spec.Version
		}
		fixed.Msg = fmt.Sprintf("version tag %s is not %s; re-issue the call without the GCX format", fixed.Tag, r.tag)
	}
	return &fixed
}
