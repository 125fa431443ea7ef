package streaming

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/gcxwire/gcx/spec"
)

// aliasPayload is a payload long enough that the decoder's buffer is
// refilled and shifted many times, with plain rows (split in place),
// escaped rows (decoded into scratch space) and comments, each distinct.
func aliasPayload(rows int) (string, *spec.Payload) {
	var b strings.Builder
	b.WriteString("GCX1 tool=t fields=a,b\n")
	want := &spec.Payload{Sections: []spec.Section{{Tool: "t", Fields: []string{"a", "b"}}}}
	s := &want.Sections[0]
	for i := range rows {
		if i%3 == 0 {
			text := fmt.Sprintf("comment %d %s", i, strings.Repeat("c", i%50))
			fmt.Fprintf(&b, "#%s\n", text)
			s.Comments = append(s.Comments, spec.Comment{Row: i, Text: text})
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, "plain%d-%s\tv%d\n", i, strings.Repeat("p", i%70), i)
			s.Rows = append(s.Rows, []string{fmt.Sprintf("plain%d-%s", i, strings.Repeat("p", i%70)), fmt.Sprint("v", i)})
		} else {
			fmt.Fprintf(&b, "esc\\t%d\tw\\\\%d\n", i, i)
			s.Rows = append(s.Rows, []string{fmt.Sprintf("esc\t%d", i), fmt.Sprintf("w\\%d", i)})
		}
	}
	return b.String(), want
}

// Without ReuseRecord, every row and comment Next returns is the caller's
// to keep: later lines may not change them, whether they point into a read
// buffer the decoder has left to them or into its arena. With ReuseRecord, ReadAll still returns a payload
// whose rows and comments stay as read. The reader hands over a few bytes
// at a time, so the buffer moves under any text that aliases it.
func TestRecordsOutliveLaterLines(t *testing.T) {
	in, want := aliasPayload(3000)
	for _, reuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("Next/reuse=%v", reuse), func(t *testing.T) {
			if reuse {
				t.Skip("with ReuseRecord, Next's values are valid only until the next call")
			}
			d := NewDecoder(iotest.HalfReader(strings.NewReader(in)))
			got := &spec.Payload{}
			for {
				kind, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch kind {
				case KindHeader:
					h := d.Header()
					got.Sections = append(got.Sections, spec.Section{Tool: h.Tool, Fields: h.Fields, Meta: h.Meta})
				case KindRow:
					s := &got.Sections[len(got.Sections)-1]
					s.Rows = append(s.Rows, d.Row())
				case KindComment:
					s := &got.Sections[len(got.Sections)-1]
					s.Comments = append(s.Comments, d.Comment())
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rows or comments kept from Next changed as later lines were read (-want +got):\n%s", diff)
			}
		})
		t.Run(fmt.Sprintf("ReadAll/reuse=%v", reuse), func(t *testing.T) {
			d := NewDecoder(iotest.HalfReader(strings.NewReader(in)))
			d.ReuseRecord = reuse
			got, err := d.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ReadAll's payload (-want +got):\n%s", diff)
			}
		})
	}
}
