package tokens

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
		rank[k] = t.pair[int(p[k])<<8|int(p[k+1])]
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
			rank[at] = t.rank(p[start[at]:start[at+2]])
		} else {
			rank[at] = noRank
		}
		if at > 0 {
			rank[at-1] = t.rank(p[start[at-1]:start[at+1]])
		}
	}
	return parts
}

// merger holds the scratch space of mergeLarge, kept between pieces.
type merger struct {
	next, prev []int32  // the parts, as a linked list of their starts
	rank       []uint32 // rank[k]: the rank of the pair that starts at k
	queue      rankQueue
}

// maxKeptScratch bounds the scratch a cache keeps for the next piece, in
// bytes of piece; a longer piece's scratch is left to the collector.
const maxKeptScratch = 1 << 16

// mergeLarge counts the tokens of a piece of any length in O(n log n) time
// and 20 bytes of scratch a byte: the parts form a linked list, and the
// pairs that join into a token wait in a rankQueue, which hands them out
// in exactly the order the rescan would find them.
func (t *table) mergeLarge(p []byte, m *merger) int {
	n := len(p)
	if cap(m.next) < n {
		m.next, m.prev, m.rank = make([]int32, n), make([]int32, n), make([]uint32, n)
	}
	next, prev, rank := m.next[:n], m.prev[:n], m.rank[:n]
	q := &m.queue
	q.reset(n)
	for k := range n {
		next[k], prev[k] = int32(k+1), int32(k-1)
		rank[k] = noRank
		if k+1 < n {
			rank[k] = t.pair[int(p[k])<<8|int(p[k+1])]
			if rank[k] != noRank {
				q.push(rank[k], int32(k))
			}
		}
	}
	parts := n
	for {
		r, k, ok := q.pop()
		if !ok {
			break
		}
		if rank[k] != r {
			continue // an entry the heap of a bucket kept after it changed
		}
		// Join part k with the part after it, then re-rank the pairs the
		// joined part is in.
		j := next[k]
		after := next[j]
		next[k] = after
		if int(after) < n {
			prev[after] = k
		}
		parts--
		q.remove(rank[j], j)
		rank[j] = noRank
		rank[k] = noRank
		if int(after) < n {
			rank[k] = t.rank(p[k:next[after]])
			q.push(rank[k], k)
		}
		if b := prev[k]; b >= 0 {
			q.remove(rank[b], b)
			rank[b] = t.rank(p[b:after])
			q.push(rank[b], b)
		}
	}
	if n > maxKeptScratch {
		*m = merger{}
	}
	return parts
}
