package tokens

import "sync"

// Byte pair merging. A piece starts as one part per byte; while some two
// adjacent parts join into a token, the pair whose token has the lowest
// rank joins, the leftmost of equal ranks first. The piece's token count is
// the number of parts left. A piece that is a token itself counts 1 without
// merging, as tiktoken does.

// smallPiece is the longest piece mergeSmall takes. It rescans all parts
// for the lowest rank after every join, which costs the square of the
// length but nothing to set up, and is the fastest way for short pieces.
const smallPiece = 48

// mergeSmall counts the tokens of a piece of 2 to smallPiece bytes.
func (t *table) mergeSmall(p []byte) int {
	// start[k] is where part k begins; rank[k] is the rank of parts k and
	// k+1 joined.
	var start [smallPiece + 1]int32
	var rank [smallPiece]uint32
	n := len(p)
	for k := 0; k < n; k++ {
		start[k] = int32(k)
	}
	start[n] = int32(n)
	for k := 0; k+1 < n; k++ {
		rank[k] = t.Pair[int(p[k])<<8|int(p[k+1])]
	}
	parts := n
	for parts > 1 {
		best, at := noRank, -1
		for k := 0; k < parts-1; k++ {
			if rank[k] < best {
				best, at = rank[k], k
			}
		}
		if at < 0 {
			break
		}
		// Join parts at and at+1, then rank the pairs the new part is in.
		copy(start[at+1:parts], start[at+2:parts+1])
		copy(rank[at+1:parts-1], rank[at+2:parts])
		parts--
		if at+2 <= parts {
			rank[at] = t.Rank(p[start[at]:start[at+2]])
		} else {
			rank[at] = noRank
		}
		if at > 0 {
			rank[at-1] = t.Rank(p[start[at-1]:start[at+1]])
		}
	}
	return parts
}

// merger holds the scratch space of mergeLarge, kept between pieces.
type merger struct {
	queue rankQueue // and its nodes, one per byte of the piece
}

// A node is what mergeLarge keeps for the part that starts at one byte of
// its piece, all in one place so that a join touches few cache lines.
type node struct {
	next, prev    int32  // the parts, as a linked list of their starts
	rank          uint32 // the rank of the pair this part starts
	after, before int32  // the rankQueue's list of the pairs of that rank
}

// maxKeptScratch bounds the scratch a cache keeps for the next piece, in
// bytes of piece. Longer pieces share their nodes through largeNodes, so
// that the two counts of auto mode, which hold the same long piece, reuse
// one array, and the collector may take it back.
const maxKeptScratch = 1 << 16

var largeNodes sync.Pool // of *[]node

// mergeLarge counts the tokens of a piece of any length in O(n log n) time
// and 20 bytes of scratch a byte: the parts form a linked list, and the
// pairs that join into a token wait in a rankQueue, which hands them out
// in exactly the order the rescan would find them.
func (t *table) mergeLarge(p []byte, m *merger) int {
	n := len(p)
	q := &m.queue
	kept := q.nodes
	if n > maxKeptScratch {
		q.nodes = nil
		if large, _ := largeNodes.Get().(*[]node); large != nil {
			q.nodes = *large
		}
	}
	q.reset(n)
	nodes := q.nodes
	for k := range nodes {
		nodes[k].next, nodes[k].prev, nodes[k].rank = int32(k+1), int32(k-1), noRank
		if k+1 < n {
			nodes[k].rank = t.Pair[int(p[k])<<8|int(p[k+1])]
			q.push(nodes[k].rank, int32(k))
		}
	}
	parts := n
	for {
		r, k, ok := q.pop()
		if !ok {
			break
		}
		part := &nodes[k]
		if part.rank != r {
			continue // an entry the heap of a bucket kept after it changed
		}
		// Join part k with the part after it, then re-rank the pairs the
		// joined part is in.
		j := part.next
		joined := &nodes[j]
		after := joined.next
		part.next = after
		if int(after) < n {
			nodes[after].prev = k
		}
		parts--
		q.remove(joined.rank, j)
		joined.rank = noRank
		part.rank = noRank
		if int(after) < n {
			part.rank = t.Rank(p[k:nodes[after].next])
			q.push(part.rank, k)
		}
		if b := part.prev; b >= 0 {
			q.remove(nodes[b].rank, b)
			nodes[b].rank = t.Rank(p[b:after])
			q.push(nodes[b].rank, b)
		}
	}
	if n > maxKeptScratch {
		large := q.nodes[:0]
		largeNodes.Put(&large)
		q.nodes = kept
	}
	return parts
}
