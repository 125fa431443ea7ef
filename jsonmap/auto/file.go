package auto

import (
	"errors"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// ChoosePlan is ChooseValueLimits, counting both texts in full, for a
// value planned from a file [AUTO-1]: it writes the payload and the
// compact JSON text into token counters, one read of the file each, and
// holds neither. The Choice's Output and Payload are nil; the caller
// writes the chosen text with plan.Encode or plan.Compact.
func ChoosePlan(plan *jsonmap.FilePlan, limits spec.Limits) (Choice, error) {
	enc, err := tokens.Get(Encoding)
	if err != nil {
		return Choice{}, err
	}
	var c Choice
	gcx := enc.NewCounter()
	err = plan.Encode(gcx, limits)
	var refused *spec.Error
	switch {
	case errors.As(err, &refused) && refused.Rule == "LIM-4":
		c.Refused = err
	case err != nil:
		return Choice{}, err
	default:
		c.GCXTokens = gcx.Count()
	}
	json := enc.NewCounter()
	if err := plan.Compact(json); err != nil {
		return Choice{}, err
	}
	c.JSONTokens = json.Count()
	c.Format = jsonmap.FormatJSON
	if c.Refused == nil && c.GCXTokens < c.JSONTokens {
		c.Format = jsonmap.FormatGCX
	}
	return c, nil
}
