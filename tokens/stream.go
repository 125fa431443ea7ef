package tokens

import "unicode/utf8"

// A Counter counts the tokens of a text written to it in parts: after the
// last Write, Count returns what Count of the whole text returns, however
// the text was cut. It holds only the part of the text whose pieces are
// not settled yet: the pre-tokenizer's pieces depend on what follows them
// (a run of spaces on whether a non-space ends it, a letter on the next
// rune), so a piece is counted once the text holds its whole run of
// whitespace and a few bytes more. Memory is bounded by the longest piece,
// not by the text.
//
// A Counter is not safe for concurrent use.
type Counter struct {
	e    *Encoding
	raw  []byte // written bytes that may end in part of a character
	text []byte // whole characters, invalid bytes replaced, not yet counted
	n    int
}

// flushAt is how much unsettled text a Counter gathers before it counts
// what is settled: large enough to amortise the cache lending.
var flushAt = 64 << 10

// NewCounter returns a Counter for the encoding.
func (e *Encoding) NewCounter() *Counter { return &Counter{e: e} }

// Write adds p to the text. It never fails.
func (c *Counter) Write(p []byte) (int, error) {
	c.raw = append(c.raw, p...)
	if len(c.raw) >= flushAt {
		c.settle(false)
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (c *Counter) WriteString(s string) (int, error) { return c.Write(bytesOf(s)) }

// Count ends the text and returns its tokens. Writing more continues the
// text, as if the end had not been.
func (c *Counter) Count() int {
	c.settle(true)
	return c.n
}

// settle moves the whole characters of raw into text, counts the pieces
// of text that no later byte can change, or all of them at the end, and
// keeps the rest.
func (c *Counter) settle(end bool) {
	whole := len(c.raw)
	if !end {
		whole = fullRunes(c.raw)
	}
	if utf8.Valid(c.raw[:whole]) {
		c.text = append(c.text, c.raw[:whole]...)
	} else {
		c.text = append(c.text, replaceInvalid(c.raw[:whole])...)
	}
	c.raw = c.raw[:copy(c.raw, c.raw[whole:])]

	cache, slot := c.e.caches.acquire()
	k := counter{tab: c.e.tab, piece: c.e.piece, cache: cache}
	text := c.text
	i := 0
	for i < len(text) {
		next := k.piece(text, i)
		if !end && !settled(text, i, next) {
			break
		}
		c.n += k.tokens(text, i, next)
		i = next
	}
	c.e.caches.release(cache, slot)
	c.text = c.text[:copy(c.text, text[i:])]
}

// fullRunes returns the length of the longest prefix of b that does not
// end inside a character: at most three bytes that could begin one are
// left for the next write.
func fullRunes(b []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-k:]) {
				return len(b)
			}
			return len(b) - k
		}
	}
	return len(b)
}

// settled reports whether the piece [i, end) of text is the piece found
// at i in every text that begins with text. The expression looks at most
// one character past a piece, and a piece that begins with whitespace at
// the whole run of whitespace (for its last newline, or whether a
// non-space ends it); a margin of utf8.UTFMax bytes past both is enough
// (the contractions, 's to 'll, are the longest look from i).
func settled(text []byte, i, end int) bool {
	if end+utf8.UTFMax > len(text) {
		return false
	}
	if cl, _ := at(text, i); cl&classSpace == 0 {
		return true
	}
	j := end
	for j < len(text) {
		cl, w := at(text, j)
		if cl&classSpace == 0 {
			break
		}
		j += w
	}
	return j+utf8.UTFMax <= len(text)
}
