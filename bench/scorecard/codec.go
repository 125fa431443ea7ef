package scorecard

import (
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/jsonmap/auto"
)

// DefaultCodec is the module's own JSON ⇄ GCX1 mapping: jsonmap for the
// forced encoding and the decoder, jsonmap/auto for auto mode.
func DefaultCodec() Codec {
	return Codec{
		Encode: jsonmap.Encode,
		Decode: jsonmap.Decode,
		Auto: func(tool string, value []byte) ([]byte, bool, error) {
			out, format, err := auto.Encode(tool, value)
			return out, format == jsonmap.FormatGCX, err
		},
	}
}
