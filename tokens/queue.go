package tokens

import "math/bits"

// A rankQueue holds the starts of the pairs that join into a token and
// hands out the one of lowest rank, the lowest start of equal ranks first:
// the join tiktoken's rescan would pick. It keeps a bucket per rank, found
// in O(1) through a three-level bitmap of the ranks that have entries;
// a heap of a million entries costs several times as much, nearly all of
// it in cache misses.
//
// A bucket is a doubly linked list of starts in increasing order, threaded
// through the nodes of the starts, so a start leaves its bucket at once
// when its pair changes. A
// start pushed below its bucket's last goes to a small heap beside the
// list instead; it is rare (no test input does it) and left there when
// its pair changes, to be skipped when it comes out.
type rankQueue struct {
	top    uint64
	middle [64]uint64
	low    [4096]uint64

	nodes   []node // after and before link the buckets; before is notListed off them
	buckets []rankBucket
	bucket  []int32 // bucket[rank]: index into buckets plus one, 0 for none
}

type rankBucket struct {
	rank        uint32
	first, last int32 // the list; -1 when empty
	heap        []int32
}

const (
	// maxRank bounds the ranks a rankQueue holds: 2^18, above both tables.
	maxRank = 1 << 18
	// notListed marks a start on no bucket list.
	notListed = -2
)

// reset empties the queue for a piece of n bytes.
func (q *rankQueue) reset(n int) {
	for _, b := range q.buckets {
		q.bucket[b.rank] = 0
	}
	q.buckets = q.buckets[:0]
	if q.bucket == nil {
		q.bucket = make([]int32, maxRank)
	}
	if cap(q.nodes) < n {
		// An eighth more, so that a long piece a few bytes longer than
		// the last one (the same piece in the other text of auto mode)
		// fits.
		q.nodes = make([]node, n, n+n/8)
	}
	q.nodes = q.nodes[:n]
	for k := range q.nodes {
		q.nodes[k].before = notListed
	}
}

// push adds the pair at start; a pair of noRank is not added.
func (q *rankQueue) push(rank uint32, start int32) {
	if rank == noRank {
		return
	}
	bi := q.bucket[rank]
	if bi == 0 {
		q.buckets = append(q.buckets, rankBucket{rank: rank, first: -1, last: -1, heap: nil})
		bi = int32(len(q.buckets))
		q.bucket[rank] = bi
	}
	b := &q.buckets[bi-1]
	if b.first < 0 && len(b.heap) == 0 {
		q.mark(rank)
	}
	switch {
	case b.last < 0:
		b.first, b.last = start, start
		q.nodes[start].after, q.nodes[start].before = -1, -1
	case start > b.last:
		q.nodes[b.last].after = start
		q.nodes[start].after, q.nodes[start].before = -1, b.last
		b.last = start
	default:
		b.heap = pushHeap(b.heap, start)
	}
}

// remove takes the pair at start off its bucket's list, if it is on one.
func (q *rankQueue) remove(rank uint32, start int32) {
	node := &q.nodes[start]
	before := node.before
	if rank == noRank || before == notListed {
		return
	}
	b := &q.buckets[q.bucket[rank]-1]
	after := node.after
	if before >= 0 {
		q.nodes[before].after = after
	} else {
		b.first = after
	}
	if after >= 0 {
		q.nodes[after].before = before
	} else {
		b.last = before
	}
	node.before = notListed
	if b.first < 0 && len(b.heap) == 0 {
		q.unmark(rank)
	}
}

// pop removes and returns the lowest entry; ok is false when there is none.
func (q *rankQueue) pop() (rank uint32, start int32, ok bool) {
	if q.top == 0 {
		return 0, 0, false
	}
	i := bits.TrailingZeros64(q.top)
	j := i<<6 | bits.TrailingZeros64(q.middle[i])
	rank = uint32(j<<6 | bits.TrailingZeros64(q.low[j]))
	b := &q.buckets[q.bucket[rank]-1]
	if b.first >= 0 && (len(b.heap) == 0 || b.first < b.heap[0]) {
		start = b.first
		q.remove(rank, start)
		return rank, start, true
	}
	start = b.heap[0]
	b.heap = popHeap(b.heap)
	if b.first < 0 && len(b.heap) == 0 {
		q.unmark(rank)
	}
	return rank, start, true
}

func (q *rankQueue) mark(rank uint32) {
	j := rank >> 6
	q.low[j] |= 1 << (rank & 63)
	q.middle[j>>6] |= 1 << (j & 63)
	q.top |= 1 << (j >> 6)
}

func (q *rankQueue) unmark(rank uint32) {
	j := rank >> 6
	if q.low[j] &^= 1 << (rank & 63); q.low[j] != 0 {
		return
	}
	if q.middle[j>>6] &^= 1 << (j & 63); q.middle[j>>6] != 0 {
		return
	}
	q.top &^= 1 << (j >> 6)
}

func pushHeap(h []int32, v int32) []int32 {
	h = append(h, v)
	k := len(h) - 1
	for k > 0 {
		parent := (k - 1) / 2
		if h[parent] <= v {
			break
		}
		h[k] = h[parent]
		k = parent
	}
	h[k] = v
	return h
}

func popHeap(h []int32) []int32 {
	last := len(h) - 1
	v := h[last]
	h = h[:last]
	k := 0
	for {
		c := 2*k + 1
		if c >= last {
			break
		}
		if c+1 < last && h[c+1] < h[c] {
			c++
		}
		if v <= h[c] {
			break
		}
		h[k] = h[c]
		k = c
	}
	if last > 0 {
		h[k] = v
	}
	return h
}
