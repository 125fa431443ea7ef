package jsonmap_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gcxwire/gcx/jsonmap"
	"github.com/gcxwire/gcx/spec"
)

// growingText is an array of rows whose objects and arrays, at every
// depth, each hold more members or elements than the one before them at
// that depth, their last a container again: the parser's slice for a
// container outgrows its room (the hint of the last one, or an arena's
// scratch) while the value it fills in place, a member's or an
// element's, is being read.
func growingText(rows int) string {
	var b strings.Builder
	var value func(depth, n int)
	value = func(depth, n int) {
		if depth == 0 {
			b.WriteString(`"s` + strconv.Itoa(n) + `"`)
			return
		}
		if depth%2 == 0 {
			b.WriteByte('[')
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				if i == n-1 {
					value(depth-1, n+1)
				} else {
					b.WriteString(strconv.Itoa(i))
				}
			}
			b.WriteByte(']')
			return
		}
		b.WriteByte('{')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":`)
			if i == n-1 {
				value(depth-1, n+1)
			} else {
				b.WriteString(`"v` + strconv.Itoa(i) + `"`)
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte('[')
	for row := range rows {
		if row > 0 {
			b.WriteByte(',')
		}
		value(5, 1+row*3)
	}
	b.WriteByte(']')
	return b.String()
}

// TestInPlaceValuesSurviveGrowth: a text of containers that outgrow their
// room while their last member or element is being read parses to itself
// (its compact form is the text), and the two passes, read ahead in
// batches of every size or not, write what the in-memory encoder writes.
func TestInPlaceValuesSurviveGrowth(t *testing.T) {
	text := growingText(12)
	v, err := jsonmap.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(v.AppendCompact(nil)); got != text {
		t.Fatalf("Parse then AppendCompact:\n%s\nwant\n%s", got, text)
	}
	checkSameAsInMemory(t, "t", []byte(text), spec.DefaultLimits)
	skipOneCore(t)
	for _, size := range [][2]int{{1, 1 << 20}, {2, 1 << 20}, {256, 16}} {
		restore := jsonmap.ReadAheadFor(size[0], size[1])
		checkSameAsInMemory(t, "t", []byte(text), spec.DefaultLimits)
		restore()
	}
}
