package jsonmap

import "github.com/gcxwire/gcx/internal/jsontext"

// Reading a large array's elements ahead.
//
// Reading JSON is most of the two passes' work over a large text (each
// element is read, decoded and built as a Value), and what is done with
// an element (a table's plan, a row written) is the rest. On a machine
// with more than one core, elementsAhead reads the elements on a goroutine
// of their own, a batch at a time, while the caller's goroutine takes the
// batch read before: the two overlap, and the result is the same — the
// same elements in the same order, and the error that stopped the reading
// after the elements before it.
//
// Memory stays bounded by a multiple of the longest element: a batch
// closes once its texts pass batchBytes or it holds batchElems elements,
// and aheadBatches batches exist, which the two goroutines hand back and
// forth.

// readAheadFrom is the size of text from which its arrays are read ahead:
// below it, starting a goroutine per array costs more than it saves.
var readAheadFrom int64 = 1 << 20

// The bounds of a batch, and how many there are.
var (
	batchBytes = 64 << 10
	batchElems = 256
)

const aheadBatches = 3

// aheadBatch is elements read ahead, with the arenas their texts, members
// and elements live in, and how the reading of the array ended after
// them, if it did.
type aheadBatch struct {
	vals  []Value
	texts []byte
	arena valueArena
	err   error // the error that stopped the reading, after vals
	end   bool  // the array's ']' came after vals
}

// elementsAhead is elements, reading the elements on another goroutine.
func (s *streamReader) elementsAhead(f func(i int, v *Value) error) (int, error) {
	free := make(chan *aheadBatch, aheadBatches)
	full := make(chan *aheadBatch, aheadBatches) // never full: there are no more batches
	for range aheadBatches {
		free <- &aheadBatch{}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { s.r.Arena, s.p.arena = nil, nil }()
		for {
			var b *aheadBatch
			select {
			case <-stop:
				return
			case b = <-free:
			}
			b.vals, b.texts, b.err, b.end = b.vals[:0], b.texts[:0], nil, false
			b.arena.reset()
			s.r.Arena, s.p.arena = &b.texts, &b.arena
			for len(b.vals) < batchElems && len(b.texts) < batchBytes {
				k, text, err := s.nextText()
				if err != nil {
					b.err = err
					break
				}
				if k == jsontext.ArrayEnd {
					b.end = true
					break
				}
				// Read in place, as parser.value reads an element.
				b.vals = append(b.vals, Value{})
				if err := s.valueTo(k, text, &b.vals[len(b.vals)-1]); err != nil {
					b.vals = b.vals[:len(b.vals)-1]
					b.err = err
					break
				}
			}
			full <- b
			if b.err != nil || b.end {
				return
			}
		}
	}()
	n := 0
	for {
		b := <-full
		for i := range b.vals {
			if err := f(n, &b.vals[i]); err != nil {
				// The reader stops at its next batch; the caller
				// gives up on the text, but the reader is its own
				// again only once the goroutine is done.
				close(stop)
				<-done
				return n, err
			}
			n++
		}
		if b.err != nil || b.end {
			<-done
			return n, b.err
		}
		free <- b
	}
}
