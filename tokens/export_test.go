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

// Pieces cuts text as the named encoding's pre-tokenizer does, with the
// encoding's own splitter.
func Pieces(name string, text []byte) []string {
	var pieces []string
	for _, e := range encodings {
		if e.name != name {
			continue
		}
		for i := 0; i < len(text); {
			end := e.piece(text, i)
			pieces = append(pieces, string(text[i:end]))
			i = end
		}
	}
	return pieces
}
