package streaming

import "strings"

// An arena hands out the slices of rows read without ReuseRecord, and the
// text of those whose escapes were decoded (the text of the others points
// into the decoder's sealed buffer): strings the caller may keep, made
// without an allocation each. Text is copied into blocks and each string
// points into its block; a block is only ever appended to, so the bytes
// under a string never change. Rows' cells are cut from slabs of strings,
// each row's slice capped at its width, so that an append to it moves it
// out of the slab rather than into the next row.
//
// Blocks and slabs start small and double up to textBlock bytes and
// slabText bytes of rows, so that a decoder of a few rows, the common tool
// result, pays for a few rows and not for a long stream.
//
// The price is that a row kept alive keeps its block and its slab alive:
// at most textBlock bytes of text (twice the row, for a longer row) and a
// slab's cells, which point into at most slabText bytes of other rows. A
// caller keeping a few rows of a long stream and dropping the rest can
// strings.Clone what it keeps.
type arena struct {
	// block is the current text block. A strings.Builder grows without
	// zeroing what it will overwrite, and never moves what it holds while
	// it has room, which text makes sure of.
	block strings.Builder
	slab  []string // the current slab of cells; len is what is used

	nextBlock int // bytes of the next block; 0: firstBlock
	slabRows  int // rows the next slab is cut for, at most (firstSlabRows at least)
}

const (
	// textBlock is the largest text block: a few dozen rows of a typical
	// tool result, so a long stream costs one allocation per few dozen
	// rows.
	textBlock = 16 << 10
	// slabText bounds the text a slab's cells point to, and slabCells
	// the cells of a slab.
	slabText  = 64 << 10
	slabCells = 1024
	// firstBlock sizes the first block, and firstSlabRows the first
	// slab: a small tool result's worth.
	firstBlock    = 1 << 10
	firstSlabRows = 8
)

// text returns a string holding a copy of b.
func (a *arena) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > a.block.Cap()-a.block.Len() {
		size := a.nextBlock
		if size == 0 {
			size = firstBlock
		}
		a.nextBlock = min(2*size, textBlock)
		a.block = strings.Builder{}
		a.block.Grow(max(size, 2*len(b)))
	}
	at := a.block.Len()
	a.block.Write(b)
	return a.block.String()[at:]
}

// cells returns a slice of n strings for a row of rowBytes bytes of text.
// It stays small enough to inline: it runs once a row.
func (a *arena) cells(n, rowBytes int) []string {
	if n > cap(a.slab)-len(a.slab) {
		rows := min(slabCells/max(n, 1), slabText/max(rowBytes, 1), max(a.slabRows, firstSlabRows))
		a.slabRows = 2 * rows
		a.slab = make([]string, 0, n*max(rows, 2))
	}
	at := len(a.slab)
	a.slab = a.slab[:at+n]
	return a.slab[at : at+n : at+n]
}
