package spec

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/gcxwire/gcx/internal/jsontext"
)

// A Fault is a breach of a rule found at a byte of a line, before the line's
// place in the payload is known. The rules' decisions — which rule a byte
// breaks, what the message says, which check comes first — are made once,
// by the functions below; a decoder knows where its line stands and turns
// the fault into an *Error with At.
type Fault struct {
	Col        int   // 0-based byte index within the line
	Class      error // one of the Err* classes
	Production string
	Rule       string
	Tag        string // the version tag, for ErrUnsupportedVersion
	Msg        string
}

// At places the fault on line number line (1-based), whose first byte is at
// input offset lineOffset.
func (f *Fault) At(line int, lineOffset int64) *Error {
	return &Error{
		Class: f.Class, Line: line, Column: f.Col + 1, Offset: lineOffset + int64(f.Col),
		Production: f.Production, Rule: f.Rule, Tag: f.Tag, Msg: f.Msg,
	}
}

// NotGCX returns the fault of an input that does not begin with "GCX"
// [PAY-1]: empty, a byte-order mark [ENC-2], or anything else. start holds
// the input's first bytes (at least its first line with its LF, or all of
// it), and nil when IsHeaderLine(start).
func NotGCX(start []byte) *Fault {
	if IsHeaderLine(start) {
		return nil
	}
	f := &Fault{Class: ErrNotGCX, Production: "payload", Rule: "PAY-1", Msg: "input does not begin with GCX"}
	switch {
	case len(start) == 0:
		f.Msg = "empty payload"
	case len(start) >= 3 && string(start[:3]) == "\uFEFF":
		f.Rule, f.Msg = "ENC-2", "payload begins with a byte-order mark"
	}
	return f
}

// TagFault classifies the version tag at the start of a header line
// [VER-1]: nil for GCX1, an unsupported-version fault naming the tag for
// another well-formed tag [VER-2] (VER-4 when sectionsBefore > 0, a later
// section), and a syntax fault where a malformed tag breaks [VER-3].
func TagFault(line []byte, sectionsBefore int) *Fault {
	if StartsGCX1(line) {
		return nil
	}
	return tagFault(line, sectionsBefore)
}

// tagFault is TagFault for a line that does not start with GCX1 and SP or
// LF, kept out of line so that TagFault inlines.
func tagFault(line []byte, sectionsBefore int) *Fault {
	tag, kind, n := ReadTag(line)
	switch kind {
	case TagOther:
		rule := "VER-2"
		if sectionsBefore > 0 {
			rule = "VER-4"
		}
		return &Fault{Class: ErrUnsupportedVersion, Production: "header", Rule: rule, Tag: tag,
			Msg: fmt.Sprintf("version tag %s is not %s; re-issue the call without the GCX format", tag, Version)}
	case TagMalformed, TagNotGCX:
		return &Fault{Col: n, Class: ErrSyntax, Production: "header", Rule: "VER-3",
			Msg: fmt.Sprintf("malformed version tag: %s must be followed by 1 to %d of A-Z a-z 0-9 . _ - and then SP or LF",
				TagPrefix, MaxTagBytes-len(TagPrefix))}
	}
	return nil
}

// Unexpected returns the syntax fault at byte col of a line: what stands
// there cannot continue production, whose rule is rule and which expected
// what expected says [ERR-2]. rest holds the input from that byte on (its
// LF, if it is one, and anything after); it is empty at the end of the
// input.
//
// The rule is the one the byte itself breaks when it is of a kind no
// production allows there — invalid UTF-8 [ENC-1], a raw CR [ENC-3], the
// end of the input inside a line [LINE-1], a SP where a header's own text
// was due [HDR-1] — and otherwise the production's.
func Unexpected(col int, rest []byte, production, rule, expected string) *Fault {
	var found string
	switch {
	case len(rest) == 0:
		rule, found = "LINE-1", "end of input"
	case rest[0] == '\n':
		found = "LF"
	case rest[0] == '\r':
		rule, found = "ENC-3", "CR"
	case rest[0] == '\t':
		found = "TAB"
	case rest[0] == ' ':
		found = "SP"
		if production == "header" {
			rule = "HDR-1" // a doubled SP, or a SP where "=" or a key belongs
		}
	default:
		r, size := utf8.DecodeRune(rest)
		if r == utf8.RuneError && size == 1 {
			rule, found = "ENC-1", fmt.Sprintf("invalid UTF-8 byte 0x%02x", rest[0])
		} else {
			found = strconv.QuoteRune(r)
		}
	}
	return &Fault{Col: col, Class: ErrSyntax, Production: production, Rule: rule, Msg: "expected " + expected + ", found " + found}
}

