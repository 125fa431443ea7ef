package auto

import "github.com/gcxwire/gcx/jsonmap"

// ChoosePayload is ChooseValue for a payload that any version's encoder
// wrote for v — a codec of package codec, say: it writes payload only when
// it costs strictly fewer cl100k_base tokens than v's compact JSON text,
// and that text otherwise [AUTO-1] [AUTO-2]. Choice.Format says which;
// FormatGCX stands for the payload, whatever its version. Both texts are
// counted in full.
func ChoosePayload(payload []byte, v jsonmap.Value) (Choice, error) {
	return decide(payload, v.AppendCompact(nil), true)
}
