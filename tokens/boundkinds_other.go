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

// pieceKinds is pieceKindsGo where there is no assembly (countWords cuts
// no blocks from it there: kindsWide is unset).
func pieceKinds(p *byte, blocks int, out *uint64) {
	pieceKindsGo(p, blocks, out)
}

// blockRules is blockRulesGo where there is no assembly.
func blockRules(kinds *uint64, blocks int, starts *uint64) uint32 {
	return blockRulesGo(kinds, blocks, starts)
}
