package explore

import (
	"bytes"

	"github.com/gcxwire/gcx/conformance"
)

// minNestingBound is the least bound on the nesting of arrays and objects
// an implementation may set [MAP-4]: past it, the reference's answer (its
// bound is jsonmap.MaxDepth) is one of two conforming ones, the value or a
// limit error, as the vectors of json/nesting.json hold them (or_error).
const minNestingBound = 1000

// beyondMinimums says how a case nested past minNestingBound is judged:
// deep reports whether it is; line is the line of the limit error a
// program with a lower bound than the reference's would report, the same
// for every bound from minNestingBound up; ok is false when the case cannot
// be judged fairly (no one such line, limits set, the binding's ops, where
// such a program would answer in other ways the text leaves open).
func beyondMinimums(c Case) (deep bool, line int, ok bool) {
	switch c.Op {
	case conformance.OpJSONEncode:
		line, deep, ok = encodeNesting(c.Input)
	case conformance.OpJSONDecode:
		line, deep, ok = decodeNesting(c.Input)
	case conformance.OpMCPServer, conformance.OpMCPClient, conformance.OpMCPProxy:
		// the value sits in a string of the input; a plain count of
		// brackets is never below its nesting
		deep = cellDepth(c.Input) > minNestingBound
		return deep, 0, !deep
	default:
		return false, 0, true
	}
	if deep && c.Limits != nil {
		return deep, 0, false
	}
	return deep, line, ok
}

// encodeNesting reads a JSON text: whether it nests past minNestingBound,
// and the line of the '[' or '{' that passes a bound, the same for every
// bound from minNestingBound up to its nesting less one [MAP-4].
func encodeNesting(b []byte) (line int, deep, ok bool) {
	depth, reached, ln := 0, 0, 1
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case c == '\n':
			ln++
			inString = false // not JSON; the reference judges it
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth <= reached {
				break
			}
			// the first bracket at this depth: the one a bound of
			// depth-1 refuses
			reached = depth
			if depth > minNestingBound {
				if deep && line != ln {
					return 0, true, false // no one line for every bound
				}
				line, deep = ln, true
			}
		case c == ']' || c == '}':
			depth = max(0, depth-1)
		}
	}
	return line, deep, true
}

// decodeNesting reads a payload: whether a cell or member value of it
// nests past minNestingBound, and its line, when only one line holds
// such a value [MAP-4]. It counts brackets within each TAB-separated
// part of a line, strings and all, so that it never counts below a
// value's nesting.
func decodeNesting(b []byte) (line int, deep, ok bool) {
	for i, l := range bytes.Split(b, []byte("\n")) {
		if cellDepth(l) <= minNestingBound {
			continue
		}
		if deep {
			return 0, true, false
		}
		line, deep = i+1, true
	}
	return line, deep, true
}

// cellDepth is the most brackets open at once in b, counted afresh after
// each TAB and never below zero.
func cellDepth(b []byte) int {
	depth, most := 0, 0
	for _, c := range b {
		switch c {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth = max(0, depth-1)
		case '\t':
			depth = 0
		}
	}
	return most
}
