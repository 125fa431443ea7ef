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
