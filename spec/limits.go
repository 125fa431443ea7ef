package spec

// Limits bound what a decoder will read [LIM-1]. A zero field means no limit.
// Exceeding a limit is reported as ErrLimit at the position given in the
// field's comment [LIM-3]; a decoder never truncates silently.
type Limits struct {
	// MaxLineBytes bounds the bytes of one line, its LF excluded. The error
	// points at byte MaxLineBytes+1 of the line.
	MaxLineBytes int
	// MaxFields bounds the fields a header declares. The error points at
	// the first byte of field name MaxFields+1.
	MaxFields int
	// MaxSections bounds the sections of a payload. The error points at
	// column 1 of header MaxSections+1.
	MaxSections int
	// MaxRows bounds the rows of one section. The error points at column 1
	// of row line MaxRows+1.
	MaxRows int
}

// DefaultLimits are the limits a decoder of this module applies unless told
// otherwise. Each is well above the minimum every conforming decoder must
// accept [LIM-2].
var DefaultLimits = Limits{
	MaxLineBytes: 16 << 20,
	MaxFields:    4096,
	MaxSections:  4096,
	MaxRows:      0,
}

// Minimums every conforming decoder accepts by default [LIM-2]. Conformance
// vectors stay within them.
const (
	MinLineBytes = 1 << 20
	MinFields    = 1024
	MinSections  = 256
	MinRows      = 1 << 20
)

// MinimumLimits are the minimums as limits: the strictest a conforming
// decoder may be by default [LIM-2].
var MinimumLimits = Limits{MaxLineBytes: MinLineBytes, MaxFields: MinFields, MaxSections: MinSections, MaxRows: MinRows}

// Unlimited has every limit off.
var Unlimited = Limits{}

// LimitFlag names one field of Limits as the command-line flag that sets
// it. The gcx command declares these flags and the conformance runner passes
// a vector's limits with them, so the two cannot drift apart.
type LimitFlag struct {
	Name  string // the flag without dashes, e.g. "max-line-bytes"
	Usage string
	Field func(*Limits) *int
}

// LimitFlags lists every limit's flag, in the order of the Limits fields.
var LimitFlags = []LimitFlag{
	{"max-line-bytes", "longest line in bytes", func(l *Limits) *int { return &l.MaxLineBytes }},
	{"max-fields", "most fields per section", func(l *Limits) *int { return &l.MaxFields }},
	{"max-sections", "most sections", func(l *Limits) *int { return &l.MaxSections }},
	{"max-rows", "most rows per section", func(l *Limits) *int { return &l.MaxRows }},
}
