//go:build !amd64 || purego

package tokens

// kindsInAsm is unset where asciiKinds has no assembly: there the
// automaton's four-byte steps (boundRun) are faster than asciiKindsGo's
// byte loop, and cl100kLowerBound uses them alone.
const kindsInAsm = false

// kindsWide is unset: there are no wider steps.
const kindsWide = false

// asciiKinds is asciiKindsGo where there is no assembly.
func asciiKinds(p *byte, blocks int, out *uint64, _ bool) {
	asciiKindsGo(p, blocks, out)
}
