package auto

import "github.com/gcxwire/gcx/jsonmap"

// ChoosePayload is ChooseValue for a payload that any version's encoder
// wrote for v — a codec of package codec, say: it writes payload only when
// it costs strictly fewer cl100k_base tokens than v's compact JSON text,
// and that text otherwise [AUTO-1] [AUTO-2]. Choice.Format says which;
// FormatGCX stands for the payload, whatever its version.
func ChoosePayload(payload []byte, v jsonmap.Value) Choice {
	compact := v.AppendCompact(nil)
	c := Choice{Payload: payload, GCXTokens: count(payload), JSONTokens: count(compact)}
	if c.GCXTokens < c.JSONTokens {
		c.Output, c.Format = payload, jsonmap.FormatGCX
	} else {
		c.Output, c.Format = compact, jsonmap.FormatJSON
	}
	return c
}
