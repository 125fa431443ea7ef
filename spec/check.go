package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gcxwire/gcx/internal/jsontext"
	"github.com/gcxwire/gcx/internal/plural"
)

// ValidCount reports whether s is a count as rows= and total= require: "0",
// or a non-zero ASCII digit followed by digits, no sign, no leading zero, and
// small enough for an int64 [META-1].
func ValidCount(s string) bool {
	if len(s) == 1 { // most counts of a tool result, told inline
		return s[0]-'0' <= 9
	}
	return validCountOf(s)
}

// validCountOf is ValidCount for a count of any length.
func validCountOf(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]-'0' > 9 { // below '0' wraps around
			return false
		}
	}
	if len(s) < 19 {
		return true // below 10^18, so within int64 without parsing
	}
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// countMessage says why value, which ValidCount refused, is no count for
// key: its spelling, or its size [META-1].
func countMessage(key, value string) string {
	if value != "" && (value == "0" || value[0] != '0') && strings.Trim(value, "0123456789") == "" {
		return fmt.Sprintf("%s=%s is a decimal above the largest count, %d", key, QuoteShort(value), int64(math.MaxInt64))
	}
	return fmt.Sprintf("%s=%s is not a count (0 or a decimal without sign or leading zero)", key, QuoteShort(value))
}

// ValidBool reports whether s is "true" or "false", as truncated= requires
// [META-3].
func ValidBool(s string) bool { return s == "true" || s == "false" }

// ValidMeta reports whether value is acceptable for key under the
// reserved-key rules: a count for rows= and total= [META-1], true or false
// for truncated= [META-3], anything for another key. CheckMeta says why a
// value is not.
func ValidMeta(key, value string) bool {
	switch key {
	case KeyRows, KeyTotal:
		return ValidCount(value)
	case KeyTruncated:
		return ValidBool(value)
	}
	return true
}

// CheckMeta checks one meta pair against the reserved-key rules [META-1]
// [META-3] and returns a message describing the problem, or "" if the value
// is acceptable. It does not check the key's spelling or uniqueness.
func CheckMeta(key, value string) (rule, msg string) {
	switch {
	case ValidMeta(key, value):
		return "", ""
	case key == KeyTruncated:
		return "META-3", fmt.Sprintf("truncated=%s is neither true nor false", QuoteShort(value))
	}
	return "META-1", countMessage(key, value)
}

// Check reports whether p has a GCX1 spelling and, if not, returns an
// *Error of class ErrModel naming the first rule it breaks, in the order
// [CAN-3] settles: section by section, each as Section.Check says. Every
// encoder of this module calls it (or checks the same rules piece by piece)
// before writing, so no encoder emits what a decoder rejects.
func (p *Payload) Check() error {
	if p == nil || len(p.Sections) == 0 {
		return modelErr("PAY-1", "a payload needs at least one section")
	}
	for i := range p.Sections {
		if err := p.Sections[i].Check(i); err != nil {
			return err
		}
	}
	return nil
}

// Check reports whether the section, the index-th of its payload (0-based,
// used only in messages), has a GCX1 spelling, and names the first defect
// met in writing it from front to back [CAN-3]: the header (CheckHeader);
// then the comments and rows as Walk visits them, each comment's text
// with CheckComment and each row with CheckRow, a row beyond the count
// rows= gives failing [META-4] after its own checks; and last a rows=
// larger than the rows. It is the order an encoder that writes as it goes
// meets them in.
func (s *Section) Check(index int) error {
	if err := CheckHeader(index, s.Tool, s.Fields, s.Meta); err != nil {
		return err
	}
	declared := -1
	if value, ok := RowCountValue(s.Meta); ok {
		declared, _ = strconv.Atoi(value) // CheckHeader vouched for it [META-1]
	}
	err := s.Walk(index,
		func(cm Comment) error { return CheckComment(index, cm.Text) },
		func(r int, values []string) error {
			if err := CheckRow(index, r, len(s.Fields), values); err != nil {
				return err
			}
			if r == declared {
				// Row r+1 of a section that declares r rows.
				return CheckRowCount(index, s.Meta, len(s.Rows))
			}
			return nil
		})
	if err != nil {
		return err
	}
	return CheckRowCount(index, s.Meta, len(s.Rows))
}

// Walk visits the section's rows in order and its comments in their order
// among them, as a payload holds them [CMT-3]: each comment as soon as the
// rows its place counts are visited (at once if they already are), after
// CheckCommentPlace has passed it, then the rows; the comments whose place
// lies beyond the last row are refused with CheckCommentPlace's error at
// the end. The first error, a visitor's or a place's, stops the walk.
// Section.Check and the streaming encoder both walk a section with it, so
// they meet defects in the same order [CAN-3].
func (s *Section) Walk(index int, comment func(Comment) error, row func(r int, values []string) error) error {
	prev, c := 0, 0
	for r := 0; ; r++ {
		for ; c < len(s.Comments) && s.Comments[c].Row <= r; c++ {
			cm := s.Comments[c]
			if err := CheckCommentPlace(index, c, cm.Row, prev, len(s.Rows)); err != nil {
				return err
			}
			prev = cm.Row
			if err := comment(cm); err != nil {
				return err
			}
		}
		if r == len(s.Rows) {
			break
		}
		if err := row(r, s.Rows[r]); err != nil {
			return err
		}
	}
	if c < len(s.Comments) {
		return CheckCommentPlace(index, c, s.Comments[c].Row, prev, len(s.Rows))
	}
	return nil
}

