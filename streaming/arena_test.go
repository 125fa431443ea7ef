package streaming

import (
	"fmt"
	"testing"
)

// An arena's slabs start at firstSlabRows rows and double, so that a
// decoder of a few rows pays for a few rows and a long stream for at most
// twice its cells: after any number of rows, the cells of every slab cut so
// far are at most twice the cells handed out, plus the first slab's. A
// slab holds at most slabCells cells, or two rows of a row wider than
// half of that.
func TestSlabsDouble(t *testing.T) {
	for _, c := range []struct {
		width, rowBytes int
	}{
		{1, 10},
		{2, 40},
		{3, 100},
		{8, 200},
		{100, 1000},
		{600, 2000},
		{4, 4 << 10},
		{2, 40 << 10},
		{2, 100 << 10},
	} {
		t.Run(fmt.Sprintf("%dx%dB", c.width, c.rowBytes), func(t *testing.T) {
			var a arena
			cut, used := 0, 0
			for row := 1; row <= 3000; row++ {
				fresh := c.width > cap(a.slab)-len(a.slab)
				cells := a.cells(c.width, c.rowBytes)
				if len(cells) != c.width || cap(cells) != c.width {
					t.Fatalf("row %d: cells of len %d, cap %d, want %d", row, len(cells), cap(cells), c.width)
				}
				used += c.width
				if fresh {
					cut += cap(a.slab)
					if most := max(slabCells, 2*c.width); cap(a.slab) > most {
						t.Fatalf("row %d: a slab of %d cells, want at most %d", row, cap(a.slab), most)
					}
				}
				if most := 2*used + firstSlabRows*c.width; cut > most {
					t.Fatalf("row %d: %d cells cut for %d handed out, want at most %d", row, cut, used, most)
				}
			}
		})
	}
}