// Mark is a part of a header line — a field name, a meta key or a meta
// value, decoded — and the 0-based byte column where it begins.
type Mark struct {
	Col  int
	Text string
}

// HeaderFault checks the rules of Appendix B that concern a header whose
// grammar has matched, in column order [ERR-3]: the field limit [LIM-3] and
// distinct field names [HDR-6]; then, pair by pair, meta keys that are
// neither structural nor repeated [HDR-8] and the values of the reserved
// keys [META-1] [META-3]. keys and values are the meta pairs, in order. It
// returns nil when the header is sound.
func HeaderFault(fields, keys, values []Mark, limits Limits) *Fault {
	// held has a bit set for the length and first byte of each name
	// checked so far (NameBit), in which the names of a header mostly
	// differ: a short list's name whose bit is not yet set repeats none, and
	// only the others are compared with the names before them.
	var held uint64
	var seen map[string]bool
	if len(fields) > pairwise {
		seen = make(map[string]bool, len(fields))
	}
	for k, f := range fields {
		if lf := limits.FieldFault(k, f.Col); lf != nil {
			return lf
		}
		if bit := NameBit(f.Text); seen == nil && held&bit == 0 {
			held |= bit
		} else if repeats(fields, k, seen) {
			return &Fault{Col: f.Col, Class: ErrConstraint, Production: "field_name", Rule: "HDR-6",
				Msg: fmt.Sprintf("field name %s is declared twice", QuoteShort(f.Text))}
		}
	}
	held = 0
	var seenKeys map[string]bool
	if len(keys) > pairwise {
		seenKeys = make(map[string]bool, len(keys))
	}
	for k, key := range keys {
		bit := NameBit(key.Text)
		switch {
		case StructuralKey(key.Text):
			return &Fault{Col: key.Col, Class: ErrConstraint, Production: "meta", Rule: "HDR-8",
				Msg: fmt.Sprintf("%s= may appear only once, in its fixed place", key.Text)}
		case seenKeys == nil && held&bit == 0:
			held |= bit
		case repeats(keys, k, seenKeys):
			return &Fault{Col: key.Col, Class: ErrConstraint, Production: "meta", Rule: "HDR-8",
				Msg: fmt.Sprintf("meta key %s appears twice", QuoteShort(key.Text))}
		}
		if rule, msg := CheckMeta(key.Text, values[k].Text); rule != "" {
			return &Fault{Col: values[k].Col, Class: ErrConstraint, Production: "meta_value", Rule: rule, Msg: msg}
		}
	}
	return nil
}

// pairwise is the longest list of names HeaderFault compares pair by pair
// for repeats: a header of a few fields and pairs, the common case, then
// builds no map. Longer lists go through a map, so the work stays linear.
const pairwise = 8

// StructuralKey reports whether key is one of the header's structural
// keys, tool and fields, which stand only in their fixed places and never
// among the meta pairs [HDR-8].
func StructuralKey(key string) bool { return key == KeyTool || key == KeyFields }

// NameBit returns a bit of a uint64 picked by the length and first byte of
// a name, in which the names of a header mostly differ: two names whose
// bits differ are different names. HeaderFault keeps the bits of the names
// it has checked so far, and compares a name's bytes with the earlier
// names' only where its bit is already set [HDR-6] [HDR-8]; a decoder's
// fast path over a header does the same.
func NameBit(name string) uint64 {
	var first byte
	if name != "" {
		first = name[0]
	}
	return 1 << ((uint(len(name)) ^ uint(first)) & 63)
}