// CheckHeader checks the parts of a section header: tool name [HDR-3], at
// least one field [HDR-4], distinct field names [HDR-6], meta keys [HDR-3]
// [HDR-8] and reserved meta values [META-1] [META-3]. Every string must be
// valid UTF-8 [ENC-1].
func CheckHeader(index int, tool string, fields []string, meta []Meta) error {
	if !IsName(tool) {
		return modelErr("HDR-3", fmt.Sprintf("%s: tool name %s must be one or more of A-Z a-z 0-9 _ - .", sectionName(index), QuoteShort(tool)))
	}
	if len(fields) == 0 {
		return modelErr("HDR-4", sectionName(index)+": a section needs at least one field")
	}
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if !utf8.ValidString(f) {
			return modelErr("ENC-1", fmt.Sprintf("%s: field name %s is not valid UTF-8", sectionName(index), QuoteShort(f)))
		}
		if seen[f] {
			return modelErr("HDR-6", fmt.Sprintf("%s: field name %s appears twice", sectionName(index), QuoteShort(f)))
		}
		seen[f] = true
	}
	keys := make(map[string]bool, len(meta))
	for _, m := range meta {
		if !IsName(m.Key) {
			return modelErr("HDR-3", fmt.Sprintf("%s: meta key %s must be one or more of A-Z a-z 0-9 _ - .", sectionName(index), QuoteShort(m.Key)))
		}
		if StructuralKey(m.Key) {
			return modelErr("HDR-8", fmt.Sprintf("%s: %q is a structural key and cannot be a meta key", sectionName(index), m.Key))
		}
		if keys[m.Key] {
			return modelErr("HDR-8", fmt.Sprintf("%s: meta key %s appears twice", sectionName(index), QuoteShort(m.Key)))
		}
		keys[m.Key] = true
		if !utf8.ValidString(m.Value) {
			return modelErr("ENC-1", fmt.Sprintf("%s: value of meta key %s is not valid UTF-8", sectionName(index), QuoteShort(m.Key)))
		}
		if rule, msg := CheckMeta(m.Key, m.Value); rule != "" {
			return modelErr(rule, sectionName(index)+": "+msg)
		}
	}
	return nil
}

// sectionName names section index (0-based) in a message; it is written
// only for a message, never for a header that passes.
func sectionName(index int) string {
	return "section " + strconv.Itoa(index+1)
}

// CheckRow checks one row: it has exactly width values [ROW-2], each valid
// UTF-8 [ENC-1]. section and row are 0-based and used only in messages.
func CheckRow(section, row, width int, values []string) error {
	if len(values) != width {
		return modelErr("ROW-2", fmt.Sprintf("section %d, row %d: %s for %s", section+1, row+1, plural.Count(len(values), "value"), plural.Count(width, "field")))
	}
	for i, v := range values {
		if !utf8.ValidString(v) {
			return modelErr("ENC-1", fmt.Sprintf("section %d, row %d, value %d is not valid UTF-8", section+1, row+1, i+1))
		}
	}
	return nil
}

// CheckRowCount checks that a rows= pair, if present, equals the number of
// rows the section holds [META-4].
func CheckRowCount(section int, meta []Meta, rows int) error {
	if value, ok := RowCountValue(meta); ok {
		if f := RowCountFault(value, rows); f != nil {
			return modelErr(f.Rule, fmt.Sprintf("section %d: %s", section+1, f.Msg))
		}
	}
	return nil
}

// CheckCommentPlace checks where the c-th comment of a section stands
// [CMT-3]: before row number row, which must lie from prev (the row of the
// comment ahead of it, 0 for the first) to rows (the section's row count).
func CheckCommentPlace(section, c, row, prev, rows int) error {
	if row < prev || row > rows {
		return CommentPlaceError(section, c, strconv.Itoa(row), prev, rows)
	}
	return nil
}

// CommentPlaceError is the refusal of comment c (0-based) of a section
// (0-based) placed before row place, as written, outside prev..rows: prev
// is the place of the comment ahead of it (0 for the first) and rows the
// section's row count [CMT-3].
func CommentPlaceError(section, c int, place string, prev, rows int) *Error {
	return modelErr("CMT-3", fmt.Sprintf("section %d: comment %d is placed before row %s, outside %d..%d (from the place of the comment ahead of it, or 0, to the section's row count)",
		section+1, c+1, shortLiteral(place), prev, rows))
}

// shortLiteral is a number's literal for a message: as written, or quoted
// short when it is long.
func shortLiteral(lit string) string {
	if len(lit) <= jsontext.QuoteLimit {
		return lit
	}
	return QuoteShort(lit)
}

// CheckComment checks a comment's text: no LF or CR [CMT-4], valid UTF-8
// [ENC-1].
func CheckComment(section int, text string) error {
	if strings.ContainsAny(text, "\n\r") {
		return modelErr("CMT-4", fmt.Sprintf("section %d: comment %s contains LF or CR", section+1, QuoteShort(text)))
	}
	if !utf8.ValidString(text) {
		return modelErr("ENC-1", fmt.Sprintf("section %d: comment is not valid UTF-8", section+1))
	}
	return nil
}

func modelErr(rule, msg string) *Error {
	return &Error{Class: ErrModel, Rule: rule, Msg: msg}
}
