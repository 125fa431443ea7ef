package tokens

import (
	"cmp"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/gcxwire/gcx/internal/gen"
)

// TestPropertyRankQueueOrder: a rankQueue hands out what it was given,
// lowest rank first and the lowest start of equal ranks first, whatever
// order the starts came in. Starts pushed below their bucket's last go to
// the bucket's heap, which the merge of real pieces has not been seen to
// reach, so the queue is checked here on its own.
func TestPropertyRankQueueOrder(t *testing.T) {
	gen.Check(t, 1000, func(t *rapid.T) {
		n := rapid.IntRange(1, 64).Draw(t, "n")
		starts := rapid.SliceOfNDistinct(rapid.Int32Range(0, int32(n-1)), 1, n, rapid.ID).Draw(t, "starts")
		type entry struct {
			rank  uint32
			start int32
		}
		var q rankQueue
		q.reset(n)
		var want []entry
		for _, s := range starts {
			e := entry{rapid.Uint32Range(0, 3).Draw(t, "rank"), s}
			q.push(e.rank, e.start)
			want = append(want, e)
		}
		slices.SortFunc(want, func(a, b entry) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.start, b.start)) })
		for i, w := range want {
			rank, start, ok := q.pop()
			if !ok || rank != w.rank || start != w.start {
				t.Fatalf("pop %d = %d, %d, %v; want %d, %d", i, rank, start, ok, w.rank, w.start)
			}
		}
		if _, _, ok := q.pop(); ok {
			t.Fatalf("the queue gives more than the %d entries pushed", len(want))
		}
	})
}
