package auto

import (
	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/tokens"
)

// A tool's JSON text reaches the model in one of three lossless forms:
// the text as the tool sent it (often pretty-printed), its compact JSON
// [MAP-3], which holds the same value with the same numbers and member
// order, and a GCX payload of that value. Cheapest picks the one that
// costs the fewest cl100k_base tokens, so that what the model reads never
// costs more than either JSON text [MCP-6].

// Form is one of the three forms Cheapest weighs, in the order ties go.
type Form int

const (
	// FormSent is the JSON text as the tool sent it.
	FormSent Form = iota
	// FormCompact is the value's compact JSON text [MAP-3].
	FormCompact
	// FormGCX is the payload.
	FormGCX
)

// String names the form as gcx proxy --stats and the tests do.
func (f Form) String() string {
	switch f {
	case FormSent:
		return "sent"
	case FormCompact:
		return "compact"
	case FormGCX:
		return "gcx"
	}
	return "unknown"
}

// Cheapest is what ChooseCheapest decided and the counts that decided.
type Cheapest struct {
	Form Form
	// Output is the text of the chosen form: the text as sent, the compact
	// JSON text or the payload. ChooseCheapestPlan leaves it nil for
	// FormCompact: the caller writes that text with the plan.
	Output []byte
	// The cl100k_base tokens of each form. A form counted only until it
	// was known to lose holds a lower bound above the winner's count
	// (Partial); the winner's count is always exact. CompactTokens is
	// SentTokens when the text is its own compact form, and GCXTokens 0
	// when there is no payload.
	SentTokens, CompactTokens, GCXTokens int
	Partial                              bool
}

// ChooseCheapest weighs the three forms of a JSON text and returns the one
// that costs the fewest cl100k_base tokens; ties go to the earlier of
// sent, compact and payload, so a text is rewritten only to save a token
// [MCP-6]. compact is nil when sent is its own compact form; payload is
// nil when the mapping cannot write the value, and the choice is then
// between the two JSON texts. Counting stops once the choice is settled.
func ChooseCheapest(sent, compact, payload []byte) (Cheapest, error) {
	enc := tokens.MustGet(Encoding)
	var compactTokens int
	if compact != nil {
		compactTokens = enc.CountBytes(compact)
	}
	return cheapest(enc, sent, compact, compact != nil, compactTokens, payload), nil
}

// ChooseCheapestPlan is ChooseCheapest for a value planned from its text
// (jsonmap.PlanFile), whose compact JSON text is counted as plan.Compact
// writes it into a token counter and never held: a large text's compact
// form, as long as the message, is written only when it is chosen, by the
// caller with plan.Compact [PRX-9].
func ChooseCheapestPlan(sent []byte, plan *jsonmap.FilePlan, payload []byte) (Cheapest, error) {
	enc := tokens.MustGet(Encoding)
	counter := enc.NewCounter()
	if err := plan.Compact(counter); err != nil {
		return Cheapest{}, err
	}
	c := cheapest(enc, sent, nil, true, counter.Count(), payload)
	if c.Form == FormCompact {
		c.Output = nil
	}
	return c, nil
}

// cheapest decides [MCP-6] given the compact text's count when it differs
// from sent (hasCompact): the text as sent is counted only until it costs
// more than the compact text, and the payload only until it costs as much
// as the cheaper JSON text.
func cheapest(enc *tokens.Encoding, sent, compact []byte, hasCompact bool, compactTokens int, payload []byte) Cheapest {
	c := Cheapest{Form: FormSent, Output: sent}
	if hasCompact {
		c.CompactTokens = compactTokens
		var within bool
		c.SentTokens, within = enc.CountUpTo(sent, compactTokens)
		if !within {
			c.Form, c.Output, c.Partial = FormCompact, compact, true
		}
	} else {
		c.SentTokens = enc.CountBytes(sent)
		c.CompactTokens = c.SentTokens
	}
	best := c.SentTokens
	if c.Form == FormCompact {
		best = c.CompactTokens
	}
	if payload == nil {
		return c
	}
	var lost bool
	c.GCXTokens, lost = countBelow(enc, payload, best)
	if lost {
		c.Partial = true
		return c
	}
	c.Form, c.Output = FormGCX, payload
	return c
}
