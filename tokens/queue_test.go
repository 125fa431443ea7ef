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

// TestRankQueueHeapOrder: starts pushed below their bucket's last come out
// of the bucket's heap in increasing order however many there are, with
// those on the list. The property above rarely draws a heap of more than
// a few starts; these orders fill heaps of every depth up to six.
func TestRankQueueHeapOrder(t *testing.T) {
	descending := func(n int) []int32 {
		s := make([]int32, n)
		for k := range s {
			s[k] = int32(n - 1 - k)
		}
		return s
	}
	// zigzag: the last start first, to the list, then the others, all to
	// the heap, from both ends inward.
	zigzag := func(n int) []int32 {
		s := []int32{int32(n - 1)}
		for lo, hi := 0, n-2; lo <= hi; lo, hi = lo+1, hi-1 {
			s = append(s, int32(lo))
			if lo != hi {
				s = append(s, int32(hi))
			}
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		starts []int32
	}{
		{"five descending", descending(5)},
		{"64 descending", descending(64)},
		{"100 from both ends", zigzag(100)},
		{"list then heap", append([]int32{3, 7, 9}, descending(3)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := int(slices.Max(tc.starts)) + 1
			var q rankQueue
			q.reset(n)
			for _, s := range tc.starts {
				q.push(1, s)
			}
			want := slices.Sorted(slices.Values(tc.starts))
			for i, w := range want {
				rank, start, ok := q.pop()
				if !ok || rank != 1 || start != w {
					t.Fatalf("pop %d = %d, %d, %v; want 1, %d", i, rank, start, ok, w)
				}
			}
			if _, _, ok := q.pop(); ok {
				t.Fatalf("the queue gives more than the %d starts pushed", len(want))
			}
		})
	}
}
