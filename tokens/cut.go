package tokens

import "unicode/utf8"

// Cut returns the largest q, 0 < q < len(text), at which the
// pre-tokenizer cuts every text that begins with text whatever follows,
// and 0 if it finds none: then the tokens of such a text are the tokens of
// its first q bytes plus those of the rest, in either encoding, and a text
// written in parts can be counted part by part, each part as it is
// complete, while later parts are written.
//
// It cuts before a tab that follows an ASCII byte other than white space,
// and before a line feed that follows an ASCII letter or digit: the piece
// that holds that byte ends there in both expressions (no alternative
// reaches from a letter, digit or other rune across a tab, nor from a
// letter or digit across a line feed), and the piece after it begins
// there, found by looking only forward. GCX1 payloads are cut so at
// almost every value. TestPropertyCutSplitsCount holds the rule to
// tiktoken-go.
func Cut(text []byte) int {
	for q := len(text) - 1; q > 0; q-- {
		prev := text[q-1]
		if prev >= utf8.RuneSelf {
			continue
		}
		switch text[q] {
		case '\t':
			if asciiClass[prev]&classSpace == 0 {
				return q
			}
		case '\n':
			if asciiClass[prev]&(classLetter|classNumber) != 0 {
				return q
			}
		}
	}
	return 0
}
