package streaming

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A header with as many meta pairs as the decoder's own room holds
// (inlineMeta) keeps their columns in that room, as it keeps the pairs in
// the header block: it decodes at the one allocation of a header with
// fewer pairs, and MetaColumn still tells where each value begins. Filling
// the room to the last place is what tells "more than the room" from "as
// much as the room" (header.go's nm > cap(cols)).
func TestHeaderMetaColumnsInDecoderRoom(t *testing.T) {
	for pairs := 0; pairs <= inlineMeta; pairs++ {
		var line strings.Builder
		line.WriteString("GCX1 tool=t fields=a,b")
		for k := range pairs - 1 {
			fmt.Fprintf(&line, " k%d=v%d", k, k)
		}
		if pairs > 0 {
			line.WriteString(" rows=0")
		}
		line.WriteByte('\n')
		header := []byte(line.String())
		for _, reuse := range []bool{false, true} {
			allocs := payloadAllocations(t, header, reuse)
			if want := 1.0; allocs > want {
				t.Errorf("%q reuse %v: %.0f allocations to decode a header of %d meta pairs, want at most %.0f",
					header, reuse, allocs, pairs, want)
			}
		}
		d := NewDecoder(bytes.NewReader(header))
		if kind, err := d.Next(); kind != KindHeader || err != nil {
			t.Fatalf("%q: Next = %v, %v, want a header", header, kind, err)
		}
		h := d.Header()
		if len(h.Meta) != pairs {
			t.Fatalf("%q: %d meta pairs, want %d", header, len(h.Meta), pairs)
		}
		for i, m := range h.Meta {
			col := d.MetaColumn(i)
			if got := string(header[col-1 : col-1+len(m.Value)]); got != m.Value {
				t.Errorf("%q: MetaColumn(%d) = %d, where %q stands, want the start of %q", header, i, col, got, m.Value)
			}
		}
	}
}
