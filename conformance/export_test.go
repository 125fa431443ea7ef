package conformance

// OneSidedWhy gives the external tests (coverage_test.go) the reason
// oneSided records for a rule, and whether it has vectors of either side
// to expect.
func OneSidedWhy(rule string) (why string, accept, reject, ok bool) {
	o, ok := oneSided[rule]
	return o.why, o.accept, o.reject, ok
}
