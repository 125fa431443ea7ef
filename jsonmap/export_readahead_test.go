package jsonmap

// ReadAheadFor makes PlanFile read every array ahead, in batches of at
// most elems elements and about bytes bytes, until the returned function
// restores the defaults: the tests' texts are all smaller than
// readAheadFrom.
func ReadAheadFor(elems, bytes int) (restore func()) {
	from, e, b := readAheadFrom, batchElems, batchBytes
	readAheadFrom, batchElems, batchBytes = 0, elems, bytes
	return func() { readAheadFrom, batchElems, batchBytes = from, e, b }
}
