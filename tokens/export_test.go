package tokens

// CL100KLowerBound exposes cl100kLowerBound to the tests of package
// tokens_test.
var CL100KLowerBound = cl100kLowerBound

// SetFlushAt makes Counters count what is settled once they hold n bytes,
// so that tests cut small texts many times; it returns the old value.
func SetFlushAt(n int) int {
	old := flushAt
	flushAt = n
	return old
}
