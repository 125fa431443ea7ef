//go:build !purego

package streaming

// plainFirst: the SSE2 scanner takes plain values as fast as a test and a
// copy would, so WriteRow hands it every value.
const plainFirst = false

// escapeASCII copies the n bytes at src to dst spelled as a value, TAB,
// LF, CR and backslash escaped [VAL-1], until it meets a byte that is not
// ASCII or an escape it has no room for, and returns how many bytes it
// read and wrote. room is the capacity at dst; it must be at least
// n+valueSlack, and an escape is written only while what is left still
// fits with that slack.
//
// It is SSE2, which every amd64 processor has: it tests and stores 16 bytes
// a step. Its last load may reach up to 15 bytes past n when they lie in
// the same 4 KiB page, so it cannot fault; near a page's end it takes the
// tail a byte at a time. Stores reach up to 15 bytes past what it writes,
// into the slack.
//
//go:noescape
func escapeASCII(dst *byte, room int, src *byte, n int) (read, written int)

// escapeRow writes the n values at vals to dst spelled as a row's values,
// TAB between them and TAB, LF, CR and backslash escaped [VAL-1], until it
// meets a byte that is not ASCII. It returns how many values it wrote
// whole (k), how many bytes of value k it read before that byte (read;
// 0 when k is n), and how many bytes it wrote, value k's start included.
// dst must have room for twice the values' bytes, n TABs and valueSlack:
// it checks no room.
//
// It is escapeASCII's SSE2 scan, value after value, so that a row costs
// one call and not one per value; its loads past a value's end stay in
// the value's page as escapeASCII's do.
//
//go:noescape
func escapeRow(dst *byte, vals *string, n int) (k, read, written int)
