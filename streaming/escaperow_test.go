//go:build unix

package streaming

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/gcxwire/gcx/spec"
)

// WriteRow writes a row in one escapeRow call while its values are ASCII,
// and hands a value that is not to appendValue from its first such byte.
// Rows of every kind of value the scanners tell apart, one value ending at
// the last byte of a readable page, must come out as the values written
// one by one with appendValue from heap copies, TABs between them: the
// same bytes, the same refusals, and no load outside a value's page.
func TestEscapeRowMatchesValues(t *testing.T) {
	page := guardedPage(t)
	texts := guardTexts()
	others := []string{"", "plain", "tab\there", "#c", "GCX1", "é\\x", "\xff"}
	for _, text := range texts {
		if len(text) > len(page) {
			continue
		}
		held := page[len(page)-len(text):]
		copy(held, text)
		onPage := unsafe.String(unsafe.SliceData(held), len(held))
		for _, other := range others {
			for _, row := range [][2][]string{
				{{onPage, other}, {text, other}},
				{{other, onPage}, {other, text}},
				{{other, onPage, other, onPage}, {other, text, other, text}},
			} {
				values, heap := row[0], row[1]
				var want []byte
				valid := true
				for i, v := range heap {
					if i > 0 {
						want = append(want, '\t')
					} else if spec.NeedsGuard(v) {
						want = append(want, spec.GuardByte)
					}
					var ok bool
					want, ok = appendValue(want, strings.Clone(v))
					valid = valid && ok && utf8.ValidString(v)
				}
				want = append(want, '\n')

				var buf bytes.Buffer
				e := NewEncoder(&buf)
				fields := []string{"a", "b", "c", "d"}[:len(values)]
				if err := e.WriteHeader(&Header{Tool: "t", Fields: fields}); err != nil {
					t.Fatal(err)
				}
				start := buf.Len() + len("GCX1 tool=t fields=") + len(strings.Join(fields, ",")) + 1
				err := e.WriteRow(values)
				if err == nil {
					err = e.Close()
				}
				if (err == nil) != valid {
					t.Errorf("WriteRow(%q): error %v, want one: %v", heap, err, !valid)
					continue
				}
				if err == nil {
					if got := buf.Bytes()[start:]; !bytes.Equal(got, want) {
						t.Errorf("WriteRow(%q) wrote %q, want %q", heap, got, want)
					}
				}
			}
		}
	}
}
