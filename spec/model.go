package spec

// Payload is a decoded GCX1 payload: one or more sections in wire order
// [PAY-1].
type Payload struct {
	Sections []Section
}

// Section is one header line and the lines that follow it up to the next
// header or the end of the payload [PAY-2].
//
// The model is exact: a valid payload decodes to exactly one Section list and
// the canonical encoder writes exactly those bytes back [CAN-1]. That is why
// comments and the order of the header's key/value pairs are kept.
type Section struct {
	// Tool is the value of the header's tool= pair [HDR-2].
	Tool string
	// Fields are the column names declared by fields=, in order [HDR-5].
	// A valid section has at least one field and no two are equal.
	Fields []string
	// Meta holds every header pair after fields=, in wire order [HDR-7].
	Meta []Meta
	// Rows holds the decoded values; every row has len(Fields) values
	// [ROW-2].
	Rows [][]string
	// Comments holds the section's comment lines in wire order [CMT-1].
	Comments []Comment
}

// Meta is one key=value pair of a header, decoded [HDR-7].
type Meta struct {
	Key   string
	Value string
}

// Comment is one comment line. Row is the number of the section's rows that
// precede it, so 0 places it straight after the header and len(Rows) after
// the last row [CMT-3]. Text is the line without its leading '#'.
type Comment struct {
	Row  int
	Text string
}

// Lookup returns the value of the section's meta key and whether it is
// present.
func (s *Section) Lookup(key string) (string, bool) {
	for _, m := range s.Meta {
		if m.Key == key {
			return m.Value, true
		}
	}
	return "", false
}

// Reserved meta keys with a defined value syntax [META-1].
const (
	KeyRows      = "rows"
	KeyTotal     = "total"
	KeyTruncated = "truncated"
)

// Structural header keys. They are written in fixed places and may not appear
// again as meta keys [HDR-8].
const (
	KeyTool   = "tool"
	KeyFields = "fields"
)
