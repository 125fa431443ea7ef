package auto

import (
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
	"github.com/gcxwire/gcx/tokens"
)

// ChoosePlan is ChooseValueLimits, counting both texts in full, for a
// value planned from a file [AUTO-1]: it writes the payload and the
// compact JSON text into token counters, one read of the file each, side
// by side, and holds neither. The Choice's Output and Payload are nil; the caller
// writes the chosen text with plan.Encode or plan.Compact.
func ChoosePlan(plan *jsonmap.FilePlan, limits spec.Limits) (Choice, error) {
	enc := tokens.MustGet(Encoding)
	// The two texts are made and counted at once, each from its own read
	// of the file (io.ReaderAt allows parallel reads).
	var c Choice
	gcx := enc.NewCounter()
	done := make(chan error, 1)
	go func() { done <- plan.Encode(gcx, limits) }()
	json := enc.NewCounter()
	jsonErr := plan.Compact(json)
	err := <-done
	if jsonErr != nil {
		return Choice{}, jsonErr
	}
	switch {
	case err != nil && limitRefusal(err):
		c.Refused = err
	case err != nil:
		return Choice{}, err
	default:
		c.GCXTokens = gcx.Count()
	}
	c.JSONTokens = json.Count()
	c.Format = jsonmap.FormatJSON
	if c.Refused == nil && c.GCXTokens < c.JSONTokens {
		c.Format = jsonmap.FormatGCX
	}
	return c, nil
}
