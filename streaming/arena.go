package streaming

import "strings"

// An arena hands out the strings and slices of rows and comments read
// without ReuseRecord: strings the caller may keep, made without an
// allocation each. Text is copied into blocks of textBlock bytes and each
// string points into its block; a block is only ever appended to, so the
// bytes under a string never change. Rows' cells are cut from slabs of
// strings, each row's slice capped at its width, so that an append to it
// moves it out of the slab rather than into the next row.
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
}

const (
	// textBlock is the size of a text block: a few dozen rows of a
	// typical tool result, so a block costs one allocation per few dozen
	// rows.
	textBlock = 16 << 10
	// slabText bounds the text a slab's cells point to, and slabCells
	// the cells of a slab.
	slabText  = 64 << 10
	slabCells = 1024
)

// text returns a string holding a copy of b.
func (a *arena) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > a.block.Cap()-a.block.Len() {
		a.block = strings.Builder{}
		a.block.Grow(max(textBlock, 2*len(b)))
	}
	at := a.block.Len()
	a.block.Write(b)
	return a.block.String()[at:]
}

// cells returns a slice of n strings for a row of rowBytes bytes of text.
func (a *arena) cells(n, rowBytes int) []string {
	if n > cap(a.slab)-len(a.slab) {
		rows := min(slabCells/max(n, 1), slabText/max(rowBytes, 1))
		a.slab = make([]string, 0, n*max(rows, 2))
	}
	at := len(a.slab)
	a.slab = a.slab[:at+n]
	return a.slab[at : at+n : at+n]
}
