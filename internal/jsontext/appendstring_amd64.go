//go:build !purego

package jsontext

// appendEscaped copies the n bytes at src to dst as the inside of a JSON
// string in compact form (escapeSpelling's escapes) and returns how many
// bytes it read and wrote: all n, or fewer when an escape would leave
// less room than what is left to read and 16 bytes more, where it stops
// before that escape. room is the capacity at dst; it must be at least
// n+16.
//
// It is SSE2, which every amd64 processor has: it tests and stores 16 bytes
// a step, and writes an escape as one 8-byte store of escapeSpelling's
// entry. Its last load may reach up to 15 bytes past n when they lie in
// the same 4 KiB page, so it cannot fault; near a page's end it takes the
// tail a byte at a time. Stores reach up to 15 bytes past what it writes,
// into the 16 bytes of room kept past what is left to read.
//
//go:noescape
func appendEscaped(dst *byte, room int, src *byte, n int) (read, written int)
