package proxy

import "bytes"

// What a rewrite holds is charged in the form it is held, not in the bytes
// the message came in [PRX-6] [PRX-9]. The parse trees a rewrite builds (of
// the message, of the JSON text in its JSON block) cost a node for each
// value, tens of bytes or more, whatever the value's own bytes: an array of
// zeros takes two bytes of text a value, and deep nesting one. So the
// proxy counts a message's values as it scans it, before decoding any of
// it, and a message denser than one value per MinBytesPerValue bytes
// (and than FewValues) passes untouched, never decoded whole: what it would
// hold is then over the factor docs/security.md states, RewriteFactor
// times its bytes.

// MinBytesPerValue is the fewest bytes of a message, on average, per JSON
// value in it (counting the values of a JSON text that a string of it
// holds), for the proxy to decode and rewrite it. Tool results that are
// tables average well above it: a PostgreSQL server's rows, pretty
// printed in a text block, about 21 bytes a value.
const MinBytesPerValue = 16

// RewriteFactor is how many times its bytes a message takes at most in
// memory while the proxy reads or rewrites it, whatever its shape: the
// densest message it decodes, one value per MinBytesPerValue bytes, took
// up to 27 times its bytes (TestShapeMemory), a table of rows 2.4 to 3
// times (TestRewriteMemory); docs/security.md states it.
const RewriteFactor = 32

// FewValues is how many values any message may hold and be decoded,
// whatever its bytes: what they take is bounded (a few hundred bytes
// each), and a short result of a few rows is that dense.
const FewValues = 1024

// tooDense reports whether msg holds more values than its bytes allow a
// rewrite: more than FewValues and than len(msg)/MinBytesPerValue. A value is counted by the
// byte that begins it or separates it from the one before: '[', '{' and
// ',', inside strings too, where a JSON text's punctuation stands as it
// is (only quotes and backslashes are escaped). It holds nothing; it
// counts many bytes at a step (countValueBytes), and a byte at a time
// only counted a message at a tenth of the rate the rest of a rewrite
// reads it.
func tooDense(msg []byte) bool {
	return countValueBytes(msg) > max(FewValues, len(msg)/MinBytesPerValue)
}

// countValueBytesEach is countValueBytes by bytes.Count, which reads many
// bytes at a step, once for each of the three.
func countValueBytesEach(msg []byte) int {
	return bytes.Count(msg, []byte(",")) + bytes.Count(msg, []byte("[")) + bytes.Count(msg, []byte("{"))
}

// ReasonTooDense is a result that holds more values than its bytes allow
// a rewrite (MinBytesPerValue), passed unread but for its id [PRX-6].
const ReasonTooDense = "too-dense"

// dense reports whether msg, a message from the upstream, is too dense to
// decode; then the call it answers, if any, ends here, as for a message
// over the limit, and the log says why once in a while.
func (p *Proxy) dense(msg []byte) bool {
	if !tooDense(msg) {
		return false
	}
	var ids idScanner
	ids.write(msg)
	p.passedUntouched(&ids, ReasonTooDense)
	if key, ok := ids.responseID(); ok {
		p.mu.Lock()
		if key == p.initID {
			p.initID = "" // the initialize result passed unread: nothing to wait for
		}
		p.mu.Unlock()
	}
	p.log.note("dense server", "gcx proxy: a message from the server holds more than one JSON value per %d bytes, more than a rewrite would hold within %d times its bytes; passed on untouched", MinBytesPerValue, RewriteFactor)
	return true
}