// repeats reports whether marks[k] has the text of an earlier mark. With
// seen nil it compares the earlier marks one by one (at most pairwise of
// them); otherwise seen holds the texts of marks[:k], and marks[k]'s is
// added.
func repeats(marks []Mark, k int, seen map[string]bool) bool {
	if seen == nil {
		// Names of a header mostly differ in length or in their first
		// byte, which are compared before the bytes are.
		t := marks[k].Text
		for i := range k {
			if s := marks[i].Text; len(s) == len(t) && (len(s) == 0 || s[0] == t[0] && s == t) {
				return true
			}
		}
		return false
	}
	if seen[marks[k].Text] {
		return true
	}
	seen[marks[k].Text] = true
	return false
}

// LineFault applies the line limit to a line of n bytes, its LF not
// counted; the fault stands at the first byte past the limit [LIM-3]. The
// limit checks run once a line, so each is small enough to inline.
func (l *Limits) LineFault(n int) *Fault {
	if l.MaxLineBytes > 0 && n > l.MaxLineBytes {
		return limitFault(l.MaxLineBytes, "line", "line is longer than the limit of %d bytes", l.MaxLineBytes)
	}
	return nil
}

// SectionFault applies the section limit to a header line read after
// sections headers; the fault stands at its first byte [LIM-3].
func (l *Limits) SectionFault(sections int) *Fault {
	if l.MaxSections > 0 && sections >= l.MaxSections {
		return limitFault(0, "header", "more than the limit of %d sections", l.MaxSections)
	}
	return nil
}

// RowFault applies the row limit to a row line read after rows rows of its
// section; the fault stands at its first byte [LIM-3].
func (l *Limits) RowFault(rows int) *Fault {
	if l.MaxRows > 0 && rows >= l.MaxRows {
		return limitFault(0, "row", "more than the limit of %d rows in a section", l.MaxRows)
	}
	return nil
}

// FieldFault applies the field limit to field name number k (0-based) of
// a header, which begins at col [LIM-3].
func (l *Limits) FieldFault(k, col int) *Fault {
	if l.MaxFields > 0 && k >= l.MaxFields {
		return limitFault(col, "field_list", "more than the limit of %d fields", l.MaxFields)
	}
	return nil
}

// limitFault is kept out of line so that the checks above inline.
//
//go:noinline
func limitFault(col int, production, format string, limit int) *Fault {
	return &Fault{Col: col, Class: ErrLimit, Production: production, Rule: "LIM-3", Msg: fmt.Sprintf(format, limit)}
}

// RowCountFault compares a section's rows= value, which CheckMeta has
// accepted, with the number of rows the section held when it ended, and
// returns the fault to report at the value, or nil when they agree
// [META-4].
func RowCountFault(value string, held int) *Fault {
	if spellsCount(value, held) {
		return nil
	}
	return &Fault{Class: ErrConstraint, Production: "meta", Rule: "META-4",
		Msg: fmt.Sprintf("rows=%s but the section holds %d rows", value, held)}
}

// spellsCount reports whether value is n written in decimal, from its
// last digit back: a section's end compares its count with rows= without
// formatting the count.
func spellsCount(value string, n int) bool {
	if n < 0 {
		return false
	}
	for i := len(value) - 1; i >= 0; i-- {
		if value[i] != byte('0'+n%10) {
			return false
		}
		n /= 10
		if n == 0 {
			return i == 0
		}
	}
	return false
}

// RowCountValue returns the rows= value among a header's meta pairs, and
// whether there is one [META-4].
func RowCountValue(meta []Meta) (string, bool) {
	for _, m := range meta {
		if m.Key == KeyRows {
			return m.Value, true
		}
	}
	return "", false
}

// QuoteShort quotes s for an error message: whole when it is short, else
// its first bytes (cut at a character boundary) and its length, so that a
// message never copies a large input. Every message of the module that
// quotes an input quotes it this way.
func QuoteShort(s string) string { return jsontext.QuotePrefix(s) }

// RowWidthFault is the fault of a row that holds values values where its
// section declares width fields [ROW-2]. It stands at col: the TAB before
// the first value beyond the fields when there are too many, the LF when
// there are too few.
func RowWidthFault(col, values, width int) *Fault {
	return &Fault{Col: col, Class: ErrConstraint, Production: "row", Rule: "ROW-2",
		Msg: fmt.Sprintf("row has %d values but the section declares %d fields", values, width)}
}
