// Package auto chooses, for each tool result, the cheaper of its GCX1
// payload and its compact JSON text, counted in cl100k_base tokens
// [AUTO-1]. It is the only part of the mapping that carries the
// tokenizer; decoders never need it, because a result says by its first
// bytes which format it is [AUTO-3].
package auto

import (
	"bytes"
	"errors"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// Encoding is the tokenizer whose counts decide [AUTO-1].
const Encoding = tokens.CL100K

// Choice is what Choose decided and why.
type Choice struct {
	Output     []byte         // the GCX1 payload or the compact JSON text
	Format     jsonmap.Format // which of the two Output is
	Payload    []byte         // the GCX1 payload, whichever was chosen
	GCXTokens  int            // cl100k_base tokens of the GCX1 payload
	JSONTokens int            // cl100k_base tokens of the compact JSON text
	// Partial is set when counting stopped as soon as the choice was
	// settled, as Choose and ChooseValue do. The count of the chosen
	// format is then exact, and the other is a partial count that already
	// decides: above GCXTokens for JSON, at least JSONTokens for GCX1.
	Partial bool
	// Refused is the GCX1 encoder's limit error when the limits refuse
	// the payload [LIM-4]; the result is then the compact JSON text, and
	// Payload and GCXTokens are empty.
	Refused error
}

// Encode returns the GCX1 payload of the JSON text value when it costs
// fewer cl100k_base tokens than the value's compact JSON text, and that
// compact JSON text otherwise, with the format it chose [AUTO-1]
// [AUTO-2]. Its errors are jsonmap.Encode's.
func Encode(tool string, value []byte) ([]byte, jsonmap.Format, error) {
	c, err := Choose(tool, value)
	if err != nil {
		return nil, "", err
	}
	return c.Output, c.Format, nil
}

// Choose is Encode with the token counts that decided.
func Choose(tool string, value []byte) (Choice, error) {
	return chooseText(tool, value, false)
}

// chooseText is Choose, counting both texts in full when full is set. When
// value is its own compact form, as a server's results usually are, it
// is the JSON text counted, and written only if chosen.
func chooseText(tool string, value []byte, full bool) (Choice, error) {
	v, compact, err := jsonmap.ParseShared(value)
	if err != nil {
		return Choice{}, err
	}
	var text []byte
	if compact {
		text = value
	}
	return choose(tool, v, text, spec.DefaultLimits, full)
}

// ChooseValue is Choose for a parsed value. It counts the shorter text in
// full and the other only until it is known to cost more (see
// Choice.Partial).
func ChooseValue(tool string, v jsonmap.Value) (Choice, error) {
	return choose(tool, v, nil, spec.DefaultLimits, false)
}

// ChooseValueLimits is ChooseValue for an encoder under limits, counting
// both texts in full when full is set. A value whose payload the limits
// refuse [LIM-4] is written as its compact JSON text, which is then the
// only result a decoder under those limits can read [AUTO-1].
func ChooseValueLimits(tool string, v jsonmap.Value, limits spec.Limits, full bool) (Choice, error) {
	return choose(tool, v, nil, limits, full)
}

// ChooseFull is Choose with both texts counted in full, for a caller that
// reports the counts.
func ChooseFull(tool string, value []byte) (Choice, error) {
	return chooseText(tool, value, true)
}

// ChooseValueFull is ChooseFull for a parsed value.
func ChooseValueFull(tool string, v jsonmap.Value) (Choice, error) {
	return choose(tool, v, nil, spec.DefaultLimits, true)
}

// choose encodes v and decides [AUTO-1]. text is v's compact JSON text
// when the caller holds it already (its own bytes, which the Choice does
// not share), else nil.
func choose(tool string, v jsonmap.Value, text []byte, limits spec.Limits, full bool) (Choice, error) {
	var buf bytes.Buffer
	buf.Grow(len(text))
	err := jsonmap.EncodeTo(&buf, tool, v, limits)
	compact, shared := text, text != nil
	if !shared {
		compact = v.AppendCompact(nil)
	}
	var c Choice
	switch {
	case err != nil && limitRefusal(err):
		c = Choice{Output: compact, Format: jsonmap.FormatJSON, Refused: err}
		if full {
			enc := tokens.MustGet(Encoding)
			c.JSONTokens = enc.CountBytes(compact)
		}
	case err != nil:
		return Choice{}, err
	default:
		if c, err = decide(buf.Bytes(), compact, full); err != nil {
			return Choice{}, err
		}
	}
	if shared && c.Format == jsonmap.FormatJSON {
		c.Output = bytes.Clone(compact)
	}
	return c, nil
}

// limitRefusal reports whether err is the encoder's limit error [LIM-4].
// It is a function of its own so that the error target errors.As needs,
// which escapes, is allocated only for an error: declared in choose, it
// cost every call an allocation.
func limitRefusal(err error) bool {
	var refused *spec.Error
	return errors.As(err, &refused) && refused.Rule == "LIM-4"
}

// decide chooses between a payload and the compact JSON text [AUTO-1],
// counting both in full when full is set, else stopping once the choice is
// settled.
func decide(payload, compact []byte, full bool) (Choice, error) {
	enc := tokens.MustGet(Encoding)
	c := Choice{Payload: payload}
	switch {
	case full:
		c.GCXTokens, c.JSONTokens = enc.CountBytes(payload), enc.CountBytes(compact)
	case len(payload) <= len(compact):
		// The payload is likely the cheaper: JSON loses once it passes
		// the payload's count.
		c.GCXTokens = enc.CountBytes(payload)
		c.JSONTokens, _ = enc.CountUpTo(compact, c.GCXTokens)
		c.Partial = c.JSONTokens > c.GCXTokens
	default:
		c.JSONTokens = enc.CountBytes(compact)
		c.GCXTokens, c.Partial = countBelow(enc, payload, c.JSONTokens)
	}
	return pick(c, payload, compact), nil
}

// countBelow counts the payload's tokens against a JSON text's count
// known in full: GCX1 wins only if strictly cheaper, so counting stops
// once it reaches that count (partial) [AUTO-1].
func countBelow(enc *tokens.Encoding, payload []byte, jsonTokens int) (n int, partial bool) {
	n, _ = enc.CountUpTo(payload, jsonTokens-1)
	return n, n >= jsonTokens
}

// pick makes the choice the counts decide: the payload only when it costs
// strictly fewer tokens [AUTO-1].
func pick(c Choice, payload, compact []byte) Choice {
	if c.GCXTokens < c.JSONTokens {
		c.Output, c.Format = payload, jsonmap.FormatGCX
	} else {
		c.Output, c.Format = compact, jsonmap.FormatJSON
	}
	return c
}
