package codec

// Draft1AbbreviatingCode is GCX2-draft.1 with an encoder that abbreviates
// indented and multi-line texts too, which the registered encoder leaves
// whole: the draft's document reports what that would save.
func Draft1AbbreviatingCode() Codec { return Draft1{abbreviateCode: true} }
